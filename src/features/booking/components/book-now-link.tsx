import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import type { ScheduleClass } from '../api/get-class-schedule';

/**
 * A schedule card's way to the booking form, for a class the server lets this viewer book, or
 * where a parent chooses who is coming (`label`: "Book your children" once their own place is booked).
 */
export function BookNowLink({ cls, label = 'Book Now' }: { cls: ScheduleClass; label?: string }) {
  return (
    <Link to={paths.book.href(cls.id)} className={buttonClasses({ className: 'w-full' })}>
      {label}
    </Link>
  );
}
