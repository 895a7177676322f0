/** Password rules of spec section 5, shared by sign-up, the reset link and Change Password. */
export const MIN_PASSWORD_LENGTH = 6;
export const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';

export const PASSWORD_CHANGE_MESSAGES = {
  bothRequired: 'Please fill in both password fields',
  tooShort: PASSWORD_TOO_SHORT,
  mismatch: 'Passwords do not match',
  updated: 'Password updated successfully!',
  failed: 'Failed to change password. Please try again.',
} as const;

/** The first broken rule of a password change (new password and its confirmation), or null. */
export function passwordChangeError(password: string, confirmation: string): string | null {
  if (!password || !confirmation) return PASSWORD_CHANGE_MESSAGES.bothRequired;
  if (password.length < MIN_PASSWORD_LENGTH) return PASSWORD_CHANGE_MESSAGES.tooShort;
  if (password !== confirmation) return PASSWORD_CHANGE_MESSAGES.mismatch;
  return null;
}
