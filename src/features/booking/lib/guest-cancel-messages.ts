/** The guest's cancel page (/guest/cancel?token=…): a guest cancels their place from their email's link (decision 0031's token). */
export const GUEST_CANCEL_MESSAGES = {
  loading: 'Loading your guest place',
  linkGone: 'This link no longer works',
  linkGoneHelp: 'If you think you still have a place, ask the member who invited you.',
  loadFailed: 'Could not load your guest place. Please check your connection and try again.',
  tryAgain: 'Try again',
  booked: (host: string, className: string, when: string) => `${host} has booked you a place on ${className}, ${when}, as their guest.`,
  cancelFailed: 'Could not cancel your guest place, please try again.',
} as const;
