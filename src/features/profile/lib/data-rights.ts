/** What closing deletes and keeps, shown before the member confirms (docs/data-contract.md). */
export const CLOSE_ACCOUNT_WORDS = {
  deleted:
    'Deleted now: your profile and photo, your login, your bookings (future ones are cancelled by the usual cancellation rules), waitlist places, credits, signed documents, health answers, preferences and your children’s details.',
  kept: 'Kept: your payments and refunds, for 6 years, because HMRC requires the studio to keep its accounts; they no longer link to an account.',
  confirm: 'Close your account for good? This cannot be undone.',
};

/** "class_start_time" → "Class start time": the download's column names as words on its readable page. */
export function fieldLabel(key: string): string {
  const words = key.replace(/_/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : key;
}
