import { AnalyticsOverview } from '@/features/admin/components/analytics-overview';

/** /admin/analytics. */
export function AdminAnalyticsRoute() {
  return <AnalyticsOverview />;
}
