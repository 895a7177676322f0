import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { REST_URL, makeClass, postgrestError, restGet, rpc } from '@/testing/supabase-mocks';
import { answerConfirm, signInAsAdmin } from '@/testing/admin-fixtures';

const PARK = {
  id: 'mp-1',
  name: 'Victoria Park Crown Gate',
  address: 'Old Ford Road, London E3 5DS',
  directions: 'By the cafe',
  map_url: null,
  created_at: '2026-01-01T00:00:00Z',
};

function setup(classes: () => unknown[], paidBookings: () => unknown = () => 0) {
  const { handlers } = signInAsAdmin();
  const paidChecks: unknown[] = [];
  server.use(
    ...handlers,
    restGet('classes', () => classes() as never[]),
    restGet('studio_closures', () => []),
    restGet('meeting_points', () => [PARK]),
    // The class form's Trainer choice: a choice from the trainers' records, never free text (decision 0020).
    restGet('trainers', () => [
      { id: 't1', name: 'Coach Alex', bio: '', photo_url: null, created_at: '2030-01-01T00:00:00Z' },
      { id: 't2', name: 'Coach Sam', bio: '', photo_url: null, created_at: '2030-01-01T00:00:00Z' },
    ]),
    rpc('paid_bookings_affected', ({ args }) => (paidChecks.push(args), paidBookings() as never)),
  );
  return { paidChecks, ...renderApp('/admin') };
}

describe('Classes Management', () => {
  it('lists classes with London dates and times, type colours and capacity', async () => {
    setup(() => [
      // 06:00 London in winter (GMT) and in summer (BST).
      makeClass({ name: 'Breakfast Club', start_time: '2030-01-07T06:00:00+00:00', capacity: 12, spots_left: 9 }),
      makeClass({
        name: 'PT Session',
        type: 'One-to-One',
        duration: 60,
        start_time: '2030-07-01T05:00:00+00:00',
        capacity: 1,
        spots_left: 0,
      }),
    ]);
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Class', 'Date & Time', 'Trainer', 'Type', 'Capacity', 'Actions']);
    const [, winter, summer] = within(table).getAllByRole('row');
    expect(winter).toHaveTextContent('Breakfast Club45 min');
    expect(winter).toHaveTextContent('7 Jan 20306:00 AM');
    expect(summer).toHaveTextContent('PT Session60 min');
    expect(summer).toHaveTextContent('1 Jul 20306:00 AM');
    expect(within(winter!).getByText('Group').className).toMatch(/blue/);
    expect(within(summer!).getByText('One-to-One').className).toMatch(/purple/);
    expect(within(winter!).getByText('3/12').className).not.toMatch(/red/);
    expect(within(summer!).getByText('1/1').className).toMatch(/red/);
    expect(within(summer!).getByText('Full')).toBeInTheDocument();
    expect(within(summer!).getByRole('button', { name: 'Edit PT Session on 1 Jul 2030 at 6:00 AM' })).toBeInTheDocument();
    expect(within(summer!).getByRole('button', { name: 'Delete PT Session on 1 Jul 2030 at 6:00 AM' })).toBeInTheDocument();
  });

  it('shows a spinner while loading, then the empty state', async () => {
    setup(() => []);
    expect(await screen.findByText(/Checking admin access|Loading classes/)).toBeInTheDocument();
    expect(await screen.findByText('No classes yet')).toBeInTheDocument();
    expect(screen.getByText('Get started by creating your first class')).toBeInTheDocument();
  });

  it('validates the form and sends nothing while it is invalid', async () => {
    let posts = 0;
    setup(() => []);
    server.use(http.post(`${REST_URL}/classes`, () => (posts++, HttpResponse.json([]))));
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add Class' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Class' });
    expect(within(dialog).getByLabelText('Duration (minutes)')).toHaveValue(45);
    expect(within(dialog).getByLabelText('Capacity')).toHaveValue(10);
    await user.clear(within(dialog).getByLabelText('Duration (minutes)'));
    await user.type(within(dialog).getByLabelText('Duration (minutes)'), '200');
    await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Description is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Date is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Time is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Duration must be between 15 and 180 minutes')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Class name')).toHaveAttribute('aria-invalid', 'true');

    // One-to-One brings the capacity down to 1 and refuses more.
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'One-to-One');
    expect(within(dialog).getByLabelText('Capacity')).toHaveValue(1);
    await user.clear(within(dialog).getByLabelText('Capacity'));
    await user.type(within(dialog).getByLabelText('Capacity'), '2');

    await user.type(within(dialog).getByLabelText('Date'), '2030-03-04');
    await user.selectOptions(within(dialog).getByLabelText('Repeat'), 'Weekly');
    await user.type(within(dialog).getByLabelText('Repeat until'), '2030-03-01');
    await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));
    expect(within(dialog).getByText('A One-to-One class has a capacity of 1')).toBeInTheDocument();
    expect(within(dialog).getByText('Repeat until must not be before the start date')).toBeInTheDocument();
    expect(posts).toBe(0);
  });

  it('creates every weekly occurrence in one insert request, in London time across the clock change', async () => {
    const bodies: unknown[] = [];
    let rows: unknown[] = [];
    setup(() => rows);
    server.use(
      http.post(`${REST_URL}/classes`, async ({ request }) => {
        const body = (await request.json()) as { start_time: string }[];
        bodies.push(body);
        rows = body.map((r, i) => makeClass({ ...r, id: `new-${i}` }));
        return HttpResponse.json(
          body.map((_, i) => ({ id: `new-${i}` })),
          { status: 201 },
        );
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Add Class' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Class' });
    await user.type(within(dialog).getByLabelText('Class name'), 'Boxing');
    await user.type(within(dialog).getByLabelText('Description'), 'Pads and bags');
    await user.type(within(dialog).getByLabelText('Date'), '2030-03-18');
    await user.type(within(dialog).getByLabelText('Time'), '18:30');
    await user.type(within(dialog).getByLabelText(/PAYG price/), '7.50');
    // The Trainer is chosen from the trainers' records, never typed (decision 0020).
    const trainer = within(dialog).getByRole('combobox', { name: 'Trainer' });
    await waitFor(() =>
      expect(
        within(trainer)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['Choose a trainer', 'Coach Alex', 'Coach Sam']),
    );
    expect(trainer).toHaveValue('Coach Alex');
    await user.selectOptions(trainer, 'Coach Sam');
    await user.selectOptions(within(dialog).getByLabelText('Repeat'), 'Weekly');
    await user.type(within(dialog).getByLabelText('Repeat until'), '2030-04-08');
    expect(within(dialog).getByText('Creates 4 classes')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));

    expect(await screen.findByText('4 classes created successfully!')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    const sent = bodies[0] as Record<string, unknown>[];
    // British Summer Time starts on 31 Mar 2030: 18:30 London is 18:30Z before, 17:30Z after.
    expect(sent.map((r) => r.start_time)).toEqual([
      '2030-03-18T18:30:00.000Z',
      '2030-03-25T18:30:00.000Z',
      '2030-04-01T17:30:00.000Z',
      '2030-04-08T17:30:00.000Z',
    ]);
    expect(sent[0]).toEqual({
      name: 'Boxing',
      description: 'Pads and bags',
      duration: 45,
      start_time: '2030-03-18T18:30:00.000Z',
      trainer: 'Coach Sam',
      type: 'Group',
      capacity: 10,
      price_payg: 7.5,
      min_age: null,
      max_age: null,
      checkout_url: null,
      meeting_point_id: null,
      is_premium: false,
      unlock_for_standard: '3 days',
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findAllByText('Boxing')).toHaveLength(4);
  });

  it('creates a single class with "Class created successfully!" and reports a failed save', async () => {
    let fail = false;
    setup(() => []);
    server.use(
      http.post(`${REST_URL}/classes`, async ({ request }) => {
        if (fail) return postgrestError({ code: '42501', message: 'new row violates row-level security policy for table "classes"' }, 403);
        const body = (await request.json()) as unknown[];
        expect(body).toHaveLength(1);
        return HttpResponse.json([{ id: 'x' }], { status: 201 });
      }),
    );
    const user = userEvent.setup();
    const fill = async () => {
      await user.click(await screen.findByRole('button', { name: 'Add Class' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add Class' });
      await user.type(within(dialog).getByLabelText('Class name'), 'Yoga');
      await user.type(within(dialog).getByLabelText('Description'), 'Stretch');
      await user.type(within(dialog).getByLabelText('Date'), '2030-05-01');
      await user.type(within(dialog).getByLabelText('Time'), '09:00');
      await user.click(within(dialog).getByRole('button', { name: 'Create Class' }));
    };
    await fill();
    expect(await screen.findByText('Class created successfully!')).toBeInTheDocument();
    fail = true;
    await fill();
    expect(await screen.findByText('Failed to save class')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add Class' })).toBeInTheDocument();
  });

  it('edits a class by id with its London wall-clock time', async () => {
    const yoga = makeClass({ id: 'class-1', name: 'Yoga', start_time: '2030-07-01T08:00:00+00:00', description: 'Flow' });
    let patch: { url: URL; body: Record<string, unknown> } | null = null;
    setup(() => [yoga]);
    server.use(
      http.patch(`${REST_URL}/classes`, async ({ request }) => {
        patch = { url: new URL(request.url), body: (await request.json()) as Record<string, unknown> };
        return HttpResponse.json([{ id: 'class-1' }]);
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Edit Yoga/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Class' });
    expect(within(dialog).getByLabelText('Time')).toHaveValue('09:00');
    expect(within(dialog).queryByLabelText('Repeat')).not.toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Time'));
    await user.type(within(dialog).getByLabelText('Time'), '10:15');
    await user.click(within(dialog).getByRole('button', { name: 'Update Class' }));
    expect(await screen.findByText('Class updated successfully!')).toBeInTheDocument();
    expect(patch!.url.searchParams.get('id')).toBe('eq.class-1');
    expect(patch!.body).toMatchObject({ name: 'Yoga', start_time: '2030-07-01T09:15:00.000Z' });
  });

  it('moves a class to a meeting point', async () => {
    const yoga = makeClass({ id: 'class-1', name: 'Yoga', start_time: '2030-07-01T08:00:00+00:00', description: 'Flow' });
    const patches: Record<string, unknown>[] = [];
    setup(() => [yoga]);
    server.use(
      http.patch(`${REST_URL}/classes`, async ({ request }) => {
        patches.push((await request.json()) as Record<string, unknown>);
        return HttpResponse.json([{ id: 'class-1' }]);
      }),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Edit Yoga/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Class' });
    const meetsAt = within(dialog).getByLabelText('Meets at');
    expect(meetsAt).toHaveValue('');
    await within(dialog).findByRole('option', { name: 'Victoria Park Crown Gate' });
    await user.selectOptions(meetsAt, 'Victoria Park Crown Gate');
    await user.click(within(dialog).getByRole('button', { name: 'Update Class' }));
    expect(await screen.findByText('Class updated successfully!')).toBeInTheDocument();
    expect(patches[0]).toMatchObject({ meeting_point_id: 'mp-1' });
  });

  it("says the database's reason when it refuses an edit: how many are booked, on the Capacity field", async () => {
    const yoga = makeClass({ id: 'class-1', name: 'Yoga', start_time: '2030-07-01T08:00:00+00:00', description: 'Flow', capacity: 10 });
    setup(() => [yoga]);
    const message = '3 members are booked on this class, so the capacity cannot be less than 3';
    server.use(
      http.patch(`${REST_URL}/classes`, () =>
        HttpResponse.json({ code: '23514', message, details: null, hint: 'capacity_below_bookings' }, { status: 400 }),
      ),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: /^Edit Yoga/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Class' });
    await user.clear(within(dialog).getByLabelText('Capacity'));
    await user.type(within(dialog).getByLabelText('Capacity'), '2');
    await user.click(within(dialog).getByRole('button', { name: 'Update Class' }));
    expect(await screen.findByRole('status')).toHaveTextContent(message);
    expect(within(dialog).getByLabelText('Capacity')).toHaveAccessibleDescription(message);
    expect(screen.queryByText('Failed to save class')).not.toBeInTheDocument();
  });

  it('deletes a class only after confirmation', async () => {
    let classes = [makeClass({ id: 'class-1', name: 'Yoga' })];
    const deletes: string[] = [];
    setup(() => classes);
    server.use(
      http.delete(`${REST_URL}/classes`, ({ request }) => {
        deletes.push(new URL(request.url).searchParams.get('id')!);
        classes = [];
        return HttpResponse.json(deletes.length === 1 ? [{ id: 'class-1' }] : []);
      }),
    );
    const user = userEvent.setup();
    const confirm = answerConfirm(false);
    await user.click(await screen.findByRole('button', { name: /^Delete Yoga/ }));
    expect(confirm).toHaveBeenCalled();
    expect(deletes).toEqual([]);
    confirm.mockReturnValue(true);
    await user.click(screen.getByRole('button', { name: /^Delete Yoga/ }));
    expect(await screen.findByText('Class deleted successfully')).toBeInTheDocument();
    expect(deletes).toEqual(['eq.class-1']);
    // The delete invalidates the list, which is read again from the server.
    expect(await screen.findByText('No classes yet')).toBeInTheDocument();
  });

  it('warns how many paid bookings deleting the class turns into refunds owed, before asking', async () => {
    const { paidChecks } = setup(
      () => [makeClass({ id: 'class-1', name: 'Yoga' })],
      () => 2,
    );
    const confirm = answerConfirm(false);
    await userEvent.setup().click(await screen.findByRole('button', { name: /^Delete Yoga/ }));
    await waitFor(() => expect(confirm).toHaveBeenCalled());
    expect(confirm).toHaveBeenCalledWith(
      'Delete Yoga? Its bookings are cancelled too.\n\nDeleting this class removes 2 paid bookings: each will be listed under Refunds owed in Bookings Management.',
    );
    expect(paidChecks).toEqual([{ p_class_id: 'class-1' }]);
  });

  it('does not ask, nor delete, when the paid bookings cannot be counted', async () => {
    setup(
      () => [makeClass({ id: 'class-1', name: 'Yoga' })],
      () => postgrestError({ code: '57014', message: 'canceling statement due to statement timeout' }, 500),
    );
    const confirm = answerConfirm(true);
    await userEvent.setup().click(await screen.findByRole('button', { name: /^Delete Yoga/ }));
    expect(await screen.findByText('Could not check for paid bookings. Please try again.')).toBeInTheDocument();
    expect(confirm).not.toHaveBeenCalled();
  });

  it('says "Failed to delete class" when the database deletes nothing', async () => {
    setup(() => [makeClass({ id: 'class-1', name: 'Yoga' })]);
    server.use(http.delete(`${REST_URL}/classes`, () => HttpResponse.json([])));
    answerConfirm(true);
    await userEvent.setup().click(await screen.findByRole('button', { name: /^Delete Yoga/ }));
    expect(await screen.findByText('Failed to delete class')).toBeInTheDocument();
    expect(screen.getByText('Yoga')).toBeInTheDocument();
  });
});
