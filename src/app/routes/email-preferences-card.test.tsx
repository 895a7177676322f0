import '@/testing/match-media-polyfill';
import { act, configure, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, REST_URL, restGet, rpc, signInAs } from '@/testing/supabase-mocks';

configure({ asyncUtilTimeout: 5000 });

/** The member's stored review-request cell (decision 0088); none = on. */
let reviewPreference: { enabled: boolean }[] = [];

function setup(stored: { class_reminders: boolean; win_back?: boolean } | null) {
  reviewPreference = [];
  const signed = signInAs({ membership_tier: 'standard' });
  const asked: string[] = [];
  server.use(
    memberHandler(signed.member),
    http.head(`${REST_URL}/bookings`, () => new HttpResponse(null, { headers: { 'content-range': '*/0' } })),
    restGet('email_preferences', ({ url }) => (asked.push(url.searchParams.get('member_id') ?? ''), stored ? [stored] : [])),
    restGet('notification_preferences', () => reviewPreference),
    restGet('push_preferences', () => []),
  );
  return { ...signed, asked };
}

async function card() {
  return within((await screen.findByRole('heading', { name: 'Email preferences' })).closest('div')!);
}

describe('Email preferences card', { timeout: 20_000 }, () => {
  afterEach(() => {
    act(() => toast.remove());
  });

  it('shows reminders on by default (no row yet) and turns them off through set_email_preferences', async () => {
    const { member, asked } = setup(null);
    const calls: unknown[] = [];
    server.use(rpc('set_email_preferences', ({ args }) => (calls.push(args), { class_reminders: args.p_class_reminders as boolean })));
    renderApp('/edit-profile');

    const c = await card();
    const reminders = await c.findByRole('switch', { name: 'Class reminder emails' });
    expect(reminders).toBeChecked();
    expect(asked).toEqual([`eq.${member.id}`]);
    expect(c.getByText(/Booking confirmations, cancellations, waitlist news and payment emails always come/)).toBeInTheDocument();

    await userEvent.click(reminders);
    expect(await screen.findByText('Reminder emails are off')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_reminders: false }]);
    expect(c.getByRole('switch', { name: 'Class reminder emails' })).not.toBeChecked();
  });

  it('shows a stored choice, and keeps it when saving fails', async () => {
    setup({ class_reminders: false });
    server.use(rpc('set_email_preferences', () => postgrestError({ code: '500', message: 'boom' }, 500)));
    renderApp('/edit-profile');

    const c = await card();
    const reminders = await c.findByRole('switch', { name: 'Class reminder emails' });
    expect(reminders).not.toBeChecked();
    await userEvent.click(reminders);
    expect(await screen.findByText('Could not save your email preferences. Please try again.')).toBeInTheDocument();
    expect(c.getByRole('switch', { name: 'Class reminder emails' })).not.toBeChecked();
  });

  it('leaves news and offers off until the member says yes, and records their choice through set_marketing_consent', async () => {
    setup(null);
    const calls: unknown[] = [];
    server.use(rpc('set_marketing_consent', ({ args }) => (calls.push(args), args.p_granted as boolean)));
    renderApp('/edit-profile');

    const c = await card();
    const marketing = await c.findByRole('switch', { name: 'Send me news and offers' });
    expect(marketing).not.toBeChecked();
    await userEvent.click(marketing);
    expect(await screen.findByText('You will get news and offers')).toBeInTheDocument();
    expect(calls).toEqual([{ p_granted: true }]);
    expect(c.getByRole('switch', { name: 'Send me news and offers' })).toBeChecked();
    // The reminders switch is untouched.
    expect(c.getByRole('switch', { name: 'Class reminder emails' })).toBeChecked();
  });

  it('turns review requests off through set_notification_preference (they are on until then)', async () => {
    setup(null);
    const calls: unknown[] = [];
    server.use(
      rpc(
        'set_notification_preference',
        ({ args }) => (calls.push(args), { member_id: 'm', channel: 'email', topic: 'review_request', enabled: args.p_enabled }),
      ),
    );
    renderApp('/edit-profile');

    const c = await card();
    const reviews = await c.findByRole('switch', { name: 'Review requests' });
    expect(reviews).toBeChecked();
    await userEvent.click(reviews);
    expect(await screen.findByText('No review requests will be sent')).toBeInTheDocument();
    expect(calls).toEqual([{ p_channel: 'email', p_topic: 'review_request', p_enabled: false }]);
    expect(c.getByRole('switch', { name: 'Review requests' })).not.toBeChecked();
  });
});
