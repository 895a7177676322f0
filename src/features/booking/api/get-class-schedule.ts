import { infiniteQueryOptions, keepPreviousData, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { toast } from '@/lib/toast';
import * as v from 'valibot';
import { BOOKING_TYPES } from '@/config/booking-types';
import { Constants } from '@/lib/database.types';
import { classKeys } from '@/lib/keys/classes';
import { publicRpc } from '@/lib/public-api';
import { CLASSES_LOAD_FAILED } from '../lib/schedule-messages';

/**
 * The schedule as the server states it: every upcoming class with what the booking
 * rules decide for the caller (`public.class_schedule`, docs/data-contract.md), searched and
 * filtered on the server across every upcoming class, a page at a time. Screens render these
 * facts; nothing in the browser re-decides a booking rule.
 */
const timestamp = v.string();
/** PostgREST sends numeric as a number or, through some paths, as text: read either as a number. */
const money = v.pipe(v.union([v.number(), v.string()]), v.transform(Number), v.number());
export const scheduleClassSchema = v.object({
  id: v.string(),
  name: v.string(),
  description: v.nullable(v.string()),
  duration: v.number(),
  start_time: timestamp,
  trainer: v.string(),
  type: v.string(),
  capacity: v.number(),
  current_bookings: v.number(),
  spots_left: v.number(),
  is_premium: v.boolean(),
  unlock_for_standard: v.nullable(v.string()),
  price_payg: v.nullable(money),
  bookable: v.boolean(),
  refusal: v.nullable(v.string()),
  unlocks_at: v.nullable(timestamp),
  booking_type: v.nullable(v.picklist(BOOKING_TYPES)),
  needs_payment: v.nullable(v.boolean()),
  paid_refusal: v.nullable(v.string()),
  trial_refusal: v.nullable(v.string()),
  can_join_waitlist: v.boolean(),
  waitlist_refusal: v.nullable(v.string()),
  waitlist_closes_at: timestamp,
  late_cancel_from: timestamp,
  my_booking_id: v.nullable(v.string()),
  my_payment_status: v.nullable(v.picklist(Constants.public.Enums.payment_status)),
  my_hold_expires_at: v.nullable(timestamp),
  my_waitlist_position: v.nullable(v.number()),
  waitlist_size: v.number(),
  // Where the class meets when not in the hall (decision 0055); absent or null = the hall.
  meeting_point_id: v.nullish(v.string()),
  meeting_point_name: v.nullish(v.string()),
  meeting_point_map_url: v.nullish(v.string()),
  /** private.class_where: the meeting point's name and address, or the hall's address. */
  location: v.nullish(v.string()),
  directions: v.nullish(v.string()),
  // The class's age range for children (both null or absent: adults only, no child joins it).
  min_age: v.nullish(v.number()),
  max_age: v.nullish(v.number()),
});
export type ScheduleClass = v.InferOutput<typeof scheduleClassSchema>;
const scheduleClassesSchema = v.array(scheduleClassSchema);

const summarySchema = v.object({
  total_classes: v.number(),
  available_spots: v.number(),
  instructors: v.number(),
  all_instructors: v.nullable(v.array(v.string())),
});
export type ScheduleSummary = v.InferOutput<typeof summarySchema>;

/**
 * The /my-schedule filters (spec section 2), as the request sends them: search (class or trainer
 * name), date in London time, instructor, type. The server applies them to every upcoming class.
 */
export const dateFilterSchema = v.picklist(['all', 'today', 'tomorrow', 'week']);
export const typeFilterSchema = v.picklist(['all', 'premium', 'standard']);
const classFiltersSchema = v.object({ search: v.string(), date: dateFilterSchema, instructor: v.string(), type: typeFilterSchema });
export type ClassFilters = v.InferOutput<typeof classFiltersSchema>;
export type DateFilter = ClassFilters['date'];
export type TypeFilter = ClassFilters['type'];
export const NO_FILTERS: ClassFilters = { search: '', date: 'all', instructor: '', type: 'all' };

/** Classes a page asks for at a time ("Show more" asks for the next page). */
export const SCHEDULE_PAGE_SIZE = 24;

/** The facts depend on who asks (a member id, or 'guest'): the cache keeps guests' and each member's apart. */
export type Viewer = string;

function filterArgs(input: ClassFilters) {
  const filters = v.parse(classFiltersSchema, input);
  return {
    p_search: filters.search.trim() || null,
    p_day: filters.date,
    p_trainer: filters.instructor || null,
    p_premium: filters.type === 'all' ? null : filters.type === 'premium',
  };
}

export async function getClassSchedulePage(filters: ClassFilters, offset: number): Promise<ScheduleClass[]> {
  const { data, error } = await publicRpc('class_schedule', { ...filterArgs(filters), p_limit: SCHEDULE_PAGE_SIZE, p_offset: offset });
  if (error) throw error;
  return v.parse(scheduleClassesSchema, data);
}

/** One class with the caller's facts, started or not (the booking form says why it cannot be booked). */
export async function getScheduleClass(classId: string): Promise<ScheduleClass | null> {
  const { data, error } = await publicRpc('class_schedule', { p_class_id: classId });
  if (error) throw error;
  return v.parse(scheduleClassesSchema, data)[0] ?? null;
}

export async function getScheduleSummary(filters: ClassFilters): Promise<ScheduleSummary> {
  const { data, error } = await publicRpc('class_schedule_summary', filterArgs(filters));
  if (error) throw error;
  return v.parse(summarySchema, data);
}

export const classScheduleQueryOptions = (filters: ClassFilters, viewer: Viewer) =>
  infiniteQueryOptions({
    queryKey: classKeys.list({ ...filters, viewer }),
    queryFn: ({ pageParam }) => getClassSchedulePage(filters, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.length < SCHEDULE_PAGE_SIZE ? undefined : pages.length * SCHEDULE_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

export const scheduleClassQueryOptions = (classId: string, viewer: Viewer) =>
  queryOptions({ queryKey: classKeys.detail(`${classId}:${viewer}`), queryFn: () => getScheduleClass(classId) });

export const scheduleSummaryQueryOptions = (filters: ClassFilters) =>
  queryOptions({
    queryKey: classKeys.list({ ...filters, summary: true }),
    queryFn: () => getScheduleSummary(filters),
    placeholderData: keepPreviousData,
  });

const NO_CLASSES: ScheduleClass[] = [];

/** Pages of classes matching `filters` for this viewer; `enabled` waits for the session. */
export function useClassSchedule(filters: ClassFilters, viewer: Viewer, enabled = true) {
  const query = useInfiniteQuery({ ...classScheduleQueryOptions(filters, viewer), enabled });
  useEffect(() => {
    if (query.isError) toast.error(CLASSES_LOAD_FAILED, { id: CLASSES_LOAD_FAILED });
  }, [query.isError]);
  // One array per result (not per render), so a screen can defer rendering it (useDeferredValue).
  const classes = useMemo(() => query.data?.pages.flat() ?? NO_CLASSES, [query.data]);
  return { ...query, classes };
}

export const useScheduleSummary = (filters: ClassFilters, enabled = true) => useQuery({ ...scheduleSummaryQueryOptions(filters), enabled });
export const useScheduleClass = (classId: string, viewer: Viewer, enabled = true) =>
  useQuery({ ...scheduleClassQueryOptions(classId, viewer), enabled: enabled && classId !== '' });
