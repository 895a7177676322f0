import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '@/lib/auth/auth-context';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';

/** Member routes: signed-out visitors go to /signin and come back here after signing in. */
export function RequireAuth() {
  const { loading, session, signedOut } = useAuth();
  const location = useLocation();
  if (loading) return <Spinner label="Checking your session" />;
  // Their own Log Out: home, with no ?redirect= left for whoever signs in next on this browser.
  if (!session && signedOut) return <Navigate to={paths.home} replace />;
  if (!session) {
    const redirect = `${location.pathname}${location.search}`;
    return <Navigate to={paths.signIn.href(redirect)} replace />;
  }
  return <Outlet />;
}
