/** The sign-in error mapping of spec section 8, applied to GoTrue's error messages. */
export const SIGN_IN_ERRORS = {
  invalidCredentials: "Invalid email or password. Please check your credentials or sign up if you don't have an account.",
  emailNotConfirmed: 'Please check your email and confirm your account before signing in.',
  userNotFound: 'No account found with this email. Please sign up first.',
  tooManyRequests: 'Too many sign-in attempts. Please wait a moment before trying again.',
  fallback: 'Authentication failed. Please try again.',
} as const;

export function signInErrorMessage(error: { message?: string | null; status?: number | null } | null | undefined): string {
  const message = error?.message?.trim() ?? '';
  if (message === 'Invalid login credentials') return SIGN_IN_ERRORS.invalidCredentials;
  if (message.includes('Email not confirmed')) return SIGN_IN_ERRORS.emailNotConfirmed;
  if (message === 'User not found') return SIGN_IN_ERRORS.userNotFound;
  // GoTrue's rate limiter answers 429 with its own wording ("For security purposes, ...").
  if (message === 'Too many requests' || error?.status === 429) return SIGN_IN_ERRORS.tooManyRequests;
  // Not words a person can read (an empty or unparsed body, e.g. "{}"): the fallback.
  if (!message || message.startsWith('{') || message.startsWith('[')) return SIGN_IN_ERRORS.fallback;
  return message;
}
