import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { TrialCountdown } from '@/components/membership/trial-countdown';
import { Spinner } from '@/components/ui/spinner';
import { monthlyClassQuota } from '@/config/plans';
import { useLoaded } from '@/hooks/use-loaded';
import { useAuth } from '@/lib/auth/auth-context';
import { tierView } from '@/lib/rules/membership-tier';
import { formatMemberSince } from '@/lib/rules/month';
import { getDashboardData } from '../api/get-dashboard-data';
import { NextClassPanel } from '../components/next-class-panel';
import { PlanUsageCard } from '../components/plan-usage-card';
import { QuickActions } from '../components/quick-actions';
import { QuickStats } from '../components/quick-stats';
import { UpcomingBookingsCard } from '../components/upcoming-bookings-card';
import { firstName } from '../lib/first-name';

export const DASHBOARD_LOAD_FAILED = 'Failed to load dashboard data';

/** /dashboard (spec section 2). */
export function DashboardPage() {
  const { member, memberLoading, user } = useAuth();
  const { state } = useLoaded(member?.id ?? null, getDashboardData);

  const failed = state.status === 'error' || (!memberLoading && !member);
  useEffect(() => {
    if (failed) toast.error(DASHBOARD_LOAD_FAILED, { id: 'dashboard-load' });
  }, [failed]);

  const name = firstName(member?.name, member?.email ?? user?.email);
  const tier = tierView(member?.membership_tier);

  return (
    <section className="mx-auto max-w-6xl px-4 py-8 sm:py-10">
      <h1 className="text-3xl font-bold tracking-tight">{member ? `Welcome back, ${name}!` : 'Dashboard'}</h1>
      {member?.membership_tier === 'trial' && <TrialCountdown expiresAt={member.trial_expires_at} className="mt-2 font-semibold text-brand-700" />}
      {failed ? (
        <p role="alert" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4 text-red-800">
          {DASHBOARD_LOAD_FAILED}
        </p>
      ) : state.status !== 'ready' || !member ? (
        <Spinner label="Loading your dashboard" />
      ) : (
        <div className="mt-8 grid gap-6 lg:grid-cols-3">
          <div className="space-y-6 lg:col-span-2">
            <NextClassPanel booking={state.data.upcoming[0]} />
            <PlanUsageCard planLabel={tier.label} used={state.data.thisMonth} total={monthlyClassQuota(member.membership_tier)} />
            <UpcomingBookingsCard bookings={state.data.upcoming} />
          </div>
          <div className="space-y-6">
            <QuickStats
              stats={[
                { label: 'Total Bookings', value: state.data.totalBookings },
                { label: 'This Month', value: state.data.thisMonth },
                { label: 'Upcoming', value: state.data.upcomingTotal },
                { label: 'Member Since', value: formatMemberSince(member.created_at) },
              ]}
            />
            <QuickActions />
          </div>
        </div>
      )}
    </section>
  );
}
