import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { REST_URL, postgrestError } from '@/testing/supabase-mocks';
import { answerConfirm, membersHandler, signInAsAdmin } from '@/testing/admin-fixtures';
import { pauseHandlers } from '@/testing/membership-mocks';

const member = (id: string, name: string | null, email: string, tier: string, count: number, created = '2026-03-05T10:00:00Z') => ({
  id,
  name,
  email,
  membership_tier: tier,
  created_at: created,
  bookings: [{ count }],
});

const LIST = [
  member('m1', 'Priya Premium', 'premium@studio.test', 'premium', 7),
  member('m2', 'Sam Standard', 'standard@studio.test', 'standard', 3),
  member('m3', 'Paul Payg', 'payg@studio.test', 'payg', 0),
  member('m4', 'Tara Trial', 'trial@studio.test', 'trial', 1),
  member('m5', null, 'legacy@studio.test', 'gold', 0),
];

/**
 * The HEAD counts the tier cards send: `count=exact` over members, optionally of one tier, and
 * (when asked) without sign-ups still awaiting their email confirmation.
 */
function countHandler(list: () => { membership_tier: string; awaiting_confirmation?: boolean }[]) {
  return http.head(`${REST_URL}/members`, ({ request }) => {
    const params = new URL(request.url).searchParams;
    const tier = params.get('membership_tier');
    const confirmedOnly = params.get('awaiting_confirmation') === 'eq.false';
    const count = list().filter((m) => (!tier || `eq.${m.membership_tier}` === tier) && !(confirmedOnly && m.awaiting_confirmation)).length;
    return new HttpResponse(null, { headers: { 'content-range': `*/${count}` } });
  });
}

function setup(initial: (ReturnType<typeof member> & { awaiting_confirmation?: boolean })[]) {
  let list = initial;
  const { handlers } = signInAsAdmin(() => list);
  const requests: URL[] = [];
  server.use(
    ...handlers,
    countHandler(() => list),
    // The delete-member function (decision 0010): ends the login, then the database removes the member.
    http.post('/.netlify/functions/delete-member', async ({ request }) => {
      expect(request.headers.get('authorization')).toMatch(/^Bearer .+/);
      const { memberId } = (await request.json()) as { memberId: string };
      if (memberId === 'm2') return HttpResponse.json({ error: 'not_admin', message: 'Access denied' }, { status: 403 });
      list = list.filter((m) => m.id !== memberId);
      return HttpResponse.json({ memberId, refundsOwed: 0 });
    }),
  );
  server.events.on('request:start', ({ request }) => {
    const url = new URL(request.url);
    if (url.pathname.endsWith('/members') && request.method === 'GET' && !url.searchParams.has('email') && !url.searchParams.has('user_id'))
      requests.push(url);
  });
  renderApp('/admin/members');
  return requests;
}

function card(label: string) {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling;
}

describe('Members Management', () => {
  it('never counts a sign-up that has not confirmed its email as a member (decision 0070)', async () => {
    setup([...LIST, { ...member('m6', 'Una Unconfirmed', 'una@example.test', 'trial', 0), awaiting_confirmation: true }]);
    await screen.findByRole('table');
    await waitFor(() => expect(card('Total Members')).toHaveTextContent('5'));
    expect(card('Pay as You Go')).toHaveTextContent('3');
  });

  it('lays the four figures two across on a phone and gives the search its own row', async () => {
    setup(LIST);
    await screen.findByRole('table');
    expect(screen.getByTestId('member-figures')).toHaveClass('grid-cols-2');
    expect(screen.getByRole('searchbox', { name: 'Search members' }).parentElement).toHaveClass('basis-full');
  });

  it('counts tiers on the server (trial and unknown as Pay as You Go) and lists one page of members with badges, bookings and join date', async () => {
    const requests = setup(LIST);
    const table = await screen.findByRole('table');
    expect(requests[0]!.searchParams.get('select')).toBe(
      'id,name,email,membership_tier,created_at,bookings(count),memberships(status,period_end,ended_at,next_retry_at)',
    );
    expect(requests[0]!.searchParams.get('order')).toBe('created_at.desc');
    expect([requests[0]!.searchParams.get('offset'), requests[0]!.searchParams.get('limit')]).toEqual(['0', '50']);
    await waitFor(() => expect(card('Total Members')).toHaveTextContent('5'));
    expect(card('Premium')).toHaveTextContent('1');
    expect(card('Standard')).toHaveTextContent('1');
    expect(card('Pay as You Go')).toHaveTextContent('3');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Member', 'Membership', 'Plan Status', 'Next Renewal', 'Total Bookings', 'Joined', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent('Priya Premiumpremium@studio.testPremium——75 Mar 2026');
    expect(rows[3]).toHaveTextContent('Tara Trialtrial@studio.testPay as You Go——1');
    expect(rows[4]).toHaveTextContent('legacy@studio.testPay as You Go——0');
    expect(screen.getByText('Showing 5 of 5 members')).toBeInTheDocument();
  });

  it('searches by name or email', async () => {
    setup(LIST);
    const user = userEvent.setup();
    const search = await screen.findByRole('searchbox', { name: 'Search members' });
    await user.type(search, 'tara');
    expect(await screen.findByText('Showing 1 of 1 members')).toBeInTheDocument();
    expect(screen.getByText('Tara Trial')).toBeInTheDocument();
    expect(screen.queryByText('Priya Premium')).not.toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'legacy@');
    expect(await screen.findByText('legacy@studio.test')).toBeInTheDocument();
    expect(screen.queryByText('Tara Trial')).not.toBeInTheDocument();
    expect(screen.getByText('Showing 1 of 1 members')).toBeInTheDocument();
    // The cards still count every member, not the search.
    expect(card('Total Members')).toHaveTextContent('5');
    await user.type(search, 'nobody');
    expect(await screen.findByText('No members found')).toBeInTheDocument();
  });

  it('shows the empty state without members', async () => {
    setup([]);
    expect(await screen.findByText('No members yet')).toBeInTheDocument();
    expect(screen.getByText('Members will appear here once they sign up.')).toBeInTheDocument();
  });

  it('says "Failed to load members" when the list cannot be read', async () => {
    const { member: admin } = signInAsAdmin();
    // The first matching handler answers: the list fails, the guard's lookup falls through to the admin row.
    server.use(
      http.get(`${REST_URL}/members`, ({ request }) =>
        new URL(request.url).searchParams.has('order') ? postgrestError({ code: '42501', message: 'denied' }, 403) : undefined,
      ),
      membersHandler(admin),
      countHandler(() => []),
      ...pauseHandlers(),
    );
    renderApp('/admin/members');
    expect(await screen.findAllByText('Failed to load members')).not.toHaveLength(0);
  });

  it('deletes a member after confirmation, and reports a refusal', async () => {
    setup(LIST);
    const deleted: string[] = [];
    server.events.on('request:start', ({ request }) => {
      if (request.url.endsWith('/.netlify/functions/delete-member'))
        void request
          .clone()
          .json()
          .then((b: { memberId: string }) => deleted.push(b.memberId));
    });
    const user = userEvent.setup();
    const confirm = answerConfirm(false);
    await user.click(await screen.findByRole('button', { name: 'Delete Paul Payg' }));
    expect(deleted).toEqual([]);
    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Delete Paul Payg' }));
    expect(await screen.findByText('Member deleted successfully')).toBeInTheDocument();
    expect(deleted).toEqual(['m3']);
    expect(screen.queryByText('Paul Payg')).not.toBeInTheDocument();
    expect(screen.getByText('Showing 4 of 4 members')).toBeInTheDocument();
    await waitFor(() => expect(card('Total Members')).toHaveTextContent('4'));
    await user.click(screen.getByRole('button', { name: 'Delete Sam Standard' }));
    expect(await screen.findByText('Failed to delete member')).toBeInTheDocument();
  });
});

describe("a member's attendance", () => {
  it('shows their bookings with attended, no-show and unmarked, and the totals', async () => {
    setup(LIST);
    server.use(
      http.head(`${REST_URL}/bookings`, ({ request }) => {
        const attendance = new URL(request.url).searchParams.get('attendance');
        return new HttpResponse(null, { headers: { 'content-range': `*/${attendance === 'eq.no_show' ? 4 : 9}` } });
      }),
      http.get(`${REST_URL}/bookings`, ({ request }) => {
        expect(new URL(request.url).searchParams.get('member_id')).toBe('eq.m2');
        return HttpResponse.json([
          {
            id: 'b1',
            attendance: 'no_show',
            attendance_marked_at: '2030-03-04T08:00:00Z',
            classes: { name: 'Breakfast Club', start_time: '2030-03-04T07:15:00Z' },
          },
          { id: 'b2', attendance: null, attendance_marked_at: null, classes: { name: 'Kids Club', start_time: '2030-03-10T16:45:00Z' } },
          {
            id: 'b3',
            attendance: 'attended',
            attendance_marked_at: '2030-03-01T08:00:00Z',
            classes: { name: 'Yoga', start_time: '2030-03-01T07:15:00Z' },
          },
        ]);
      }),
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Attendance: Sam Standard' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Attendance: Sam Standard' }));
    expect(await dialog.findByText('9 attended · 4 no-shows in all')).toBeInTheDocument();
    const rows = dialog.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringMatching(/^Kids Club.*Not marked$/),
      expect.stringMatching(/^Breakfast Club.*No-show$/),
      expect.stringMatching(/^Yoga.*Attended$/),
    ]);
  });
});
