import { Link } from 'react-router-dom';
import { CalendarClock } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { useNow } from '@/hooks/use-now';
import { COUNTDOWN_REFRESH_MS, countdownParts, formatCountdown } from '@/lib/rules/countdown';
import { formatClassDateTime } from '@/lib/studio-time';
import type { UpcomingBooking } from '../api/get-upcoming-bookings';

/** The next class with a countdown refreshed every minute, or a prompt to book one. */
export function NextClassPanel({ booking }: { booking: UpcomingBooking | undefined }) {
  const now = useNow(COUNTDOWN_REFRESH_MS);
  return (
    <Card className="bg-gradient-to-br from-slate-900 to-slate-800 text-white">
      <h2 className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-slate-300">
        <CalendarClock aria-hidden="true" className="h-4 w-4" /> Next Class
      </h2>
      {booking ? (
        <div className="mt-2 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <p className="text-2xl font-bold">{booking.className}</p>
            <p className="mt-1 text-slate-300">
              {formatClassDateTime(booking.startsAt)}
              {booking.trainer && ` · ${booking.trainer}`}
            </p>
          </div>
          <p className="rounded-xl bg-white/10 px-4 py-3 text-center" aria-live="polite">
            {countdownParts(booking.startsAt, now) && <span className="block text-xs uppercase tracking-wide text-slate-300">Starts in</span>}
            <span data-testid="next-class-countdown" className="text-xl font-bold tabular-nums">
              {formatCountdown(booking.startsAt, now)}
            </span>
          </p>
        </div>
      ) : (
        <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-slate-300">No upcoming classes booked.</p>
          <Link to="/my-schedule" className={buttonClasses({ variant: 'inverse' })}>
            Book a Class
          </Link>
        </div>
      )}
    </Card>
  );
}
