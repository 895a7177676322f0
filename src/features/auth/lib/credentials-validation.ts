import { MIN_PASSWORD_LENGTH, PASSWORD_TOO_SHORT } from '@/lib/auth/password-rules';

/** Form validation of spec section 5 for sign-in, sign-up and the trial sign-up. */
export const VALIDATION_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  passwordTooShort: PASSWORD_TOO_SHORT,
  fullNameRequired: 'Full name is required',
} as const;

// The same shape a browser accepts for <input type="email">.
const EMAIL_PATTERN = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export type CredentialErrors = Partial<Record<'email' | 'password' | 'fullName', string>>;

export function validateEmail(email: string): string | undefined {
  if (!email.trim()) return VALIDATION_MESSAGES.emailRequired;
  if (!EMAIL_PATTERN.test(email.trim())) return VALIDATION_MESSAGES.emailInvalid;
  return undefined;
}

export function validateCredentials(values: { email: string; password: string; fullName?: string }, options: { requireName?: boolean } = {}): CredentialErrors {
  const errors: CredentialErrors = {};
  if (options.requireName && !values.fullName?.trim()) errors.fullName = VALIDATION_MESSAGES.fullNameRequired;
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  if (!values.password) errors.password = VALIDATION_MESSAGES.passwordRequired;
  else if (values.password.length < MIN_PASSWORD_LENGTH) errors.password = VALIDATION_MESSAGES.passwordTooShort;
  return errors;
}
