import { restGet, rpc } from '@/testing/supabase-mocks';
import type { JsonBodyType } from 'msw';
import type { ClassRow } from '@/lib/supabase';

type ClassLike = Pick<ClassRow, 'id' | 'name' | 'trainer' | 'start_time'> & Partial<Pick<ClassRow, 'duration' | 'description'>>;

const HOUR = 3_600_000;

/**
 * A row of `my_bookings` as the server states it: a confirmed booking whose cancellation counts
 * from 12 hours before the class (the default window); a pending hold has no such instant.
 */
export function myBookingRow(id: string, cls: ClassLike, extra: Record<string, unknown> = {}) {
  const pending = extra.payment_status === 'pending';
  return {
    id,
    class_id: cls.id,
    type: 'paid',
    payment_status: 'completed',
    booked_at: '2025-11-01T09:00:00Z',
    hold_expires_at: null,
    class_name: cls.name,
    trainer: cls.trainer,
    start_time: cls.start_time,
    duration: cls.duration ?? 45,
    description: cls.description ?? null,
    late_cancel_from: pending ? null : new Date(Date.parse(cls.start_time) - 12 * HOUR).toISOString(),
    ...extra,
  };
}

/** `my_bookings`: the rows (or an error Response) the server answers; counts the requests. */
export function myBookingsHandler(resolve: () => unknown[] | Response, reads?: { my_bookings: number }) {
  return rpc('my_bookings', () => {
    if (reads) reads.my_bookings += 1;
    return resolve() as never;
  });
}

/**
 * What My Bookings reads beside my_bookings: the cancellations the database kept, the
 * member's guests and how each booking could bring one. Empty unless a test gives rows.
 */
export function myBookingsExtrasHandlers({
  cancellations = [],
  guests = [],
  guestOptions = [],
}: { cancellations?: JsonBodyType[]; guests?: JsonBodyType[]; guestOptions?: JsonBodyType[] } = {}) {
  return [
    restGet('booking_cancellations', () => cancellations),
    restGet('guest_places', () => guests),
    rpc('my_guest_options', () => guestOptions),
  ];
}
