/** What the member is told after changing plan (decision 0009). */
export const CHANGE_MESSAGES = {
  upgraded: 'You are now on Platinum Premium.',
  declined: 'Your card was declined: your plan has not changed.',
  pending: 'Your payment is being processed. Your plan changes as soon as it is confirmed.',
  noCard: 'There is no saved card for this membership.',
  downgraded: 'Your plan changes to Standard at your next renewal.',
} as const;
