import { z } from 'zod';

/** Credential rules of spec section 5, shared by sign-in, sign-up, the admin portal, the reset link and Change Password. */
export const MIN_PASSWORD_LENGTH = 6;
export const PASSWORD_TOO_SHORT = 'Password must be at least 6 characters long';

export const CREDENTIAL_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: PASSWORD_TOO_SHORT,
} as const;

export const PASSWORD_CHANGE_MESSAGES = {
  bothRequired: 'Please fill in both password fields',
  tooShort: PASSWORD_TOO_SHORT,
  mismatch: 'Passwords do not match',
  updated: 'Password updated successfully!',
  failed: 'Failed to change password. Please try again.',
} as const;

// The same shape a browser accepts for <input type="email">.
const EMAIL_PATTERN =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** An email address, trimmed: required, then of email shape. */
export const emailSchema = z
  .string()
  .trim()
  .min(1, CREDENTIAL_MESSAGES.emailRequired)
  .regex(EMAIL_PATTERN, CREDENTIAL_MESSAGES.emailInvalid);

/** A member's password: required, at least 6 characters (never trimmed). */
export const passwordSchema = z.string().min(1, CREDENTIAL_MESSAGES.passwordRequired).min(MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT);

/**
 * A new password and its confirmation: both required, then at least 6 characters, then
 * matching. One message at a time, on the confirmation, as the spec orders the rules.
 */
export const newPasswordSchema = z.object({ password: z.string(), confirm: z.string() }).superRefine(({ password, confirm }, ctx) => {
  const message =
    !password || !confirm
      ? PASSWORD_CHANGE_MESSAGES.bothRequired
      : password.length < MIN_PASSWORD_LENGTH
        ? PASSWORD_CHANGE_MESSAGES.tooShort
        : password !== confirm
          ? PASSWORD_CHANGE_MESSAGES.mismatch
          : null;
  if (message) ctx.addIssue({ code: 'custom', path: ['confirm'], message });
});

export type NewPassword = z.infer<typeof newPasswordSchema>;
