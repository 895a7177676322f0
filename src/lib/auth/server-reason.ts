/**
 * The reason the server gave for refusing an account change, in words a member can act on, or
 * null when it gave none we know (the caller then shows its usual failure). "Errors name
 * the reason the server knows" instead of "Failed to ...".
 */
export const SERVER_REASONS = {
  samePassword: 'Your new password must be different from your current password.',
  resetTooSoon: 'We sent you a reset link less than a minute ago. Check your inbox (and spam folder), or ask again in a minute.',
  tooManyRequests: 'Too many attempts. Please wait a moment, then try again.',
  weakPassword: 'This password is too easy to guess. Please choose a stronger one.',
} as const;

type ServerError = { code?: string | null; status?: number | null };

export function serverReason(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, status } = error as ServerError;
  if (code === 'same_password') return SERVER_REASONS.samePassword;
  if (code === 'weak_password') return SERVER_REASONS.weakPassword;
  if (code === 'over_email_send_rate_limit') return SERVER_REASONS.resetTooSoon;
  if (code === 'over_request_rate_limit' || status === 429) return SERVER_REASONS.tooManyRequests;
  return null;
}
