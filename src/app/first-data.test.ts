import { beforeEach, describe, expect, it } from 'vitest';
import { getAppQueryClient, loadAppQueryClient } from '@/lib/app-query-client';
import { queryKeys } from '@/lib/query-keys';
import { server } from '@/testing/mocks/server';
import { memberHandler, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { recordRequests, signInAsAdmin } from '@/testing/admin-fixtures';
import { myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
import type { RouteObject } from 'react-router-dom';
import { AdminArea } from './admin-routes';
import { startFirstReads } from './first-data';
import type { RouteHandle } from './first-reads';
import { routes } from './router';

/** The first reads declared beside routes in a table, with the route's path. */
const declared = (tree: RouteObject[]): { path: string; load: NonNullable<RouteHandle['firstReads']> }[] =>
  tree.flatMap((route) => [
    ...((route.handle as RouteHandle | undefined)?.firstReads
      ? [{ path: route.path ?? '(index)', load: (route.handle as RouteHandle).firstReads! }]
      : []),
    ...declared(route.children ?? []),
  ]);

const requested = (seen: { url: URL }[]) => [...new Set(seen.map(({ url }) => url.pathname.replace('/rest/v1/', '')))].sort();

// What src/main.tsx starts when a signed-in page opens with a stored session (decision 0032).
describe('a signed-in screen’s first reads at boot', () => {
  // The app's own client lives as long as the file: each test starts from an empty cache.
  beforeEach(() => getAppQueryClient()?.clear());

  it('starts the admin check and the classes page on /admin, into the cache the screens read', async () => {
    const { member, handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      restGet('classes', () => []),
    );
    const seen = recordRequests(server);
    await startFirstReads('/admin/');
    await expect.poll(() => requested(seen)).toEqual(['classes', 'members']);
    const client = getAppQueryClient()!;
    await expect.poll(() => client.getQueryData(queryKeys.admin.flag(member.email))).toBe(true);
    await expect.poll(() => client.getQueryData(queryKeys.admin.classes({ page: 0, past: false }))).toEqual({ rows: [], total: 0 });
    server.events.removeAllListeners();
  });

  it('starts only the admin check on an admin screen it has no first reads for', async () => {
    const { handlers } = signInAsAdmin();
    server.use(...handlers);
    const seen = recordRequests(server);
    await startFirstReads('/admin/trainers');
    await expect.poll(() => requested(seen)).toEqual(['members']);
    server.events.removeAllListeners();
  });

  it('starts no admin read for a member who is not an admin, only the check the guard makes', async () => {
    const { member } = signInAs({ membership_tier: 'standard', is_admin: false });
    server.use(memberHandler(member));
    const seen = recordRequests(server);
    await startFirstReads('/admin/analytics');
    expect(requested(seen)).toEqual(['members']);
    server.events.removeAllListeners();
  });

  it('reads the member row, then My Bookings’ five reads, keyed by the member’s id', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      myBookingsHandler(() => []),
      rpc('my_waitlist', () => []),
      ...myBookingsExtrasHandlers(),
    );
    const seen = recordRequests(server);
    await startFirstReads('/mybookings');
    await expect
      .poll(() => requested(seen))
      .toEqual(['booking_cancellations', 'guest_places', 'members', 'rpc/my_bookings', 'rpc/my_guest_options', 'rpc/my_waitlist']);
    await expect.poll(() => getAppQueryClient()!.getQueryData(queryKeys.bookings.mine(member.id))).toEqual([]);
    server.events.removeAllListeners();
  });

  it('starts a returning member’s reads at once when their row is in the cache already (their saved copy)', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    (await loadAppQueryClient()).setQueryData(queryKeys.member.own(member.user_id!), member, { updatedAt: 0 });
    server.use(
      myBookingsHandler(() => []),
      rpc('my_plan_usage', () => null),
      rpc('my_documents', () => []),
      restGet('credits', () => []),
    );
    const seen = recordRequests(server);
    // No handler answers the member row: asked for, it would fail the test as an unhandled request.
    await startFirstReads('/dashboard');
    await expect.poll(() => getAppQueryClient()!.getQueryData(queryKeys.bookings.mine(member.id))).toEqual([]);
    await expect.poll(() => requested(seen)).toEqual(['credits', 'rpc/my_bookings', 'rpc/my_documents', 'rpc/my_plan_usage']);
    server.events.removeAllListeners();
  });

  it('declares member reads beside member routes and admin reads beside the admin area’s, each loading', async () => {
    const member = declared(routes);
    const admin = declared(AdminArea.routes);
    expect(member.map(({ path }) => path).sort()).toEqual(['bookings', 'dashboard', 'my-schedule', 'mybookings']);
    expect(admin.map(({ path }) => path).sort()).toEqual(['(index)', 'analytics']);
    for (const { load } of member) expect(Object.keys(await load())).toEqual(['member']);
    for (const { load } of admin) expect(Object.keys(await load())).toEqual(['admin']);
  });

  it('starts My Bookings’ reads on /bookings too, the same screen under its other path', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      myBookingsHandler(() => []),
      rpc('my_waitlist', () => []),
      ...myBookingsExtrasHandlers(),
    );
    await startFirstReads('/bookings/');
    await expect.poll(() => getAppQueryClient()!.getQueryData(queryKeys.bookings.mine(member.id))).toEqual([]);
  });

  it('asks for nothing without a stored session, or on a page without first reads', async () => {
    const seen = recordRequests(server);
    await startFirstReads('/admin');
    signInAs({ membership_tier: 'standard' });
    await startFirstReads('/edit-profile');
    expect(seen).toEqual([]);
    server.events.removeAllListeners();
  });
});
