import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { clearStoredSession, readOfflineSnapshot, STORAGE_KEYS } from '@/lib/browser-storage';
import { keepSnapshot, lastReadAt, parseSnapshot, restoreSnapshot, serializeSnapshot } from './offline-snapshot';

const USER = 'user-1';
const READ_AT = Date.parse('2026-11-20T09:05:00Z');
const booking = { id: 'b1', className: 'Breakfast Club', startsAt: new Date('2026-11-21T06:00:00Z'), holdExpiresAt: null };

function filledClient(): QueryClient {
  const client = new QueryClient();
  client.setQueryData(queryKeys.bookings.mine('m1'), [booking], { updatedAt: READ_AT });
  client.setQueryData(
    queryKeys.classes.list({ search: '', viewer: 'm1' }),
    { pages: [[{ id: 'c1', name: 'HIIT' }]], pageParams: [0] },
    { updatedAt: READ_AT - 60_000 },
  );
  client.setQueryData(queryKeys.admin.stats(), { members: 40 }, { updatedAt: READ_AT });
  client.setQueryData(queryKeys.payments.history('m1'), [{ amount: 100 }], { updatedAt: READ_AT });
  return client;
}

afterEach(() => localStorage.clear());

describe("the member's offline copy", () => {
  it('keeps their bookings (dates as dates) and timetable, not admin or payment data, and puts them back as read then', () => {
    const text = serializeSnapshot(filledClient(), USER, READ_AT);
    expect(text).not.toContain('members');
    expect(text).not.toContain('amount');
    const fresh = new QueryClient();
    expect(restoreSnapshot(fresh, USER, text)).toBe(2);
    const [restored] = fresh.getQueryData<(typeof booking)[]>(queryKeys.bookings.mine('m1'))!;
    expect(restored).toEqual(booking);
    expect(restored!.startsAt).toBeInstanceOf(Date);
    expect(fresh.getQueryState(queryKeys.bookings.mine('m1'))?.dataUpdatedAt).toBe(READ_AT);
    expect(lastReadAt(fresh)).toBe(READ_AT);
  });

  it('keeps where the member’s documents stand, which the dashboard shows, but not their texts or health answers', () => {
    const client = new QueryClient();
    client.setQueryData(queryKeys.documents.mineStatus('m1'), [{ kind: 'waiver', is_current: true }], { updatedAt: READ_AT });
    client.setQueryData(queryKeys.documents.mine('m1'), [{ kind: 'waiver', body: 'The waiver’s whole text' }], { updatedAt: READ_AT });
    client.setQueryData(queryKeys.documents.health('m1'), { answers: { heart_condition: true } }, { updatedAt: READ_AT });
    const text = serializeSnapshot(client, USER, READ_AT);
    expect(text).not.toContain('whole text');
    expect(text).not.toContain('heart_condition');
    const fresh = new QueryClient();
    expect(restoreSnapshot(fresh, USER, text)).toBe(1);
    expect(fresh.getQueryData(queryKeys.documents.mineStatus('m1'))).toEqual([{ kind: 'waiver', is_current: true }]);
  });

  it('is never shown to another user, nor when it is two weeks old, and never overwrites what memory holds', () => {
    const text = serializeSnapshot(filledClient(), USER, READ_AT);
    expect(parseSnapshot(text, 'someone-else', READ_AT)).toBeNull();
    expect(parseSnapshot(text, USER, READ_AT + 15 * 24 * 3600_000)).toBeNull();
    expect(parseSnapshot('{not json', USER)).toBeNull();
    // Written by another build of the app (the copy is painted on every start).
    const otherBuild = JSON.stringify({ ...(JSON.parse(text) as object), version: '2:another-build' });
    expect(parseSnapshot(otherBuild, USER, READ_AT)).toBeNull();
    const client = new QueryClient();
    client.setQueryData(queryKeys.bookings.mine('m1'), [], { updatedAt: READ_AT + 1 });
    restoreSnapshot(client, USER, text);
    expect(client.getQueryData(queryKeys.bookings.mine('m1'))).toEqual([]);
  });

  it('is written after successful reads and removed by Log Out', async () => {
    const client = new QueryClient();
    const stop = keepSnapshot(client, USER);
    await client.fetchQuery({ queryKey: queryKeys.bookings.mine('m1'), queryFn: () => Promise.resolve([booking]) });
    await expect.poll(() => readOfflineSnapshot(), { timeout: 2_000 }).toContain('Breakfast Club');
    stop();
    clearStoredSession();
    expect(localStorage.getItem(STORAGE_KEYS.offlineSnapshot)).toBeNull();
  });
});
