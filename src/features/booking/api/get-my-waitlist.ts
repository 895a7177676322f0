import { useCallback } from 'react';
import { useLoaded } from '@/hooks/use-loaded';
import { getWaitlistSpots, type WaitlistSpot } from './waitlist';
import { supabase } from '@/lib/supabase';

/** One waitlist the member is on (`my_waitlist`, classes not started), with its class. */
export type MyWaitlistEntry = WaitlistSpot & {
  className: string;
  trainer: string;
  startsAt: Date;
};

/**
 * `my_waitlist()` gives positions (computed by the database, where promotion happens), then one
 * read of those classes for their names and times. Two requests, whatever the number of lists.
 */
export async function getMyWaitlist(): Promise<MyWaitlistEntry[]> {
  const spots = await getWaitlistSpots();
  if (spots.length === 0) return [];
  const { data: classes, error: classError } = await supabase
    .from('classes')
    .select('id, name, trainer, start_time')
    .in('id', spots.map((s) => s.classId));
  if (classError) throw classError;
  const byId = new Map(classes.map((c) => [c.id, c]));
  return spots.flatMap((spot) => {
    const cls = byId.get(spot.classId);
    return cls ? [{ ...spot, className: cls.name, trainer: cls.trainer, startsAt: new Date(cls.start_time) }] : [];
  });
}

/** The member's waitlists; `remove` drops one after leaving it. */
export function useMyWaitlist(memberId: string | null) {
  // Keyed by member so another account reloads; the RPC itself reads the session's member.
  const { state, update } = useLoaded(memberId, getMyWaitlist);
  const remove = useCallback((classId: string) => update((list) => list.filter((e) => e.classId !== classId)), [update]);
  return { state, remove };
}
