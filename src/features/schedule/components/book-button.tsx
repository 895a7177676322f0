import { Button } from '@/components/ui/button';
import type { ClassRow } from '@/lib/supabase';
import type { ClassLock } from './class-card';
import { WaitlistAction, type WaitlistControl } from './waitlist-action';

type Props = {
  cls: ClassRow;
  lock: ClassLock;
  booked: boolean;
  /** This class's booking request is in flight. */
  pending: boolean;
  /** Some booking request is in flight: one at a time. */
  busy: boolean;
  onBook: () => void;
  /** Offer the waitlist when the class is full (signed-in schedules). */
  waitlist?: WaitlistControl;
};

/** "Book Now", or why it cannot be pressed (said in words on the button), or the waitlist when full. */
export function BookButton({ cls, lock, booked, pending, busy, onBook, waitlist }: Props) {
  if (booked) {
    return (
      <Button variant="outline" className="w-full" disabled>
        Booked
      </Button>
    );
  }
  if (lock.locked) {
    return (
      <Button className="w-full" disabled>
        Locked
      </Button>
    );
  }
  if (cls.spots_left <= 0) {
    return waitlist ? (
      <WaitlistAction cls={cls} {...waitlist} />
    ) : (
      <Button className="w-full" disabled>
        Fully Booked
      </Button>
    );
  }
  return (
    <Button className="w-full" loading={pending} disabled={busy} onClick={onBook}>
      {pending ? 'Booking...' : 'Book Now'}
    </Button>
  );
}
