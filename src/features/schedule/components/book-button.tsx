import { Button } from '@/components/ui/button';
import type { ClassRow } from '@/lib/supabase';
import type { ClassLock } from './class-card';

type Props = {
  cls: ClassRow;
  lock: ClassLock;
  booked: boolean;
  /** This class's booking request is in flight. */
  pending: boolean;
  /** Some booking request is in flight: one at a time. */
  busy: boolean;
  onBook: () => void;
};

/** "Book Now", or why it cannot be pressed (said in words on the button). */
export function BookButton({ cls, lock, booked, pending, busy, onBook }: Props) {
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
    return (
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
