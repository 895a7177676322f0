import { formatClassDateTime, formatClassTime, studioDayKey } from '@/lib/studio-time';

/** "2:05 PM" today, "Mon 6 Jan at 2:05 PM" another day (studio time). */
export function formatReadAt(readAt: number, now: Date = new Date()): string {
  return studioDayKey(readAt) === studioDayKey(now) ? formatClassTime(readAt) : formatClassDateTime(readAt);
}

/** The offline banner's words. */
export const offlineMessage = (readAt: number | null, now?: Date): string =>
  readAt === null
    ? 'You are offline: nothing has been saved on this phone yet.'
    : `You are offline: showing what we had at ${formatReadAt(readAt, now)}; it may be out of date.`;

export const NEEDS_CONNECTION = 'Booking and cancelling need a connection.';

/** A page that keeps no copy on this phone, opened offline (decision 0019): said in its place, never a spinner. */
export const NOT_AVAILABLE_OFFLINE = 'This page is not available offline.';

/** The dashboard offline before its reads were ever saved on this phone. */
export const DASHBOARD_NOT_SAVED = 'Your dashboard has not been saved on this phone yet, so it is not available offline.';

/** What the member can do meanwhile: the pages whose copy is kept. */
export const READ_OFFLINE_INSTEAD = 'It opens once you are back online. Offline, you can still read:';

/** The name of the links to those pages. */
export const READABLE_OFFLINE_LABEL = 'Pages you can read offline';

/** The quiet line of a page painted from the saved copy while online (refresh-note.tsx, decision 0062). */
export const REFRESH_NOTE = { updating: 'Updating…', updated: 'Updated' } as const;
