import { Link } from 'react-router-dom';
import { CalendarClock } from 'lucide-react';
import { buttonClasses } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { useNow } from '@/hooks/use-now';
import { COUNTDOWN_REFRESH_MS, countdownParts, formatCountdown } from '@/lib/rules/countdown';
import { formatClassDateTime } from '@/lib/studio-time';
import type { MyBooking } from '../api/get-my-bookings';

/**
 * The soonest confirmed booking with a countdown that refreshes every minute (spec section 9), or
 * (`emptyPrompt`) an invitation to book one. A payment hold is never the Next Class.
 */
export function NextClassCard({ booking, emptyPrompt = false }: { booking: MyBooking | undefined; emptyPrompt?: boolean }) {
  const now = useNow(COUNTDOWN_REFRESH_MS);
  if (!booking && !emptyPrompt) return null;
  return (
    <Card className="bg-gradient-to-br from-slate-900 to-slate-800 text-white" aria-labelledby="next-class-heading">
      <h2 id="next-class-heading" className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-slate-300">
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
            {countdownParts(booking.startsAt, now) && (
              <span className="block text-xs uppercase tracking-wide text-slate-300">Starts in</span>
            )}
            <span data-testid="next-class-countdown" className="text-xl font-bold tabular-nums">
              {formatCountdown(booking.startsAt, now)}
            </span>
          </p>
        </div>
      ) : (
        <div className="mt-2 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-slate-300">No upcoming classes booked.</p>
          <Link to={paths.mySchedule} className={buttonClasses({ variant: 'inverse' })}>
            Book a Class
          </Link>
        </div>
      )}
    </Card>
  );
}
