import { escapeText, formatLocalDateTime, formatUtcDateTime, joinLines } from './ics-text';
import { LONDON_TZID, LONDON_VTIMEZONE } from './london-timezone';

export interface CalendarEvent {
  /** Globally unique and stable for the same booking, so a re-import updates rather than duplicates. */
  uid: string;
  start: Date;
  durationMinutes: number;
  summary: string;
  description?: string;
  location?: string;
  url?: string;
}

export interface CalendarOptions {
  /** Shown by calendar apps as the calendar's name (subscriptions). */
  name?: string;
  /** DTSTAMP of every event: when this file was generated. */
  now?: Date;
  /** Ask subscribing apps to refresh this often, e.g. 'PT1H' (feeds only). */
  refreshInterval?: string;
}

export const PRODUCT_ID = '-//Finer Fitness//Studio Bookings//EN';

/**
 * An RFC 5545 VCALENDAR: the Europe/London VTIMEZONE and one VEVENT per event with UID, DTSTAMP,
 * DTSTART/DTEND in London wall-clock time, SUMMARY, LOCATION, DESCRIPTION. CRLF line endings,
 * folded at 75 octets, TEXT values escaped.
 */
export function buildCalendar(events: readonly CalendarEvent[], options: CalendarOptions = {}): string {
  const stamp = formatUtcDateTime(options.now ?? new Date());
  const lines: string[] = ['BEGIN:VCALENDAR', 'VERSION:2.0', `PRODID:${PRODUCT_ID}`, 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  if (options.name) lines.push(`X-WR-CALNAME:${escapeText(options.name)}`);
  lines.push(`X-WR-TIMEZONE:${LONDON_TZID}`);
  if (options.refreshInterval) {
    lines.push(`REFRESH-INTERVAL;VALUE=DURATION:${options.refreshInterval}`, `X-PUBLISHED-TTL:${options.refreshInterval}`);
  }
  lines.push(...LONDON_VTIMEZONE);
  for (const event of events) {
    const end = new Date(event.start.getTime() + event.durationMinutes * 60_000);
    lines.push(
      'BEGIN:VEVENT',
      `UID:${event.uid}`,
      `DTSTAMP:${stamp}`,
      `DTSTART;TZID=${LONDON_TZID}:${formatLocalDateTime(event.start, LONDON_TZID)}`,
      `DTEND;TZID=${LONDON_TZID}:${formatLocalDateTime(end, LONDON_TZID)}`,
      `SUMMARY:${escapeText(event.summary)}`,
    );
    if (event.location) lines.push(`LOCATION:${escapeText(event.location)}`);
    if (event.description) lines.push(`DESCRIPTION:${escapeText(event.description)}`);
    if (event.url) lines.push(`URL:${event.url}`);
    lines.push('STATUS:CONFIRMED', 'TRANSP:OPAQUE', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return joinLines(lines);
}
