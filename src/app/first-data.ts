import type { QueryClient } from '@tanstack/react-query';
import { loadAppQueryClient } from '@/lib/app-query-client';
import { ownMemberQuery } from '@/lib/auth/own-member';
import type { Member } from '@/lib/supabase';
import { storedSessionUser } from '@/lib/supabase-loader';
import { paths } from '@/config/paths';

/** A member screen's first reads: they start once the member row (its id) is in. */
type MemberReads = (client: QueryClient, memberId: Promise<string | null>) => Promise<void>;

/** Reads that need `load`'s modules: those load while the member row is read. */
const memberReads =
  <Modules>(load: () => Promise<Modules>, start: (client: QueryClient, memberId: string, modules: Modules) => void): MemberReads =>
  async (client, memberId) => {
    const [id, modules] = await Promise.all([memberId, load()]);
    if (id) start(client, id, modules);
  };

/*
 * The first reads of the busiest signed-in screens, started at boot (src/main.tsx) in parallel
 * with the screen's code (decision 0032). Otherwise they wait for the session, the
 * screen's code (and on /admin the admin check), then the screen's first render, one after the
 * other. Each uses the screen's own query options, so the screen finds the answer (or the request
 * on its way) in the cache.
 */

/** Member screens, keyed by the member's id. */
const MEMBER_READS: Record<string, MemberReads> = {
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
};

/** Admin screens: their reads start once the admin check (started at boot too) has passed. */
const ADMIN_READS: Record<string, (client: QueryClient) => Promise<void>> = {
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

/**
 * Starts a signed-in page's first reads for the stored session's user: on an admin page the admin
 * check, then the screen's reads where ADMIN_READS names them; on a member page those of
 * MEMBER_READS once the member's id is known (from the saved copy, or read). Nothing without a stored session.
 */
export async function startFirstReads(pathname: string): Promise<void> {
  const user = storedSessionUser();
  if (!user) return;
  const path = pathname.replace(/(.)\/+$/, '$1');
  if (isAdminPath(path) && path !== paths.admin.login) {
    // An admin screen's reads wait for the check: refused to someone else, they would only be
    // errors in the console of a member who typed an admin URL.
    const [client, { adminFlagQueryOptions }] = await Promise.all([loadAppQueryClient(), import('@/features/admin/api/get-admin-flag')]);
    if (user.email && (await client.fetchQuery(adminFlagQueryOptions(user.email))) === true) await ADMIN_READS[path]?.(client);
    return;
  }
  const reads = MEMBER_READS[path];
  if (!reads) return;
  const client = await loadAppQueryClient();
  // A returning member's row is in the cache already (their saved copy, decision 0028): its id is
  // known, so the reads leave beside the row's own revalidation instead of after it.
  const ownMember = ownMemberQuery(user.id);
  const known = client.getQueryData<Member | null>(ownMember.queryKey)?.id;
  await reads(client, known ? Promise.resolve(known) : client.fetchQuery(ownMember).then((member) => member?.id ?? null));
}
