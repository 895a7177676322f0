import { useCallback, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useLoaded } from '@/hooks/use-loaded';
import type { WaitlistControl } from '../components/book-button';
import { getWaitlistSpots, joinWaitlist, leaveWaitlist, WAITLIST_MESSAGES, waitlistErrorMessage, type WaitlistSpot } from '@/lib/booking/waitlist';

const loadSpots = () => getWaitlistSpots();

/**
 * The member's waitlist places on a schedule page: read once (one `my_waitlist` call for every
 * card), then changed by Join and Leave, one request at a time (a double tap sends one).
 */
export function useWaitlist(memberId: string | null) {
  const { state, update } = useLoaded(memberId, loadSpots);
  const inFlight = useRef(false);
  const [pendingClassId, setPendingClassId] = useState<string | null>(null);

  const spotOf = useCallback(
    (classId: string): WaitlistSpot | undefined => (state.status === 'ready' ? state.data.find((s) => s.classId === classId) : undefined),
    [state],
  );

  const run = useCallback(async (classId: string, action: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPendingClassId(classId);
    try {
      await action();
    } finally {
      inFlight.current = false;
      setPendingClassId(null);
    }
  }, []);

  const join = useCallback(
    (classId: string) =>
      run(classId, async () => {
        const outcome = await joinWaitlist(classId);
        if (!outcome.ok) {
          toast.error(waitlistErrorMessage(outcome.error, WAITLIST_MESSAGES.joinFailed));
          return;
        }
        update((spots) => [...spots.filter((s) => s.classId !== classId), outcome.value]);
        toast.success(WAITLIST_MESSAGES.joined(outcome.value));
      }),
    [run, update],
  );

  const leave = useCallback(
    (classId: string) =>
      run(classId, async () => {
        if (!window.confirm(WAITLIST_MESSAGES.confirmLeave)) return;
        const outcome = await leaveWaitlist(classId);
        // Not on it any more (promoted, or left in another tab): the place is gone either way.
        if (outcome.ok || outcome.error.hint === 'not_on_waitlist') update((spots) => spots.filter((s) => s.classId !== classId));
        if (outcome.ok) toast.success(WAITLIST_MESSAGES.left);
        else toast.error(waitlistErrorMessage(outcome.error, WAITLIST_MESSAGES.leaveFailed));
      }),
    [run, update],
  );

  /** What a full class's card offers; undefined until the places are known (or when signed out). */
  const controlFor = (classId: string, now: Date): WaitlistControl | undefined =>
    state.status === 'ready'
      ? {
          spot: spotOf(classId),
          pending: pendingClassId === classId,
          busy: pendingClassId !== null,
          now,
          onJoin: () => void join(classId),
          onLeave: () => void leave(classId),
        }
      : undefined;

  return { controlFor };
}
