import type { CsvColumn } from '@/lib/csv/write-csv';
import type { AdminBooking } from '../api/get-bookings';
import { PLACE_KIND_WORDS } from '@/lib/class-place';
import type { AdminMember } from '../api/get-members';
import { displayTier, TIER_LABELS } from './membership-tier';
import { EXPORT_PAGE_SIZE, type PageLoader } from './paging';
import { formatInLondon, londonToday } from '@/lib/studio-calendar';

/** The most rows one export reads (200 requests of 1,000): past it the admin narrows the search. */
export const MAX_EXPORT_ROWS = 200_000;

export class ExportTooLargeError extends Error {
  constructor(readonly total: number) {
    super(`${total} rows is more than one export can hold (${MAX_EXPORT_ROWS}); narrow the search first.`);
  }
}

/**
 * Every row the list's current search matches, read with the list's own query a large page at a
 * time (so the file is "filtered as on screen" by construction). Stops on a short page, so rows
 * deleted meanwhile cannot make it loop.
 */
export async function fetchAllRows<T>(load: PageLoader<T>, search: string): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 0; ; page++) {
    const result = await load(page, search.trim(), EXPORT_PAGE_SIZE);
    if (result.total > MAX_EXPORT_ROWS) throw new ExportTooLargeError(result.total);
    rows.push(...result.rows);
    if (result.rows.length < EXPORT_PAGE_SIZE || rows.length >= result.total) return rows;
  }
}

/** Dates and times in the file are London wall-clock time, as the tables show them. */
const LONDON_DATE_TIME = 'yyyy-MM-dd HH:mm';

export const BOOKING_CSV_COLUMNS: readonly CsvColumn<AdminBooking>[] = [
  { header: 'Person', value: (b) => b.person },
  { header: 'Place', value: (b) => PLACE_KIND_WORDS[b.kind] },
  { header: 'Member Name', value: (b) => b.member.name },
  { header: 'Member Email', value: (b) => b.member.email },
  { header: 'Class', value: (b) => b.class.name },
  { header: 'Trainer', value: (b) => b.class.trainer },
  { header: 'Class Date & Time (London)', value: (b) => formatInLondon(b.class.start_time, LONDON_DATE_TIME) },
  { header: 'Booked At (London)', value: (b) => formatInLondon(b.booked_at, LONDON_DATE_TIME) },
  { header: 'Booking ID', value: (b) => b.id },
];

export const MEMBER_CSV_COLUMNS: readonly CsvColumn<AdminMember>[] = [
  { header: 'Name', value: (m) => m.name },
  { header: 'Email', value: (m) => m.email },
  { header: 'Membership', value: (m) => TIER_LABELS[displayTier(m.membership_tier)] },
  { header: 'Total Bookings', value: (m) => m.bookingsCount },
  { header: 'Joined (London)', value: (m) => formatInLondon(m.created_at, 'yyyy-MM-dd') },
  { header: 'Member ID', value: (m) => m.id },
];

/** `bookings-2026-11-22.csv`, dated in London. */
export function exportFileName(noun: string, now: Date = new Date()): string {
  return `${noun}-${londonToday(now)}.csv`;
}
