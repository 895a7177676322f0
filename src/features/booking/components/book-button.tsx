import { Button } from '@/components/ui/button';
import type { ScheduleClass } from '../api/get-class-schedule';
import { isBooked, isHeld } from '../lib/class-facts';
import { WaitlistAction, type WaitlistControl } from './waitlist-action';

type Props = {
  cls: ScheduleClass;
  /** This class's booking request is in flight. */
  pending: boolean;
  /** Some booking request is in flight: one at a time. */
  busy: boolean;
  onBook: () => void;
  /** Offer the waitlist when the class is full (signed-in schedules). */
  waitlist?: WaitlistControl;
};

/**
 * "Book Now", or why it cannot be pressed (said in words on the button), or the waitlist when
 * full: all from the server's facts about this class for this member.
 */
export function BookButton({ cls, pending, busy, onBook, waitlist }: Props) {
  const disabled = (label: string, variant: 'outline' | 'primary' = 'primary') => (
    <Button variant={variant} className="w-full" disabled>
      {label}
    </Button>
  );
  if (isBooked(cls)) return disabled('Booked', 'outline');
  if (isHeld(cls)) return disabled('Payment pending', 'outline');
  if (cls.refusal === 'class_started') return disabled('Class has started', 'outline');
  if (cls.refusal === 'class_locked') return disabled('Locked');
  if (cls.refusal === 'class_full') return waitlist ? <WaitlistAction cls={cls} {...waitlist} /> : disabled('Fully Booked');
  if (!cls.bookable) return disabled('Not available');
  return (
    <Button className="w-full" loading={pending} disabled={busy} onClick={onBook}>
      {pending ? 'Booking...' : 'Book Now'}
    </Button>
  );
}
