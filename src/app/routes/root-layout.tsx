import { lazy, Suspense, useState } from 'react';
import { Outlet, useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { SiteHeader } from '@/components/layout/site-header';
import { SiteFooter } from '@/components/layout/site-footer';
import { useAuth } from '@/lib/auth/auth-context';

/** Members' navigation: a visitor's page never downloads it. Until it is in, the header shows as while the session is read. */
const MemberNav = lazy(() => import('@/components/layout/member-nav').then((m) => ({ default: m.MemberNav })));
/** The installable app's offline banner, install offer and service worker: members only. */
const MemberPwa = lazy(() => import('../pwa/member-pwa').then((m) => ({ default: m.MemberPwa })));

/**
 * Public and member pages: the shared chrome around the current screen. Signed-out visitors get
 * the public header, signed-in members the member top navigation (spec section 2).
 */
export function RootLayout() {
  const navigate = useNavigate();
  const { loading, session, user, member, signOut } = useAuth();
  const [loggingOut, setLoggingOut] = useState(false);

  async function logout() {
    setLoggingOut(true);
    try {
      await signOut();
      toast.success('Logged out successfully');
      void navigate('/');
    } catch {
      toast.error('Logout failed');
    } finally {
      setLoggingOut(false);
    }
  }

  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      {session ? (
        <Suspense fallback={<SiteHeader authPending />}>
          <MemberNav
            name={member?.name}
            email={member?.email ?? user?.email}
            photoUrl={member?.profile_image_url}
            onLogout={() => void logout()}
            loggingOut={loggingOut}
          />
        </Suspense>
      ) : (
        <SiteHeader authPending={loading} />
      )}
      {session && (
        <Suspense fallback={null}>
          <MemberPwa />
        </Suspense>
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
