/**
 * What an auth email link put in the URL, read once at startup: supabase-js clears the hash
 * (tokens, `type=recovery`, `error_description`) as soon as it has stored the session, which can
 * happen before the lazily loaded /auth/callback screen renders.
 */
export type AuthRedirectInfo = { type: string | null; errorDescription: string | null };

export function readAuthRedirect(href: string): AuthRedirectInfo {
  const url = new URL(href);
  const hash = new URLSearchParams(url.hash.replace(/^#/, ''));
  const query = url.searchParams;
  return {
    type: hash.get('type') ?? query.get('type'),
    errorDescription: hash.get('error_description') ?? query.get('error_description'),
  };
}

export const initialAuthRedirect: AuthRedirectInfo =
  typeof window === 'undefined' ? { type: null, errorDescription: null } : readAuthRedirect(window.location.href);

let recovery = initialAuthRedirect.type === 'recovery';

/** supabase-js reported a password-recovery sign-in (its PASSWORD_RECOVERY event). */
export function markPasswordRecovery(): void {
  recovery = true;
}

/** Whether this visit came from a password-reset link (the hash or query said type=recovery). */
export function isPasswordRecovery(): boolean {
  return recovery;
}
