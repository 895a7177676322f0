import type { RefundReason } from '../api/get-refunds-owed';

/** Why a refund is owed, as the admin reads it (refunds_owed.reason). */
export const REFUND_REASON_LABELS: Readonly<Record<RefundReason, string>> = {
  admin_cancelled: 'Booking cancelled by an admin',
  class_deleted: 'Class deleted',
  timetable_regenerated: 'Timetable regenerated',
  member_deleted: 'Member deleted',
  class_filled: 'Paid after the class filled',
  duplicate_payment: 'Paid twice for the same plan',
  superseded_checkout: 'Paid for a checkout replaced by a newer one',
  member_removed: 'Paid after the member was removed',
  period_already_paid: 'Paid for a membership period already paid or ended',
  member_cancelled_in_time: 'Cancelled by the member in time (free cancellation)',
  package_refunded: "A package's unused sessions refunded",
  booking_refused: 'Paid, but the place could no longer be booked',
};

/** What the screen says of a refund through its provider (SumUp for cards, GoCardless for Direct Debit: decision 0103). */
export const providerRefundWords = (provider: 'SumUp' | 'GoCardless') => ({
  refunded: `Refunded through ${provider}`,
  refundFailed: `Could not refund through ${provider}. Please try again.`,
  inProgress: `${provider} refund under way`,
  unconfirmed: `${provider} did not confirm the refund: check the ${provider} dashboard, then mark it refunded.`,
  lastFailed: `Last ${provider} attempt failed`,
});

export const REFUND_MESSAGES = {
  loadFailed: 'Could not load the refunds owed',
  marked: 'Marked as refunded',
  markFailed: 'Could not mark the refund as refunded. Please try again.',
  notThroughProvider: 'Not paid through SumUp: refund it another way, then mark it refunded.',
  checkFailed: 'Could not check for paid bookings. Please try again.',
} as const;

/**
 * The warning before a deletion that turns paid bookings into refunds owed (decision 0010), or nothing
 * when none are affected. `what` names the action: "Deleting this class", "Regenerating the timetable".
 */
export function paidBookingsWarning(what: string, count: number): string | null {
  if (count <= 0) return null;
  const bookings = count === 1 ? '1 paid booking' : `${count} paid bookings`;
  return `${what} removes ${bookings}: ${count === 1 ? 'it' : 'each'} will be listed under Refunds owed in Bookings Management.`;
}
