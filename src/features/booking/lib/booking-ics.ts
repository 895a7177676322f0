import { bookingEvent, CALENDAR_MIME_TYPE, icsFileName } from '@/lib/calendar/booking-event';
import { buildCalendar } from '@/lib/calendar/build-calendar';
import { downloadTextFile } from '@/lib/download-file';

/** A class length for a row without one: the classes table's default. */
const DEFAULT_DURATION_MINUTES = 45;

export type IcsBooking = {
  id: string;
  className: string;
  trainer: string | null;
  startsAt: Date;
  duration: number | null;
  description: string | null;
  /** Where the class meets when not in the hall, and how to find it (null = the hall). */
  location?: string | null;
  directions?: string | null;
};

/**
 * The `.ics` file for one booking: the same builder and UID as the calendar feed, so importing
 * it and subscribing never show the class twice. The cancel link points at this site.
 */
export function bookingIcs(booking: IcsBooking, siteUrl: string, now = new Date()): { fileName: string; text: string } {
  const event = bookingEvent(
    {
      bookingId: booking.id,
      className: booking.className,
      trainer: booking.trainer,
      startTime: booking.startsAt,
      durationMinutes: booking.duration ?? DEFAULT_DURATION_MINUTES,
      description: booking.description,
      location: booking.location,
      directions: booking.directions,
    },
    siteUrl,
  );
  return { fileName: icsFileName(booking.className, booking.startsAt), text: buildCalendar([event], { now }) };
}

/** "Add to calendar": downloads the booking's `.ics` (text/calendar). */
export function downloadBookingIcs(booking: IcsBooking): void {
  const { fileName, text } = bookingIcs(booking, window.location.origin);
  downloadTextFile(text, fileName, CALENDAR_MIME_TYPE);
}
