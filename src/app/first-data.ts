import type { QueryClient } from '@tanstack/react-query';
import { loadAppQueryClient } from '@/lib/app-query-client';
import { ownMemberQuery } from '@/lib/auth/own-member';
import { storedSessionUser } from '@/lib/supabase-loader';
import { paths } from '@/config/paths';

/** Starts a screen's first reads into the cache; `memberId` resolves with the member row's id. */
type FirstReads = (client: QueryClient, memberId: () => Promise<string | null>) => Promise<void>;

/**
 * A member screen's reads are keyed by the member's id: they start as soon as the member row is
 * in, their modules loading meanwhile.
 */
const memberReads =
  <Modules>(load: () => Promise<Modules>, start: (client: QueryClient, memberId: string, modules: Modules) => void): FirstReads =>
  async (client, memberId) => {
    const [id, modules] = await Promise.all([memberId(), load()]);
    if (id) start(client, id, modules);
  };

/**
 * The first reads of the busiest signed-in screens, started at boot (src/main.tsx) in parallel
 * with the screen's code (issue 29, decision 0032). Otherwise they wait for the session, the
 * screen's code (and on /admin the admin check), then the screen's first render, one after the
 * other. Each uses the screen's own query options, so the screen finds the answer (or the request
 * on its way) in the cache. An admin screen's reads start once the admin check (started at boot
 * too) has passed, still before the guard has rendered the screen.
 */
const FIRST_READS: Record<string, FirstReads> = {
  [paths.dashboard]: memberReads(
    () =>
      Promise.all([
        import('@/features/booking/api/get-my-bookings'),
        import('@/features/booking/api/get-plan-usage'),
        import('@/features/documents/api/get-my-documents'),
        import('@/features/booking/api/get-my-credits'),
      ]),
    (client, id, [bookings, usage, documents, credits]) => {
      void client.prefetchQuery(bookings.myBookingsQueryOptions(id));
      void client.prefetchQuery(usage.planUsageQueryOptions(id));
      void client.prefetchQuery(documents.myDocumentStatusQueryOptions(id));
      void client.prefetchQuery(credits.myCreditsQueryOptions(id));
    },
  ),
  [paths.myBookings]: memberReads(
    () =>
      Promise.all([
        import('@/features/booking/api/get-my-bookings'),
        import('@/features/booking/api/get-my-waitlist'),
        import('@/features/booking/api/get-my-cancellations'),
        import('@/features/booking/api/get-my-guests'),
        import('@/features/booking/api/get-guest-options'),
      ]),
    (client, id, [bookings, waitlist, cancellations, guests, guestOptions]) => {
      void client.prefetchQuery(bookings.myBookingsQueryOptions(id));
      void client.prefetchQuery(waitlist.myWaitlistQueryOptions(id));
      void client.prefetchQuery(cancellations.myCancellationsQueryOptions(id));
      void client.prefetchQuery(guests.myGuestsQueryOptions(id));
      void client.prefetchQuery(guestOptions.guestOptionsQueryOptions(id));
    },
  ),
  [paths.mySchedule]: memberReads(
    () => import('@/features/booking/api/get-class-schedule'),
    (client, id, schedule) => {
      void client.prefetchInfiniteQuery(schedule.classScheduleQueryOptions(schedule.NO_FILTERS, id));
      void client.prefetchQuery(schedule.scheduleSummaryQueryOptions(schedule.NO_FILTERS));
    },
  ),
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

const isAdminPath = (pathname: string) => pathname === paths.admin.classes || pathname.startsWith(`${paths.admin.classes}/`);

/** The admin check the guard makes, started now; the guard finds it in the cache. */
async function isAdmin(client: QueryClient, email: string): Promise<boolean> {
  const { adminFlagQueryOptions } = await import('@/features/admin/api/get-admin-flag');
  return (await client.fetchQuery(adminFlagQueryOptions(email))) === true;
}

/**
 * Starts a signed-in page's first reads for the stored session's user: on an admin page the admin
 * check, and the screen's reads where FIRST_READS names them. Nothing without a stored session.
 */
export async function startFirstReads(pathname: string): Promise<void> {
  const user = storedSessionUser();
  if (!user) return;
  const path = pathname.replace(/(.)\/+$/, '$1');
  const reads = FIRST_READS[path];
  const admin = isAdminPath(path) && path !== paths.admin.login;
  if (!reads && !admin) return;
  const client = await loadAppQueryClient();
  if (admin) {
    // An admin screen's reads wait for the check: refused to someone else, they would only be
    // errors in the console of a member who typed an admin URL.
    if (!user.email || !(await isAdmin(client, user.email))) return;
    await reads?.(client, () => Promise.resolve(null));
    return;
  }
  await reads?.(client, async () => (await client.fetchQuery(ownMemberQuery(user.id)))?.id ?? null);
}
