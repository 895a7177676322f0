/** Auth toasts of spec section 8, verbatim. */
export const AUTH_MESSAGES = {
  signedIn: 'Signed in successfully!',
  accountCreated: 'Account created successfully! You can now sign in.',
  /**
   * A sign-up that must confirm its email first. Not in section 8: its 'Account created
   * successfully! You can now sign in.' is only true when the sign-up returns a session. Hosted
   * Supabase answers a sign-up of an already registered address exactly like a new one (and
   * sends nothing), so the same words must be true in both cases.
   */
  signUpCheckEmail: 'Check your email to confirm your account, then sign in.',
  resetSent: 'Password reset email sent! Check your inbox.',
  resetFailed: 'Failed to send reset email',
  trialCheckEmail: 'Check your email to confirm your account and start your free 7-day trial!',
  callbackFailed: 'Sign-in failed, please try again.',
} as const;
