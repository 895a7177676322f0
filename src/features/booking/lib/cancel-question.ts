import { lateCancelFeeText, policyAt, type AttendancePolicy } from '@/lib/attendance-policy';
import { cancellingCountsNow, lateCancelWarning } from './late-cancel';
import { MY_BOOKINGS_MESSAGES } from './my-bookings-messages';

/** The booking a member is about to cancel, as both booking screens know it. */
export type CancelTarget = {
  bookingId: string;
  /** The class's start (ISO). */
  startTime: string;
  /**
   * From when cancelling still counts against the plan (the server's instant). Null for a confirmed
   * booking when the studio moved the class after it was booked: cancelling is then free to the end.
   */
  lateCancelFrom: string | null;
  /** A confirmed place (not a hold waiting for its payment). */
  confirmed: boolean;
  /** A pay-as-you-go place paid by card, which cancelling in time refunds. */
  paidByCard: boolean;
  /** What the place used (bookings.type): what a late cancellation costs, and what comes back in time. */
  type: string;
  /** When it was booked: the attendance policy it was made under (decision 0080); unknown: the one in force. */
  bookedAt?: string | null;
};

/**
 * Asked before cancelling: a class the studio moved after the member booked is free to cancel
 * whatever the time; inside the late-cancel window the member is told it still counts; before it, a
 * place paid by card is told its payment comes back (the database owes it). A late cancellation
 * under an attendance policy also says its fee and strike (`policies`: the policy over time).
 */
export function cancelQuestion(target: CancelTarget, now: Date, policies: readonly AttendancePolicy[] = []): string {
  const facts = { start_time: target.startTime, late_cancel_from: target.lateCancelFrom };
  if (target.confirmed && target.lateCancelFrom === null)
    return `${MY_BOOKINGS_MESSAGES.freeAfterStudioChange}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`;
  if (cancellingCountsNow(facts, now)) {
    const fee = target.confirmed ? lateCancelFeeText(policyAt(policies, target.bookedAt ? new Date(target.bookedAt) : now)) : null;
    return `${lateCancelWarning(facts, target.type)}${fee ? ` ${fee}` : ''}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`;
  }
  if (target.paidByCard) return `${MY_BOOKINGS_MESSAGES.refundInTime}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`;
  if (target.type === 'credit') return `${MY_BOOKINGS_MESSAGES.sessionBackInTime}\n\n${MY_BOOKINGS_MESSAGES.confirmCancel}`;
  return MY_BOOKINGS_MESSAGES.confirmCancel;
}
