import { formatWindow } from '@/lib/rules/late-cancel';
import type { ScheduleClass } from '../api/class-schedule';

/**
 * Words and small derivations for the server's facts about a class (never a rule of its own:
 * the server decided locked, full, bookable and the cut-offs).
 */
export type ClassLock = { locked: boolean; opensAt: Date | null };

export function lockOf(cls: Pick<ScheduleClass, 'refusal' | 'unlocks_at'>): ClassLock {
  const locked = cls.refusal === 'class_locked';
  return { locked, opensAt: locked && cls.unlocks_at ? new Date(cls.unlocks_at) : null };
}

/** The late-cancel window in words on a class card ("Free cancellation up to 12 hours before the start."). */
export function freeCancellationText(cls: Pick<ScheduleClass, 'start_time' | 'late_cancel_from'>): string {
  return `Free cancellation up to ${formatWindow(new Date(cls.start_time).getTime() - new Date(cls.late_cancel_from).getTime())} before the start.`;
}

/** The caller holds this class: a confirmed booking. */
export const isBooked = (cls: Pick<ScheduleClass, 'my_booking_id' | 'my_payment_status'>) => cls.my_booking_id !== null && cls.my_payment_status === 'completed';

/** The caller holds an unpaid spot in this class (a pay-as-you-go hold waiting for the card payment). */
export const isHeld = (cls: Pick<ScheduleClass, 'my_booking_id' | 'my_payment_status'>) => cls.my_booking_id !== null && cls.my_payment_status === 'pending';
