import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';
import { londonWallClockToUtc } from '@/lib/studio-calendar';
import { PAGE_SIZE, likeContains, pageRange, type ListPage } from '../lib/paging';
import { ACTIVITY_KINDS } from '../lib/activity';

/** One recorded change (public.audit_events, decision 0045). */
export type ActivityEvent = Tables<'audit_events'>;

const londonDate = z.union([z.literal(''), z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter a date')]);

/** Admin > Activity's filters: who, what kind, which member or class, London dates (inclusive). */
export const activityFilterSchema = z
  .object({
    who: z.string().trim().max(200),
    kind: z.union([z.literal(''), z.enum(ACTIVITY_KINDS)]),
    subject: z.string().trim().max(200),
    from: londonDate,
    to: londonDate,
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { message: 'The first day must be on or before the last day', path: ['to'] });

export type ActivityFilters = z.infer<typeof activityFilterSchema>;

export const NO_ACTIVITY_FILTERS: ActivityFilters = { who: '', kind: '', subject: '', from: '', to: '' };

/** The day after a 'YYYY-MM-DD' date (calendar arithmetic in UTC: no clock is involved). */
function nextDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** One page of the activity log, newest first, filtered on the server; `total` counts every match. */
export async function getActivityPage(page: number, filters: ActivityFilters, size: number = PAGE_SIZE): Promise<ListPage<ActivityEvent>> {
  let query = supabase.from('audit_events').select('*', { count: 'exact' });
  if (filters.who) query = query.ilike('actor_name', likeContains(filters.who));
  if (filters.kind) query = query.eq('kind', filters.kind);
  if (filters.subject) query = query.ilike('subject', likeContains(filters.subject));
  // Dates are London days: from its midnight to the next day's.
  if (filters.from) query = query.gte('at', londonWallClockToUtc(filters.from, '00:00'));
  if (filters.to) query = query.lt('at', londonWallClockToUtc(nextDay(filters.to), '00:00'));
  const { data, error, count } = await query
    .order('at', { ascending: false })
    .order('id', { ascending: false })
    .range(...pageRange(page, size));
  if (error) throw error;
  return { rows: data, total: count ?? data.length };
}

export const activityPageQueryOptions = (page: number, filters: ActivityFilters) =>
  queryOptions({
    queryKey: queryKeys.admin.activity({ page, ...filters }),
    queryFn: () => getActivityPage(page, filters),
    placeholderData: keepPreviousData,
  });

export const useActivityPage = (page: number, filters: ActivityFilters) => useQuery(activityPageQueryOptions(page, filters));
