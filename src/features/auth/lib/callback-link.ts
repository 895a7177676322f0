/**
 * What an auth email's link put in /auth/callback's URL, and how a failed link is explained
 * . The emails link to `/auth/callback?token_hash=…&type=…` (supabase/templates), which
 * the callback verifies with `verifyOtp`, so they work in any browser; links sent before that land
 * with `?code=` (the PKCE flow, only in the browser that asked) or with GoTrue's error parameters.
 */

/** The verifyOtp types of GoTrue's email links (its verifyTokenHash). */
export const EMAIL_LINK_TYPES = ['email', 'signup', 'invite', 'magiclink', 'recovery', 'email_change'] as const;
export type EmailLinkType = (typeof EMAIL_LINK_TYPES)[number];

/** What the link was for: it decides the screen's title and how to get a new one. */
export type LinkPurpose = 'signup' | 'recovery' | 'email_change';

export type CallbackLink =
  /** A link of the current emails: `type` is null when missing or not one of GoTrue's. */
  | { kind: 'token-hash'; tokenHash: string; type: EmailLinkType | null; purpose: LinkPurpose }
  /** GoTrue's /verify sent the browser back with an error (an older link, expired or used). */
  | { kind: 'error'; code: string | null; description: string | null; purpose: LinkPurpose }
  /** A PKCE `?code=` (supabase-js exchanges it, in the browser that asked), or nothing: a stored session. */
  | { kind: 'session'; code: string | null; purpose: LinkPurpose };

const isLinkType = (value: string | null): value is EmailLinkType => (EMAIL_LINK_TYPES as readonly (string | null)[]).includes(value);

function purposeOf(type: string | null): LinkPurpose {
  if (type === 'recovery') return 'recovery';
  if (type === 'email_change') return 'email_change';
  return 'signup';
}

/** Reads the callback URL's query and fragment (GoTrue puts errors in both, sessions in the fragment). */
export function readCallbackLink(search: string, hash: string): CallbackLink {
  const query = new URLSearchParams(search);
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const get = (name: string) => query.get(name) ?? fragment.get(name);
  const type = get('type');
  const tokenHash = query.get('token_hash');
  if (tokenHash) return { kind: 'token-hash', tokenHash, type: isLinkType(type) ? type : null, purpose: purposeOf(type) };
  const code = get('error_code');
  const description = get('error_description');
  if (code || description || get('error')) return { kind: 'error', code, description, purpose: purposeOf(type) };
  return { kind: 'session', code: query.get('code'), purpose: purposeOf(type) };
}

/** Why a link did not sign in, in the terms the screen explains. */
export type CallbackFailure =
  /** Expired or already used: GoTrue cannot tell them apart (otp_expired), nor can we. */
  | { reason: 'expired'; purpose: LinkPurpose }
  /** A `?code=` link opened in another browser than the one that asked (sent before). */
  | { reason: 'other-browser'; purpose: LinkPurpose }
  /** Cut short or altered: no type, an unknown type, a refused request. */
  | { reason: 'incomplete'; purpose: LinkPurpose }
  | { reason: 'offline' }
  | { reason: 'rate-limited' }
  /** Anything else: the spec's "Sign-in failed, please try again." */
  | { reason: 'failed' };

/** The parts of a supabase-js AuthError the classification reads. */
export type AuthErrorLike = { name?: string; code?: string | null; status?: number; message?: string };

const EXPIRED_CODES = new Set(['otp_expired', 'flow_state_expired', 'flow_state_not_found']);
/** GoTrue's text for an unknown, used or expired link (older versions sent error_code=403 with it). */
const EXPIRED_TEXT = 'Email link is invalid or has expired';

/** The failure a verifyOtp, a code exchange or GoTrue's redirect reported. */
export function failureOf(error: AuthErrorLike, purpose: LinkPurpose): CallbackFailure {
  const code = error.code ?? '';
  if (EXPIRED_CODES.has(code) || error.message === EXPIRED_TEXT) return { reason: 'expired', purpose };
  if (code === 'pkce_code_verifier_not_found' || code === 'bad_code_verifier') return { reason: 'other-browser', purpose };
  if (code === 'over_request_rate_limit' || error.status === 429) return { reason: 'rate-limited' };
  // supabase-js's name for a request that never got an answer (offline, or a gateway error).
  if (error.name === 'AuthRetryableFetchError') return { reason: 'offline' };
  if (code === 'validation_failed') return { reason: 'incomplete', purpose };
  return { reason: 'failed' };
}

/** The failure GoTrue's /verify redirect carries in the URL. */
export function failureFromRedirect(link: Extract<CallbackLink, { kind: 'error' }>): CallbackFailure {
  return failureOf({ code: link.code, message: link.description ?? undefined }, link.purpose);
}
