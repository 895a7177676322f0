import { Link } from 'react-router-dom';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { formatClassDateTime } from '@/lib/studio-time';
import { paths } from '@/config/paths';
import type { MyBooking } from '../api/get-my-bookings';
import { MY_BOOKINGS_MESSAGES } from '../lib/my-bookings-messages';
import { HoldActions } from './hold-actions';

export function UpcomingBookingsCard({ bookings }: { bookings: MyBooking[] }) {
  return (
    <Card>
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-lg font-semibold">Upcoming Bookings</h2>
        <Link to={paths.myBookings} className="text-sm font-semibold text-brand-700 hover:underline">
          View all
        </Link>
      </div>
      {bookings.length === 0 ? (
        <p className="mt-4 text-slate-600">No upcoming bookings.</p>
      ) : (
        <ul className="mt-4 divide-y divide-slate-100" aria-label="Upcoming bookings">
          {bookings.map((b) => {
            const when = formatClassDateTime(b.startsAt);
            return (
              <li key={b.id} className="flex flex-wrap items-center justify-between gap-2 py-3">
                <div>
                  <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
                    {b.className}
                    {b.paymentStatus === 'pending' && <Badge tone="warning">{MY_BOOKINGS_MESSAGES.paymentPending}</Badge>}
                  </p>
                  <p className="text-sm text-slate-600">
                    {when}
                    {b.trainer && ` · ${b.trainer}`}
                  </p>
                </div>
                {b.paymentStatus === 'pending' && (
                  <div className="flex flex-wrap gap-2">
                    <HoldActions booking={b} label={`${b.className} on ${when}`} />
                  </div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
