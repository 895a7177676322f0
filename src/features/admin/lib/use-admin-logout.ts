import { paths } from '@/config/paths';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { useAuth } from '@/lib/auth/auth-context';
import { ADMIN_MESSAGES } from './messages';

/** Logout: sign out, clear ffEmail and adminAuthenticated (the AuthProvider's signOut does both), back to the admin login. */
export function useAdminLogout() {
  const { signOut } = useAuth();
  const navigate = useNavigate();
  const [loggingOut, setLoggingOut] = useState(false);

  async function logout() {
    setLoggingOut(true);
    try {
      await signOut();
      toast.success(ADMIN_MESSAGES.loggedOut);
    } catch {
      toast.error(ADMIN_MESSAGES.logoutFailed);
    }
    void navigate(paths.admin.login, { replace: true });
  }

  return { logout, loggingOut };
}
