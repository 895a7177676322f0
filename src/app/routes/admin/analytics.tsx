import { AnalyticsOverview } from '@/features/admin/components/analytics-overview';
import { MembershipFigures } from '@/features/admin/components/membership-figures';

/** /admin/analytics. */
export function AdminAnalyticsRoute() {
  return (
    <>
      <AnalyticsOverview />
      <MembershipFigures />
    </>
  );
}
