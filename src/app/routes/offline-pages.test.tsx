import '@/testing/match-media-polyfill';
import { act, cleanup, configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DASHBOARD_NOT_SAVED, NOT_AVAILABLE_OFFLINE, READABLE_OFFLINE_LABEL } from '@/app/pwa/offline-messages';
import { serializeSnapshot } from '@/app/pwa/offline-snapshot';
import { setReachable } from '@/hooks/use-online';
import { STORAGE_KEYS } from '@/lib/browser-storage';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { makeClass, memberHandler, preferencesHandlers, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { myBookingRow, myBookingsExtrasHandlers, myBookingsHandler } from '@/features/booking/testing/booking-mocks';
import { documentsHandlers } from '@/features/documents/testing/documents-mocks';
import { membershipHandlers } from '@/testing/membership-mocks';

// Decision 0019: offline, the dashboard shows the copy saved on the phone (or says it has none),
// and the pages nothing of which is kept say they are not available offline: never a spinner
// waiting for a connection that is not there.

vi.mock('@/features/booking/api/subscribe-live-changes', () => ({ subscribeToLiveChanges: () => () => undefined }));

configure({ asyncUtilTimeout: 5000 });

const IN_TWO_DAYS = new Date(Date.now() + 2 * 86_400_000).toISOString();

function signedIn() {
  const signed = signInAs({ name: 'Sam Member', membership_tier: 'standard', created_at: '2025-01-05T10:00:00Z' });
  server.use(
    memberHandler(signed.member),
    myBookingsHandler(() => [
      myBookingRow('b1', makeClass({ id: 'c1', name: 'Breakfast Club', trainer: 'Coach Alex', start_time: IN_TWO_DAYS })),
    ]),
    rpc('my_plan_usage', () => ({
      month_start: '2025-06-30T23:00:00Z',
      late_cancellations: 0,
      allowance: 12,
      used: 3,
      remaining: 9,
      bookings: 4,
    })),
    rpc('my_waitlist', () => []),
    ...myBookingsExtrasHandlers(),
    ...documentsHandlers({ signed: true }),
    // /membership's reads: a boot read may leave before the app learns it is offline.
    ...membershipHandlers(),
    // Edit Profile's reads.
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/1' } })),
    ...preferencesHandlers(),
    restGet('push_preferences', () => []),
    // Personal training's, once back online.
    restGet('trainers', () => []),
  );
  return signed;
}

/**
 * No connection, as the app learns it: the site does not answer, and TanStack Query's reads wait
 * (the app tells its online manager at start, offline-start.ts; between tests no client listens).
 */
const goOffline = () =>
  act(() => {
    onlineManager.setOnline(false);
    setReachable(false);
  });
const goOnline = () =>
  act(() => {
    onlineManager.setOnline(true);
    setReachable(true);
  });

afterEach(() => {
  goOnline();
  localStorage.clear();
});

describe('offline', () => {
  it('the dashboard shows the copy saved on this phone, even one without the cards it waits for online', async () => {
    const { user } = signedIn();
    // Online first: the dashboard's reads arrive, and are saved as the app saves them.
    const online = renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
    const copy = JSON.parse(serializeSnapshot(online.queryClient, user.id)) as { entries: { queryKey: unknown[] }[] };
    // A copy saved before the documents' status and the credits were kept.
    copy.entries = copy.entries.filter((e) => e.queryKey[0] !== 'documents' && e.queryKey[0] !== 'credits');
    localStorage.setItem(STORAGE_KEYS.offlineSnapshot, JSON.stringify(copy));
    online.unmount();
    cleanup();

    // The app opened again with no connection.
    goOffline();
    renderApp('/dashboard');
    expect(await screen.findByRole('heading', { name: 'Welcome back, Sam!', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
    expect(within(screen.getByRole('heading', { name: 'Next Class' }).parentElement!).getByText('Breakfast Club')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: '' })).toHaveTextContent(/You are offline: showing what we had at/);
    expect(screen.queryByText('Loading your dashboard')).not.toBeInTheDocument();
  });

  it('the dashboard with nothing saved on this phone says so, with the pages that read offline', async () => {
    signedIn();
    goOffline();
    renderApp('/dashboard');
    expect(await screen.findByText(DASHBOARD_NOT_SAVED)).toBeInTheDocument();
    const readable = within(screen.getByRole('navigation', { name: READABLE_OFFLINE_LABEL }));
    expect(readable.getAllByRole('link').map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['My Bookings', '/mybookings'],
      ['Book a Class', '/my-schedule'],
    ]);
    expect(screen.queryByText('Loading your dashboard')).not.toBeInTheDocument();
  });

  for (const [path, heading] of [
    ['/membership', 'Membership'],
    ['/personal-training', 'Personal training'],
    ['/edit-profile', 'Edit Profile'],
  ] as const) {
    it(`${path} says it is not available offline, under its heading, instead of a spinner`, async () => {
      signedIn();
      goOffline();
      renderApp(path);
      expect(await screen.findByRole('heading', { name: heading, level: 1 })).toBeInTheDocument();
      expect(await screen.findByText(NOT_AVAILABLE_OFFLINE)).toBeVisible();
      const readable = within(screen.getByRole('navigation', { name: READABLE_OFFLINE_LABEL }));
      expect(readable.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
      for (const spinner of screen.queryAllByRole('status')) expect(spinner).not.toHaveTextContent(/^Loading/);
    });
  }

  it('a page open when the connection goes keeps what was typed, and shows it again once back', async () => {
    signedIn();
    renderApp('/edit-profile');
    const name = await screen.findByRole('textbox', { name: 'Full Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Sam Typed');
    goOffline();
    expect(await screen.findByText(NOT_AVAILABLE_OFFLINE)).toBeVisible();
    expect(name).not.toBeVisible();
    goOnline();
    expect(screen.queryByText(NOT_AVAILABLE_OFFLINE)).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Full Name' })).toHaveValue('Sam Typed');
  });
});
