import { TRIAL_OFFER } from '@/config/trial';

/** Auth toasts of spec section 8, verbatim (the trial's as src/config/trial.ts words it: one free class). */
export const AUTH_MESSAGES = {
  signedIn: 'Signed in successfully!',
  accountCreated: 'Account created successfully! You can now sign in.',
  resetSent: 'Password reset email sent! Check your inbox.',
  resetFailed: 'Failed to send reset email',
  trialCheckEmail: TRIAL_OFFER.checkEmail,
  callbackFailed: 'Sign-in failed, please try again.',
} as const;

/**
 * /free-trial when the trial is not there to start: never a promise of one. The page
 * learns only what Supabase's sign-up answer says to anyone (the email has an account); whether a
 * new account's email had a trial before is said once its owner has confirmed it.
 */
export const TRIAL_MESSAGES = {
  existingAccount: 'This email already has an account, so no new free trial starts.',
  existingAccountHelp:
    'Sign in to book: if its free trial is still unused, your first class is free from there. Otherwise, see our memberships and packages.',
  trialUsedBefore: 'This email has had its free trial before, so your account is pay-as-you-go. See our memberships and packages.',
} as const;

/**
 * /auth/callback when a link does not sign in. `failed` is the spec's text (section 2);
 * the others say what happened and what to do, instead of it.
 */
export const CALLBACK_MESSAGES = {
  failed: AUTH_MESSAGES.callbackFailed,
  expired: 'This link has expired, request a new one',
  expiredHelp: {
    signup:
      'Each link works once and only for a while. Create your account again with the same email to get a new confirmation link. Already confirmed? Just sign in.',
    recovery: 'Each link works once and only for a while. Ask for a new reset link and use the newest email.',
    email_change: 'Each link works once and only for a while. Ask for the change again to get new links.',
  },
  otherBrowser: {
    signup: 'Your email is confirmed. Sign in to continue.',
    recovery: 'This reset link only works in the browser that asked for it. Open it there, or request a new one here.',
    email_change: 'This link only works in the browser that asked for it. Open it there.',
  },
  incomplete: 'This link is incomplete. Open it straight from the email, or request a new one.',
  offline: "We couldn't reach the server to check this link. Check your connection and try again.",
  rateLimited: 'Too many attempts. Please wait a moment, then try again.',
  /** GoTrue's answer to the first of an email change's two links (secure email change). */
  changePending: 'Confirmation link accepted. Please proceed to confirm link sent to the other email',
} as const;
