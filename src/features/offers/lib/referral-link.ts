/**
 * A referral link is /membership?ref=CODE (decision 0084). The code is kept on this browser until
 * the person is signed in, then claimed once (claim_referral): a sign-up in between keeps it.
 */
const STORAGE_KEY = 'ffReferral';
const CODE = /^[A-Z0-9]{8}$/;

/** The page's ?ref= code, kept for after sign-in; returns it (upper case) or null. */
export function rememberReferral(search: string): string | null {
  const code = new URLSearchParams(search).get('ref')?.trim().toUpperCase() ?? '';
  if (!CODE.test(code)) return null;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // storage disabled: the link still works if they sign in from this page
  }
  return code;
}

export function storedReferral(): string | null {
  try {
    const code = localStorage.getItem(STORAGE_KEY);
    return code && CODE.test(code) ? code : null;
  } catch {
    return null;
  }
}

export function forgetReferral(): void {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // nothing was kept
  }
}

/** The link a member shares. */
export const referralLink = (origin: string, code: string) => `${origin}/membership?ref=${code}`;
