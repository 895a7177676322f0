import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button-styles';
import type { Plan } from '@/config/plans';
import { paths } from '@/config/paths';
import { useOnline } from '@/hooks/use-online';
import { NOT_AVAILABLE_OFFLINE } from '@/app/pwa/offline-messages';
import { OfflineNotice } from '@/app/pwa/offline-notice';
import { MembershipHero } from '@/features/membership/components/membership-hero';
import { PlanCatalogue } from '@/features/membership/components/plan-catalogue';
import { useAuth } from '@/lib/auth/auth-context';

/** Member-only code: visitors never download it. */
const MyMembership = lazy(() => import('@/features/membership/components/my-membership').then((m) => ({ default: m.MyMembership })));
const BillingHistory = lazy(() => import('@/features/membership/components/billing-history').then((m) => ({ default: m.BillingHistory })));
const CreditsCard = lazy(() => import('@/features/booking/components/credits-card').then((m) => ({ default: m.CreditsCard })));
const PlanUsageMeter = lazy(() => import('@/features/booking/components/plan-usage-meter').then((m) => ({ default: m.PlanUsageMeter })));
const PromoCodeBuy = lazy(() => import('@/features/offers/components/promo-code-buy').then((m) => ({ default: m.PromoCodeBuy })));
const MemberOffers = lazy(() => import('@/features/offers/components/member-offers').then((m) => ({ default: m.MemberOffers })));
const BalanceCard = lazy(() => import('@/features/gift-vouchers/components/balance-card').then((m) => ({ default: m.BalanceCard })));
const MemberPlanAction = lazy(() =>
  import('@/features/membership/components/plan-buy-button').then((m) => ({ default: m.MemberPlanAction })),
);

/** Visitors join by signing in first; checkout needs a member account. */
function signInToJoin(plan: Plan) {
  return (
    <Link
      to={paths.signIn.href(paths.membership)}
      className={buttonClasses({ variant: plan.highlighted ? 'primary' : 'secondary', className: 'w-full' })}
    >
      Sign in to join
    </Link>
  );
}

/**
 * /membership (spec section 2): My Membership for signed-in members (usage, next renewal,
 * recommended upgrades) above the plan catalogue, whose actions depend on who is looking.
 * Offline, a member is told the page is not available (nothing of it is kept on the phone,
 * decision 0019; its buttons need the studio); a visitor's page is the prerendered one.
 */
export function MembershipRoute() {
  const { session, member } = useAuth();
  const online = useOnline();
  const offline = Boolean(session) && !online;
  const memberAction = (plan: Plan) => (
    <Suspense fallback={null}>
      <MemberPlanAction plan={plan} tier={member?.membership_tier} buy={(p) => <PromoCodeBuy plan={p} />} />
    </Suspense>
  );
  return (
    <>
      <MembershipHero />
      {offline && (
        <div className="mx-auto max-w-6xl px-4 pb-8 sm:px-6">
          <OfflineNotice message={NOT_AVAILABLE_OFFLINE} />
        </div>
      )}
      {/* Hidden, not unmounted, offline: a Contact Us message being written stays, reads resume. */}
      <div hidden={offline}>
        {session && (
          <Suspense fallback={null}>
            <MyMembership usage={<PlanUsageMeter variant="membership" />} />
            <div className="mx-auto max-w-6xl px-4 pt-6 empty:hidden sm:px-6">
              <CreditsCard />
            </div>
            <MemberOffers />
            <div className="mx-auto max-w-6xl px-4 pt-6 empty:hidden sm:px-6">
              <BalanceCard />
            </div>
            <BillingHistory />
          </Suspense>
        )}
        <PlanCatalogue renderPlanAction={!session ? signInToJoin : member ? memberAction : undefined} />
      </div>
    </>
  );
}
