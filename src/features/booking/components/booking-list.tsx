import { useEffect, useRef, type ReactNode } from 'react';
import { AlertTriangle, CalendarPlus, CheckCircle2, MapPin } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { OfflineNote } from '@/components/ui/offline-note';
import { OFFLINE_NOTES } from '@/lib/offline-notes';
import { useOnline } from '@/hooks/use-online';
import { formatClassDateTime, formatClassTime } from '@/lib/studio-time';
import type { MyBooking } from '../api/get-my-bookings';
import { downloadBookingIcs } from '../lib/booking-ics';
import { HoldActions } from './hold-actions';
import { MeetingPlace } from './meeting-place';
import { cancellingCountsNow, lateCancelWarning } from '../lib/late-cancel';
import { cancellationNote } from '../lib/cancellations';
import { MY_BOOKINGS_MESSAGES } from '../lib/my-bookings-messages';

type BookingListProps = {
  bookings: MyBooking[];
  emptyText: string;
  /** Cancel on upcoming confirmed bookings (an unpaid hold has its own Complete payment / Release spot). */
  onCancel?: (booking: MyBooking) => void;
  cancellingId?: string | null;
  /** Confirmed upcoming bookings offer an `.ics` download. */
  withCalendar?: boolean;
  /** For the late-cancel warning on upcoming bookings. */
  now?: Date;
  /** An unpaid hold whose spot the member released here (HoldActions). */
  onReleased?: (booking: MyBooking) => void;
  /** A booking the member just cancelled or released from this list: a line in its place keeps focus. */
  removed?: RemovedBooking | null;
  /** More about a booking under its facts (My Bookings: its guests and Add a guest). */
  renderExtra?: (booking: MyBooking, label: string) => ReactNode;
};

/** Where a booking left the list (its index then) and what became of it. */
export type RemovedBooking = { id: string; index: number; text: string };

/**
 * The line left where a cancelled booking was: the Cancel button went with its row, and
 * focus with it to the page body. The line takes focus, so a keyboard or screen-reader user hears
 * what happened and carries on from the same place in the list.
 */
function RemovedLine({ text }: { text: string }) {
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <li
      ref={ref}
      tabIndex={-1}
      className="flex items-start gap-2 rounded-xl border border-dashed border-slate-300 bg-slate-50 p-4 text-sm text-slate-700"
    >
      <CheckCircle2 aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-green-700" />
      {text}
    </li>
  );
}

const lateFacts = (b: MyBooking) => ({ start_time: b.startsAt.toISOString(), late_cancel_from: b.lateCancelFrom });

export function BookingList({
  bookings,
  emptyText,
  onCancel,
  cancellingId,
  withCalendar = false,
  now,
  onReleased,
  removed,
  renderExtra,
}: BookingListProps) {
  // Offline: Cancel waits for a connection and says so.
  const online = useOnline();
  const empty = <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-600">{emptyText}</p>;
  if (bookings.length === 0 && !removed) return empty;
  const removedAt = removed ? Math.min(removed.index, bookings.length) : -1;
  const items = bookings.map((b) => {
    const when = formatClassDateTime(b.startsAt);
    // A child's place says whose it is, on the row and on its buttons (cancel per person).
    const whose = b.childName ? ` for ${b.childName}` : '';
    const held = b.status === 'confirmed' && b.paymentStatus === 'pending';
    const late = onCancel && now && b.status === 'confirmed' && cancellingCountsNow(lateFacts(b), now);
    return (
      <li
        key={b.id}
        className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:flex-row sm:items-center sm:justify-between"
      >
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
            {b.className}
            {b.childName && <span className="rounded bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">For {b.childName}</span>}
            {b.status === 'cancelled' && <Badge tone="danger">Cancelled</Badge>}
            {held && <Badge tone="warning">{MY_BOOKINGS_MESSAGES.paymentPending}</Badge>}
          </p>
          <p className="text-sm text-slate-600">
            {when}
            {b.trainer && ` · ${b.trainer}`}
            {b.duration ? ` · ${b.duration} min` : ''}
          </p>
          {b.meetingPointName && (
            <p className="mt-1 flex items-start gap-1.5 text-sm text-slate-700">
              <MapPin aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-slate-400" />
              <MeetingPlace name={b.meetingPointName} mapUrl={b.meetingPointMapUrl} location={b.location} />
            </p>
          )}
          {held && b.holdExpiresAt && (
            <p className="mt-1 text-sm text-amber-800">
              Your spot is held until {formatClassTime(b.holdExpiresAt)} while the payment completes.
            </p>
          )}
          {late && (
            <p className="mt-2 flex items-start gap-1.5 text-sm text-amber-800">
              <AlertTriangle aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0" />
              {lateCancelWarning(lateFacts(b), b.type)}
            </p>
          )}
          {b.cancellation && <p className="mt-1 text-sm text-slate-700">{cancellationNote(b.cancellation)}</p>}
          {renderExtra?.(b, `${b.className} on ${when}`)}
        </div>
        {(withCalendar || onCancel) && (
          <div className="flex flex-wrap gap-2 sm:shrink-0">
            {withCalendar && b.status === 'confirmed' && b.paymentStatus === 'completed' && (
              <Button
                variant="outline"
                size="sm"
                onClick={() => downloadBookingIcs(b)}
                aria-label={`${MY_BOOKINGS_MESSAGES.addToCalendar}: ${b.className}${whose} on ${when}`}
              >
                <CalendarPlus aria-hidden="true" className="h-4 w-4" />
                {MY_BOOKINGS_MESSAGES.addToCalendar}
              </Button>
            )}
            {onCancel && held && (
              <HoldActions booking={b} label={`${b.className} on ${when}`} onReleased={onReleased ? () => onReleased(b) : undefined} />
            )}
            {onCancel && !held && (
              <Button
                variant="outline"
                size="sm"
                className="border-red-300 text-red-700 hover:border-red-400 hover:bg-red-50"
                loading={cancellingId === b.id}
                disabled={Boolean(cancellingId) || !online}
                onClick={() => onCancel(b)}
                aria-label={`Cancel ${b.className}${whose} on ${when}`}
                aria-describedby={online ? undefined : `${b.id}-offline`}
              >
                Cancel
              </Button>
            )}
            {onCancel && !held && !online && <OfflineNote id={`${b.id}-offline`}>{OFFLINE_NOTES.cancel}</OfflineNote>}
          </div>
        )}
      </li>
    );
  });
  if (removed) items.splice(removedAt, 0, <RemovedLine key={`removed-${removed.id}`} text={removed.text} />);
  return (
    <>
      <ul className="space-y-3">{items}</ul>
      {bookings.length === 0 && <div className="mt-3">{empty}</div>}
    </>
  );
}
