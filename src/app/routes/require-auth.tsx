import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { useAuth } from '@/lib/auth/auth-context';
import { Spinner } from '@/components/ui/spinner';
import { paths } from '@/config/paths';

/** Member routes: signed-out visitors go to /signin and come back here after signing in. */
export function RequireAuth() {
  const { loading, session, signedOut } = useAuth();
  const location = useLocation();
  // At least a screen tall, loading or not: the footer stays below the fold while a screen's data
  // arrives, rather than showing for a moment and being pushed away (a layout shift; and the page's
  // largest paint would be the footer's text instead of the screen).
  // A returning member whose saved copy is painted has their stored session already (decision
  // 0111): the screen renders from the copy while GoTrue confirms it, and leaves if it does not.
  if (loading && !session) return <Spinner label="Checking your session" className="min-h-screen" />;
  // Their own Log Out: home, with no ?redirect= left for whoever signs in next on this browser.
  if (!session && signedOut) return <Navigate to={paths.home} replace />;
  if (!session) {
    const redirect = `${location.pathname}${location.search}`;
    return <Navigate to={paths.signIn.href(redirect)} replace />;
  }
  return (
    <div className="min-h-screen">
      <Outlet />
    </div>
  );
}
