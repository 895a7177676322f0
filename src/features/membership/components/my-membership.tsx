import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import { TrialCountdown } from '@/components/membership/trial-countdown';
import { Card } from '@/components/ui/card';
import { formatPounds, PLANS } from '@/config/plans';
import { Spinner } from '@/components/ui/spinner';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useAuth } from '@/lib/auth/auth-context';
import { formatLondonDate, formatMemberSince } from '@/lib/studio-calendar';
import { useMyMembership } from '../api/get-my-membership';
import { currentPlan } from '../lib/current-plan';
import { isRunningPlan, runningStatusText, type MyMembership as Membership } from '../lib/membership-view';
import { CardSavedNotice } from './card-buttons';
import { PastDueBanner } from './past-due-banner';
import { PaymentMethod } from './payment-method';
import { PlanActions } from './plan-actions';
import { UpgradeOffers } from './upgrade-offers';

const LOAD_FAILED = 'Failed to load your membership';

/**
 * The member part of /membership, one card (plan and renewal said once, never twice): current
 * plan, status, usage this month (`usage`: the route passes the booking feature's meter, which
 * shows my_plan_usage, the count book_class enforces), next renewal or "Ends on", member since,
 * the plan's actions (cancel, resume, switch, "Update card", "Add a card", "Replace card") and recommended upgrades. Renders nothing for visitors (and nothing while
 * the session is read, so the catalogue never jumps).
 */
export function MyMembership({ usage }: { usage: ReactNode }) {
  const { session, member, memberLoading } = useAuth();
  const membership = useMyMembership(member?.id ?? null);
  const failed = membership.isError;
  useErrorToast(failed, LOAD_FAILED);

  if (!session || (!memberLoading && !member)) return null;

  return (
    <section aria-labelledby="my-membership-heading" className="mx-auto max-w-6xl px-4 pt-8 sm:px-6 sm:pt-10">
      <Card>
        <h2 id="my-membership-heading" className="text-2xl font-bold tracking-tight">
          My Membership
        </h2>
        {!member || membership.isPending ? (
          <Spinner label="Loading your membership" />
        ) : failed ? (
          <p role="alert" className="mt-4 text-red-700">
            {LOAD_FAILED}
          </p>
        ) : (
          <PlanDetails member={member} membership={membership.data} usage={usage} />
        )}
      </Card>
    </section>
  );
}

function PlanDetails({
  member,
  membership,
  usage,
}: {
  member: NonNullable<ReturnType<typeof useAuth>['member']>;
  membership: Membership | null;
  usage: ReactNode;
}) {
  const plan = currentPlan(member);
  // The membership's real next charge, or its end when cancelled (decision 0009); else the spec's view.
  const running = isRunningPlan(membership) ? membership : null;
  const planName = running?.plan_slug ? `${PLANS[running.plan_slug].name} · ${formatPounds(running.price ?? 0)}/month` : plan.planName;
  return (
    <div className="mt-4 space-y-5">
      {member.membership_tier === 'trial' && (
        <div>
          <TrialCountdown expiresAt={member.trial_expires_at} />
          <p className="mt-1 text-slate-600">Choose a membership below to keep training after it ends.</p>
        </div>
      )}
      <DirectDebitSetUpNotice />
      <CardSavedNotice />
      {running?.status === 'past_due' && <PastDueBanner membership={running} />}
      <div className="grid gap-8 lg:grid-cols-2">
        <div className="space-y-5">
          <dl className="grid grid-cols-2 gap-4">
            <div>
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Current plan</dt>
              <dd className="mt-1 text-lg font-semibold text-slate-900">{planName}</dd>
            </div>
            <div>
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Member since</dt>
              <dd className="mt-1 text-lg font-semibold text-slate-900">{formatMemberSince(plan.memberSince)}</dd>
            </div>
            {running && (
              <div>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Status</dt>
                <dd className="mt-1 font-semibold text-slate-900">{runningStatusText(running)}</dd>
              </div>
            )}
            {running?.status !== 'cancelled' && (
              <div className={running ? undefined : 'col-span-2'}>
                <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">Next renewal</dt>
                <dd className="mt-1 text-slate-900">
                  {running ? (
                    <span className="font-semibold">{formatLondonDate(running.period_end)}</span>
                  ) : plan.renewal ? (
                    <span className="font-semibold">{formatLondonDate(plan.renewal)}</span>
                  ) : plan.planSlug ? (
                    <span className="text-slate-600">Not on record yet</span>
                  ) : (
                    <span className="text-slate-600">No renewal: you pay per class</span>
                  )}
                </dd>
              </div>
            )}
          </dl>
          {running && <PlanActions membership={running} />}
          {running && <PaymentMethod memberId={member.id} />}
          {usage}
        </div>
        <div>
          <h3 className="mb-3 text-lg font-semibold">Recommended upgrades</h3>
          <UpgradeOffers slugs={plan.upgrades} hasRunningPlan={running !== null} />
        </div>
      </div>
    </div>
  );
}

/** Back from GoCardless's page (`?direct_debit=set_up`): what happens next, said once on arrival. */
function DirectDebitSetUpNotice() {
  const [params] = useSearchParams();
  if (params.get('direct_debit') !== 'set_up') return null;
  return (
    <p role="status" className="rounded-lg bg-green-50 p-3 text-sm text-green-900">
      Your Direct Debit is set up. We email you the amount and date before each collection; a new plan starts when its first payment clears,
      in about a week.
    </p>
  );
}
