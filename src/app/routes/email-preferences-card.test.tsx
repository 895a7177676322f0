import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, preferencesHandlers, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

configure({ asyncUtilTimeout: 5000 });

function setup(consent: boolean | null) {
  const signed = signInAs({ membership_tier: 'standard' });
  const asked: string[] = [];
  server.use(
    memberHandler(signed.member),
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/0' } })),
    restGet(
      'marketing_consents',
      ({ url }) => (asked.push(url.searchParams.get('member_id') ?? ''), consent === null ? [] : [{ granted: consent }]),
    ),
    ...preferencesHandlers(),
    restGet('push_preferences', () => []),
  );
  return { ...signed, asked };
}

async function card() {
  return within((await screen.findByRole('heading', { name: 'Email preferences' }, { timeout: 15_000 })).closest('div')!);
}

describe('Email preferences card', { timeout: 20_000 }, () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('leaves news and offers off until the member says yes, and records their choice through set_marketing_consent', async () => {
    const { member, asked } = setup(null);
    const calls: unknown[] = [];
    server.use(rpc('set_marketing_consent', ({ args }) => (calls.push(args), args.p_granted as boolean)));
    renderApp('/edit-profile');

    const c = await card();
    const marketing = await c.findByRole('switch', { name: 'Send me news and offers' });
    expect(marketing).not.toBeChecked();
    expect(asked).toEqual([`eq.${member.id}`]);
    expect(c.getByText(/Booking confirmations, cancellations, waitlist news and payment emails always come/)).toBeInTheDocument();
    await userEvent.click(marketing);
    expect(await screen.findByText('You will get news and offers')).toBeInTheDocument();
    expect(calls).toEqual([{ p_granted: true }]);
    expect(c.getByRole('switch', { name: 'Send me news and offers' })).toBeChecked();
  });

  it('shows a recorded yes, and keeps it when saving a no fails', async () => {
    setup(true);
    server.use(rpc('set_marketing_consent', () => postgrestError({ code: '500', message: 'boom' }, 500)));
    renderApp('/edit-profile');

    const c = await card();
    const marketing = await c.findByRole('switch', { name: 'Send me news and offers' });
    expect(marketing).toBeChecked();
    await userEvent.click(marketing);
    expect(await screen.findByText('Could not save your email preferences. Please try again.')).toBeInTheDocument();
    expect(c.getByRole('switch', { name: 'Send me news and offers' })).toBeChecked();
  });
});
