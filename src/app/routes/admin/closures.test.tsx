import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { postgrestError, restGet, rpc } from '@/testing/supabase-mocks';
import { answerConfirm, signInAsAdmin } from '@/testing/admin-fixtures';

// The studio_closures contract: the table readable by all, add/remove through RPCs.
type Closure = { id: string; closed_on: string; reason: string | null; created_at: string };

function setup(initial: Closure[]) {
  const closures = [...initial];
  const reads: URL[] = [];
  const { handlers } = signInAsAdmin();
  server.use(
    ...handlers,
    restGet('classes', () => []),
    restGet('studio_closures', ({ url }) => {
      reads.push(url);
      return closures;
    }),
  );
  renderApp('/admin');
  return { closures, reads };
}

const closure = (id: string, closedOn: string, reason: string): Closure => ({
  id,
  closed_on: closedOn,
  reason,
  created_at: '2030-01-01T00:00:00Z',
});

describe('Studio closures on Classes Management', () => {
  it('lists upcoming closures from today (London), soonest first', async () => {
    const { reads } = setup([closure('x1', '2030-12-25', 'Christmas Day')]);
    const panel = await screen.findByRole('region', { name: 'Studio Closures' });
    expect(await within(panel).findByText('Wed 25 Dec 2030')).toBeInTheDocument();
    expect(within(panel).getByText('Christmas Day')).toBeInTheDocument();
    expect(reads[0]!.searchParams.get('closed_on')).toMatch(/^gte\.\d{4}-\d{2}-\d{2}$/);
    expect(reads[0]!.searchParams.get('order')).toBe('closed_on.asc');
  });

  it('adds a closure after a confirmation that warns about cancelled classes, and toasts the result', async () => {
    const { closures } = setup([]);
    const calls: unknown[] = [];
    server.use(
      rpc('add_studio_closure', ({ args }) => {
        calls.push(args);
        closures.push(closure('x2', args.p_closed_on as string, args.p_reason as string));
        // A function returning one row type: PostgREST answers the object itself.
        return { closure_id: 'x2', cancelled_classes: 3, affected_bookings: 5 };
      }),
    );
    const user = userEvent.setup();
    const panel = await screen.findByRole('region', { name: 'Studio Closures' });
    expect(await within(panel).findByText('No closures planned')).toBeInTheDocument();
    const form = within(panel).getByRole('form', { name: 'Add a closure' });

    await user.click(within(form).getByRole('button', { name: 'Add Closure' }));
    expect(within(form).getByText('Date is required')).toBeInTheDocument();
    expect(within(form).getByText('Reason is required')).toBeInTheDocument();

    const confirm = answerConfirm(false);
    await user.type(within(form).getByLabelText(/Date/), '2030-12-24');
    await user.type(within(form).getByLabelText(/Reason/), 'Hall booked for an election');
    await user.click(within(form).getByRole('button', { name: 'Add Closure' }));
    expect(confirm).toHaveBeenCalledWith(
      'Close the studio on Tue 24 Dec 2030? Classes on that day will be cancelled and their booked members emailed.',
    );
    expect(calls).toEqual([]);

    confirm.mockReturnValue(true);
    await user.click(within(form).getByRole('button', { name: 'Add Closure' }));
    expect(await screen.findByText('Closure added: 3 classes cancelled, 5 members notified')).toBeInTheDocument();
    expect(calls).toEqual([{ p_closed_on: '2030-12-24', p_reason: 'Hall booked for an election' }]);
    expect(await within(panel).findByText('Hall booked for an election')).toBeInTheDocument();
  });

  it("shows the server's refusal as it says it, and lists nothing new", async () => {
    setup([]);
    server.use(
      rpc('add_studio_closure', () =>
        postgrestError({ code: 'P0001', message: 'A closure must be today or later', hint: 'closure_in_past' }),
      ),
    );
    answerConfirm(true);
    const user = userEvent.setup();
    const form = await screen.findByRole('form', { name: 'Add a closure' });
    await user.type(within(form).getByLabelText(/Date/), '2030-12-24');
    await user.type(within(form).getByLabelText(/Reason/), 'Election');
    await user.click(within(form).getByRole('button', { name: 'Add Closure' }));
    expect(await screen.findByText('A closure must be today or later')).toBeInTheDocument();
    expect(screen.getByText('No closures planned')).toBeInTheDocument();
  });

  it('removes a closure after confirmation', async () => {
    const { closures } = setup([closure('x1', '2030-12-25', 'Christmas Day')]);
    const removed: unknown[] = [];
    server.use(
      rpc('remove_studio_closure', ({ args }) => {
        removed.push(args);
        closures.splice(0, 1);
        return null;
      }),
    );
    answerConfirm(true);
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Remove closure on Wed 25 Dec 2030' }));
    expect(await screen.findByText('Closure removed')).toBeInTheDocument();
    expect(removed).toEqual([{ p_id: 'x1' }]);
    await waitFor(() => expect(screen.queryByText('Christmas Day')).not.toBeInTheDocument());
  });
});
