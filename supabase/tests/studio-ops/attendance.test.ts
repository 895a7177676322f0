import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../../local/db/as-user.ts';
import type { Database } from '../../local/db/open-database.ts';
import { createTestDatabase } from '../../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, type TestUser } from '../support/fixtures.ts';
import { call, fillWith } from './helpers.ts';

let db: Database;
let admin: TestUser;
let member: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'att-admin', { is_admin: true, membership_tier: 'premium' });
  member = await createUser(db, 'att-member', { membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

const mark = (u: TestUser, bookingId: string, status: string | null) =>
  call<{ booking_id: string; attendance: string | null; attendance_marked_at: string | null }>(db, u, 'public.mark_attendance($1, $2)', [
    bookingId,
    status,
  ]);

async function bookingIds(classId: string): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('select id from public.bookings where class_id = $1 order by booked_at, id', [classId]);
  return rows.map((r) => r.id);
}

describe('mark_attendance', () => {
  it('lets an admin mark attended or no-show, change it and clear it', async () => {
    const classId = await createClass(db, { startsIn: '-30 minutes' });
    await fillWith(db, classId, 1, 'att-roster');
    const [bookingId] = await bookingIds(classId);
    expect(await mark(admin, bookingId!, 'attended')).toMatchObject({
      booking_id: bookingId,
      attendance: 'attended',
      attendance_marked_at: expect.any(String),
    });
    expect(await mark(admin, bookingId!, 'no_show')).toMatchObject({ attendance: 'no_show' });
    expect(await mark(admin, bookingId!, null)).toMatchObject({ attendance: null, attendance_marked_at: null });
  });

  it('opens 1 hour before the start', async () => {
    const soon = await createClass(db, { startsIn: '50 minutes' });
    await fillWith(db, soon, 1, 'att-soon');
    expect(await mark(admin, (await bookingIds(soon))[0]!, 'attended')).toMatchObject({ attendance: 'attended' });
    const later = await createClass(db, { startsIn: '2 hours' });
    await fillWith(db, later, 1, 'att-later');
    await expectSqlError(mark(admin, (await bookingIds(later))[0]!, 'attended'), {
      code: 'P0001',
      hint: 'attendance_too_early',
      message: 'Attendance can be marked from 1 hour before the class starts',
    });
  });

  it('marks a no-show only once the class has started; attended and clearing from an hour before', async () => {
    const soon = await createClass(db, { startsIn: '12 minutes' });
    await fillWith(db, soon, 1, 'att-noshow-early');
    const [bookingId] = await bookingIds(soon);
    await expectSqlError(mark(admin, bookingId!, 'no_show'), {
      code: 'P0001',
      hint: 'no_show_too_early',
      message: 'A no-show can be marked once the class has started',
    });
    expect(
      (await db.query<{ attendance: string | null }>('select attendance from public.bookings where id = $1', [bookingId])).rows,
    ).toEqual([{ attendance: null }]);
    expect(await mark(admin, bookingId!, 'attended')).toMatchObject({ attendance: 'attended' });
    expect(await mark(admin, bookingId!, null)).toMatchObject({ attendance: null });

    const started = await createClass(db, { startsIn: '-1 minute' });
    await fillWith(db, started, 1, 'att-noshow-started');
    expect(await mark(admin, (await bookingIds(started))[0]!, 'no_show')).toMatchObject({ attendance: 'no_show' });
  });

  it('refuses members, unknown statuses and unknown bookings', async () => {
    const classId = await createClass(db, { startsIn: '-1 hour' });
    await fillWith(db, classId, 1, 'att-refuse');
    const [bookingId] = await bookingIds(classId);
    await expectSqlError(mark(member, bookingId!, 'attended'), { code: '42501', hint: 'not_admin', message: 'Access denied' });
    await expectSqlError(mark(admin, bookingId!, 'late'), {
      code: '22023',
      hint: 'invalid_attendance',
      message: 'Unknown attendance status',
    });
    await expectSqlError(mark(admin, crypto.randomUUID(), 'attended'), {
      code: 'P0002',
      hint: 'booking_not_found',
      message: 'Booking not found',
    });
    // Nor can a member write the column directly (no update privilege on bookings).
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query(`update public.bookings set attendance = 'attended'`)),
      { code: '42501' },
    );
  });
});

interface Week {
  week_start: string;
  classes: number;
  capacity: number;
  bookings: number;
  fill_rate: number | null;
  attended: number;
  no_show: number;
  attendance_rate: number | null;
}

describe('admin_stats weekly rates', () => {
  it('reports 8 ISO weeks (Monday, London) with fill and attendance rates', async () => {
    const fresh = await createTestDatabase();
    try {
      const a = await createUser(fresh, 'att-stats-admin', { is_admin: true });
      // Two classes last week: capacity 4 + 6, bookings 3 + 2; of the 5, 3 attended, 1 no-show, 1 unmarked.
      const lastWeek = `(date_trunc('week', now() at time zone 'Europe/London') - interval '7 days' + interval '2 days 10 hours') at time zone 'Europe/London'`;
      const { rows } = await fresh.query<{ id: string }>(
        `insert into public.classes (name, start_time, trainer, capacity) values ('A', ${lastWeek}, 'Coach', 4), ('B', ${lastWeek} + interval '1 hour', 'Coach', 6) returning id`,
      );
      const [c1, c2] = rows.map((r) => r.id);
      await fillWith(fresh, c1!, 3, 'att-w1');
      await fillWith(fresh, c2!, 2, 'att-w2');
      const { rows: bookings } = await fresh.query<{ id: string }>('select id from public.bookings order by booked_at, id');
      const statuses = ['attended', 'attended', 'no_show', 'attended', null];
      for (const [i, b] of bookings.entries()) {
        if (statuses[i]) await asUser(fresh, a.claims, (tx) => tx.query('select public.mark_attendance($1, $2)', [b.id, statuses[i]]));
      }

      const stats = await asUser(
        fresh,
        a.claims,
        async (tx) =>
          (await tx.query<{ s: { weekly: Week[]; total_bookings: number } }>('select to_json(public.admin_stats()) as s')).rows[0]!.s,
      );
      expect(stats.total_bookings).toBe(5);
      expect(stats.weekly).toHaveLength(8);
      const { rows: mondays } = await fresh.query<{ this_week: string; last_week: string }>(
        `select to_char(date_trunc('week', now() at time zone 'Europe/London'), 'YYYY-MM-DD') as this_week,
                to_char(date_trunc('week', now() at time zone 'Europe/London') - interval '7 days', 'YYYY-MM-DD') as last_week`,
      );
      expect(stats.weekly[7]!.week_start).toBe(mondays[0]!.this_week);
      expect(stats.weekly[6]).toEqual({
        week_start: mondays[0]!.last_week,
        classes: 2,
        capacity: 10,
        bookings: 5,
        fill_rate: 0.5,
        attended: 3,
        no_show: 1,
        attendance_rate: 0.75,
      });
      expect(stats.weekly[0]).toMatchObject({ classes: 0, capacity: 0, bookings: 0, fill_rate: null, attendance_rate: null });
    } finally {
      await fresh.close();
    }
  });
});
