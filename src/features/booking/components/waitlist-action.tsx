import { Button } from '@/components/ui/button';
import { WAITLIST_MESSAGES, waitlistPlace, type WaitlistSpot } from '../api/waitlist';
import type { ScheduleClass } from '../api/get-class-schedule';

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

/**
 * What a full class offers a signed-in member who has not booked it: their place and Leave
 * Waitlist, Join Waitlist, or that the waitlist has closed (the cut-off said in words). The card's
 * "Fully Booked" badge stays above it, so fullness is never said by colour alone.
 */
export function WaitlistAction({ cls, spot, pending, busy, now, onJoin, onLeave }: WaitlistControl & { cls: Pick<ScheduleClass, 'name' | 'waitlist_closes_at'> }) {
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
  // The server's cut-off; `now` ticks every minute so the card closes on time while it is open.
  if (now.getTime() >= new Date(cls.waitlist_closes_at).getTime()) {
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
