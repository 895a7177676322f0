import { useEffect, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import toast from 'react-hot-toast';
import { useAuth } from '@/lib/auth/auth-context';
import { Spinner } from '@/components/ui/spinner';
import { getAdminFlag } from '../api/get-admin-flag';
import { ADMIN_MESSAGES } from '../messages';

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
  const [allowedEmail, setAllowedEmail] = useState<string | null>(null);

  useEffect(() => {
    if (loading || paused) return;
    if (!hasSession) {
      toast.error(ADMIN_MESSAGES.signInAgain, { id: 'admin-guard' });
      void navigate('/admin/login', { replace: true });
      return;
    }
    let active = true;
    const deny = () => {
      if (!active) return;
      toast.error(ADMIN_MESSAGES.accessDenied, { id: 'admin-guard' });
      void navigate('/', { replace: true });
    };
    if (!email) {
      deny();
      return;
    }
    getAdminFlag(email).then((isAdmin) => (isAdmin ? active && setAllowedEmail(email) : deny()), deny);
    return () => {
      active = false;
    };
  }, [loading, paused, hasSession, email, navigate]);

  if (hasSession && email !== null && allowedEmail === email) return <>{children}</>;
  return <Spinner label="Checking admin access" className="min-h-screen" />;
}
