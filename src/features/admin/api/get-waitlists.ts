import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** One member waiting for a class that has not started (admins read every waitlist row). */
export type AdminWaitlistEntry = {
  id: string;
  seq: number;
  joinedAt: string;
  member: { name: string | null; email: string };
  class: { id: string; name: string; startTime: string; trainer: string };
};

/** At most this many waiting members are listed (a studio has a handful; the bound keeps it one page). */
export const WAITLIST_LIMIT = 500;

/**
 * Every waitlist of the classes still to come, in one request: class_waitlist with its member and
 * (inner-joined, so past classes drop out) its class, in joining order.
 */
export async function getWaitlists(now: Date = new Date()): Promise<AdminWaitlistEntry[]> {
  const { data, error } = await supabase
    .from('class_waitlist')
    .select('id, seq, joined_at, members(name, email), classes!inner(id, name, start_time, trainer)')
    .gte('classes.start_time', now.toISOString())
    .order('seq')
    .limit(WAITLIST_LIMIT);
  if (error) throw error;
  return data.flatMap((r) =>
    r.members && r.classes
      ? [
          {
            id: r.id,
            seq: r.seq,
            joinedAt: r.joined_at,
            member: { name: r.members.name, email: r.members.email },
            class: { id: r.classes.id, name: r.classes.name, startTime: r.classes.start_time, trainer: r.classes.trainer },
          },
        ]
      : [],
  );
}

export const waitlistsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.waitlists(), queryFn: () => getWaitlists() });

export const useWaitlists = () => useQuery(waitlistsQueryOptions());
