import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeClass, postgrestError, restGet, rpc } from '@/testing/supabase-mocks';
import { signInAsAdmin } from '@/testing/admin-fixtures';

const soon = makeClass({
  name: 'Breakfast Club',
  start_time: new Date(Date.now() + 30 * 60_000).toISOString(),
  capacity: 12,
  spots_left: 10,
});
const later = makeClass({ name: 'Kids Club', start_time: new Date(Date.now() + 3 * 24 * 3600_000).toISOString() });

const ROSTER = [
  {
    id: 'b1',
    type: 'paid',
    payment_status: 'completed',
    attendance: null,
    booked_at: '2030-01-01T00:00:00Z',
    members: { name: 'Priya Shah', email: 'premium@studio.test' },
    guest_places: [{ id: 'g1', guest_name: 'Gina Guest', created_at: '2030-01-01T01:00:00Z' }],
  },
  {
    id: 'b2',
    type: 'trial',
    payment_status: 'completed',
    attendance: 'no_show',
    booked_at: '2030-01-02T00:00:00Z',
    members: { name: null, email: 'trial@studio.test' },
    guest_places: [],
  },
];

function setup(markResult: (args: Record<string, unknown>) => JsonBodyType | Response) {
  const { handlers } = signInAsAdmin();
  const marks: Record<string, unknown>[] = [];
  server.use(
    ...handlers,
    restGet('classes', () => [soon, later] as never[]),
    restGet('studio_closures', () => []),
    restGet('bookings', () => ROSTER),
    // Priya answered yes to a PAR-Q question (issue 27).
    // Gina, Priya's guest, has not signed the waiver from her email's link.
    rpc('admin_class_register', () => [
      { booking_id: 'b1', health_flag: true },
      { booking_id: 'b1', guest_place_id: 'g1', guest_of: 'Priya Shah', health_flag: false, documents_current: false },
      { booking_id: 'b2', health_flag: false },
    ]),
    rpc('mark_attendance', ({ args }) => {
      marks.push(args);
      return markResult(args);
    }),
  );
  renderApp('/admin');
  return { marks, user: userEvent.setup() };
}

async function openRoster(user: ReturnType<typeof userEvent.setup>, name: RegExp) {
  await user.click(await screen.findByRole('button', { name }));
  return screen.findByRole('dialog', { name: /^Roster: / });
}

describe('Class roster', () => {
  it('lists the bookings with counts and marks a member attended through mark_attendance', async () => {
    const { marks, user } = setup((args) => ({
      booking_id: args.p_booking_id,
      class_id: soon.id,
      attendance: args.p_status,
      attendance_marked_at: null,
    }));
    const dialog = await openRoster(user, /^Roster for Breakfast Club/);
    expect(await within(dialog).findByText('2 booked · 0 attended · 1 no-show · 1 not marked')).toBeInTheDocument();
    expect(within(dialog).getByText('premium@studio.test · Member')).toBeInTheDocument();
    // A guest place on the roster (issue 26), named with who brought them.
    expect(within(dialog).getByText('Gina Guest')).toBeInTheDocument();
    expect(within(dialog).getByText('guest of Priya Shah')).toBeInTheDocument();
    expect(await within(dialog).findByText('Waiver not signed')).toBeInTheDocument();
    expect(await within(dialog).findAllByText('Health: ask before class')).toHaveLength(1);
    expect(within(dialog).getByRole('link', { name: 'Printable register with emergency contacts' })).toHaveAttribute(
      'href',
      `/admin/register/${soon.id}`,
    );
    expect(within(dialog).getByRole('button', { name: 'No-show: trial@studio.test' })).toHaveAttribute('aria-pressed', 'true');

    const attended = within(dialog).getByRole('button', { name: 'Attended: Priya Shah' });
    expect(attended).toHaveAttribute('aria-pressed', 'false');
    await user.click(attended);
    await waitFor(() => expect(attended).toHaveAttribute('aria-pressed', 'true'));
    expect(marks).toEqual([{ p_booking_id: 'b1', p_status: 'attended' }]);
    expect(within(dialog).getByText('2 booked · 1 attended · 1 no-show · 0 not marked')).toBeInTheDocument();

    // Pressing the mark a booking has clears it.
    await user.click(attended);
    await waitFor(() => expect(attended).toHaveAttribute('aria-pressed', 'false'));
    expect(marks[1]).toEqual({ p_booking_id: 'b1', p_status: null });
  });

  it("shows the server's refusal and keeps the mark as it was", async () => {
    const { user } = setup(() =>
      postgrestError({
        code: 'P0001',
        message: 'Attendance can be marked from 1 hour before the class starts',
        hint: 'attendance_too_early',
      }),
    );
    const dialog = await openRoster(user, /^Roster for Breakfast Club/);
    const attended = await within(dialog).findByRole('button', { name: 'Attended: Priya Shah' });
    await user.click(attended);
    expect(
      await screen.findByText('Attendance can be marked from 1 hour before the class starts', {
        selector: '[role="status"] *, [role="status"]',
      }),
    ).toBeInTheDocument();
    expect(attended).toHaveAttribute('aria-pressed', 'false');
  });

  it('says when marking opens and disables the marks before then', async () => {
    const { marks, user } = setup(() => ({}));
    const dialog = await openRoster(user, /^Roster for Kids Club/);
    expect(await within(dialog).findByText('Attendance can be marked from 1 hour before the class starts')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Attended: Priya Shah' })).toBeDisabled();
    expect(marks).toEqual([]);
  });
});

describe('Class register', () => {
  it("lists each guest after their host, with whether they signed the waiver from their email's link", async () => {
    const { handlers } = signInAsAdmin();
    const member = {
      booking_id: 'b1',
      member_id: 'm1',
      name: 'Priya Shah',
      email: 'premium@studio.test',
      phone: '07700 900001',
      emergency_contact_name: 'Raj',
      emergency_contact_phone: '07700 900002',
      date_of_birth: null,
      health_flag: false,
      health_yes: [],
      health_details: null,
      documents_current: true,
      dependant_id: null,
      parent_name: null,
      collected_by: null,
      medical_notes: null,
      guest_place_id: null,
      guest_of: null,
    };
    const guest = (id: string, name: string, signed: boolean) => ({
      ...member,
      name,
      email: `${id}@example.test`,
      phone: null,
      emergency_contact_name: null,
      emergency_contact_phone: null,
      documents_current: signed,
      guest_place_id: id,
      guest_of: 'Priya Shah',
    });
    server.use(
      ...handlers,
      rpc('admin_class_register', () => [member, guest('g1', 'Gina Guest', false), guest('g2', 'Gus Guest', true)]),
    );
    renderApp(`/admin/register/${soon.id}`);
    const gina = (await screen.findByText('Gina Guest')).closest('tr')!;
    expect(within(gina).getByText('Guest of Priya Shah')).toBeInTheDocument();
    expect(within(gina).getByText('Waiver not signed')).toBeInTheDocument();
    const gus = screen.getByText('Gus Guest').closest('tr')!;
    expect(within(gus).getByText('Waiver signed')).toBeInTheDocument();
    // The host's own row is a member's: no waiver line, their contacts.
    const priya = screen.getByText('Priya Shah', { selector: '.font-semibold' }).closest('tr')!;
    expect(within(priya).queryByText(/Waiver/)).not.toBeInTheDocument();
    expect(within(priya).getByText('Raj 07700 900002')).toBeInTheDocument();
  });
});
