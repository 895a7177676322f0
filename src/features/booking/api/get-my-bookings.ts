import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkedText } from '@/lib/checked-text';
import { compositeRows, type CompositeRow } from '@/lib/composite-row';
import type { Enums } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';
import type { Cancellation } from './get-my-cancellations';

/**
 * The member's bookings with what the rules say about each (`my_bookings`, docs/data-contract.md):
 * the class, a pending hold's expiry, and from when cancelling still counts against the plan.
 * My Bookings and the dashboard read this one query (one request, shared in the cache).
 */
type MyBookingRow = CompositeRow<
  'my_booking',
  'id' | 'class_id' | 'type' | 'payment_status' | 'booked_at' | 'class_name' | 'trainer' | 'start_time'
>;

export type MyBooking = {
  id: string;
  classId: string;
  /** Cancelling deletes the row on the server; My Bookings keeps it for the visit, marked cancelled (spec section 4). */
  status: 'confirmed' | 'cancelled';
  /** 'pending' while a pay-as-you-go hold waits for the card payment, until `holdExpiresAt`. */
  paymentStatus: Enums<'payment_status'>;
  holdExpiresAt: Date | null;
  type: string;
  bookedAt: string;
  className: string;
  trainer: string;
  startsAt: Date;
  duration: number | null;
  description: string | null;
  /** From then on cancelling still counts against the plan; null for a hold (it never does). */
  lateCancelFrom: string | null;
  /** Who cancelled it and why, for a cancellation the database kept (get-my-cancellations). */
  cancellation?: Cancellation;
  /** A child's place (family accounts): the child's name; absent or null for the member's own place. */
  childName?: string | null;
  /** Where the class meets when not in the hall (decision 0055): its name and map link; null = the hall. */
  meetingPointName?: string | null;
  meetingPointMapUrl?: string | null;
  /** private.class_where (the hall's address when no meeting point) and the point's directions. */
  location?: string | null;
  directions?: string | null;
};

function toMyBooking(row: MyBookingRow): MyBooking {
  return {
    id: row.id,
    classId: row.class_id,
    status: 'confirmed',
    paymentStatus: checkedText<Enums<'payment_status'>>(row.payment_status),
    holdExpiresAt: row.hold_expires_at ? new Date(row.hold_expires_at) : null,
    type: row.type,
    bookedAt: row.booked_at,
    className: row.class_name,
    trainer: row.trainer,
    startsAt: new Date(row.start_time),
    duration: row.duration,
    description: row.description,
    lateCancelFrom: row.late_cancel_from,
    childName: row.dependant_name,
    meetingPointName: row.meeting_point_name,
    meetingPointMapUrl: row.meeting_point_map_url,
    location: row.location,
    directions: row.directions,
  };
}

export async function getMyBookings(): Promise<MyBooking[]> {
  const { data, error } = await (await loadSupabase()).rpc('my_bookings');
  if (error) throw error;
  return compositeRows<'my_booking', 'id' | 'class_id' | 'type' | 'payment_status' | 'booked_at' | 'class_name' | 'trainer' | 'start_time'>(
    data,
  ).map(toMyBooking);
}

/** Keyed by member so another account never sees this one's cache; the RPC reads the session's member. */
export const myBookingsQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.bookings.mine(memberId), queryFn: getMyBookings });

export const useMyBookings = (memberId: string | null) =>
  useQuery({ ...myBookingsQueryOptions(memberId ?? ''), enabled: memberId !== null });
