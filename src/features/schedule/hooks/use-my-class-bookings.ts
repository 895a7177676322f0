import { useCallback, useEffect, useState } from 'react';
import { getMyClassBookings } from '../api/get-my-class-bookings';

export type BookingsByClass = { status: 'loading' } | { status: 'error' } | { status: 'ready'; byClass: Record<string, string> };

/** The member's booking id per class, loaded for `memberId` (null: wait). */
export function useMyClassBookings(memberId: string | null) {
  const [state, setState] = useState<{ memberId: string; value: BookingsByClass } | null>(null);

  useEffect(() => {
    if (!memberId) return;
    let active = true;
    getMyClassBookings(memberId).then(
      (rows) => active && setState({ memberId, value: { status: 'ready', byClass: Object.fromEntries(rows.map((r) => [r.class_id, r.id])) } }),
      () => active && setState({ memberId, value: { status: 'error' } }),
    );
    return () => {
      active = false;
    };
  }, [memberId]);

  const setBooking = useCallback((classId: string, bookingId: string | null) => {
    setState((s) => {
      if (!s || s.value.status !== 'ready') return s;
      const byClass = { ...s.value.byClass };
      if (bookingId) byClass[classId] = bookingId;
      else delete byClass[classId];
      return { ...s, value: { status: 'ready', byClass } };
    });
  }, []);

  const value: BookingsByClass = state && state.memberId === memberId ? state.value : { status: 'loading' };
  return { bookings: value, setBooking };
}
