import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { postgrestError, rpc } from '@/testing/supabase-mocks';
import { answerConfirm, signInAsAdmin } from '@/testing/admin-fixtures';
import { defaultTimetablePeriod } from '@/features/admin/lib/timetable-period';

function setup(result: () => unknown, paidBookings = 0) {
  const { handlers } = signInAsAdmin();
  const calls: unknown[] = [];
  const paidChecks: unknown[] = [];
  // The RPC answers when the test says so, so the busy state can be seen without racing a timer.
  let release = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  server.use(
    ...handlers,
    rpc('paid_bookings_in_period', ({ args }) => (paidChecks.push(args), paidBookings)),
    rpc('regenerate_timetable', async ({ args }) => {
      calls.push(args);
      await answered;
      return result() as never;
    }),
  );
  const rendered = renderApp('/admin/generate-classes');
  return { calls, paidChecks, release: () => release(), ...rendered };
}

describe('Generate Recurring Classes', () => {
  it('describes the template and the warning, and defaults to the coming eight weeks', async () => {
    setup(() => ({}));
    expect(await screen.findByRole('heading', { name: 'Generate Recurring Classes' })).toBeInTheDocument();
    expect(screen.getByText('Monday to Friday: four Breakfast Club sessions at 06:00, 07:15, 08:30, 10:00')).toBeInTheDocument();
    expect(screen.getByText('Monday only: one Kids Club session at 16:45')).toBeInTheDocument();
    expect(screen.getByText(/capacity 12, 10.00 GBP pay-as-you-go price/)).toBeInTheDocument();
    expect(screen.getByText('Trainer: Coach Alex')).toBeInTheDocument();
    expect(screen.getByText(/replaces the period's classes that have not started/)).toBeInTheDocument();
    const { start, end } = defaultTimetablePeriod();
    expect(screen.getByLabelText('Start date')).toHaveValue(start);
    expect(screen.getByLabelText('End date')).toHaveValue(end);
    expect(screen.getByRole('link', { name: 'Back to Classes' })).toHaveAttribute('href', '/admin/classes');
  });

  it('asks first, shows "Generating Classes..." and calls regenerate_timetable with the period', async () => {
    const { calls, release } = setup(() => ({ deleted: 3, created: 21 }));
    const user = userEvent.setup();
    const start = await screen.findByLabelText('Start date');
    await user.clear(start);
    await user.type(start, '2030-01-07');
    await user.clear(screen.getByLabelText('End date'));
    await user.type(screen.getByLabelText('End date'), '2030-01-13');

    const confirm = answerConfirm(false);
    await user.click(screen.getByRole('button', { name: 'Generate Classes' }));
    expect(confirm).toHaveBeenCalledWith(
      expect.stringContaining('This replaces the classes from 2030-01-07 to 2030-01-13 that have not started'),
    );
    expect(calls).toEqual([]);

    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: 'Generate Classes' }));
    expect(await screen.findByRole('button', { name: 'Generating Classes...' })).toBeDisabled();
    release();
    expect(await screen.findByText('Classes generated successfully!')).toBeInTheDocument();
    expect(calls).toEqual([{ p_start: '2030-01-07', p_end: '2030-01-13' }]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Generate Classes' })).toBeEnabled());
  });

  it('warns how many paid bookings the regeneration turns into refunds owed, before asking', async () => {
    const { calls, paidChecks } = setup(() => ({}), 1);
    const confirm = answerConfirm(false);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Generate Classes' }));
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    expect(confirm.mock.calls[0]![0]).toContain(
      '\n\nRegenerating the timetable removes 1 paid booking: it will be listed under Refunds owed in Bookings Management.\n\nContinue?',
    );
    const { start, end } = defaultTimetablePeriod();
    expect(paidChecks).toEqual([{ p_start: start, p_end: end }]);
    expect(calls).toEqual([]);
  });

  it('asks once on a double click (issue 31): the second press comes while the first is still counting', async () => {
    const { calls } = setup(() => ({}));
    let answerCount = () => {};
    const counted = new Promise<void>((resolve) => (answerCount = resolve));
    server.use(rpc('paid_bookings_in_period', async () => (await counted, 0)));
    const confirm = answerConfirm(false);
    await userEvent.setup().dblClick(await screen.findByRole('button', { name: 'Generate Classes' }));
    answerCount();
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    await new Promise((r) => setTimeout(r, 50));
    expect(confirm).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([]);
  });

  it('refuses a period that ends before it starts, without asking', async () => {
    const { calls } = setup(() => ({}));
    const user = userEvent.setup();
    const end = await screen.findByLabelText('End date');
    await user.clear(end);
    await user.type(end, '2000-01-01');
    const confirm = answerConfirm(true);
    await user.click(screen.getByRole('button', { name: 'Generate Classes' }));
    expect(screen.getByText('The end date must not be before the start date')).toBeInTheDocument();
    expect(confirm).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('says "Failed to generate classes" when the RPC fails', async () => {
    const { release } = setup(() => postgrestError({ code: '42501', message: 'Access denied', hint: 'not_admin' }, 403));
    release();
    answerConfirm(true);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Generate Classes' }));
    expect(await screen.findByText('Failed to generate classes')).toBeInTheDocument();
  });
});
