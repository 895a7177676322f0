import { CalendarClock } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { useNow } from '@/hooks/use-now';
import { COUNTDOWN_REFRESH_MS, countdownParts, formatCountdown } from '@/lib/rules/countdown';
import { formatClassDateTime } from '@/lib/studio-time';
import type { MyBooking } from '../api/get-my-bookings';

/** The soonest upcoming booking with a countdown that refreshes every minute (spec section 9). */
export function NextClassCard({ booking }: { booking: MyBooking }) {
  const now = useNow(COUNTDOWN_REFRESH_MS);
  const countdown = formatCountdown(booking.startsAt, now);
  const started = countdownParts(booking.startsAt, now) === null;
  return (
    <Card className="bg-gradient-to-br from-slate-900 to-slate-800 text-white" aria-labelledby="next-class-heading">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="next-class-heading" className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-slate-300">
            <CalendarClock aria-hidden="true" className="h-4 w-4" /> Next Class
          </h2>
          <p className="mt-2 text-2xl font-bold">{booking.className}</p>
          <p className="mt-1 text-slate-300">
            {formatClassDateTime(booking.startsAt)}
            {booking.trainer && ` · ${booking.trainer}`}
          </p>
        </div>
        <p className="rounded-xl bg-white/10 px-4 py-3 text-center" aria-live="polite">
          {!started && <span className="block text-xs uppercase tracking-wide text-slate-300">Starts in</span>}
          <span data-testid="next-class-countdown" className="text-xl font-bold tabular-nums">
            {countdown}
          </span>
        </p>
      </div>
    </Card>
  );
}
