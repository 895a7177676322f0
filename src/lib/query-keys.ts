import { adminKeys } from './keys/admin';
import { bookingKeys } from './keys/booking';
import { classKeys } from './keys/classes';
import { coachKeys } from './keys/coach';
import { membershipKeys } from './keys/membership';
import { profileKeys } from './keys/profile';

/**
 * Query keys of every server resource, gathered in one place so that a change made by one feature
 * can invalidate what another shows (booking a class changes the schedule, My Bookings, the
 * dashboard and the plan usage) without features importing each other. Keys are hierarchical:
 * invalidating `queryKeys.bookings.all` refreshes every bookings query.
 *
 * Each feature's keys are a module of their own (lib/keys): a visitor's timetable imports
 * `classKeys` alone, and so loads none of the members' or admins' keys; code on a member's or an
 * admin's screen uses this whole object.
 */
export const queryKeys = {
  ...bookingKeys,
  classes: classKeys,
  ...membershipKeys,
  ...profileKeys,
  coach: coachKeys,
  admin: adminKeys,
} as const;
