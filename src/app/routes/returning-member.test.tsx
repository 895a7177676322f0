import '@/testing/match-media-polyfill';
import { cleanup, configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** A class's name shows in its card and again in the calendar links: any of them. */
const shown = async (name: string) => (await screen.findAllByText(name)).length > 0;
const absent = (name: string) => screen.queryAllByText(name).length === 0;
import { forgetCopyFills, keepSnapshot, restoreSnapshot, serializeSnapshot } from '@/app/pwa/offline-snapshot';
import { REFRESH_NOTE } from '@/app/pwa/offline-messages';
import { readOfflineSnapshot, STORAGE_KEYS } from '@/lib/browser-storage';
import { server } from '@/testing/mocks/server';
import { createTestQueryClient, renderApp } from '@/testing/render';
import {
  AUTH_URL,
  authError,
  logoutHandler,
  makeClass,
  makeSession,
  memberHandler,
  restGet,
  rpc,
  seedSession,
  signInAs,
} from '@/testing/supabase-mocks';
import { paintFromCopy } from '@/app/pwa/offline-start';
import { forgetRestoredSession } from '@/lib/auth/restored-session';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';

// Decision 0062: a returning member's page paints from their saved copy at once and
// refreshes in place, with a quiet "Updating…" then "Updated"; the copy is theirs alone, goes at
// Log Out, and never holds an admin's reads.

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));
configure({ asyncUtilTimeout: 5000 });

const IN_TWO_DAYS = new Date(Date.now() + 2 * 86_400_000).toISOString();
const IN_THREE_DAYS = new Date(Date.now() + 3 * 86_400_000).toISOString();
const breakfast = myBookingRow('b1', makeClass({ id: 'c1', name: 'Breakfast Club', trainer: 'Coach Alex', start_time: IN_TWO_DAYS }));
const yoga = myBookingRow('b2', makeClass({ id: 'c2', name: 'Evening Yoga', trainer: 'Coach Bo', start_time: IN_THREE_DAYS }));

type Signed = ReturnType<typeof signInAs>;

/** Signs a member in (or keeps the one given) and answers My Bookings' reads with `bookings`. */
function memberWith(bookings: () => unknown[] | Promise<unknown[]>, fields: Record<string, unknown> = {}, signed?: Signed) {
  const who = signed ?? signInAs({ name: 'Sam Member', membership_tier: 'standard', ...fields });
  server.use(
    memberHandler(who.member),
    myBookingsHandler(bookings as never),
    rpc('my_waitlist', () => []),
    ...myBookingsExtrasHandlers(),
  );
  return who;
}

/** A first visit online: My Bookings read and its copy saved, as the app saves it. */
async function firstVisit(): Promise<{ userId: string; copy: string; signed: Signed }> {
  const signed = memberWith(() => [breakfast]);
  const { user } = signed;
  const first = renderApp('/mybookings');
  expect(await shown('Breakfast Club')).toBe(true);
  const copy = serializeSnapshot(first.queryClient, user.id);
  localStorage.setItem(STORAGE_KEYS.offlineSnapshot, copy);
  first.unmount();
  cleanup();
  return { userId: user.id, copy, signed };
}

beforeEach(() => {
  forgetCopyFills();
  forgetRestoredSession();
});
afterEach(() => localStorage.clear());

describe('a returning member', () => {
  it('sees My Bookings from the copy at once, then a booking made elsewhere when the refresh lands, without a spinner', async () => {
    const { userId, signed } = await firstVisit();
    // Since then the member booked Evening Yoga on another device; the answer takes a moment.
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    memberWith(async () => (await answered, [breakfast, yoga]), {}, signed);
    const client = createTestQueryClient();
    expect(restoreSnapshot(client, userId, readOfflineSnapshot(), { revalidate: true })).toBeGreaterThan(0);
    renderApp('/mybookings', { queryClient: client });

    expect(await shown('Breakfast Club')).toBe(true);
    expect(screen.queryByText('Loading your bookings')).not.toBeInTheDocument();
    expect(await screen.findByText(REFRESH_NOTE.updating)).toBeInTheDocument();
    expect(absent('Evening Yoga')).toBe(true);
    const note = screen.getByText(REFRESH_NOTE.updating);

    answer();
    expect(await shown('Evening Yoga')).toBe(true);
    expect(await screen.findByText(REFRESH_NOTE.updated)).toBe(note); // the same line, in place
    expect(absent('Breakfast Club')).toBe(false);
  });

  // Decision 0111: an hour after the last visit the stored access token has expired, and auth-js
  // asks GoTrue for a new one before it answers getSession. The copy does not wait for that.
  it('sees the copy while GoTrue is still renewing the stored session, and the refresh when it lands', async () => {
    const { signed } = await firstVisit();
    memberWith(() => [breakfast, yoga], {}, signed);
    const expired = { ...signed.session, expires_at: Math.floor(Date.now() / 1000) - 60 };
    seedSession(expired);
    let renew!: () => void;
    const renewed = new Promise<void>((resolve) => (renew = resolve));
    server.use(
      http.post(`${AUTH_URL}/token`, async ({ request }) => {
        if (new URL(request.url).searchParams.get('grant_type') !== 'refresh_token') return authError('Unexpected grant');
        await renewed;
        return HttpResponse.json(makeSession(signed.user), { headers: { 'x-supabase-api-version': '2024-01-01' } });
      }),
    );
    const client = createTestQueryClient();
    await paintFromCopy(client);
    renderApp('/mybookings', { queryClient: client });

    expect(await shown('Breakfast Club')).toBe(true);
    expect(screen.queryByText('Checking your session')).not.toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Log Out' })).toBeInTheDocument(); // the member's header, not a pending one
    expect(absent('Evening Yoga')).toBe(true);

    renew();
    expect(await shown('Evening Yoga')).toBe(true);
    expect(await screen.findByText(REFRESH_NOTE.updated)).toBeInTheDocument();
  });

  it('a stored session GoTrue no longer takes: the copy gives way to Sign In and is kept as it was', async () => {
    const { signed } = await firstVisit();
    memberWith(() => [], {}, signed);
    seedSession({ ...signed.session, expires_at: Math.floor(Date.now() / 1000) - 60 });
    server.use(
      http.post(`${AUTH_URL}/token`, async () => {
        await delay(50);
        return authError('Invalid Refresh Token: Refresh Token Not Found', 400, 'refresh_token_not_found');
      }),
    );
    // auth-js logs the refusal (console.error fails a test otherwise): that one line, nothing else.
    const failOnError = vi.mocked(console.error).getMockImplementation();
    const logged: string[] = [];
    vi.mocked(console.error).mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
    try {
      const client = createTestQueryClient();
      await paintFromCopy(client);
      const app = renderApp('/mybookings', { queryClient: client });
      expect(await shown('Breakfast Club')).toBe(true);

      expect(await screen.findByRole('heading', { name: 'Sign In' })).toBeInTheDocument();
      expect(app.router.state.location.pathname).toBe('/signin');
      expect(absent('Breakfast Club')).toBe(true);
      await delay(600); // the copy would be written half a second after a read lands
      expect(readOfflineSnapshot()).toContain('Breakfast Club'); // not overwritten by what the refused session read
      expect(logged.every((line) => line.includes('Refresh Token Not Found'))).toBe(true);
    } finally {
      vi.mocked(console.error).mockImplementation(failOnError!);
    }
  });

  it('a first visit (no copy) shows no note, only the loading state', async () => {
    memberWith(async () => (await delay(50), [breakfast]));
    renderApp('/mybookings');
    expect(await shown('Breakfast Club')).toBe(true);
    expect(screen.queryByText(REFRESH_NOTE.updating)).not.toBeInTheDocument();
    expect(screen.queryByText(REFRESH_NOTE.updated)).not.toBeInTheDocument();
  });

  it('another member on this browser never sees the first one’s copy', async () => {
    await firstVisit();
    const other = memberWith(async () => (await delay(50), []), { email: 'other@studio.test' });
    const client = createTestQueryClient();
    expect(restoreSnapshot(client, other.user.id, readOfflineSnapshot(), { revalidate: true })).toBe(0);
    renderApp('/mybookings', { queryClient: client });
    expect(await screen.findByText('Loading your bookings')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'My Bookings', level: 1 })).toBeInTheDocument();
    await delay(100);
    expect(absent('Breakfast Club')).toBe(true);
    expect(screen.queryByText(REFRESH_NOTE.updating)).not.toBeInTheDocument();
  });

  it('Log Out removes the copy from this browser', async () => {
    const { userId, signed } = await firstVisit();
    memberWith(() => [breakfast], {}, signed);
    server.use(logoutHandler);
    const client = createTestQueryClient();
    restoreSnapshot(client, userId, readOfflineSnapshot(), { revalidate: true });
    renderApp('/mybookings', { queryClient: client });
    expect(await shown('Breakfast Club')).toBe(true);
    const [logOut] = await screen.findAllByRole('button', { name: 'Log Out' });
    await userEvent.click(logOut!);
    expect(await screen.findByText('Logged out successfully')).toBeInTheDocument();
    expect(readOfflineSnapshot()).toBeNull();
    expect(client.getQueryCache().getAll()).toHaveLength(0);
  });

  it('an admin’s reads are never kept in the copy', async () => {
    const { user, handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      restGet('classes', () => [makeClass({ id: 'c9', name: 'Admin Spin' })]),
      restGet('studio_closures', () => []),
      rpc('paid_bookings_affected', () => []),
    );
    const client = createTestQueryClient();
    const stop = keepSnapshot(client, user.id);
    renderApp('/admin', { queryClient: client });
    expect(await shown('Admin Spin')).toBe(true);
    expect(
      client
        .getQueryCache()
        .getAll()
        .some((query) => query.queryKey[0] === 'admin'),
    ).toBe(true);
    await delay(600); // the copy is written half a second after reads land
    stop();
    const kept = (JSON.parse(readOfflineSnapshot() ?? '{"entries":[]}') as { entries: { queryKey: unknown[] }[] }).entries;
    expect(kept.length).toBeGreaterThan(0); // the admin's own member row, as for any member
    expect(kept.filter((entry) => entry.queryKey[0] === 'admin')).toEqual([]);
  });
});
