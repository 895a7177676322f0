import { useSearchParams } from 'react-router-dom';
import { SignInPanel } from '@/features/auth/components/sign-in-panel';
import { safeRedirect } from '@/features/auth/lib/safe-redirect';

/** /signin: back to the page that asked (`?redirect=`, on this site only) after signing in. */
export function SignInRoute() {
  const [params] = useSearchParams();
  return <SignInPanel target={safeRedirect(params.get('redirect'))} />;
}
