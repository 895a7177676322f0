import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { buttonClasses } from '@/components/ui/button-styles';
import type { Plan } from '@/config/plans';
import { useAuth } from '@/lib/auth/auth-context';
import { PlanCatalogue } from '../catalogue/plan-catalogue';
import { PlanBuyButton } from '../my-membership/plan-buy-button';

/** Member-only code: visitors never download it. */
const MyMembership = lazy(() => import('../my-membership/my-membership').then((m) => ({ default: m.MyMembership })));

const SIGN_IN_TO_JOIN = `/signin?redirect=${encodeURIComponent('/membership')}`;

/** Visitors join by signing in first; checkout needs a member account. */
function signInToJoin(plan: Plan) {
  return (
    <Link to={SIGN_IN_TO_JOIN} className={buttonClasses({ variant: plan.highlighted ? 'primary' : 'secondary', className: 'w-full' })}>
      Sign in to join
    </Link>
  );
}

/**
 * /membership (spec section 2): My Membership for signed-in members above the plan catalogue.
 * Member-only parts go in the MEMBER SLOT below; the catalogue takes a `renderPlanAction` for
 * members' buy buttons.
 */
export function MembershipPage() {
  const { session } = useAuth();
  return (
    <>
      <section className="bg-slate-950 text-white">
        <div className="mx-auto max-w-6xl px-4 py-14 sm:px-6">
          <p className="text-sm font-semibold uppercase tracking-[0.2em] text-brand-300">Memberships &amp; training</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight sm:text-5xl">Membership</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-300">
            Monthly memberships for regular training, and personal training packages when you want one-to-one coaching.
          </p>
        </div>
      </section>

      {/* MEMBER SLOT: My Membership (usage, next renewal, recommended upgrades) for signed-in members. */}
      {session && (
        <Suspense fallback={null}>
          <MyMembership />
        </Suspense>
      )}

      <PlanCatalogue renderPlanAction={session ? (plan) => <PlanBuyButton plan={plan} /> : signInToJoin} />
    </>
  );
}
