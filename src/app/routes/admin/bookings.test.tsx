import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { REST_URL, postgrestError, restGet, rpc } from '@/testing/supabase-mocks';
import { answerConfirm, pagedResponse, signInAsAdmin } from '@/testing/admin-fixtures';

// Rows of the admin_bookings view: bookings joined with member and class (orphans are not in it).
const booking = (
  id: string,
  member: { name: string | null; email: string },
  cls: { name: string; start_time: string; trainer: string },
  bookedAt = '2030-01-02T09:05:00+00:00',
  place: { kind: 'member' | 'child' | 'guest'; person: string } = { kind: 'member', person: member.name ?? '' },
) => ({
  id,
  booked_at: bookedAt,
  kind: place.kind,
  person_name: place.person,
  member_name: member.name,
  member_email: member.email,
  class_name: cls.name,
  class_start_time: cls.start_time,
  class_trainer: cls.trainer,
});

const ROWS = [
  booking(
    'b1',
    { name: 'Priya Premium', email: 'premium@studio.test' },
    { name: 'Breakfast Club', start_time: '2030-01-07T06:00:00+00:00', trainer: 'Coach Alex' },
  ),
  booking(
    'b2',
    { name: 'Sam Standard', email: 'standard@studio.test' },
    { name: 'Kids Club', start_time: '2030-07-01T15:45:00+00:00', trainer: 'Coach Alex' },
  ),
];

function setup(rows: ReturnType<typeof booking>[]) {
  const { handlers } = signInAsAdmin();
  const requests: { url: URL; prefer: string | null; term?: string; offset?: number; limit?: number }[] = [];
  server.use(
    ...handlers,
    restGet('class_waitlist', () => []),
    restGet('refunds_owed', () => []),
    // Every booking (the class tallies' sum): the whole list's total, and what a searched list is out of.
    rpc('admin_bookings_total', () => rows.length),
    http.get(`${REST_URL}/admin_bookings`, ({ request }) => {
      const url = new URL(request.url);
      requests.push({ url, prefer: request.headers.get('prefer') });
      return pagedResponse(url, rows);
    }),
    // admin_bookings_search as the database answers it: member name, email or class name contains
    // the term; one page and the number of matches (decision 0033).
    http.post(`${REST_URL}/rpc/admin_bookings_search`, async ({ request }) => {
      const url = new URL(request.url);
      const {
        p_term: term,
        p_offset: offset,
        p_limit: limit,
      } = (await request.json()) as {
        p_term: string;
        p_offset: number;
        p_limit: number;
      };
      requests.push({ url, prefer: request.headers.get('prefer'), term, offset, limit });
      const needle = term.toLowerCase();
      const matching = rows.filter((r) => [r.member_name, r.member_email, r.class_name].some((t) => t?.toLowerCase().includes(needle)));
      return HttpResponse.json({ total: matching.length, rows: matching.slice(offset, offset + limit) });
    }),
  );
  const rendered = renderApp('/admin/bookings');
  return { requests, ...rendered };
}

describe('Bookings Management', () => {
  it('asks the server for one page of joined rows newest first, and the total from admin_bookings_total', async () => {
    const { requests } = setup(ROWS);
    const table = await screen.findByRole('table');
    const { url, prefer } = requests[0]!;
    expect(url.searchParams.get('select')).toBe(
      'id,booked_at,member_name,member_email,class_name,class_start_time,class_trainer,kind,person_name',
    );
    // Newest first, then by id: a family's places share their booked_at, and pages must not overlap.
    expect(url.searchParams.get('order')).toBe('booked_at.desc,id.desc');
    expect([url.searchParams.get('offset'), url.searchParams.get('limit')]).toEqual(['0', '50']);
    // The whole list is not counted row by row (decision 0029): its total comes from admin_bookings_total.
    expect(prefer ?? '').not.toContain('count=exact');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Member', 'Class', 'Class Date & Time', 'Booked At', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Priya Premiumpremium@studio.test');
    expect(rows[0]).toHaveTextContent('Breakfast Clubwith Coach Alex');
    expect(rows[0]).toHaveTextContent('7 Jan 20306:00 AM');
    expect(rows[0]).toHaveTextContent('2 Jan 20309:05 AM');
    expect(rows[1]).toHaveTextContent('1 Jul 20304:45 PM');
    expect(screen.getByText('Showing 2 of 2 bookings')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
  });

  it('searches by member name, email or class name on the server', async () => {
    const { requests } = setup(ROWS);
    const user = userEvent.setup();
    const search = await screen.findByPlaceholderText('Search by member name, email, or class...');
    await user.type(search, 'kids');
    expect(await screen.findByText('Showing 1 of 1 bookings')).toBeInTheDocument();
    expect(screen.getByText('Sam Standard')).toBeInTheDocument();
    const searched = requests.at(-1)!;
    // One page and its total from the function (decision 0033): no count=exact over every match.
    expect(searched).toMatchObject({ term: 'kids', offset: 0, limit: 50 });
    expect(searched.prefer ?? '').not.toContain('count=exact');
    await user.clear(search);
    await user.type(search, 'PREMIUM@');
    expect(await screen.findByText('Priya Premium')).toBeInTheDocument();
    expect(await screen.findByText('Showing 1 of 1 bookings')).toBeInTheDocument();
    expect(screen.queryByText('Sam Standard')).not.toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'zzz');
    expect(await screen.findByText('No bookings found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search terms')).toBeInTheDocument();
    expect(screen.getByText('Showing 0 of 0 bookings')).toBeInTheDocument();
  });

  it('pages through 50 at a time with Previous and Next', async () => {
    const many = Array.from({ length: 120 }, (_, i) =>
      booking(
        `b${i}`,
        { name: `Member ${i}`, email: `m${i}@studio.test` },
        { name: 'Breakfast Club', start_time: '2030-01-07T06:00:00+00:00', trainer: 'Coach Alex' },
      ),
    );
    const { requests } = setup(many);
    const user = userEvent.setup();
    expect(await screen.findByText('Showing 50 of 120 bookings')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Member 50')).toBeInTheDocument();
    expect(screen.queryByText('Member 49')).not.toBeInTheDocument();
    expect(requests.at(-1)!.url.searchParams.get('offset')).toBe('50');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 20 of 120 bookings')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Previous' }));
    expect(await screen.findByText('Member 99')).toBeInTheDocument();
  });

  it('says what a searched list is out of ("Showing 5 of 5" hid the other bookings)', async () => {
    const many = Array.from({ length: 41 }, (_, i) =>
      booking(
        `b${i}`,
        { name: `Member ${i}`, email: `m${i}@studio.test` },
        { name: i < 5 ? 'Kids Club' : 'Breakfast Club', start_time: '2030-01-07T06:00:00+00:00', trainer: 'Coach Alex' },
      ),
    );
    setup(many);
    expect(await screen.findByText('Showing 41 of 41 bookings')).toBeInTheDocument();
    expect(screen.queryByText(/in all/)).not.toBeInTheDocument();
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search bookings' }), 'kids');
    expect(await screen.findByText('Showing 5 of 5 bookings')).toBeInTheDocument();
    expect(await screen.findByText('Matching your search, out of 41 bookings in all')).toBeInTheDocument();
  });

  it('shows the cached page without a request when the admin comes back within the stale time', async () => {
    const { requests, router } = setup(ROWS);
    await screen.findByText('Showing 2 of 2 bookings');
    expect(requests).toHaveLength(1);
    // Away (a screen that reads nothing new: the admin check is cached too) and back.
    await router.navigate('/admin/generate-classes');
    expect(await screen.findByRole('heading', { name: 'Generate Recurring Classes' })).toBeInTheDocument();
    await router.navigate('/admin/bookings');
    expect(await screen.findByText('Showing 2 of 2 bookings')).toBeInTheDocument();
    expect(requests).toHaveLength(1);
  });

  it('shows the empty state when there are no bookings', async () => {
    setup([]);
    expect(await screen.findByText('No bookings yet')).toBeInTheDocument();
    expect(screen.getByText('Bookings will appear here once members start booking classes.')).toBeInTheDocument();
  });

  it('says "Failed to load bookings" when the list cannot be read', async () => {
    const { handlers } = signInAsAdmin();
    server.use(
      ...handlers,
      restGet('class_waitlist', () => []),
      restGet('refunds_owed', () => []),
      restGet('admin_bookings', () => postgrestError({ code: '42501', message: 'permission denied' }, 403)),
      rpc('admin_bookings_total', () => postgrestError({ code: '42501', message: 'permission denied' }, 403)),
    );
    renderApp('/admin/bookings');
    expect(await screen.findAllByText('Failed to load bookings')).not.toHaveLength(0);
  });

  it('cancels a booking through cancel_booking after confirmation, then reads the page again', async () => {
    const rows = [...ROWS];
    const { requests } = setup(rows);
    const calls: unknown[] = [];
    let fail = false;
    server.use(
      rpc('cancel_booking', ({ args }) => {
        calls.push(args);
        if (fail)
          return postgrestError({ code: '42501', message: 'Could not cancel this booking (permission).', hint: 'not_permitted' }, 403);
        rows.splice(
          rows.findIndex((r) => r.id === args.p_booking_id),
          1,
        );
        return { booking_id: args.p_booking_id, class_id: 'c', spots_left: 5 };
      }),
    );
    const user = userEvent.setup();
    const confirm = answerConfirm(false);
    await user.click(await screen.findByRole('button', { name: 'Cancel booking of Priya Premium for Breakfast Club' }));
    expect(calls).toEqual([]);
    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Cancel booking of Priya Premium for Breakfast Club' }));
    expect(await screen.findByText('Booking cancelled successfully')).toBeInTheDocument();
    expect(calls).toEqual([{ p_booking_id: 'b1' }]);
    expect(await screen.findByText('Showing 1 of 1 bookings')).toBeInTheDocument();
    expect(requests).toHaveLength(2);
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Cancel booking of Sam Standard for Kids Club' }));
    expect(await screen.findByText('Failed to cancel booking')).toBeInTheDocument();
    expect(screen.getByText('Sam Standard')).toBeInTheDocument();
  });

  it("names a child's and a guest's place with the account that holds it, and cancels a guest through remove_guest", async () => {
    const pat = { name: 'Pat Parent', email: 'pat@studio.test' };
    const kids = { name: 'Kids Club', start_time: '2030-07-01T15:45:00+00:00', trainer: 'Coach Alex' };
    const rows = [
      booking('b-child', pat, kids, undefined, { kind: 'child', person: 'Mia Parent' }),
      booking('g-guest', pat, kids, undefined, { kind: 'guest', person: 'Gina Guest' }),
    ];
    setup(rows);
    const removed: unknown[] = [];
    server.use(
      rpc('remove_guest', ({ args }) => {
        removed.push(args);
        rows.splice(1, 1);
        return {};
      }),
    );
    answerConfirm(true);
    const user = userEvent.setup();
    expect(await screen.findByText('Mia Parent')).toBeInTheDocument();
    expect(screen.getByText('Child of Pat Parent · pat@studio.test')).toBeInTheDocument();
    expect(screen.getByText('Gina Guest')).toBeInTheDocument();
    expect(screen.getByText('Guest of Pat Parent · pat@studio.test')).toBeInTheDocument();
    expect(screen.queryByText('Pat Parent')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel booking of Gina Guest (guest of Pat Parent) for Kids Club' }));
    expect(await screen.findByText('Booking cancelled successfully')).toBeInTheDocument();
    expect(removed).toEqual([{ p_guest_place_id: 'g-guest' }]);
    expect(screen.getByRole('button', { name: 'Cancel booking of Mia Parent (child of Pat Parent) for Kids Club' })).toBeInTheDocument();
  });
});
