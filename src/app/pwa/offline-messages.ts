import { formatClassDateTime, formatClassTime, studioDayKey } from '@/lib/studio-time';

/** "2:05 PM" today, "Mon, Jan 6 at 2:05 PM" another day (studio time). */
export function formatReadAt(readAt: number, now: Date = new Date()): string {
  return studioDayKey(readAt) === studioDayKey(now) ? formatClassTime(readAt) : formatClassDateTime(readAt);
}

/** The offline banner's words. */
export const offlineMessage = (readAt: number | null, now?: Date): string =>
  readAt === null
    ? 'You are offline: nothing has been saved on this phone yet.'
    : `You are offline: showing what we had at ${formatReadAt(readAt, now)}; it may be out of date.`;

export const NEEDS_CONNECTION = 'Booking and cancelling need a connection.';
