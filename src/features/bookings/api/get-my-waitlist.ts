import { useCallback } from 'react';
import { useLoaded } from '@/hooks/use-loaded';
import { supabase } from '@/lib/supabase';

/** One waitlist the member is on (`my_waitlist`, classes not started), with its class. */
export type MyWaitlistEntry = {
  classId: string;
  position: number;
  waitlistSize: number;
  closesAt: Date;
  isClosed: boolean;
  className: string;
  trainer: string;
  startsAt: Date;
};

type WaitlistRow = { class_id: string; position: number; waitlist_size: number; joined_at: string; closes_at: string; is_closed: boolean };

/**
 * `my_waitlist()` gives positions (computed by the database, where promotion happens), then one
 * read of those classes for their names and times. Two requests, whatever the number of lists.
 */
export async function getMyWaitlist(): Promise<MyWaitlistEntry[]> {
  const { data, error } = await supabase.rpc('my_waitlist');
  if (error) throw error;
  const rows = (data ?? []) as WaitlistRow[];
  if (rows.length === 0) return [];
  const { data: classes, error: classError } = await supabase
    .from('classes')
    .select('id, name, trainer, start_time')
    .in('id', rows.map((r) => r.class_id));
  if (classError) throw classError;
  const byId = new Map(classes.map((c) => [c.id, c]));
  return rows.flatMap((r) => {
    const cls = byId.get(r.class_id);
    if (!cls) return [];
    return [
      {
        classId: r.class_id,
        position: r.position,
        waitlistSize: r.waitlist_size,
        closesAt: new Date(r.closes_at),
        isClosed: r.is_closed,
        className: cls.name,
        trainer: cls.trainer,
        startsAt: new Date(cls.start_time),
      },
    ];
  });
}

/** The member's waitlists; `remove` drops one after leaving it. */
export function useMyWaitlist(memberId: string | null) {
  // Keyed by member so another account reloads; the RPC itself reads the session's member.
  const { state, update } = useLoaded(memberId, getMyWaitlist);
  const remove = useCallback((classId: string) => update((list) => list.filter((e) => e.classId !== classId)), [update]);
  return { state, remove };
}
