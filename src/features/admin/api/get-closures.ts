import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { londonToday } from '../lib/studio-clock';
import { untypedClient } from './untyped-client';

/** A row of `public.studio_closures` (readable by all): a date the studio is closed, and why. */
const closureSchema = z.object({ id: z.string(), closed_on: z.string(), reason: z.string().nullable(), created_at: z.string() });
export type StudioClosure = z.infer<typeof closureSchema>;

/** Closures from today (London) on, soonest first: the days Generate Classes skips. */
export async function getUpcomingClosures(now: Date = new Date()): Promise<StudioClosure[]> {
  const { data, error } = await untypedClient(supabase)
    .from('studio_closures')
    .select('id, closed_on, reason, created_at')
    .gte('closed_on', londonToday(now))
    .order('closed_on');
  if (error) throw error;
  return z.array(closureSchema).parse(data);
}

export const closuresQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.closures(), queryFn: () => getUpcomingClosures() });

export const useUpcomingClosures = () => useQuery(closuresQueryOptions());
