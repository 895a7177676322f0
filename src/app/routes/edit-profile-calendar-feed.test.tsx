import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadRouteModules } from '@/app/router';
import { paths } from '@/config/paths';
import type { Member } from '@/lib/supabase';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, preferencesHandlers, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

configure({ asyncUtilTimeout: 5000 });

const OLD = 'A'.repeat(43);
const NEW = 'b_-'.repeat(14) + 'c';

function setup(overrides: Partial<Member> = {}) {
  const signed = signInAs({ membership_tier: 'standard', ...overrides });
  server.use(
    memberHandler(signed.member),
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/0' } })),
    ...preferencesHandlers(),
    restGet('push_preferences', () => []),
  );
  return signed;
}

async function card() {
  return within((await screen.findByRole('heading', { name: 'Calendar feed' })).closest('div')!);
}

const feedUrl = (token: string) => `${window.location.origin}/.netlify/functions/calendar-feed?token=${token}`;

describe('Calendar feed card', { timeout: 20_000 }, () => {
  // The screen's lazy chunks load once here, not inside the first test's wait (busy machines).
  beforeAll(() => loadRouteModules({ pathname: paths.editProfile }), 60_000);
  afterEach(() => {
    act(() => toast.remove());
    vi.restoreAllMocks();
  });

  it('creates a private link on request when the member has none', async () => {
    setup({ calendar_token: null });
    const calls: string[] = [];
    server.use(rpc('rotate_calendar_token', () => (calls.push('rotate'), { calendar_token: NEW })));
    const confirm = vi.spyOn(window, 'confirm');
    renderApp('/edit-profile');

    const c = await card();
    expect(c.getByText(/This link is private/)).toBeInTheDocument();
    expect(c.queryByLabelText('Calendar feed URL')).not.toBeInTheDocument();
    await userEvent.click(c.getByRole('button', { name: 'Create calendar link' }));
    expect(await c.findByLabelText('Calendar feed URL')).toHaveValue(feedUrl(NEW));
    expect(calls).toEqual(['rotate']);
    expect(confirm).not.toHaveBeenCalled(); // nothing to lose yet
    expect(await screen.findByText('Your calendar link is ready')).toBeInTheDocument();
  });

  it('copies the subscribe URL of the site’s origin', async () => {
    setup({ calendar_token: OLD });
    const writeText = vi.fn(() => Promise.resolve());
    // userEvent.setup() installs its own clipboard: stub it after.
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    renderApp('/edit-profile');

    const c = await card();
    expect(c.getByLabelText('Calendar feed URL')).toHaveValue(feedUrl(OLD));
    await user.click(c.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(feedUrl(OLD));
    expect(await screen.findByText('Calendar link copied')).toBeInTheDocument();
  });

  it('rotates after confirming: the new link replaces the old', async () => {
    setup({ calendar_token: OLD });
    const calls: string[] = [];
    server.use(rpc('rotate_calendar_token', () => (calls.push('rotate'), { calendar_token: NEW })));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    renderApp('/edit-profile');

    const c = await card();
    await userEvent.click(c.getByRole('button', { name: 'Get a new link' }));
    expect(calls).toEqual([]);
    await userEvent.click(c.getByRole('button', { name: 'Get a new link' }));
    expect(await screen.findByText('New calendar link created. The old link no longer works.')).toBeInTheDocument();
    expect(c.getByLabelText('Calendar feed URL')).toHaveValue(feedUrl(NEW));
    expect(calls).toEqual(['rotate']);
    expect(confirm).toHaveBeenLastCalledWith('Get a new calendar link? Calendars subscribed with the current link stop updating.');
  });

  it('revokes: the link disappears and the feed can be created again', async () => {
    setup({ calendar_token: OLD });
    const calls: string[] = [];
    server.use(rpc('revoke_calendar_token', () => (calls.push('revoke'), { calendar_token: null })));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/edit-profile');

    const c = await card();
    await userEvent.click(c.getByRole('button', { name: 'Turn off feed' }));
    expect(await screen.findByText('Calendar feed turned off')).toBeInTheDocument();
    expect(c.queryByLabelText('Calendar feed URL')).not.toBeInTheDocument();
    expect(c.getByRole('button', { name: 'Create calendar link' })).toBeInTheDocument();
    expect(calls).toEqual(['revoke']);
  });

  it('keeps the link and says so when the server refuses', async () => {
    setup({ calendar_token: OLD });
    server.use(rpc('revoke_calendar_token', () => postgrestError({ code: 'XX000', message: 'boom' }, 500)));
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderApp('/edit-profile');

    const c = await card();
    await userEvent.click(c.getByRole('button', { name: 'Turn off feed' }));
    expect(await screen.findByText('Could not update your calendar link. Please try again.')).toBeInTheDocument();
    expect(c.getByLabelText('Calendar feed URL')).toHaveValue(feedUrl(OLD));
  });
});
