import type { FirstReads } from '../../first-reads';
import { adminStatsQueryOptions } from '@/features/admin/api/get-admin-stats';
import { creditsOutstandingQueryOptions } from '@/features/admin/api/get-credits-outstanding';
import { membershipStatsQueryOptions } from '@/features/admin/api/get-membership-stats';
import { adminReportsQueryOptions } from '@/features/admin/api/get-report';
import { currentMonthRange } from '@/features/admin/lib/report-range';

/** /admin/analytics: the overview, membership figures, credits outstanding, this month's reports. */
export const firstReads: FirstReads = {
  admin: (client) => {
    void client.prefetchQuery(adminStatsQueryOptions());
    void client.prefetchQuery(membershipStatsQueryOptions());
    void client.prefetchQuery(creditsOutstandingQueryOptions());
    void client.prefetchQuery(adminReportsQueryOptions(currentMonthRange()));
  },
};
