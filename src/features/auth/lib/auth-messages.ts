/** Auth toasts of spec section 8, verbatim. */
export const AUTH_MESSAGES = {
  signedIn: 'Signed in successfully!',
  accountCreated: 'Account created successfully! You can now sign in.',
  resetSent: 'Password reset email sent! Check your inbox.',
  resetFailed: 'Failed to send reset email',
  trialCheckEmail: 'Check your email to confirm your account and start your free 7-day trial!',
  callbackFailed: 'Sign-in failed, please try again.',
} as const;
