/** The return page's texts (the spec has none for it), in one place so tests can quote them. */
export const PAYMENT_MESSAGES = {
  checking: 'Checking your payment',
  paidTitle: 'Payment received',
  paidPlan: (planName: string) => `Thank you! Your ${planName} purchase is confirmed.`,
  paidClass: (className: string, when: string) => `You're booked into ${className} on ${when}.`,
  paidNeedsRefund:
    'Your payment was received, but the class filled up before it was confirmed. The studio will refund you.',
  pendingTitle: 'Payment processing',
  pending: "We're waiting for the payment provider to confirm your payment. This page updates by itself.",
  stillPending: 'Still waiting for confirmation. Please check again in a moment.',
  failedTitle: 'Payment not completed',
  failed: 'Your payment did not go through and you have not been charged.',
  spotReleased: 'The spot you were holding has been released.',
  notFound: 'We could not find this payment.',
  error: 'Could not check your payment. Please try again.',
  signInFirst: 'Please sign in first.',
  checkAgain: 'Check again',
  toBookings: 'View My Bookings',
  toDashboard: 'Go to Dashboard',
  toSchedule: 'Back to Schedule',
  toMembership: 'Back to Membership',
} as const;
