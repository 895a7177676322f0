import { InfiniteQueryObserver, type QueryClient } from '@tanstack/react-query';
import { classScheduleQueryOptions, NO_FILTERS, type Viewer } from '@/features/booking/api/get-class-schedule';

/** The timetable a member can read offline: the next two weeks. */
const DAYS = 14;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A guard: two weeks of this studio's timetable are two or three pages. */
const MAX_PAGES = 8;

/**
 * Reads the member's timetable (the unfiltered list of /my-schedule and /schedule, as this member
 * sees it) a page at a time until it reaches two weeks from now, so that the saved copy
 * (offline-snapshot.ts) holds them even if the member only ever looked at the first page.
 */
export async function readTwoWeeks(client: QueryClient, viewer: Viewer, now = Date.now()): Promise<void> {
  const until = now + DAYS * DAY_MS;
  const options = classScheduleQueryOptions(NO_FILTERS, viewer);
  await client.ensureInfiniteQueryData(options);
  const observer = new InfiniteQueryObserver(client, options);
  const unsubscribe = observer.subscribe(() => undefined);
  try {
    let result = observer.getCurrentResult();
    for (let page = 1; page < MAX_PAGES; page += 1) {
      const last = result.data?.pages.at(-1)?.at(-1);
      if (result.isError || !result.hasNextPage || !last || Date.parse(last.start_time) > until) return;
      result = await observer.fetchNextPage();
    }
  } finally {
    unsubscribe();
  }
}
