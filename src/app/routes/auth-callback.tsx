import { AuthCallbackPanel } from '@/features/auth/components/auth-callback-panel';

/** /auth/callback: where confirmation and reset emails land. */
export function AuthCallbackRoute() {
  return <AuthCallbackPanel />;
}
