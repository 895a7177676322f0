import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import toast from 'react-hot-toast';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { ClassFilters } from '../lib/class-filters';
import { subscribeToClassChanges, type ChangedClass } from './subscribe-class-changes';

/**
 * The schedule as the server states it (issue 12): every upcoming class with what the booking
 * rules decide for the caller (`public.class_schedule`, docs/data-contract.md), searched and
 * filtered on the server across every upcoming class, a page at a time. Screens render these
 * facts; nothing in the browser re-decides a booking rule.
 */
const timestamp = z.string();
export const scheduleClassSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  duration: z.number(),
  start_time: timestamp,
  trainer: z.string(),
  type: z.string(),
  capacity: z.number(),
  current_bookings: z.number(),
  spots_left: z.number(),
  is_premium: z.boolean(),
  unlock_for_standard: z.string().nullable(),
  price_payg: z.coerce.number().nullable(),
  bookable: z.boolean(),
  refusal: z.string().nullable(),
  unlocks_at: timestamp.nullable(),
  booking_type: z.enum(['paid', 'trial', 'payg']).nullable(),
  needs_payment: z.boolean().nullable(),
  paid_refusal: z.string().nullable(),
  trial_refusal: z.string().nullable(),
  can_join_waitlist: z.boolean(),
  waitlist_refusal: z.string().nullable(),
  waitlist_closes_at: timestamp,
  late_cancel_from: timestamp,
  my_booking_id: z.string().nullable(),
  my_payment_status: z.enum(['completed', 'pending']).nullable(),
  my_hold_expires_at: timestamp.nullable(),
  my_waitlist_position: z.number().nullable(),
  waitlist_size: z.number(),
});
export type ScheduleClass = z.infer<typeof scheduleClassSchema>;

const summarySchema = z.object({
  total_classes: z.number(),
  available_spots: z.number(),
  instructors: z.number(),
  all_instructors: z.array(z.string()).nullable(),
});
export type ScheduleSummary = z.infer<typeof summarySchema>;

/** Classes a page asks for at a time ("Show more" asks for the next page). */
export const SCHEDULE_PAGE_SIZE = 24;

/** The facts depend on who asks (a member id, or 'guest'): the cache keeps guests' and each member's apart. */
export type Viewer = string;

function filterArgs(filters: ClassFilters) {
  return {
    p_search: filters.search.trim() || null,
    p_day: filters.date,
    p_trainer: filters.instructor || null,
    p_premium: filters.type === 'all' ? null : filters.type === 'premium',
  };
}

export async function getClassSchedulePage(filters: ClassFilters, offset: number): Promise<ScheduleClass[]> {
  const { data, error } = await supabase.rpc('class_schedule', { ...filterArgs(filters), p_limit: SCHEDULE_PAGE_SIZE, p_offset: offset });
  if (error) throw error;
  return z.array(scheduleClassSchema).parse(data);
}

export async function getScheduleClass(classId: string): Promise<ScheduleClass | null> {
  const { data, error } = await supabase.rpc('class_schedule', { p_class_id: classId });
  if (error) throw error;
  return z.array(scheduleClassSchema).parse(data)[0] ?? null;
}

export async function getScheduleSummary(filters: ClassFilters): Promise<ScheduleSummary> {
  const { data, error } = await supabase.rpc('class_schedule_summary', filterArgs(filters));
  if (error) throw error;
  return summarySchema.parse(data);
}

export const classScheduleQueryOptions = (filters: ClassFilters, viewer: Viewer) =>
  infiniteQueryOptions({
    queryKey: queryKeys.classes.list({ ...filters, viewer }),
    queryFn: ({ pageParam }) => getClassSchedulePage(filters, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < SCHEDULE_PAGE_SIZE ? undefined : pages.length * SCHEDULE_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

export const scheduleClassQueryOptions = (classId: string, viewer: Viewer) =>
  queryOptions({ queryKey: queryKeys.classes.detail(`${classId}:${viewer}`), queryFn: () => getScheduleClass(classId) });

export const scheduleSummaryQueryOptions = (filters: ClassFilters) =>
  queryOptions({ queryKey: queryKeys.classes.list({ ...filters, summary: true }), queryFn: () => getScheduleSummary(filters), placeholderData: keepPreviousData });

/** Pages of classes matching `filters` for this viewer; `enabled` waits for the session. */
export const LOAD_FAILED = 'Failed to load classes';

export function useClassSchedule(filters: ClassFilters, viewer: Viewer, enabled = true) {
  const query = useInfiniteQuery({ ...classScheduleQueryOptions(filters, viewer), enabled });
  useEffect(() => {
    if (query.isError) toast.error(LOAD_FAILED, { id: LOAD_FAILED });
  }, [query.isError]);
  const classes = query.data?.pages.flat() ?? [];
  return { ...query, classes };
}

export const useScheduleSummary = (filters: ClassFilters, enabled = true) => useQuery({ ...scheduleSummaryQueryOptions(filters), enabled });
export const useScheduleClass = (classId: string, viewer: Viewer, enabled = true) =>
  useQuery({ ...scheduleClassQueryOptions(classId, viewer), enabled: enabled && classId !== '' });

/** Settles the burst of row changes one booking makes (the class row, then a waitlist promotion). */
export const LIVE_REFRESH_DELAY_MS = 300;

/**
 * Keeps the schedule current while a page is open: a change to any class (a booking or a
 * cancellation anywhere moves its spots) marks the schedule stale and the open page reads its
 * facts again, once per burst. `onClassChange` hears each changed row too (a waitlist place to re-read).
 */
export function useLiveSchedule(enabled = true, onClassChange?: (row: ChangedClass) => void) {
  const queryClient = useQueryClient();
  const onChange = useRef(onClassChange);
  useEffect(() => {
    onChange.current = onClassChange;
  });
  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribeToClassChanges((row) => {
      onChange.current?.(row);
      clearTimeout(timer);
      timer = setTimeout(() => void queryClient.invalidateQueries({ queryKey: queryKeys.classes.all }), LIVE_REFRESH_DELAY_MS);
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, [enabled, queryClient]);
}
