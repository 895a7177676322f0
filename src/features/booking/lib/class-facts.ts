import type { ScheduleClass } from '../api/get-class-schedule';

/**
 * Words for the server's facts about a class. Nothing here decides a booking rule: locked, full,
 * bookable and the waitlist cut-off are answers and instants from the server (class_schedule).
 */
export type ClassLock = { locked: boolean; opensAt: Date | null };

export function lockOf(cls: Pick<ScheduleClass, 'refusal' | 'unlocks_at'>): ClassLock {
  const locked = cls.refusal === 'class_locked';
  return { locked, opensAt: locked && cls.unlocks_at ? new Date(cls.unlocks_at) : null };
}

/** The class takes children (it has an age range); one without is for adults only (decision 0021). */
export const takesChildren = (cls: Pick<ScheduleClass, 'min_age' | 'max_age'>) => cls.min_age != null || cls.max_age != null;

/** The class's age range in words ("Ages 4 to 12", "Ages 8 and over", "Ages up to 8"), or null for an adults' class. */
export function ageRangeText(cls: Pick<ScheduleClass, 'min_age' | 'max_age'>): string | null {
  if (!takesChildren(cls)) return null;
  if (cls.max_age == null) return `Ages ${cls.min_age} and over`;
  return cls.min_age == null ? `Ages up to ${cls.max_age}` : `Ages ${cls.min_age} to ${cls.max_age}`;
}

/** The caller holds this class: a confirmed booking. */
export const isBooked = (cls: Pick<ScheduleClass, 'my_booking_id' | 'my_payment_status'>) =>
  cls.my_booking_id !== null && cls.my_payment_status === 'completed';

/** The caller holds an unpaid spot in this class (a pay-as-you-go hold waiting for the card payment). */
export const isHeld = (cls: Pick<ScheduleClass, 'my_booking_id' | 'my_payment_status'>) =>
  cls.my_booking_id !== null && cls.my_payment_status === 'pending';

/**
 * Why the class cannot be booked now, in words for its button, or null when it can. The caller's
 * own booking or hold first ("held" tone), then the server's refusal.
 */
export function blockedLabel(cls: ScheduleClass): { label: string; tone: 'held' | 'refused' } | null {
  if (isBooked(cls)) return { label: 'Booked', tone: 'held' };
  if (isHeld(cls)) return { label: 'Payment pending', tone: 'held' };
  if (cls.bookable) return null;
  const label: Record<string, string> = {
    class_started: 'Class has started',
    class_locked: 'Locked',
    class_full: 'Fully Booked',
    not_authenticated: 'Sign in to book',
    outside_plan_period: 'After your plan ends',
    plan_paused: 'Membership paused',
    booking_blocked: 'Booking blocked',
  };
  return { label: (cls.refusal && label[cls.refusal]) ?? 'Not available', tone: 'refused' };
}
