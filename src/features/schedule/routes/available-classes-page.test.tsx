import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeClass, memberHandler, restGet, rpc, signInAs } from '@/testing/supabase-mocks';
import { AvailableClassesPage } from './available-classes-page';

vi.mock('../api/subscribe-class-updates', () => ({ subscribeToClassUpdates: () => () => undefined }));

// The signed-in schedules read the member's bookings and waitlist places once.
beforeEach(() => server.use(rpc('my_waitlist', () => []), restGet('bookings', () => [])));

const HOUR = 3_600_000;
const inHours = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

function renderPage() {
  const user = userEvent.setup();
  renderApp('/my-schedule', { routes: [{ path: '/my-schedule', element: <AvailableClassesPage /> }] });
  return user;
}

function tile(label: string) {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling;
}

describe('/my-schedule', () => {
  it('filters by search, instructor and type, with tiles, an active-filter bar and Clear all', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    server.use(
      memberHandler(member),
      restGet('classes', () => [
        makeClass({ name: 'Breakfast Club', trainer: 'Coach Alex', start_time: inHours(30), spots_left: 12 }),
        makeClass({ name: 'Kids Club', trainer: 'Coach Alex', start_time: inHours(40), spots_left: 2 }),
        makeClass({ name: 'Power Hour', trainer: 'Coach Bea', start_time: inHours(200), is_premium: true, spots_left: 0 }),
      ]),
    );
    const user = renderPage();
    expect(screen.getByRole('heading', { name: 'Available Classes' })).toBeInTheDocument();
    const list = await screen.findByRole('list', { name: 'Available classes' });
    expect(within(list).getAllByRole('article')).toHaveLength(3);
    expect(tile('Total Classes')).toHaveTextContent('3');
    expect(tile('Available Spots')).toHaveTextContent('14');
    expect(tile('Instructors')).toHaveTextContent('2');
    expect(tile('Showing')).toHaveTextContent('3');
    const power = screen.getByRole('article', { name: 'Power Hour' });
    expect(within(power).getByText('Fully Booked')).toBeInTheDocument();
    expect(within(power).getByText(/^Opens in/)).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search classes' }), 'club');
    expect(within(list).getAllByRole('article')).toHaveLength(2);
    expect(tile('Showing')).toHaveTextContent('2');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'Premium');
    expect(await screen.findByText('No Classes Match Your Filters')).toBeInTheDocument();
    const bar = screen.getByRole('region', { name: 'Active filters' });
    expect(within(bar).getByText('Search: "club"')).toBeInTheDocument();
    expect(within(bar).getByText('Premium')).toBeInTheDocument();

    await user.click(within(bar).getByRole('button', { name: 'Clear all' }));
    expect(screen.queryByRole('region', { name: 'Active filters' })).not.toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search classes' })).toHaveValue('');
    await user.selectOptions(screen.getByRole('combobox', { name: 'Instructor' }), 'Coach Bea');
    expect(within(screen.getByRole('list', { name: 'Available classes' })).getAllByRole('article').map((a) => a.getAttribute('aria-labelledby'))).toHaveLength(1);
    expect(screen.getByRole('article', { name: 'Power Hour' })).toBeInTheDocument();
  });

  it('says so when there is nothing in the booking window', async () => {
    const { member } = signInAs();
    server.use(memberHandler(member), restGet('classes', () => []));
    renderPage();
    expect(await screen.findByText('No classes available in your booking window.')).toBeInTheDocument();
  });

  it('books with one request on a double click and shows what the server decided', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const cls = makeClass({ name: 'Breakfast Club', start_time: inHours(30), spots_left: 4 });
    const calls: Record<string, unknown>[] = [];
    server.use(
      memberHandler(member),
      restGet('classes', () => [cls]),
      rpc('book_class', async ({ args }) => {
        calls.push(args);
        await new Promise((r) => setTimeout(r, 50));
        return {
          status: 'booked', booking_id: 'b-1', class_id: cls.id, booking_type: 'paid', payment_status: 'completed', needs_payment: false,
          price_payg: 10, previous_tier: 'standard', tier: 'standard', trial_used: true, spots_left: 3,
        };
      }),
    );
    const user = renderPage();
    const article = await screen.findByRole('article', { name: 'Breakfast Club' });
    await user.dblClick(within(article).getByRole('button', { name: 'Book Now' }));
    expect(await screen.findByText('Class booked successfully!')).toBeInTheDocument();
    expect(calls).toEqual([{ p_class_id: cls.id, p_booking_type: null }]);
    expect(within(article).getByText('3 spots left')).toBeInTheDocument();
    expect(within(article).getByRole('button', { name: 'Booked' })).toBeDisabled();
  });

  it('shows the refusal the server gave', async () => {
    const { member } = signInAs({ membership_tier: 'standard' });
    const cls = makeClass({ name: 'Breakfast Club', start_time: inHours(30) });
    server.use(
      memberHandler(member),
      restGet('classes', () => [cls]),
      rpc('book_class', () => Response.json({ code: '23505', message: 'You have already booked this class', hint: 'already_booked', details: null }, { status: 409 })),
    );
    const user = renderPage();
    const article = await screen.findByRole('article', { name: 'Breakfast Club' });
    await user.click(within(article).getByRole('button', { name: 'Book Now' }));
    expect(await screen.findByText("You've already booked this class.")).toBeInTheDocument();
    await waitFor(() => expect(within(article).getByRole('button', { name: 'Book Now' })).toBeEnabled());
  });
});
