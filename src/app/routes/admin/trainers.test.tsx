import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRouteModules } from '@/app/router';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { postgrestError, REST_URL, restGet, rpc } from '@/testing/supabase-mocks';
import { signInAsAdmin } from '@/testing/admin-fixtures';

// The trainers contract: public.trainers readable by all, written by admins (row policies).
type Trainer = { id: string; name: string; bio: string; photo_url: string | null; created_at: string };

function setup(initial: Trainer[]) {
  // Copies: an edit in one test must not rename the fixture for the next.
  const trainers = initial.map((t) => ({ ...t }));
  const writes: { method: string; url: URL; body: unknown }[] = [];
  const weekly: Record<string, unknown>[] = [];
  const accounts: Record<string, unknown>[] = [];
  const links: Record<string, unknown>[] = [];
  // Booked sessions outside the availability: the database answers from the rows left after a removal.
  const uncovered: Record<string, unknown>[] = [];
  const { handlers } = signInAsAdmin();
  server.use(
    ...handlers,
    rpc('admin_uncovered_sessions', () => uncovered),
    rpc('admin_trainer_accounts', () => accounts),
    rpc('admin_coach_pay_statement', () => []),
    rpc('link_trainer_account', ({ args }) => {
      links.push(args);
      if (args.p_email !== 'alex@example.test') {
        return postgrestError({
          code: 'P0002',
          message: 'No account uses that email. Ask the coach to create one (Sign up), then link it.',
          hint: 'coach_account_not_found',
        });
      }
      const row = {
        trainer_id: args.p_trainer_id,
        member_id: 'm-9',
        email: args.p_email,
        name: 'Alex Morgan',
        linked_at: '2030-01-01T00:00:00Z',
      };
      accounts.push(row);
      return row;
    }),
    rpc('unlink_trainer_account', ({ args }) => {
      links.push({ unlink: args.p_trainer_id });
      accounts.splice(0, accounts.length);
      return true;
    }),
    restGet('trainers', () => trainers),
    restGet('trainer_availability', () => weekly),
    restGet('trainer_one_off_slots', () => []),
    http.post(`${REST_URL}/trainer_availability`, async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>;
      writes.push({ method: 'POST', url: new URL(request.url), body });
      weekly.push({ ...body, id: `w${weekly.length + 1}`, created_at: '2030-01-01T00:00:00Z' });
      return new HttpResponse(null, { status: 201 });
    }),
    http.delete(`${REST_URL}/trainer_availability`, ({ request }) => {
      const url = new URL(request.url);
      writes.push({ method: 'DELETE', url, body: null });
      weekly.splice(
        weekly.findIndex((w) => `eq.${String(w.id)}` === url.searchParams.get('id')),
        1,
      );
      // The session Priya booked in that window stays (private.withdraw_uncovered_one_to_one removes only unbooked ones).
      uncovered.push({ class_id: 'c9', start_time: '2030-01-08T10:00:00Z', duration: 60, member_name: 'Priya Patel' });
      return new HttpResponse(null, { status: 204 });
    }),
    rpc('publish_one_to_one_slots', () => 8),
    http.post(`${REST_URL}/trainers`, async ({ request }) => {
      const body = (await request.json()) as Omit<Trainer, 'id' | 'created_at'>;
      writes.push({ method: 'POST', url: new URL(request.url), body });
      if (trainers.some((t) => t.name === body.name)) {
        return postgrestError({ code: '23505', message: 'duplicate key value violates unique constraint "trainers_name_key"' }, 409);
      }
      trainers.push({ ...body, id: `t${trainers.length + 1}`, created_at: '2030-01-01T00:00:00Z' });
      return new HttpResponse(null, { status: 201 });
    }),
    http.patch(`${REST_URL}/trainers`, async ({ request }) => {
      const body = (await request.json()) as Partial<Trainer>;
      const url = new URL(request.url);
      writes.push({ method: 'PATCH', url, body });
      const id = url.searchParams.get('id')?.replace('eq.', '');
      Object.assign(
        trainers.find((t) => t.id === id)!,
        body,
      );
      return new HttpResponse(null, { status: 204 });
    }),
  );
  renderApp('/admin/trainers');
  return { trainers, writes, links };
}

const alex: Trainer = {
  id: 't1',
  name: 'Coach Alex',
  bio: 'Strength and conditioning.',
  photo_url: null,
  created_at: '2030-01-01T00:00:00Z',
};

// The screen's chunks load once before the tests (a cold lazy route can take seconds on a busy machine).
beforeAll(async () => {
  await loadRouteModules({ pathname: '/admin/trainers' });
}, 60_000);

describe('Admin > Trainers', () => {
  it('lists the trainers and adds one with a bio and a photo', async () => {
    const { writes } = setup([alex]);
    const user = userEvent.setup();
    const list = await screen.findByRole('list', { name: 'Trainers' });
    expect(within(list).getByText('Coach Alex')).toBeInTheDocument();
    expect(within(list).getByText('Strength and conditioning.')).toBeInTheDocument();

    const form = screen.getByRole('form', { name: 'Add a trainer' });
    await user.click(within(form).getByRole('button', { name: 'Add Trainer' }));
    expect(within(form).getByText('Name is required')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Name'), 'Coach Sam');
    await user.type(within(form).getByLabelText(/Short bio/), 'Boxing and mobility.');
    await user.type(within(form).getByLabelText(/Photo URL/), 'ftp://x');
    await user.click(within(form).getByRole('button', { name: 'Add Trainer' }));
    expect(within(form).getByText('A web address (https://…) or a path on this site (/…)')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText(/Photo URL/));
    await user.type(within(form).getByLabelText(/Photo URL/), 'https://example.test/sam.jpg');
    await user.click(within(form).getByRole('button', { name: 'Add Trainer' }));
    expect(await within(list).findByText('Coach Sam')).toBeInTheDocument();
    expect(writes).toEqual([
      expect.objectContaining({
        method: 'POST',
        body: { name: 'Coach Sam', bio: 'Boxing and mobility.', photo_url: 'https://example.test/sam.jpg' },
      }),
    ]);
  });

  it('edits a trainer, and says so when the name is taken', async () => {
    const { writes } = setup([alex, { ...alex, id: 't2', name: 'Coach Kim', bio: '' }]);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Edit Coach Alex' }));
    const form = screen.getByRole('form', { name: 'Edit Coach Alex' });
    expect(within(form).getByLabelText('Name')).toHaveValue('Coach Alex');
    await user.clear(within(form).getByLabelText('Name'));
    await user.type(within(form).getByLabelText('Name'), 'Coach Alexandra');
    await user.click(within(form).getByRole('button', { name: 'Save Trainer' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.url.searchParams.get('id')).toBe('eq.t1');
    expect(writes[0]!.body).toEqual({ name: 'Coach Alexandra', bio: 'Strength and conditioning.', photo_url: null });
    expect(await screen.findByRole('form', { name: 'Add a trainer' })).toBeInTheDocument();

    const add = screen.getByRole('form', { name: 'Add a trainer' });
    await user.type(within(add).getByLabelText('Name'), 'Coach Kim');
    await user.click(within(add).getByRole('button', { name: 'Add Trainer' }));
    expect(await screen.findByText('A trainer with this name already exists.')).toBeInTheDocument();
  });

  it("publishes a trainer's weekly availability and makes the sessions", async () => {
    const { writes } = setup([alex]);
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Availability for One-to-One sessions' });
    expect(await within(section).findByText('No weekly availability yet.')).toBeInTheDocument();
    const form = within(section).getByRole('form', { name: 'Add weekly availability' });
    await user.selectOptions(within(form).getByLabelText('Day'), 'Tuesday');
    await user.clear(within(form).getByLabelText('Session minutes'));
    await user.type(within(form).getByLabelText('Session minutes'), '45');
    await user.click(within(form).getByRole('button', { name: 'Add weekly availability' }));
    await waitFor(() => expect(writes).toHaveLength(1));
    expect(writes[0]!.body).toEqual({ trainer_id: 't1', weekday: 2, starts_at: '09:00', ends_at: '12:00', session_minutes: 45 });
    expect(await within(section).findByText('Tuesday 09:00–12:00, 45-minute sessions')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Publish sessions' }));
    expect(await screen.findByText('8 new sessions published')).toBeInTheDocument();
  });

  it('refuses a one-off session in the past in words, sending nothing', async () => {
    const { writes } = setup([alex]);
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Availability for One-to-One sessions' });
    const form = within(section).getByRole('form', { name: 'Add a one-off session' });
    await user.type(within(form).getByLabelText('Date'), '2020-01-06');
    await user.type(within(form).getByLabelText('Time'), '10:00');
    await user.click(within(form).getByRole('button', { name: 'Add one-off session' }));
    expect(await within(form).findByText('That time has passed: a one-off session must be in the future')).toBeInTheDocument();
    expect(writes).toEqual([]);
  });

  it('says the trainer already has that session, never the database’s constraint text', async () => {
    setup([alex]);
    server.use(
      http.post(`${REST_URL}/trainer_one_off_slots`, () =>
        postgrestError({ code: '23505', message: 'duplicate key value violates unique constraint "trainer_one_off_slots_once"' }, 409),
      ),
    );
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Availability for One-to-One sessions' });
    const form = within(section).getByRole('form', { name: 'Add a one-off session' });
    await user.type(within(form).getByLabelText('Date'), '2099-01-06');
    await user.type(within(form).getByLabelText('Time'), '10:00');
    await user.click(within(form).getByRole('button', { name: 'Add one-off session' }));
    expect(await screen.findByText('This trainer already has a one-off session at that time')).toBeInTheDocument();
    expect(screen.queryByText(/duplicate key/)).not.toBeInTheDocument();
  });

  it('removes a weekly window and lists the booked session it leaves standing', async () => {
    const { writes } = setup([alex]);
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Availability for One-to-One sessions' });
    const form = within(section).getByRole('form', { name: 'Add weekly availability' });
    await user.click(within(form).getByRole('button', { name: 'Add weekly availability' }));
    await user.click(await within(section).findByRole('button', { name: 'Remove Monday 09:00' }));
    expect(await screen.findByText('Availability removed, with its sessions nobody had booked')).toBeInTheDocument();
    expect(writes.at(-1)).toMatchObject({ method: 'DELETE' });
    const standing = await within(section).findByRole('list', { name: "Booked sessions outside Coach Alex's availability" });
    expect(within(standing).getByText('Tue 8 Jan 2030, 10:00, 60 minutes: Priya Patel')).toBeInTheDocument();
    expect(within(section).getByText('No weekly availability yet.')).toBeInTheDocument();
  });

  it("links a coach's sign-in account to their trainer, says why a link is refused, and unlinks it (decision 0027)", async () => {
    const { links } = setup([alex]);
    const user = userEvent.setup();
    const section = await screen.findByRole('region', { name: 'Coach sign-in' });
    expect(await within(section).findByText('No sign-in account')).toBeInTheDocument();
    const form = within(section).getByRole('form', { name: 'Link a coach account' });
    await user.type(within(form).getByLabelText("Coach's email"), 'nobody@example.test');
    await user.click(within(form).getByRole('button', { name: 'Link account' }));
    expect(await screen.findByText('No account uses that email. Ask the coach to create one (Sign up), then link it.')).toBeInTheDocument();
    await user.clear(within(form).getByLabelText("Coach's email"));
    await user.type(within(form).getByLabelText("Coach's email"), ' Alex@Example.test ');
    await user.click(within(form).getByRole('button', { name: 'Link account' }));
    expect(await within(section).findByText('alex@example.test')).toBeInTheDocument();
    await user.click(await within(section).findByLabelText('Unlink alex@example.test from Coach Alex'));
    expect(await within(section).findByText('No sign-in account')).toBeInTheDocument();
    expect(links).toEqual([
      { p_trainer_id: 't1', p_email: 'nobody@example.test' },
      { p_trainer_id: 't1', p_email: 'alex@example.test' },
      { unlink: 't1' },
    ]);
  });
});
