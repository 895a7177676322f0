import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';
import { londonToday } from '@/lib/studio-calendar';

/** A row of `public.studio_closures` (readable by all): a date the studio is closed, and why. */
export type StudioClosure = Tables<'studio_closures'>;

/** Closures from today (London) on, soonest first: the days Generate Classes skips. */
export async function getUpcomingClosures(now: Date = new Date()): Promise<StudioClosure[]> {
  const { data, error } = await supabase
    .from('studio_closures')
    .select('id, closed_on, reason, created_at')
    .gte('closed_on', londonToday(now))
    .order('closed_on');
  if (error) throw error;
  return data;
}

export const closuresQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.closures(), queryFn: () => getUpcomingClosures() });

export const useUpcomingClosures = () => useQuery(closuresQueryOptions());
