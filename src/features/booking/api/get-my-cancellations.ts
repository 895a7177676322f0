import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Tables } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import type { MyBooking } from './get-my-bookings';

/** How many cancellations the Cancelled tab shows, newest first. */
export const CANCELLED_SHOWN = 100;

/** Who cancelled a booking, and why the studio did (booking_cancellations, docs/data-contract.md). */
export type Cancellation = {
  by: Tables<'booking_cancellations'>['cancelled_by'];
  /** Inside the late-cancel window: it cost what the place used (plan class, payment, session). */
  late: boolean;
  /** What the place used (bookings.type), for what the note says it cost. */
  type: string;
  /** The studio's reason, e.g. 'the studio is closed (Hall repairs)'. */
  reason: string | null;
};

export type CancelledBooking = MyBooking & { status: 'cancelled'; cancellation: Cancellation };

type CancellationRow = Pick<
  Tables<'booking_cancellations'>,
  | 'booking_id'
  | 'class_id'
  | 'class_name'
  | 'trainer'
  | 'class_start_time'
  | 'duration'
  | 'booking_type'
  | 'booked_at'
  | 'cancelled_by'
  | 'late'
  | 'reason'
>;

function toCancelledBooking(row: CancellationRow): CancelledBooking {
  return {
    id: row.booking_id,
    classId: row.class_id ?? '',
    status: 'cancelled',
    paymentStatus: 'completed',
    holdExpiresAt: null,
    type: row.booking_type,
    bookedAt: row.booked_at,
    className: row.class_name,
    trainer: row.trainer,
    startsAt: new Date(row.class_start_time),
    duration: row.duration,
    description: null,
    lateCancelFrom: null,
    cancellation: { by: row.cancelled_by, late: row.late, reason: row.reason, type: row.booking_type },
  };
}

/** The member's cancelled bookings (row-level security: their own), newest cancellation first. */
export async function getMyCancellations(): Promise<CancelledBooking[]> {
  const { data, error } = await (
    await loadSupabase()
  )
    .from('booking_cancellations')
    .select('booking_id, class_id, class_name, trainer, class_start_time, duration, booking_type, booked_at, cancelled_by, late, reason')
    .order('cancelled_at', { ascending: false })
    .limit(CANCELLED_SHOWN);
  if (error) throw error;
  return data.map(toCancelledBooking);
}

export const myCancellationsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.bookings.cancelled(memberId), queryFn: getMyCancellations });

export const useMyCancellations = (memberId: string | null) =>
  useQuery({ ...myCancellationsQueryOptions(memberId ?? ''), enabled: memberId !== null });
