import { useCallback, useEffect, useState } from 'react';
import { getMyClassBookings, type MyClassBooking } from '../api/get-my-class-bookings';

export type BookingsByClass = { status: 'loading' } | { status: 'error' } | { status: 'ready'; byClass: Record<string, string> };

const byClassOf = (rows: MyClassBooking[]): Record<string, string> => Object.fromEntries(rows.map((r) => [r.class_id, r.id]));

/**
 * The member's booking id per class, loaded for `memberId` (null: wait, e.g. signed out).
 * `reload` reads them again without going back to loading (e.g. after a waitlist promotion) and
 * answers the fresh map, or null when it could not be read.
 */
export function useMyClassBookings(memberId: string | null) {
  const [state, setState] = useState<{ memberId: string; value: BookingsByClass } | null>(null);

  useEffect(() => {
    if (!memberId) return;
    let active = true;
    getMyClassBookings(memberId).then(
      (rows) => active && setState({ memberId, value: { status: 'ready', byClass: byClassOf(rows) } }),
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

  const reload = useCallback(async (): Promise<Record<string, string> | null> => {
    if (!memberId) return null;
    try {
      const byClass = byClassOf(await getMyClassBookings(memberId));
      setState((s) => (s && s.memberId !== memberId ? s : { memberId, value: { status: 'ready', byClass } }));
      return byClass;
    } catch {
      return null;
    }
  }, [memberId]);

  const value: BookingsByClass = state && state.memberId === memberId ? state.value : { status: 'loading' };
  return { bookings: value, setBooking, reload };
}
