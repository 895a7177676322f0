import { useEffect, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';
import { useAuth } from '@/lib/auth/auth-context';
import { useAdminFlag } from '../api/get-admin-flag';
import { ADMIN_MESSAGES } from '../lib/messages';

/**
 * Every admin page (spec section 6): without a session, 'Please sign in again' and /admin/login;
 * a user whose member row (by email) is not an admin gets 'Access denied' and goes home. Nothing
 * of the admin UI renders until the check passes. The database enforces the same rule (RLS and
 * the admin RPCs); this only keeps the UI honest. `paused` stops it while the admin logs out.
 */
export function AdminGuard({ children, paused = false }: { children: ReactNode; paused?: boolean }) {
  const { loading, session } = useAuth();
  const navigate = useNavigate();
  const hasSession = session !== null;
  const email = session?.user.email ?? null;
  const flag = useAdminFlag(loading || paused ? null : email);
  const denied = flag.isError || (flag.isSuccess && flag.data !== true);

  useEffect(() => {
    if (loading || paused) return;
    if (!hasSession) {
      toast.error(ADMIN_MESSAGES.signInAgain, { id: 'admin-guard' });
      void navigate(paths.admin.login, { replace: true });
    } else if (!email || denied) {
      toast.error(ADMIN_MESSAGES.accessDenied, { id: 'admin-guard' });
      void navigate(paths.home, { replace: true });
    }
  }, [loading, paused, hasSession, email, denied, navigate]);

  if (hasSession && email !== null && flag.data === true) return <>{children}</>;
  return <Spinner label="Checking admin access" className="min-h-screen" />;
}
