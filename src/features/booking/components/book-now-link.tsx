import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button';
import { paths } from '@/config/paths';
import type { ScheduleClass } from '../api/get-class-schedule';

/** A schedule card's way to the booking form, for a class the server lets this viewer book. */
export function BookNowLink({ cls }: { cls: ScheduleClass }) {
  return (
    <Link to={paths.book.href(cls.id)} className={buttonClasses({ className: 'w-full' })}>
      Book Now
    </Link>
  );
}
