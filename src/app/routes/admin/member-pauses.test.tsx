import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { REST_URL, rpc } from '@/testing/supabase-mocks';

// Members Management (decision 0050): an admin pauses any member with a running plan, and sets the
// studio's rules for the pauses members take themselves.

const LIST = [
  {
    id: 'm1',
    name: 'Priya Premium',
    email: 'm1@studio.test',
    membership_tier: 'premium',
    created_at: '2026-03-05T10:00:00Z',
    bookings: [{ count: 0 }],
    memberships: { status: 'active', period_end: '2030-03-04T12:00:00+00:00', ended_at: null, next_retry_at: null },
  },
  {
    id: 'm2',
    name: 'Paul Payg',
    email: 'm2@studio.test',
    membership_tier: 'payg',
    created_at: '2026-03-05T10:00:00Z',
    bookings: [{ count: 0 }],
    memberships: null,
  },
];

function setup() {
  const { handlers } = signInAsAdmin(() => LIST);
  server.use(
    http.get(`${REST_URL}/members`, ({ request }) => {
      const url = new URL(request.url);
      if (!url.searchParams.has('order')) return undefined;
      return pagedResponse(url, LIST);
    }),
    ...handlers,
    http.head(`${REST_URL}/members`, () => new HttpResponse(null, { headers: { 'content-range': `*/${LIST.length}` } })),
  );
  renderApp('/admin/members');
}

describe('Members Management: pauses', () => {
  it('pauses a member from today for the studio, showing what it does first', async () => {
    setup();
    const calls: Record<string, unknown>[] = [];
    const quote = {
      starts_on: '2030-02-10',
      ends_on: '2030-04-10',
      days: 60,
      hold_fee: null,
      fee_months: 0,
      fee_total: 0,
      renewal_before: '2030-03-04T12:00:00+00:00',
      renewal_after: '2030-05-03T12:00:00+00:00',
      cancelled_bookings: [],
    };
    server.use(
      rpc('preview_pause', ({ args }) => {
        calls.push({ preview: args });
        return quote;
      }),
      rpc('confirm_pause', ({ args }) => {
        calls.push({ confirm: args });
        return quote;
      }),
    );
    const user = userEvent.setup();
    await screen.findByRole('table');
    expect(screen.queryByRole('button', { name: 'Pause: Paul Payg' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pause: Priya Premium' }));
    const dialog = within(await screen.findByRole('dialog', { name: "Pause Priya Premium's membership" }));
    expect(dialog.getByText('The studio may pause a member from today for up to 365 days.')).toBeInTheDocument();
    await user.type(dialog.getByLabelText(/First paused day/), '2030-02-10');
    await user.type(dialog.getByLabelText(/Last paused day/), '2030-04-10');
    await user.click(dialog.getByRole('button', { name: 'See what changes' }));
    const facts = await dialog.findByLabelText('What the pause does');
    expect(facts).toHaveTextContent('None: nothing is charged while paused');
    expect(facts).toHaveTextContent('Moves from 4 March 2030 to 3 May 2030');
    await user.click(dialog.getByRole('button', { name: 'Confirm pause' }));
    expect(await screen.findByText('Paused from 10 February 2030 to 10 April 2030. Next renewal: 3 May 2030.')).toBeInTheDocument();
    const member = { p_starts_on: '2030-02-10', p_ends_on: '2030-04-10', p_member_id: 'm1' };
    expect(calls).toEqual([{ preview: member }, { confirm: member }]);
  });

  it('saves the pause rules, refusing a longest pause shorter than the shortest', async () => {
    setup();
    const saved: unknown[] = [];
    server.use(
      rpc('admin_set_pause_rules', ({ args }) => {
        saved.push(args);
        return {};
      }),
    );
    const user = userEvent.setup();
    const form = within(await screen.findByRole('form', { name: 'Pause rules' }));
    expect(form.getByLabelText(/Monthly hold fee/)).toHaveValue('12.50');
    await user.clear(form.getByLabelText('Longest pause (days)'));
    await user.type(form.getByLabelText('Longest pause (days)'), '5');
    await user.click(form.getByRole('button', { name: 'Save pause rules' }));
    expect(await form.findByText('The longest pause is at least the shortest')).toBeInTheDocument();
    expect(saved).toEqual([]);
    await user.clear(form.getByLabelText('Longest pause (days)'));
    await user.type(form.getByLabelText('Longest pause (days)'), '30');
    await user.clear(form.getByLabelText(/Monthly hold fee/));
    await user.click(form.getByRole('button', { name: 'Save pause rules' }));
    expect(await screen.findByText('Pause rules saved')).toBeInTheDocument();
    expect(saved).toEqual([
      { p_members_may_pause: true, p_min_days: 7, p_max_days: 30, p_per_year: 2, p_notice_days: 3, p_hold_fee: null },
    ]);
  });
});
