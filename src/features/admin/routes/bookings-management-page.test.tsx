import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { postgrestError, restGet, rpc } from '@/testing/supabase-mocks';
import { answerConfirm, signInAsAdmin } from '../testing/admin-fixtures';

const booking = (id: string, member: { name: string | null; email: string } | null, cls: { name: string; start_time: string; trainer: string } | null) => ({
  id,
  booked_at: '2030-01-02T09:05:00+00:00',
  members: member,
  classes: cls,
});

const ROWS = [
  booking('b1', { name: 'Priya Premium', email: 'premium@studio.test' }, { name: 'Breakfast Club', start_time: '2030-01-07T06:00:00+00:00', trainer: 'Coach Alex' }),
  booking('b2', { name: 'Sam Standard', email: 'standard@studio.test' }, { name: 'Kids Club', start_time: '2030-07-01T15:45:00+00:00', trainer: 'Coach Alex' }),
  // Rows whose member or class is gone are hidden.
  booking('b3', null, { name: 'Orphan Class', start_time: '2030-01-07T06:00:00+00:00', trainer: 'X' }),
  booking('b4', { name: 'Ghost', email: 'ghost@studio.test' }, null),
];

function setup(rows: unknown[]) {
  const { handlers } = signInAsAdmin();
  let url: URL | null = null;
  server.use(
    ...handlers,
    restGet('bookings', ({ url: u }) => {
      url = u;
      return rows as never[];
    }),
  );
  renderApp('/admin/bookings');
  return { requested: () => url };
}

describe('Bookings Management', () => {
  it('asks for the joined rows newest first and lists those with both joins', async () => {
    const { requested } = setup(ROWS);
    const table = await screen.findByRole('table');
    expect(requested()!.searchParams.get('select')).toBe('id,booked_at,members(name,email),classes(name,start_time,trainer)');
    expect(requested()!.searchParams.get('order')).toBe('booked_at.desc');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Member', 'Class', 'Class Date & Time', 'Booked At', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toHaveTextContent('Priya Premiumpremium@studio.test');
    expect(rows[0]).toHaveTextContent('Breakfast Clubwith Coach Alex');
    expect(rows[0]).toHaveTextContent('Jan 7, 20306:00 AM');
    expect(rows[0]).toHaveTextContent('Jan 2, 20309:05 AM');
    expect(rows[1]).toHaveTextContent('Jul 1, 20304:45 PM');
    expect(screen.queryByText('Orphan Class')).not.toBeInTheDocument();
    expect(screen.queryByText('Ghost')).not.toBeInTheDocument();
    expect(screen.getByText('Showing 2 of 2 bookings')).toBeInTheDocument();
  });

  it('searches by member name, email or class name', async () => {
    setup(ROWS);
    const user = userEvent.setup();
    const search = await screen.findByPlaceholderText('Search by member name, email, or class...');
    await user.type(search, 'kids');
    expect(screen.getByText('Showing 1 of 2 bookings')).toBeInTheDocument();
    expect(screen.getByText('Sam Standard')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'PREMIUM@');
    expect(screen.getByText('Showing 1 of 2 bookings')).toBeInTheDocument();
    expect(screen.getByText('Priya Premium')).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'sam');
    expect(screen.getByText('Sam Standard')).toBeInTheDocument();
    await user.type(search, 'zzz');
    expect(screen.getByText('No bookings found')).toBeInTheDocument();
    expect(screen.getByText('Try adjusting your search terms')).toBeInTheDocument();
    expect(screen.getByText('Showing 0 of 2 bookings')).toBeInTheDocument();
  });

  it('shows the empty state when there are no bookings', async () => {
    setup([]);
    expect(await screen.findByText('No bookings yet')).toBeInTheDocument();
    expect(screen.getByText('Bookings will appear here once members start booking classes.')).toBeInTheDocument();
  });

  it('says "Failed to load bookings" when the list cannot be read', async () => {
    const { handlers } = signInAsAdmin();
    server.use(...handlers, restGet('bookings', () => postgrestError({ code: '42501', message: 'permission denied' }, 403)));
    renderApp('/admin/bookings');
    expect(await screen.findAllByText('Failed to load bookings')).not.toHaveLength(0);
  });

  it('cancels a booking through cancel_booking after confirmation', async () => {
    setup(ROWS);
    const calls: unknown[] = [];
    let fail = false;
    server.use(
      rpc('cancel_booking', ({ args }) => {
        calls.push(args);
        return fail
          ? postgrestError({ code: '42501', message: 'Could not cancel this booking (permission).', hint: 'not_permitted' }, 403)
          : { booking_id: args.p_booking_id, class_id: 'c', spots_left: 5 };
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
    expect(screen.getByText('Showing 1 of 1 bookings')).toBeInTheDocument();
    fail = true;
    await user.click(screen.getByRole('button', { name: 'Cancel booking of Sam Standard for Kids Club' }));
    expect(await screen.findByText('Failed to cancel booking')).toBeInTheDocument();
    expect(screen.getByText('Sam Standard')).toBeInTheDocument();
  });
});
