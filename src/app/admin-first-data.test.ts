import { beforeEach, describe, expect, it } from 'vitest';
import { getAppQueryClient } from '@/lib/app-query-client';
import { queryKeys } from '@/lib/query-keys';
import { server } from '@/testing/mocks/server';
import { restGet } from '@/testing/supabase-mocks';
import { recordRequests, signInAsAdmin } from '@/testing/admin-fixtures';
import { startAdminData } from './admin-first-data';

const requested = (seen: { url: URL }[]) => seen.map(({ url }) => url.pathname.replace('/rest/v1/', '')).sort();

// What src/main.tsx starts when an admin URL opens with a stored session (issue 29).
describe('an admin screen’s first reads at boot', () => {
  // The app's own client lives as long as the file: each test starts from an empty cache.
  beforeEach(() => getAppQueryClient()?.clear());

  it('starts the admin check and the classes page together on /admin, into the cache the screens read', async () => {
    const { member, handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      restGet('classes', () => []),
    );
    const seen = recordRequests(server);
    await startAdminData('/admin/');
    await expect.poll(() => requested(seen)).toEqual(['classes', 'members']);
    const client = getAppQueryClient()!;
    await expect.poll(() => client.getQueryData(queryKeys.admin.flag(member.email))).toBe(true);
    await expect.poll(() => client.getQueryData(queryKeys.admin.classes({ page: 0, past: false }))).toEqual({ rows: [], total: 0 });
    server.events.removeAllListeners();
  });

  it('starts only the admin check on a screen it has no first reads for', async () => {
    const { handlers } = signInAsAdmin();
    server.use(...handlers);
    const seen = recordRequests(server);
    await startAdminData('/admin/trainers');
    await expect.poll(() => requested(seen)).toEqual(['members']);
    server.events.removeAllListeners();
  });

  it('asks for nothing without a stored session', async () => {
    const seen = recordRequests(server);
    await startAdminData('/admin');
    expect(seen).toEqual([]);
    server.events.removeAllListeners();
  });
});
