import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { toast } from '@/lib/toast';
import { SiteHeader } from '@/components/layout/site-header';
import { SiteFooter } from '@/components/layout/site-footer';
import { useAuth } from '@/lib/auth/auth-context';
import { rememberReferral, storedReferral } from '@/features/offers/lib/referral-link';

/** Members' navigation: a visitor's page never downloads it. Until it is in, the header shows as while the session is read. */
const MemberNav = lazy(() => import('@/components/layout/member-nav').then((m) => ({ default: m.MemberNav })));
/** The installable app's offline banner, install offer and service worker: members only. */
const MemberPwa = lazy(() => import('../pwa/member-pwa').then((m) => ({ default: m.MemberPwa })));
/** Claims a friend's referral link once the person is signed in: loaded only while a code is kept. */
const ReferralClaim = lazy(() => import('@/features/offers/components/referral-claim').then((m) => ({ default: m.ReferralClaim })));

/**
 * Public and member pages: the shared chrome around the current screen. Signed-out visitors get
 * the public header, signed-in members the member top navigation (spec section 2).
 */
export function RootLayout() {
  const navigate = useNavigate();
  const { loading, session, user, member, signOut } = useAuth();
  const [loggingOut, setLoggingOut] = useState(false);
  // A friend's referral link (?ref=CODE on any page, decision 0084) is kept until the person is
  // signed in, through a sign-up and its email link if need be, then claimed once.
  // Keeping it is idempotent, so it is done as the location is read.
  const { search } = useLocation();
  const arrived = useMemo(() => rememberReferral(search), [search]);
  const [settled, setSettled] = useState<string | null>(null);
  const kept = arrived ?? storedReferral();
  const referral = kept !== settled ? kept : null;
  const referralDone = useCallback((code: string) => setSettled(code), []);

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
      {member && referral && (
        <Suspense fallback={null}>
          <ReferralClaim code={referral} onDone={referralDone} />
        </Suspense>
      )}
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
