import { paths } from '@/config/paths';

/** The views of /signin a link can open directly (`/signin?view=reset`): Reset Password and Create Account. */
export type SignInView = 'reset' | 'signup';

export function signInViewHref(view: SignInView): string {
  return `${paths.signIn.path}?view=${view}`;
}

/** The view `?view=` asks for, or null. */
export function requestedSignInView(value: string | null): SignInView | null {
  return value === 'reset' || value === 'signup' ? value : null;
}
