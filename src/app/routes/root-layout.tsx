import { lazy, Suspense, useState, useSyncExternalStore } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { SiteHeader } from '@/components/layout/site-header';
import { SiteFooter } from '@/components/layout/site-footer';
import { useAuth } from '@/lib/auth/auth-context';

/** Members' navigation: a visitor's page never downloads it. Until it is in, the header shows as while the session is read. */
const MemberNav = lazy(() => import('@/components/layout/member-nav').then((m) => ({ default: m.MemberNav })));
/** The installable app's offline banner, install offer and service worker: members only. */
const MemberPwa = lazy(() => import('../pwa/member-pwa').then((m) => ({ default: m.MemberPwa })));
/** Keeps a friend's referral link and claims it once signed in: members, and visitors on a `ref=` link. */
const ReferralClaim = lazy(() => import('@/features/offers/components/referral-claim').then((m) => ({ default: m.ReferralClaim })));

/** False while a prerendered page hydrates (React reads the server snapshot then), true after. */
const noChanges = () => () => undefined;
const isClient = () => true;
const isServer = () => false;

/**
 * Public and member pages: the shared chrome around the current screen. Signed-out visitors get
 * the public header, signed-in members the member top navigation (spec section 2).
 */
export function RootLayout() {
  const navigate = useNavigate();
  const { loading, session, user, member, signOut } = useAuth();
  const [loggingOut, setLoggingOut] = useState(false);
  // A friend's referral link (?ref=CODE on any page, decision 0084): kept, then claimed once signed in.
  const { search } = useLocation();
  const hydrated = useSyncExternalStore(noChanges, isClient, isServer);

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
      {/* Only after hydration: a prerendered page's HTML has no place for it. */}
      {hydrated && (member || search.includes('ref=')) && (
        <Suspense fallback={null}>
          <ReferralClaim search={search} signedIn={Boolean(member) && !loading} />
        </Suspense>
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
