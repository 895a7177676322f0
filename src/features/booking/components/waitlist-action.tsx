import { Button } from '@/components/ui/button';
import type { WaitlistActions } from '../api/use-waitlist-actions';
import type { ScheduleClass } from '../api/get-class-schedule';
import { WAITLIST_MESSAGES, WAITLIST_NOT_OFFERED, waitlistPlace } from '../lib/booking-messages';

type Props = { cls: ScheduleClass; actions: WaitlistActions; now: Date };

/**
 * What a full class offers a signed-in member who has not booked it, from the server's facts:
 * their place and Leave Waitlist, Join Waitlist, or that the waitlist has closed. The card's
 * "Fully Booked" badge stays above it, so fullness is never said by colour alone.
 */
export function WaitlistAction({ cls, actions, now }: Props) {
  const pending = actions.pendingClassId === cls.id;
  // The server's cut-off instant; `now` ticks every minute so the card closes on time while it is open.
  const closed = cls.waitlist_refusal === 'waitlist_closed' || now.getTime() >= new Date(cls.waitlist_closes_at).getTime();
  if (cls.my_waitlist_position !== null) {
    return (
      <div className="space-y-2">
        <p className="text-center text-sm font-semibold text-slate-800">
          {waitlistPlace(cls.my_waitlist_position, cls.waitlist_size)}
          {closed && ` · ${WAITLIST_MESSAGES.closed}`}
        </p>
        <Button
          variant="outline"
          className="w-full"
          loading={pending}
          disabled={actions.busy}
          aria-label={pending ? undefined : `${WAITLIST_MESSAGES.leave}: ${cls.name}`}
          onClick={() => void actions.onLeave(cls)}
        >
          {pending ? WAITLIST_MESSAGES.leaving : WAITLIST_MESSAGES.leave}
        </Button>
      </div>
    );
  }
  if (closed) {
    return (
      <Button className="w-full" disabled>
        Fully Booked · {WAITLIST_MESSAGES.closed}
      </Button>
    );
  }
  if (!cls.can_join_waitlist) {
    const reason = cls.waitlist_refusal ? WAITLIST_NOT_OFFERED[cls.waitlist_refusal] : undefined;
    return (
      <div className="space-y-2">
        {reason && <p className="text-center text-sm text-slate-700">{reason}</p>}
        <Button className="w-full" disabled>
          Fully Booked
        </Button>
      </div>
    );
  }
  return (
    <Button className="w-full" loading={pending} disabled={actions.busy} onClick={() => void actions.onJoin(cls)}>
      {pending ? WAITLIST_MESSAGES.joining : WAITLIST_MESSAGES.join}
    </Button>
  );
}
