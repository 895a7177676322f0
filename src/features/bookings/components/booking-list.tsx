import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatClassDateTime } from '@/lib/studio-time';
import type { MyBooking } from '../api/get-my-bookings';
import { MY_BOOKINGS_MESSAGES } from '../lib/my-bookings-messages';

type BookingListProps = {
  bookings: MyBooking[];
  emptyText: string;
  /** Shown on upcoming bookings only. */
  onCancel?: (booking: MyBooking) => void;
  cancellingId?: string | null;
};

export function BookingList({ bookings, emptyText, onCancel, cancellingId }: BookingListProps) {
  if (bookings.length === 0) return <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600">{emptyText}</p>;
  return (
    <ul className="space-y-3">
      {bookings.map((b) => (
        <li key={b.id} className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between">
          <div className="min-w-0">
            <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
              {b.className}
              {b.status === 'cancelled' && <Badge tone="danger">Cancelled</Badge>}
              {b.status === 'confirmed' && b.paymentStatus === 'pending' && <Badge tone="warning">{MY_BOOKINGS_MESSAGES.paymentPending}</Badge>}
            </p>
            <p className="text-sm text-slate-600">
              {formatClassDateTime(b.startsAt)}
              {b.trainer && ` · ${b.trainer}`}
              {b.duration ? ` · ${b.duration} min` : ''}
            </p>
          </div>
          {onCancel && (
            <Button
              variant="outline"
              size="sm"
              className="border-red-300 text-red-700 hover:border-red-400 hover:bg-red-50"
              loading={cancellingId === b.id}
              disabled={Boolean(cancellingId)}
              onClick={() => onCancel(b)}
              aria-label={`Cancel ${b.className} on ${formatClassDateTime(b.startsAt)}`}
            >
              Cancel
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}
