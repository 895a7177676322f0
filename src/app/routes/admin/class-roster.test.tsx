import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { JsonBodyType } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderApp } from '@/testing/render';
import { server } from '@/testing/mocks/server';
import { makeClass, postgrestError, restGet, rpc } from '@/testing/supabase-mocks';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { makeGuestPlace, makePlace } from '@/testing/class-place-mocks';

const soon = makeClass({
  name: 'Breakfast Club',
  start_time: new Date(Date.now() + 30 * 60_000).toISOString(),
  capacity: 12,
  spots_left: 10,
});
const later = makeClass({ name: 'Kids Club', start_time: new Date(Date.now() + 3 * 24 * 3600_000).toISOString() });

// Priya answered yes to a PAR-Q question; Gina, her guest, has not signed the waiver from her email's link.
const PRIYA = makePlace({ place_id: 'b1', name: 'Priya Shah', email: 'premium@studio.test', health_flag: true });
const ROSTER = [
  PRIYA,
  makeGuestPlace(PRIYA, { place_id: 'g1', name: 'Gina Guest' }),
  makePlace({ place_id: 'b2', name: 'trial', email: 'trial@studio.test', booking_type: 'trial', attendance: 'no_show' }),
];

function setup(markResult: (args: Record<string, unknown>) => JsonBodyType | Response) {
  const { handlers } = signInAsAdmin();
  const marks: Record<string, unknown>[] = [];
  server.use(
    ...handlers,
    restGet('classes', () => [soon, later] as never[]),
    restGet('studio_closures', () => []),
    rpc('admin_class_places', () => ROSTER),
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
    expect(await within(dialog).findByText('3 booked · 0 attended · 1 no-show · 2 not marked')).toBeInTheDocument();
    expect(within(dialog).getByText('premium@studio.test · Member')).toBeInTheDocument();
    // A guest place on the roster, named with who brought them.
    expect(within(dialog).getByText('Gina Guest')).toBeInTheDocument();
    expect(within(dialog).getByText('Guest of Priya Shah')).toBeInTheDocument();
    expect(await within(dialog).findByText('Waiver not signed')).toBeInTheDocument();
    expect(await within(dialog).findAllByText('Health: ask before class')).toHaveLength(1);
    expect(within(dialog).getByRole('link', { name: 'Printable register with emergency contacts' })).toHaveAttribute(
      'href',
      `/admin/register/${soon.id}`,
    );
    expect(within(dialog).getByRole('button', { name: 'No-show: trial' })).toHaveAttribute('aria-pressed', 'true');

    const attended = within(dialog).getByRole('button', { name: 'Attended: Priya Shah' });
    expect(attended).toHaveAttribute('aria-pressed', 'false');
    await user.click(attended);
    await waitFor(() => expect(attended).toHaveAttribute('aria-pressed', 'true'));
    expect(marks).toEqual([{ p_booking_id: 'b1', p_status: 'attended' }]);
    expect(within(dialog).getByText('3 booked · 1 attended · 1 no-show · 1 not marked')).toBeInTheDocument();

    // Pressing the mark a booking has clears it.
    await user.click(attended);
    await waitFor(() => expect(attended).toHaveAttribute('aria-pressed', 'false'));
    expect(marks[1]).toEqual({ p_booking_id: 'b1', p_status: null });

    // A guest is marked by their own place, never their host's booking.
    await user.click(within(dialog).getByRole('button', { name: 'Attended: Gina Guest' }));
    await waitFor(() => expect(marks[2]).toEqual({ p_booking_id: 'g1', p_status: 'attended' }));
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
  it("names the class and lists each guest after their host, with whether they signed the waiver from their email's link", async () => {
    const { handlers } = signInAsAdmin();
    const member = makePlace({
      place_id: 'b1',
      name: 'Priya Shah',
      phone: '07700 900001',
      emergency_contact_name: 'Raj',
      emergency_contact_phone: '07700 900002',
    });
    const guest = (id: string, name: string, signed: boolean) => makeGuestPlace(member, { place_id: id, name, documents_current: signed });
    server.use(
      ...handlers,
      rpc('admin_class_places', () => [member, guest('g1', 'Gina Guest', false), guest('g2', 'Gus Guest', true)]),
      restGet('classes', () => [soon] as never[]),
    );
    renderApp(`/admin/register/${soon.id}`);
    // Printed, it names the class, its day and time and its coach.
    expect(await screen.findByRole('heading', { name: 'Class register: Breakfast Club' })).toBeInTheDocument();
    expect(await screen.findByText(new RegExp(`· ${soon.trainer}$`))).toBeInTheDocument();
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
