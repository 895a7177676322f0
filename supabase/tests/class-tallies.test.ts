import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { SqlDatabase } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Private.class_tallies, the per-class counts Analytics and the reports
// read at ten years of data, kept by triggers in the same transaction as the rows they count. After
// every kind of change the tallies must equal a direct count over bookings and guest places.

let db: SqlDatabase & { close(): Promise<void> };
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'tally-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

const as = <T>(user: TestUser, sql: string, params: unknown[] = []) => asUser(db, user.claims, (tx) => rpc<T>(tx, sql, params));

/** Every class whose tally differs from a direct count (or that has no tally, or a tally without a class). */
async function mismatches() {
  const { rows } = await db.query<{ class_id: string; tally: unknown; direct: unknown }>(
    `with direct as (
       select c.id as class_id, c.start_time, c.capacity,
              date_trunc('month', c.start_time at time zone 'Europe/London')::date as london_month,
              date_trunc('week', c.start_time at time zone 'Europe/London')::date as london_week,
              extract(isodow from c.start_time at time zone 'Europe/London')::smallint as weekday,
              to_char(c.start_time at time zone 'Europe/London', 'HH24:MI') as slot,
              (select count(*) from public.bookings b where b.class_id = c.id)::int as bookings,
              (select count(*) from public.bookings b where b.class_id = c.id and b.payment_status = 'completed')::int as confirmed,
              (select count(*) from public.bookings b where b.class_id = c.id and b.attendance = 'attended')::int as attended,
              (select count(*) from public.bookings b where b.class_id = c.id and b.attendance = 'no_show')::int as no_shows,
              (select count(*) from public.bookings b
                where b.class_id = c.id and b.payment_status = 'completed' and b.attendance = 'attended')::int as confirmed_attended,
              (select count(*) from public.bookings b
                where b.class_id = c.id and b.payment_status = 'completed' and b.attendance = 'no_show')::int as confirmed_no_shows,
              (select count(*) from public.guest_places g where g.class_id = c.id)::int as guests
         from public.classes c),
     tally as (
       select class_id, start_time, capacity, london_month, london_week, weekday, slot, bookings, confirmed, attended, no_shows,
              confirmed_attended, confirmed_no_shows, guests
         from private.class_tallies)
     select coalesce(d.class_id, t.class_id) as class_id, to_jsonb(t) as tally, to_jsonb(d) as direct
       from direct d full join tally t on t.class_id = d.class_id
      where t is distinct from d`,
  );
  return rows;
}

async function expectExact() {
  expect(await mismatches()).toEqual([]);
  // Analytics' totals read the tallies: they equal a direct count.
  const stats = await as<{ total_classes: number; total_bookings: number; upcoming_classes: number }>(admin, 'public.admin_stats()');
  const { rows } = await db.query<{ classes: number; bookings: number; guests: number; upcoming: number }>(
    `select (select count(*) from public.classes)::int as classes, (select count(*) from public.bookings)::int as bookings,
            (select count(*) from public.guest_places)::int as guests,
            (select count(*) from public.classes where start_time >= now())::int as upcoming`,
  );
  expect(stats).toMatchObject({ total_classes: rows[0]!.classes, total_bookings: rows[0]!.bookings, upcoming_classes: rows[0]!.upcoming });
  // The bookings list's total (admin_bookings_total) too: every place, guests' included (decision 0035).
  expect(await as<number>(admin, 'public.admin_bookings_total()')).toBe(rows[0]!.bookings + rows[0]!.guests);
}

async function pastClass(capacity = 10) {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer, capacity) values ('Tally past class', now() - interval '2 hours', 'Coach Test', $1)
     returning id`,
    [capacity],
  );
  return rows[0]!.id;
}
const insertBooking = async (memberId: string, classId: string, status: 'completed' | 'pending' = 'completed') =>
  (
    await db.query<{ id: string }>(
      `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at)
       values ($1, $2, 'paid', $3::public.payment_status, case when $3 = 'pending' then now() + interval '10 minutes' end) returning id`,
      [memberId, classId, status],
    )
  ).rows[0]!.id;

describe('class tallies', () => {
  it('are read by admins only', async () => {
    const member = await createUser(db, 'tally-member');
    await expectSqlError(as(member, 'public.admin_bookings_total()'), { code: '42501', hint: 'not_admin' });
  });

  it('start with the class and follow its start and capacity', async () => {
    const classId = await createClass(db, { capacity: 8, startsIn: '3 days' });
    await expectExact();
    await db.query(`update public.classes set start_time = start_time + interval '40 days 7 hours', capacity = 12 where id = $1`, [
      classId,
    ]);
    await expectExact();
  });

  it('count bookings made, cancelled by the member and deleted by an admin', async () => {
    const classId = await createClass(db, { capacity: 5 });
    const [a, b, c] = await Promise.all(['a', 'b', 'c'].map((x) => createUser(db, `tally-${x}`, { membership_tier: 'premium' })));
    const bookingA = (await as<{ booking_id: string }>(a!, 'public.book_class($1)', [classId])).booking_id;
    await as(b!, 'public.book_class($1)', [classId]);
    const bookingC = (await as<{ booking_id: string }>(c!, 'public.book_class($1)', [classId])).booking_id;
    await expectExact();
    await as(a!, 'public.cancel_booking($1)', [bookingA]);
    await expectExact();
    // An admin removes a booking (the refund path for a paid one): the row goes, the tally follows.
    await asUser(db, admin.claims, (tx) => tx.query('delete from public.bookings where id = $1', [bookingC]));
    await expectExact();
  });

  it('count pending holds apart from confirmed bookings, and a hold that is paid or released', async () => {
    const classId = await createClass(db, { capacity: 5 });
    const [p, q] = await Promise.all(['p', 'q'].map((x) => createUser(db, `tally-${x}`, { membership_tier: 'payg' })));
    const held = await insertBooking(p!.memberId, classId, 'pending');
    const released = await insertBooking(q!.memberId, classId, 'pending');
    await expectExact();
    await db.query(`update public.bookings set payment_status = 'completed', hold_expires_at = null where id = $1`, [held]);
    await db.query(`delete from public.bookings where id = $1`, [released]);
    await expectExact();
  });

  it('count attendance marks, changed and cleared, and the no-show job', async () => {
    const classId = await pastClass();
    const members = await Promise.all(['m1', 'm2', 'm3', 'm4'].map((x) => createUser(db, `tally-${x}`, { membership_tier: 'premium' })));
    const ids = await Promise.all(members.map((m) => insertBooking(m.memberId, classId)));
    await as(admin, 'public.mark_attendance($1, $2)', [ids[0], 'attended']);
    await as(admin, 'public.mark_attendance($1, $2)', [ids[1], 'no_show']);
    await expectExact();
    await as(admin, 'public.mark_attendance($1, $2)', [ids[1], 'attended']);
    await as(admin, 'public.mark_attendance($1, $2)', [ids[0], null]);
    await expectExact();
    await db.query(`select public.mark_no_shows(now() + interval '1 hour')`);
    await expectExact();
  });

  it('count guest places added and cancelled', async () => {
    const classId = await createClass(db, { capacity: 6 });
    const host = await createUser(db, 'tally-host', { membership_tier: 'premium' });
    await as(admin, 'public.admin_grant_credits($1, $2, $3, 30, $4)', [host.memberId, 'guest_pass', 2, 'Tally passes']);
    const booking = (await as<{ booking_id: string }>(host, 'public.book_class($1)', [classId])).booking_id;
    await as(host, 'public.add_guest($1, $2, $3)', [booking, 'Gail Guest', 'gail@example.test']);
    await as(host, 'public.add_guest($1, $2, $3)', [booking, 'Gus Guest', 'gus-tally@example.test']);
    await expectExact();
    const token = (
      await db.query<{ cancel_token: string }>(`select cancel_token from public.guest_places where guest_email = 'gail@example.test'`)
    ).rows[0]?.cancel_token;
    expect(token).toBeTruthy();
    await db.query(`delete from public.guest_places where guest_email = 'gail@example.test'`);
    await expectExact();
    // The host cancels: their guests go with the booking.
    await as(host, 'public.cancel_booking($1)', [booking]);
    await expectExact();
  });

  it('move a booking to another class, and go with a deleted class or member', async () => {
    const from = await createClass(db, { capacity: 4 });
    const to = await createClass(db, { capacity: 4, startsIn: '5 days' });
    const [x, y] = await Promise.all(['x', 'y'].map((l) => createUser(db, `tally-${l}`, { membership_tier: 'premium' })));
    const moved = await insertBooking(x!.memberId, from);
    await insertBooking(y!.memberId, from);
    await db.query(`update public.bookings set class_id = $2 where id = $1`, [moved, to]);
    await expectExact();
    await db.query(`delete from public.classes where id = $1`, [from]);
    await expectExact();
    await db.query(`delete from public.members where id = $1`, [x!.memberId]);
    await expectExact();
  });

  it('give the weekly figures and the reports what a direct count gives', async () => {
    const classId = await pastClass(10);
    const people = await Promise.all(['r1', 'r2', 'r3'].map((l) => createUser(db, `tally-${l}`, { membership_tier: 'premium' })));
    const ids = await Promise.all(people.map((m) => insertBooking(m.memberId, classId)));
    await insertBooking(admin.memberId, classId, 'pending');
    await as(admin, 'public.mark_attendance($1, $2)', [ids[0], 'attended']);
    await as(admin, 'public.mark_attendance($1, $2)', [ids[1], 'no_show']);
    await expectExact();

    const stats = await as<{ weekly: { week_start: string; classes: number; bookings: number; attended: number; no_show: number }[] }>(
      admin,
      'public.admin_stats()',
    );
    const { rows: week } = await db.query<{ week_start: string; classes: number; bookings: number; attended: number; no_show: number }>(
      `select to_char(date_trunc('week', now() at time zone 'Europe/London'), 'YYYY-MM-DD') as week_start,
              count(*)::int as classes, sum(c.current_bookings)::int as bookings,
              (select count(*) from public.bookings b join public.classes k on k.id = b.class_id
                where date_trunc('week', k.start_time at time zone 'Europe/London') = date_trunc('week', now() at time zone 'Europe/London')
                  and b.attendance = 'attended')::int as attended,
              (select count(*) from public.bookings b join public.classes k on k.id = b.class_id
                where date_trunc('week', k.start_time at time zone 'Europe/London') = date_trunc('week', now() at time zone 'Europe/London')
                  and b.attendance = 'no_show')::int as no_show
         from public.classes c
        where date_trunc('week', c.start_time at time zone 'Europe/London') = date_trunc('week', now() at time zone 'Europe/London')`,
    );
    expect(stats.weekly.at(-1)).toMatchObject(week[0]!);

    const today = (await db.query<{ d: string }>(`select to_char(now() at time zone 'Europe/London', 'YYYY-MM-DD') as d`)).rows[0]!.d;
    const reports = await as<{
      attendance: { month: string | null; bookings: number; attended: number; no_shows: number; unmarked: number }[];
    }>(admin, 'public.admin_reports($1, $2)', [today, today]);
    const { rows: direct } = await db.query<{ bookings: number; attended: number; no_shows: number; unmarked: number }>(
      `select count(*)::int as bookings, count(*) filter (where b.attendance = 'attended')::int as attended,
              count(*) filter (where b.attendance = 'no_show')::int as no_shows, count(*) filter (where b.attendance is null)::int as unmarked
         from public.bookings b join public.classes c on c.id = b.class_id
        where b.payment_status = 'completed' and c.start_time < now()
          and (c.start_time at time zone 'Europe/London')::date = (now() at time zone 'Europe/London')::date`,
    );
    expect(reports.attendance.find((r) => r.month === null)).toMatchObject(direct[0]!);
  });

  it('counts again, after a load with triggers off (the year-of-history seed), what no trigger tallied', async () => {
    const member = await createUser(db, 'tally-replica-member');
    const classId = await pastClass();
    await db.exec(`set session_replication_role = replica`);
    try {
      await insertBooking(member.memberId, classId);
    } finally {
      await db.exec(`set session_replication_role = origin`);
    }
    expect((await mismatches()).length).toBeGreaterThan(0);
    await db.query('select private.refill_class_tallies()');
    await db.query('select private.refill_class_tallies()');
    await expectExact();
  });
});
