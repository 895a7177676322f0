import type { QueryClient } from '@tanstack/react-query';
import { loadAppQueryClient } from '@/lib/app-query-client';
import { storedSessionUser } from '@/lib/supabase-loader';
import { paths } from '@/config/paths';

/**
 * The first reads of the busiest admin screens, started at boot (src/main.tsx) in parallel with the
 * admin check and the screen's code (issue 29). Otherwise they wait for the session, then the
 * admin check, then the screen's code, one after the other. The database decides who may read
 * them (RLS and the admin functions): for someone who is not an admin they fail, the guard sends
 * them away, and nothing is shown. Each uses the screen's own query options, so the screen finds
 * the answer (or the request on its way) in the cache.
 */
const FIRST_DATA: Record<string, (client: QueryClient) => Promise<void>> = {
  [paths.admin.classes]: async (client) => {
    const { classesPageQueryOptions } = await import('@/features/admin/api/get-classes');
    void client.prefetchQuery(classesPageQueryOptions(0, false));
  },
  [paths.admin.analytics]: async (client) => {
    const [stats, membership, credits, reports, range] = await Promise.all([
      import('@/features/admin/api/get-admin-stats'),
      import('@/features/admin/api/get-membership-stats'),
      import('@/features/admin/api/get-credits-outstanding'),
      import('@/features/admin/api/get-report'),
      import('@/features/admin/lib/report-range'),
    ]);
    void client.prefetchQuery(stats.adminStatsQueryOptions());
    void client.prefetchQuery(membership.membershipStatsQueryOptions());
    void client.prefetchQuery(credits.creditsOutstandingQueryOptions());
    void client.prefetchQuery(reports.adminReportsQueryOptions(range.currentMonthRange()));
  },
};

/** Starts the admin check and the screen's first reads for an admin URL (nothing for other paths). */
export async function startAdminData(pathname: string): Promise<void> {
  const email = storedSessionUser()?.email;
  if (!email) return;
  const [client, { adminFlagQueryOptions }] = await Promise.all([loadAppQueryClient(), import('@/features/admin/api/get-admin-flag')]);
  void client.prefetchQuery(adminFlagQueryOptions(email));
  await FIRST_DATA[pathname.replace(/(.)\/+$/, '$1')]?.(client);
}
