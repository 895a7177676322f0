import { useEffect, useMemo } from 'react';
import { studioDayKey } from '@/lib/studio-time';
import { NO_FILTERS, useClassSchedule, type ClassFilters, type Viewer } from '../api/get-class-schedule';
import type { ScheduleDay } from './schedule-days';
import type { TimetableSource } from './timetable';

const TODAY: ClassFilters = { ...NO_FILTERS, date: 'today' };
const TOMORROW: ClassFilters = { ...NO_FILTERS, date: 'tomorrow' };

/**
 * /schedule's classes for the day picked, or every upcoming class (`day` null).
 *
 * Today and tomorrow are the server's own day filter (`class_schedule`'s p_day), so those pages
 * hold that day's classes only. The filter names no later day, so for one the upcoming classes are
 * read in start order, a page at a time, until a class after that day arrives (or none are left):
 * at most the pages before the day ends (the picker offers two weeks), never every class; the
 * classes of other days are then left out of the list. This is the same query as the whole list,
 * so going back to "All days" is instant.
 */
export function useDaySchedule(day: ScheduleDay | null, viewer: Viewer, enabled = true): TimetableSource {
  const filters = day?.offset === 0 ? TODAY : day?.offset === 1 ? TOMORROW : NO_FILTERS;
  const schedule = useClassSchedule(filters, viewer, enabled);
  const walked = day !== null && day.offset > 1 ? day.key : null;
  const { classes: all, hasNextPage, isFetching, isFetchingNextPage, fetchNextPage, isError, isPending, isPlaceholderData } = schedule;
  const last = all.at(-1);
  const passed = walked === null || !hasNextPage || (last !== undefined && studioDayKey(last.start_time) > walked);
  // Never while a read is under way (it would be cancelled and replaced).
  const readMore = !passed && !isPending && !isPlaceholderData && !isFetching && !isError;

  // Once per page that arrives (a fast page may come back without `readMore` ever turning false).
  useEffect(() => {
    if (readMore) void fetchNextPage();
  }, [readMore, fetchNextPage, all.length]);

  const classes = useMemo(() => (walked === null ? all : all.filter((cls) => studioDayKey(cls.start_time) === walked)), [all, walked]);

  return {
    classes,
    // Another day's answer kept on screen while this one loads (keepPreviousData) is not this day's.
    isPending: !isError && (isPending || isPlaceholderData || !passed),
    isError,
    refetch: schedule.refetch,
    // A day is read whole: Show more is for the whole list (or a day of more than a page).
    hasNextPage: walked === null && hasNextPage,
    isFetchingNextPage,
    fetchNextPage,
  };
}
