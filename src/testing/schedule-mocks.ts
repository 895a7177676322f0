import type { ScheduleClass, ScheduleSummary } from '@/features/booking/api/get-class-schedule';
import { makeClass, rpc } from './supabase-mocks';

/**
 * A row of `class_schedule` as the server states it: a bookable class by default; override the
 * facts to stand for what the server decided (locked, full, booked, a hold...).
 */
export function makeScheduleClass(overrides: Partial<ScheduleClass> = {}): ScheduleClass {
  const base = makeClass({
    ...(overrides.capacity !== undefined ? { capacity: overrides.capacity } : {}),
    ...(overrides.spots_left !== undefined ? { spots_left: overrides.spots_left } : {}),
  });
  const start = overrides.start_time ?? base.start_time;
  const startMs = new Date(start).getTime();
  const full = (overrides.spots_left ?? base.spots_left) <= 0;
  return {
    id: base.id,
    name: base.name,
    description: base.description,
    duration: base.duration,
    start_time: start,
    trainer: base.trainer,
    type: base.type,
    capacity: base.capacity,
    current_bookings: base.current_bookings,
    spots_left: base.spots_left,
    is_premium: base.is_premium,
    unlock_for_standard: base.unlock_for_standard,
    price_payg: base.price_payg,
    bookable: !full,
    refusal: full ? 'class_full' : null,
    unlocks_at: null,
    booking_type: 'paid',
    needs_payment: false,
    paid_refusal: null,
    trial_refusal: 'trial_unavailable',
    can_join_waitlist: full,
    waitlist_refusal: full ? null : 'class_not_full',
    waitlist_closes_at: new Date(startMs - 2 * 3_600_000).toISOString(),
    late_cancel_from: new Date(startMs - 12 * 3_600_000).toISOString(),
    my_booking_id: null,
    my_payment_status: null,
    my_hold_expires_at: null,
    my_waitlist_position: null,
    waitlist_size: 0,
    ...overrides,
  };
}

type Args = Record<string, unknown>;

/** `class_schedule`: the rows the server would answer for these arguments (a page, filters, one class). */
export function scheduleHandler(resolve: (args: Args) => ScheduleClass[] | Response) {
  return rpc('class_schedule', ({ args }) => resolve(args));
}

/** `class_schedule_summary`: the tiles for these filters. */
export function scheduleSummaryHandler(resolve: (args: Args) => ScheduleSummary) {
  return rpc('class_schedule_summary', ({ args }) => resolve(args));
}
