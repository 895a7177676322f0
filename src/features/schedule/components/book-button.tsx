import { Button } from '@/components/ui/button';
import { WAITLIST_MESSAGES, waitlistPlace, type WaitlistSpot } from '@/lib/booking/waitlist';
import { isWaitlistClosed } from '@/lib/rules/waitlist';
import type { ClassRow } from '@/lib/supabase';
import type { ClassLock } from './class-card';

/** A full class's waitlist, for a signed-in member (issue 9). */
export type WaitlistControl = {
  /** The member's place, when they are on this class's waitlist. */
  spot: WaitlistSpot | undefined;
  /** This class's join or leave request is in flight. */
  pending: boolean;
  /** Some waitlist request is in flight: one at a time. */
  busy: boolean;
  now: Date;
  onJoin: () => void;
  onLeave: () => void;
};

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

function WaitlistAction({ cls, spot, pending, busy, now, onJoin, onLeave }: WaitlistControl & { cls: ClassRow }) {
  if (spot) {
    return (
      <div className="space-y-2">
        <p className="text-center text-sm font-semibold text-slate-800">
          {waitlistPlace(spot)}
          {spot.isClosed && ` · ${WAITLIST_MESSAGES.closed}`}
        </p>
        <Button
          variant="outline"
          className="w-full"
          loading={pending}
          disabled={busy}
          aria-label={pending ? undefined : `${WAITLIST_MESSAGES.leave}: ${cls.name}`}
          onClick={onLeave}
        >
          {pending ? WAITLIST_MESSAGES.leaving : WAITLIST_MESSAGES.leave}
        </Button>
      </div>
    );
  }
  if (isWaitlistClosed(cls, now)) {
    return (
      <Button className="w-full" disabled>
        Fully Booked · {WAITLIST_MESSAGES.closed}
      </Button>
    );
  }
  return (
    <Button className="w-full" loading={pending} disabled={busy} onClick={onJoin}>
      {pending ? WAITLIST_MESSAGES.joining : WAITLIST_MESSAGES.join}
    </Button>
  );
}
