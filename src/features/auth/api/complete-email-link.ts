import type { AuthResponse, Session } from '@supabase/supabase-js';
import { isPasswordRecovery } from '@/lib/auth/auth-redirect';
import { supabase } from '@/lib/supabase';
import { failureFromRedirect, failureOf, type CallbackFailure, type CallbackLink, type EmailLinkType } from '../lib/callback-link';
import { waitForCallbackSession } from './wait-for-callback-session';

export type EmailLinkResult =
  | { status: 'signed-in'; session: Session; recovery: boolean }
  /** The first of an email change's two links: GoTrue counted it, nothing is signed in yet. */
  | { status: 'change-pending' }
  | { status: 'failed'; failure: CallbackFailure };

/**
 * One verification per link: a token works once, and React may run the callback's effect twice
 * (Strict Mode, a re-render), so a second call gets the first one's answer.
 */
const verifications = new Map<string, Promise<AuthResponse>>();

function verifyOnce(tokenHash: string, type: EmailLinkType): Promise<AuthResponse> {
  let pending = verifications.get(tokenHash);
  if (!pending) {
    pending = supabase.auth.initialize().then(() => supabase.auth.verifyOtp({ token_hash: tokenHash, type }));
    verifications.set(tokenHash, pending);
  }
  return pending;
}

/**
 * Signs in with what an email link brought to /auth/callback:
 * - `?token_hash=…&type=…` (the current emails): `verifyOtp`, which answers the session itself, so
 *   the link works in any browser, on any device;
 * - `?code=…` (links sent before): supabase-js exchanges it, in the browser that asked only;
 * - GoTrue's error parameters: the failure they name.
 */
export async function completeEmailLink(link: CallbackLink): Promise<EmailLinkResult> {
  if (link.kind === 'error') return { status: 'failed', failure: failureFromRedirect(link) };

  if (link.kind === 'token-hash') {
    if (!link.type) return { status: 'failed', failure: { reason: 'incomplete', purpose: link.purpose } };
    const { data, error } = await verifyOnce(link.tokenHash, link.type);
    if (error) {
      const failure = failureOf(error, link.purpose);
      // Nothing was spent: the same link may be tried again.
      if (failure.reason === 'offline' || failure.reason === 'rate-limited') verifications.delete(link.tokenHash);
      return { status: 'failed', failure };
    }
    // An invitation (an imported member, decision 0065) signs in once to choose a password, as a reset does.
    if (data.session) return { status: 'signed-in', session: data.session, recovery: link.type === 'recovery' || link.type === 'invite' };
    return link.type === 'email_change' ? { status: 'change-pending' } : { status: 'failed', failure: { reason: 'failed' } };
  }

  const { session, error } = await waitForCallbackSession();
  if (error) return { status: 'failed', failure: failureOf(error, link.purpose) };
  if (session) return { status: 'signed-in', session, recovery: link.purpose === 'recovery' || isPasswordRecovery() };
  // A code supabase-js did not even try: this browser holds no verifier, it did not ask. GoTrue
  // confirmed the address before it handed out the code.
  if (link.code) return { status: 'failed', failure: { reason: 'other-browser', purpose: link.purpose } };
  return { status: 'failed', failure: { reason: 'failed' } };
}
