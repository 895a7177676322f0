import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRouteModules } from '@/app/router';
import { signInAsAdmin } from '@/testing/admin-fixtures';
import { server } from '@/testing/mocks/server';
import { renderApp } from '@/testing/render';
import { restGet, rpc } from '@/testing/supabase-mocks';

// Issue 28: the check-in screen at the studio door (today's classes, tap a name) and the door code.

const startedMinutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

function todaysClasses(attendance: (string | null)[]) {
  return [
    {
      id: 'c-1',
      name: 'Breakfast Club',
      start_time: startedMinutesAgo(5),
      trainer: 'Coach Alex',
      bookings: [
        {
          id: 'b-1',
          attendance: attendance[0],
          payment_status: 'completed',
          booked_at: '2030-01-01T00:00:00Z',
          members: { name: 'Bea Booked', email: 'bea@example.test' },
        },
        {
          id: 'b-2',
          attendance: attendance[1],
          payment_status: 'completed',
          booked_at: '2030-01-01T00:00:00Z',
          members: { name: 'Al Early', email: 'al@example.test' },
        },
      ],
    },
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
    let attendance: (string | null)[] = [null, 'attended'];
    const ranges: string[] = [];
    server.use(
      ...handlers,
      rpc('todays_door_code', () => '4821'),
      restGet('classes', ({ url }) => {
        ranges.push(url.searchParams.getAll('start_time').join(' '));
        return todaysClasses(attendance);
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
    expect(cls.getByText(/2 booked · 1 checked in · 0 no-show/)).toBeInTheDocument();
    expect(cls.getByRole('button', { name: 'Check in Al Early' })).toHaveAttribute('aria-pressed', 'true');
    await userEvent.click(cls.getByRole('button', { name: 'Check in Bea Booked' }));
    expect(marks).toEqual([{ p_booking_id: 'b-1', p_status: 'attended' }]);
    expect(await cls.findByText(/2 booked · 2 checked in/)).toBeInTheDocument();
    expect(ranges[0]).toMatch(/^gte\.\S+ lt\.\S+$/);
  });
});
