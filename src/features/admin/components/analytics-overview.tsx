import { CalendarCheck, CalendarDays, ClipboardList, Users } from 'lucide-react';
import { Card } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { useErrorToast } from '@/hooks/use-error-toast';
import { useAdminStats } from '../api/get-admin-stats';
import { EmptyState } from './empty-state';
import { MembershipChart } from './membership-chart';
import { PageHeading } from './page-heading';
import { StatCard } from './stat-card';
import { WeeklyRatesChart } from './weekly-rates-chart';
import { ADMIN_MESSAGES } from '../lib/messages';
import { analyticsFigures, membershipDistribution, weeklyFigures } from '../lib/analytics-figures';

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex items-baseline justify-between gap-4 border-b border-slate-100 py-3 last:border-0">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="text-xl font-bold tabular-nums text-slate-900">{value}</dd>
    </div>
  );
}

/** Analytics (spec section 2): every figure from one `admin_stats` call. */
export function AnalyticsOverview() {
  const query = useAdminStats();
  useErrorToast(query.isError, ADMIN_MESSAGES.analyticsLoadFailed);

  if (query.isPending) {
    return (
      <section>
        <PageHeading title="Analytics" />
        <Spinner label="Loading analytics" />
      </section>
    );
  }
  if (query.isError) {
    return (
      <section>
        <PageHeading title="Analytics" />
        <Card>
          <EmptyState title={ADMIN_MESSAGES.analyticsLoadFailed} body="Refresh the page to try again." />
        </Card>
      </section>
    );
  }

  const stats = query.data;
  const figures = analyticsFigures(stats);
  return (
    <section>
      <PageHeading title="Analytics" />
      <div className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <StatCard label="Total Members" value={stats.total_members} icon={<Users aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Total Classes" value={stats.total_classes} icon={<CalendarDays aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Total Bookings" value={stats.total_bookings} icon={<ClipboardList aria-hidden="true" className="h-5 w-5" />} />
        <StatCard label="Upcoming Classes" value={stats.upcoming_classes} icon={<CalendarCheck aria-hidden="true" className="h-5 w-5" />} />
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card>
            <h2 className="mb-5 text-lg font-semibold text-slate-900">Membership Distribution</h2>
            <MembershipChart shares={membershipDistribution(stats)} total={stats.total_members} />
          </Card>
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">Fill and Attendance by Week</h2>
            <p className="mb-5 mt-1 text-sm text-slate-600">
              Fill rate: bookings out of the week&apos;s capacity. Attendance: attended out of marked bookings.
            </p>
            <WeeklyRatesChart weeks={weeklyFigures(stats.weekly)} />
          </Card>
        </div>
        <div className="space-y-6">
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">This Month</h2>
            <dl className="mt-2">
              <Figure label="New Bookings" value={String(stats.bookings_this_month)} />
              <Figure label="Average per Member" value={figures.averagePerMemberThisMonth} />
            </dl>
          </Card>
          <Card>
            <h2 className="text-lg font-semibold text-slate-900">Quick Insights</h2>
            <dl className="mt-2">
              <Figure label="Avg Bookings per Class" value={figures.avgBookingsPerClass} />
              <Figure label="Premium Members" value={`${figures.premiumPercent}%`} />
              <Figure label="Bookings per Member" value={figures.bookingsPerMember} />
            </dl>
          </Card>
        </div>
      </div>
    </section>
  );
}
