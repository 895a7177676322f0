import type { FirstReads } from '../first-reads';
import { classScheduleQueryOptions, NO_FILTERS, scheduleSummaryQueryOptions } from '@/features/booking/api/get-class-schedule';

/** /my-schedule: the timetable's first page as the member sees it, and its summary. */
export const firstReads: FirstReads = {
  member: (client, id) => {
    void client.prefetchInfiniteQuery(classScheduleQueryOptions(NO_FILTERS, id));
    void client.prefetchQuery(scheduleSummaryQueryOptions(NO_FILTERS));
  },
};
