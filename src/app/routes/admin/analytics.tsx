import { useAdminStats } from '@/features/admin/api/get-admin-stats';
import { AnalyticsOverview } from '@/features/admin/components/analytics-overview';
import { CreditsOutstanding } from '@/features/admin/components/credits-outstanding';
import { MembershipFigures } from '@/features/admin/components/membership-figures';
import { ReportsSection } from '@/features/admin/components/reports-section';

/** /admin/analytics. */
export function AdminAnalyticsRoute() {
  // The sections below the overview show with it, not before it: the overview is a screen tall,
  // and arriving last it would push them down under the admin's eyes (a layout shift). They are
  // mounted all along, so their reads run in parallel with the overview's.
  const overviewPending = useAdminStats().isPending;
  return (
    <>
      <AnalyticsOverview />
      <div hidden={overviewPending}>
        <MembershipFigures />
        <CreditsOutstanding />
        <ReportsSection />
      </div>
    </>
  );
}
