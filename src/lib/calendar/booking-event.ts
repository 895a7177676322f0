import { STUDIO, STUDIO_ADDRESS_LINES, TRAINER_NAME } from '../../config/studio';
import type { CalendarEvent } from './build-calendar';
import { studioDayKey } from '../studio-time';

/** What a calendar entry needs to know about one booking (the feed's RPC rows have these fields). */
export interface BookedClass {
  bookingId: string;
  className: string;
  trainer?: string | null;
  startTime: string | Date;
  durationMinutes: number;
  description?: string | null;
  /** Where the class meets when not in the hall (private.class_where); absent or null = the hall. */
  location?: string | null;
  /** The meeting point's directions, put in the entry's description. */
  directions?: string | null;
}

export const CALENDAR_MIME_TYPE = 'text/calendar; charset=utf-8';
export const STUDIO_LOCATION = STUDIO_ADDRESS_LINES.join(', ');
const UID_DOMAIN = STUDIO.email.slice(STUDIO.email.indexOf('@') + 1);

/**
 * The calendar entry for a booking: the class at its meeting point or the studio's address, with
 * the meeting point's directions, the trainer and, when
 * the site's address is given, a link to My Bookings to cancel. The UID is the booking's, so the
 * .ics download and the feed describe the same event.
 */
export function bookingEvent(booking: BookedClass, siteUrl?: string): CalendarEvent {
  const manageUrl = siteUrl ? `${siteUrl.replace(/\/+$/, '')}/mybookings` : undefined;
  const description = [
    `With ${booking.trainer?.trim() || TRAINER_NAME} at ${STUDIO.name}.`,
    booking.directions?.trim() && `Directions: ${booking.directions.trim()}`,
    booking.description?.trim(),
    manageUrl && `Manage or cancel your booking: ${manageUrl}`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return {
    uid: `booking-${booking.bookingId}@${UID_DOMAIN}`,
    start: new Date(booking.startTime),
    durationMinutes: booking.durationMinutes,
    summary: `${booking.className} (${STUDIO.name})`,
    location: booking.location?.trim() || STUDIO_LOCATION,
    description,
    ...(manageUrl ? { url: manageUrl } : {}),
  };
}

/** A download name such as `breakfast-club-2025-10-06.ics` (date in London). */
export function icsFileName(className: string, startTime: string | Date): string {
  const slug =
    className
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'class';
  return `${slug}-${studioDayKey(startTime)}.ics`;
}
