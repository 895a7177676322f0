import { AnalyticsOverview } from '@/features/admin/components/analytics-overview';
import { CreditsOutstanding } from '@/features/admin/components/credits-outstanding';
import { MembershipFigures } from '@/features/admin/components/membership-figures';
import { ReportsSection } from '@/features/admin/components/reports-section';

/** /admin/analytics. */
export function AdminAnalyticsRoute() {
  return (
    <>
      <AnalyticsOverview />
      <MembershipFigures />
      <CreditsOutstanding />
      <ReportsSection />
    </>
  );
}
