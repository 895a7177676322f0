import { AnalyticsOverview } from '@/features/admin/components/analytics-overview';
import { CreditsOutstanding } from '@/features/admin/components/credits-outstanding';
import { MembershipFigures } from '@/features/admin/components/membership-figures';

/** /admin/analytics. */
export function AdminAnalyticsRoute() {
  return (
    <>
      <AnalyticsOverview />
      <MembershipFigures />
      <CreditsOutstanding />
    </>
  );
}
