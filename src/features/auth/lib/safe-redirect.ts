import { paths } from '@/config/paths';

export const DEFAULT_AFTER_SIGN_IN = paths.mySchedule;

/**
 * Where to go after signing in: the `redirect` parameter only when it is a path on this site
 * (never `//evil.example`, `/\evil`, `https://...` or `javascript:`), else /my-schedule.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return DEFAULT_AFTER_SIGN_IN;
  const base = 'https://studio.invalid';
  try {
    const url = new URL(value, base);
    if (url.origin !== base) return DEFAULT_AFTER_SIGN_IN;
    if (url.pathname === paths.signIn.path || url.pathname.startsWith('/auth/')) return DEFAULT_AFTER_SIGN_IN;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
}
