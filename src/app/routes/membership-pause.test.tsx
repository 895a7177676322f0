import '@/testing/match-media-polyfill';
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '@/testing/mocks/server';
import { membershipHandlers, membershipRow, pauseHandlers } from '@/testing/membership-mocks';
import { renderApp } from '@/testing/render';
import { memberHandler, postgrestError, rpc, signInAs } from '@/testing/supabase-mocks';

// The membership page loads lazily; on a busy shared machine its first load can take longer than 5 s.
vi.setConfig({ testTimeout: 40_000 });

// Pausing from /membership (decision 0050): the member chooses the days, sees what the database
// says the pause would do (dates, hold fee, new renewal, bookings that go), then confirms.

const QUOTE = {
  starts_on: '2030-02-10',
  ends_on: '2030-03-02',
  days: 21,
  hold_fee: 12.5,
  fee_months: 1,
  fee_total: 12.5,
  renewal_before: '2030-03-04T12:00:00+00:00',
  renewal_after: '2030-03-25T12:00:00+00:00',
  cancelled_bookings: [{ booking_id: 'b-1', class_name: 'Breakfast Club', start_time: '2030-02-12T07:00:00+00:00', refund: 0 }],
};

function setup(pause: JsonBodyType | undefined = undefined) {
  const signed = signInAs({ created_at: '2025-01-05T10:00:00Z', membership_tier: 'standard' });
  server.use(
    memberHandler(signed.member),
    ...(pause ? pauseHandlers(pause) : []),
    ...membershipHandlers(membershipRow()),
    http.get('*/rest/v1/credits', () => HttpResponse.json([])),
    rpc('class_schedule', () => []),
    rpc('my_plan_usage', () => ({
      month_start: '2030-02-01T00:00:00Z',
      allowance: 12,
      used: 2,
      remaining: 10,
      bookings: 2,
      late_cancellations: 0,
    })),
  );
  renderApp('/membership');
}

describe('pausing a membership', () => {
  it('previews the pause, then confirms exactly those days', async () => {
    setup();
    const previews: unknown[] = [];
    const confirms: unknown[] = [];
    server.use(
      rpc('preview_pause', ({ args }) => {
        previews.push(args);
        return QUOTE;
      }),
      rpc('confirm_pause', ({ args }) => {
        confirms.push(args);
        return QUOTE;
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pause membership' }, { timeout: 20_000 }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Pause your membership' }));
    expect(dialog.getByText(/A pause is 7 to 90 days, up to 2 a year.*The hold fee is £12.50 a month/)).toBeInTheDocument();
    await user.type(dialog.getByLabelText(/First paused day/), '2030-02-10');
    await user.type(dialog.getByLabelText(/Last paused day/), '2030-03-02');
    await user.click(dialog.getByRole('button', { name: 'See what changes' }));

    const facts = await dialog.findByLabelText('What the pause does');
    expect(facts).toHaveTextContent('10 February 2030 to 2 March 2030 (21 days)');
    expect(facts).toHaveTextContent('£12.50 a month × 1 = £12.50, charged to your saved card');
    expect(facts).toHaveTextContent('Moves from 4 March 2030 to 25 March 2030');
    expect(facts).toHaveTextContent('Breakfast Club, Tue 12 February, 7:00 AM: no refund (paid by your plan)');
    expect(confirms).toEqual([]);

    await user.click(dialog.getByRole('button', { name: 'Confirm pause' }));
    expect(await screen.findByText('Paused from 10 February 2030 to 2 March 2030. Next renewal: 25 March 2030.')).toBeInTheDocument();
    expect(previews).toEqual([{ p_starts_on: '2030-02-10', p_ends_on: '2030-03-02' }]);
    expect(confirms).toEqual([{ p_starts_on: '2030-02-10', p_ends_on: '2030-03-02' }]);
  });

  it('shows the studio rule the database refused with, and checks the dates first', async () => {
    setup();
    const previews: unknown[] = [];
    server.use(
      rpc('preview_pause', ({ args }) => {
        previews.push(args);
        return postgrestError({ code: 'P0001', message: 'A pause is 7 to 90 days; this one is 3.', hint: 'pause_length' }, 400);
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Pause membership' }, { timeout: 20_000 }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Pause your membership' }));
    await user.type(dialog.getByLabelText(/First paused day/), '2030-02-10');
    await user.type(dialog.getByLabelText(/Last paused day/), '2030-02-12');
    await user.click(dialog.getByRole('button', { name: 'See what changes' }));
    expect(await dialog.findByText('A pause is 7 to 90 days; this one is 3.')).toHaveAttribute('role', 'alert');
    expect(previews).toEqual([{ p_starts_on: '2030-02-10', p_ends_on: '2030-02-12' }]);
    // A last day before the first is refused on the screen, without asking the database.
    fireEvent.change(dialog.getByLabelText(/First paused day/), { target: { value: '2030-02-20' } });
    await user.click(dialog.getByRole('button', { name: 'See what changes' }));
    expect(await dialog.findByText('The last day is on or after the first')).toBeInTheDocument();
    expect(previews).toHaveLength(1);
  });

  it('shows a booked pause and withdraws it', async () => {
    setup({
      id: 'p-1',
      starts_on: '2030-02-10',
      ends_on: '2030-03-02',
      hold_fee: null,
      by_admin: false,
      renewal_before: '2030-03-04T12:00:00+00:00',
      renewal_after: '2030-03-25T12:00:00+00:00',
      running: false,
    });
    let ended = 0;
    server.use(
      rpc('end_pause', () => {
        ended += 1;
        return { id: 'p-1' };
      }),
    );
    const user = userEvent.setup();
    const status = await screen.findByText('Pause booked: 10 February 2030 to 2 March 2030', undefined, { timeout: 20_000 });
    expect(status.closest('[role="status"]')).toHaveTextContent('No hold fee. Next renewal: 25 March 2030.');
    expect(screen.queryByRole('button', { name: 'Pause membership' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Withdraw pause' }));
    expect(await screen.findByText('The pause is withdrawn.')).toBeInTheDocument();
    expect(ended).toBe(1);
  });
});
