import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { postgrestError, rpc } from '@/testing/supabase-mocks';
import { answerConfirm, signInAsAdmin } from '@/testing/admin-fixtures';
import { defaultTimetablePeriod } from '@/features/admin/lib/timetable-period';

type Preview = { created: number; replaced: number; replaced_bookings: number; paid_bookings: number };
const NOTHING_REPLACED: Preview = { created: 21, replaced: 0, replaced_bookings: 0, paid_bookings: 0 };

function setup(result: () => unknown, preview: Preview = NOTHING_REPLACED) {
  const { handlers } = signInAsAdmin();
  const calls: unknown[] = [];
  const previews: unknown[] = [];
  // The RPC answers when the test says so, so the busy state can be seen without racing a timer.
  let release = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  server.use(
    ...handlers,
    rpc('timetable_preview', ({ args }) => (previews.push(args), preview)),
    rpc('regenerate_timetable', async ({ args }) => {
      calls.push(args);
      await answered;
      return result() as never;
    }),
  );
  const rendered = renderApp('/admin/generate-classes');
  return { calls, previews, release: () => release(), ...rendered };
}

describe('Generate Recurring Classes', () => {
  it('describes the template and the warning, and defaults to the coming eight weeks', async () => {
    setup(() => ({}));
    expect(await screen.findByRole('heading', { name: 'Generate Recurring Classes' })).toBeInTheDocument();
    expect(screen.getByText('Monday to Friday: four Breakfast Club sessions at 06:00, 07:15, 08:30, 10:00')).toBeInTheDocument();
    expect(screen.getByText('Monday only: one Kids Club session at 16:45')).toBeInTheDocument();
    expect(screen.getByText(/capacity 12, 10.00 GBP pay-as-you-go price/)).toBeInTheDocument();
    expect(screen.getByText('Trainer: Coach Alex')).toBeInTheDocument();
    expect(screen.getByText(/replaces the classes it made that the timetable no longer has/)).toBeInTheDocument();
    expect(screen.getByText(/Classes added by hand, One-to-One sessions and classes that have started stay/)).toBeInTheDocument();
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
      'Generating from 2030-01-07 to 2030-01-13 creates 21 classes from the timetable and replaces no class. ' +
        'Classes added by hand, One-to-One sessions, classes that have started and the timetable classes already there stay as they are, with their bookings. Continue?',
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

  it('says how many classes and bookings it replaces, and the paid ones that become refunds owed, before asking', async () => {
    const { calls, previews } = setup(() => ({}), { created: 1, replaced: 2, replaced_bookings: 3, paid_bookings: 1 });
    const confirm = answerConfirm(false);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Generate Classes' }));
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    const { start, end } = defaultTimetablePeriod();
    expect(confirm.mock.calls[0]![0]).toBe(
      `Generating from ${start} to ${end} creates 1 class from the timetable and replaces 2 classes the timetable no longer has, ` +
        'and their 3 bookings (everyone booked is emailed). ' +
        'Classes added by hand, One-to-One sessions, classes that have started and the timetable classes already there stay as they are, with their bookings.' +
        '\n\nRegenerating the timetable removes 1 paid booking: it will be listed under Refunds owed in Bookings Management.\n\nContinue?',
    );
    expect(previews).toEqual([{ p_start: start, p_end: end }]);
    expect(calls).toEqual([]);
  });

  it('says when the classes it replaces have nobody booked', async () => {
    setup(() => ({}), { created: 0, replaced: 1, replaced_bookings: 0, paid_bookings: 0 });
    const confirm = answerConfirm(false);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Generate Classes' }));
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    expect(confirm.mock.calls[0]![0]).toContain(
      'creates 0 classes from the timetable and replaces 1 class the timetable no longer has (nobody is booked on them). ',
    );
  });

  it('says it could not check, and asks nothing, when the preview fails', async () => {
    const { calls } = setup(() => ({}));
    server.use(rpc('timetable_preview', () => postgrestError({ code: '42501', message: 'Access denied', hint: 'not_admin' }, 403)));
    const confirm = answerConfirm(true);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Generate Classes' }));
    expect(await screen.findByText('Could not check for paid bookings. Please try again.')).toBeInTheDocument();
    expect(confirm).not.toHaveBeenCalled();
    expect(calls).toEqual([]);
  });

  it('asks once on a double click: the second press comes while the first is still counting', async () => {
    const { calls } = setup(() => ({}));
    let answerCount = () => {};
    const counted = new Promise<void>((resolve) => (answerCount = resolve));
    server.use(rpc('timetable_preview', async () => (await counted, NOTHING_REPLACED)));
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
