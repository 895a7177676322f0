import { useCallback, useEffect, useRef, useState } from 'react';
import toast from 'react-hot-toast';
import { useLoaded } from '@/hooks/use-loaded';
import type { ClassRow } from '@/lib/supabase';
import type { WaitlistControl } from '../components/waitlist-action';
import { getWaitlistSpots, joinWaitlist, leaveWaitlist, WAITLIST_MESSAGES, waitlistErrorMessage, type WaitlistSpot } from '../api/waitlist';

const loadSpots = () => getWaitlistSpots();

/** Said when the member's place turned into a booking while the page was open (the email says it too). */
export const promotedMessage = (className: string) => `A spot opened: you're booked on ${className}.`;

/**
 * A freed spot moves a class row twice in one transaction (the cancelled booking, then the
 * promoted one), and realtime delivers both: places are re-read once the row has settled.
 */
export const REFRESH_DELAY_MS = 300;

type Options = {
  /**
   * Reads the member's bookings again and says whether they now hold `classId`: a place that is
   * gone while the page is open was either turned into a booking (promotion) or removed.
   */
  isBooked?: (classId: string) => Promise<boolean>;
};

/**
 * The member's waitlist places on a schedule page: read once (one `my_waitlist` call for every
 * card), then changed by Join and Leave, one request at a time (a double tap sends one). When
 * realtime moves the spots of a class the member waits for (`classChanged`), the places are read
 * again (one request), so a place moves up, or becomes a booking, without a reload.
 */
export function useWaitlist(memberId: string | null, options: Options = {}) {
  const { state, update } = useLoaded(memberId, loadSpots);
  const inFlight = useRef(false);
  const [pendingClassId, setPendingClassId] = useState<string | null>(null);

  // Read from realtime callbacks, which outlive a render.
  const spots = useRef<WaitlistSpot[] | null>(null);
  const isBooked = useRef(options.isBooked);
  useEffect(() => {
    spots.current = state.status === 'ready' ? state.data : null;
    isBooked.current = options.isBooked;
  });
  /** Bumped by every join and leave: a re-read that overlapped one is stale. */
  const version = useRef(0);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const changedNames = useRef(new Map<string, string>());
  useEffect(() => () => clearTimeout(refreshTimer.current), []);

  const spotOf = useCallback(
    (classId: string): WaitlistSpot | undefined => (state.status === 'ready' ? state.data.find((s) => s.classId === classId) : undefined),
    [state],
  );

  const run = useCallback(async (classId: string, action: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    version.current += 1;
    setPendingClassId(classId);
    try {
      await action();
    } finally {
      inFlight.current = false;
      version.current += 1;
      setPendingClassId(null);
    }
  }, []);

  const refresh = useCallback(async (): Promise<void> => {
    const before = spots.current;
    if (!before) return;
    const started = version.current;
    let fresh: WaitlistSpot[];
    try {
      fresh = await getWaitlistSpots();
    } catch {
      return; // The places shown stay; the next change or visit reads them again.
    }
    if (inFlight.current || version.current !== started) return;
    update(() => fresh);
    const names = new Map(changedNames.current);
    changedNames.current.clear();
    for (const gone of before.filter((b) => !fresh.some((f) => f.classId === b.classId))) {
      const booked = (await isBooked.current?.(gone.classId)) ?? false;
      if (booked) toast.success(promotedMessage(names.get(gone.classId) ?? 'your class'));
    }
  }, [update]);

  /** A realtime change of a class row: re-read the places if the member waits for that class. */
  const classChanged = useCallback(
    (row: Pick<ClassRow, 'id' | 'name'>) => {
      if (!spots.current?.some((s) => s.classId === row.id)) return;
      changedNames.current.set(row.id, row.name);
      clearTimeout(refreshTimer.current);
      refreshTimer.current = setTimeout(() => void refresh(), REFRESH_DELAY_MS);
    },
    [refresh],
  );

  const join = useCallback(
    (classId: string) =>
      run(classId, async () => {
        const outcome = await joinWaitlist(classId);
        if (!outcome.ok) {
          toast.error(waitlistErrorMessage(outcome.error, WAITLIST_MESSAGES.joinFailed));
          return;
        }
        update((list) => [...list.filter((s) => s.classId !== classId), outcome.value]);
        toast.success(WAITLIST_MESSAGES.joined(outcome.value));
      }),
    [run, update],
  );

  const leave = useCallback(
    (cls: Pick<ClassRow, 'id' | 'name'>) =>
      run(cls.id, async () => {
        if (!window.confirm(WAITLIST_MESSAGES.confirmLeave)) return;
        const outcome = await leaveWaitlist(cls.id);
        if (outcome.ok) {
          update((list) => list.filter((s) => s.classId !== cls.id));
          toast.success(WAITLIST_MESSAGES.left);
          return;
        }
        if (outcome.error.hint !== 'not_on_waitlist') {
          toast.error(waitlistErrorMessage(outcome.error, WAITLIST_MESSAGES.leaveFailed));
          return;
        }
        // Not on it any more (promoted, removed, or left in another tab): the place is gone either way.
        update((list) => list.filter((s) => s.classId !== cls.id));
        if ((await isBooked.current?.(cls.id)) ?? false) toast.success(promotedMessage(cls.name));
        else toast.error(outcome.error.message);
      }),
    [run, update],
  );

  /** What a full class's card offers; undefined until the places are known (or when signed out). */
  const controlFor = (cls: Pick<ClassRow, 'id' | 'name'>, now: Date): WaitlistControl | undefined =>
    state.status === 'ready'
      ? {
          spot: spotOf(cls.id),
          pending: pendingClassId === cls.id,
          busy: pendingClassId !== null,
          now,
          onJoin: () => void join(cls.id),
          onLeave: () => void leave(cls),
        }
      : undefined;

  return { controlFor, classChanged };
}
