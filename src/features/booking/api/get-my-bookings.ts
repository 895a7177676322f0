import { useCallback } from 'react';
import { useLoaded } from '@/hooks/use-loaded';
import { supabase } from '@/lib/supabase';

/** A member's booking joined to its class, as My Bookings shows it. */
export type MyBooking = {
  id: string;
  classId: string;
  /** Cancelling deletes the row on the server; the screen keeps it, marked cancelled (spec section 4). */
  status: 'confirmed' | 'cancelled';
  /** 'pending' while a pay-as-you-go booking awaits payment. */
  paymentStatus: string;
  type: string;
  bookedAt: string;
  className: string;
  trainer: string;
  startsAt: Date;
  duration: number | null;
  description: string | null;
  /** `classes.late_cancel_window` (interval text); null falls back to the studio default. */
  lateCancelWindow: string | null;
};

/** The joined class: `start_time` per the schema, or a `datetime` field where a row carries one (spec section 3). */
type JoinedClass = {
  name?: string | null;
  trainer?: string | null;
  start_time?: string | null;
  datetime?: string | null;
  duration?: number | null;
  description?: string | null;
  late_cancel_window?: string | null;
};

type BookingWithClass = {
  id: string;
  class_id: string;
  type: string;
  payment_status: string;
  booked_at: string;
  classes: JoinedClass | null;
};

export function toMyBooking(row: BookingWithClass): MyBooking | null {
  const cls = row.classes;
  const when = cls?.start_time ?? cls?.datetime;
  const startsAt = when ? new Date(when) : null;
  if (!cls || !startsAt || Number.isNaN(startsAt.getTime())) return null;
  return {
    id: row.id,
    classId: row.class_id,
    status: 'confirmed',
    paymentStatus: row.payment_status,
    type: row.type,
    bookedAt: row.booked_at,
    className: cls.name ?? '',
    trainer: cls.trainer ?? '',
    startsAt,
    duration: cls.duration ?? null,
    description: cls.description ?? null,
    lateCancelWindow: cls.late_cancel_window ?? null,
  };
}

/** Every booking of the member, with its class (`classes(*)` so a `datetime` column is read too when present). */
export async function getMyBookings(memberId: string): Promise<MyBooking[]> {
  const { data, error } = await supabase
    .from('bookings')
    .select('id, class_id, type, payment_status, booked_at, classes(*)')
    .eq('member_id', memberId)
    .order('booked_at', { ascending: false });
  if (error) throw error;
  return (data as unknown as BookingWithClass[]).map(toMyBooking).filter((b): b is MyBooking => b !== null);
}

/** Loads the member's bookings; `markCancelled` updates the local list after a cancellation. */
export function useMyBookings(memberId: string | null) {
  const { state, update } = useLoaded(memberId, getMyBookings);
  const markCancelled = useCallback(
    (bookingId: string) => update((list) => list.map((b) => (b.id === bookingId ? { ...b, status: 'cancelled' as const } : b))),
    [update],
  );
  return { state, markCancelled };
}
