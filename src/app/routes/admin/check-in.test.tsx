import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRouteModules } from '@/app/router';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import type { Attendance } from '@/features/admin/api/get-class-places';
import { makeGuestPlace, makePlace } from '@/testing/class-place-mocks';
import { restGet, rpc } from '@/testing/supabase-mocks';

// The check-in screen at the studio door (today's classes with every place, tap a name) and the door code.

const startedMinutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const TODAY = [{ id: 'c-1', name: 'Breakfast Club', start_time: startedMinutesAgo(5), trainer: 'Coach Alex' }];

/** The class's places: two members, a child and a guest (decision 0035). */
function todaysPlaces(attendance: (Attendance | null)[]) {
  const bea = makePlace({ place_id: 'b-1', class_id: 'c-1', name: 'Bea Booked', attendance: attendance[0] });
  return [
    bea,
    makeGuestPlace(bea, { place_id: 'g-1', class_id: 'c-1', name: 'Gus Guest' }),
    makePlace({ place_id: 'b-2', class_id: 'c-1', name: 'Al Early', attendance: attendance[1] }),
    makePlace({ place_id: 'b-3', class_id: 'c-1', kind: 'child', name: 'Eve', contact_name: 'Pat Parent' }),
  ];
}

// The screen's chunks load once before the tests (a cold lazy route can take seconds on a busy machine).
beforeAll(async () => {
  await loadRouteModules({ pathname: '/admin/check-in' });
}, 60_000);

describe('/admin/check-in', () => {
  it("shows today's door code and checks a member in when their name is tapped", async () => {
    const { handlers } = signInAsAdmin();
    const marks: unknown[] = [];
    let attendance: (Attendance | null)[] = [null, 'attended'];
    const ranges: string[] = [];
    server.use(
      ...handlers,
      rpc('todays_door_code', () => '4821'),
      restGet('classes', ({ url }) => {
        ranges.push(url.searchParams.getAll('start_time').join(' '));
        return TODAY;
      }),
      rpc('admin_class_places', ({ args }) => {
        expect(args).toEqual({ p_class_ids: ['c-1'] });
        return todaysPlaces(attendance);
      }),
      rpc('mark_attendance', ({ args }) => {
        marks.push(args);
        attendance = ['attended', 'attended'];
        return { booking_id: 'b-1', class_id: 'c-1', attendance: 'attended', attendance_marked_at: new Date().toISOString() };
      }),
    );
    renderApp('/admin/check-in');
    expect(await screen.findByText('4821')).toBeInTheDocument();
    const cls = within(await screen.findByRole('region', { name: /Breakfast Club/ }));
    expect(cls.getByText(/4 booked · 1 checked in · 0 no-show/)).toBeInTheDocument();
    // Every place is at the door: a child under their own name, a guest with their host.
    expect(cls.getByRole('button', { name: 'Check in Eve (child of Pat Parent)' })).toBeInTheDocument();
    expect(cls.getByRole('button', { name: 'Check in Gus Guest (guest of Bea Booked)' })).toBeInTheDocument();
    expect(cls.getByRole('button', { name: 'Check in Al Early' })).toHaveAttribute('aria-pressed', 'true');
    // A checked-in member reads "Checked in", whole name shown (never a cut "Check in …");
    // "Check in" is for screen readers only (the toggle's name), never on screen.
    expect(cls.getByRole('button', { name: 'Check in Al Early' })).toHaveTextContent(/^Check in Al EarlyChecked in/);
    expect(cls.getByRole('button', { name: 'Check in Al Early' }).querySelector('.sr-only')).toHaveTextContent('Check in');
    expect(cls.getByRole('button', { name: 'Check in Al Early' }).innerHTML).not.toMatch(/truncate/);
    expect(cls.getByRole('button', { name: 'Check in Bea Booked' })).toHaveTextContent(/^Check in Bea BookedTap to check in$/);
    await userEvent.click(cls.getByRole('button', { name: 'Check in Bea Booked' }));
    expect(marks).toEqual([{ p_booking_id: 'b-1', p_status: 'attended' }]);
    expect(await cls.findByText(/4 booked · 2 checked in/)).toBeInTheDocument();
    expect(ranges[0]).toMatch(/^gte\.\S+ lt\.\S+$/);
  });
});
