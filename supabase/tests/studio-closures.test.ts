import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { emailsTo } from './studio-ops/helpers.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Studio closures: admin-managed dates the studio is closed. Adding one cancels that
// London date's classes (members emailed, bookings and their allowance freed, waitlists gone);
// timetable generation skips closed dates.

let db: Database;
let admin: TestUser;
let member: TestUser;

type ClosureResult = { closure_id: string; cancelled_classes: number; affected_bookings: number };

/** A London date in next year's summer (BST), 'YYYY-MM-DD'. */
const summerDay = (day: number) => `${new Date().getUTCFullYear() + 1}-07-${String(day).padStart(2, '0')}`;

const addClosure = (user: TestUser, date: string, reason = '') =>
  asUser(db, user.claims, (tx) => rpc<ClosureResult>(tx, 'public.add_studio_closure($1, $2)', [date, reason]));

/** A class at an exact UTC instant. */
async function classAt(utc: string, name = 'Closure Class'): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer, capacity, price_payg) values ($1, $2::timestamptz, 'Coach Test', 5, 10) returning id`,
    [name, utc],
  );
  return rows[0]!.id;
}

const classExists = async (id: string) =>
  (await db.query<{ n: number }>('select count(*)::int as n from public.classes where id = $1', [id])).rows[0]!.n === 1;

const book = (user: TestUser, classId: string) => asUser(db, user.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'closure-admin', { membership_tier: 'premium', is_admin: true });
  member = await createUser(db, 'closure-member', { membership_tier: 'standard' });
});
afterAll(async () => {
  await db.close();
});

describe('add_studio_closure', () => {
  it('is refused to members (as other admin RPCs) and to anon, and records nothing', async () => {
    const day = summerDay(1);
    const classId = await classAt(`${day}T09:00:00Z`);
    await expectSqlError(addClosure(member, day), { code: '42501', hint: 'not_admin', message: 'Access denied' });
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.add_studio_closure($1, $2)', [day, ''])),
      {
        code: '42501',
        message: /permission denied for function add_studio_closure/,
      },
    );
    expect((await db.query('select 1 from public.studio_closures where closed_on = $1', [day])).rows).toEqual([]);
    expect(await classExists(classId)).toBe(true);
  });

  it('refuses a date in the past (London) with a clear message, and a date already closed', async () => {
    const yesterday = (await db.query<{ d: string }>(`select to_char((now() at time zone 'Europe/London')::date - 1, 'YYYY-MM-DD') as d`))
      .rows[0]!.d;
    await expectSqlError(addClosure(admin, yesterday), {
      code: '22023',
      hint: 'closure_in_past',
      message: 'The closure date is in the past',
    });
    const day = summerDay(2);
    await addClosure(admin, day);
    await expectSqlError(addClosure(admin, day), {
      code: '23505',
      hint: 'already_closed',
      message: /^The studio is already closed on \w+ 2 July \d{4}$/,
    });
  });

  it('cancels the classes of the London date: 23:30 UTC in summer is the next day in London', async () => {
    const [day, next] = [summerDay(14), summerDay(15)];
    const lateEvening = await classAt(`${day}T22:30:00Z`, 'London 23:30 on the 14th');
    const afterMidnight = await classAt(`${day}T23:30:00Z`, 'London 00:30 on the 15th');
    const result = await addClosure(admin, next, 'Bank holiday');
    expect(result).toMatchObject({ cancelled_classes: 1, affected_bookings: 0 });
    expect(result.closure_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await classExists(afterMidnight)).toBe(false);
    expect(await classExists(lateEvening)).toBe(true);
    const { rows } = await asAnon(db, (tx) =>
      tx.query('select closed_on::text as closed_on, reason from public.studio_closures where id = $1', [result.closure_id]),
    );
    expect(rows).toEqual([{ closed_on: next, reason: 'Bank holiday' }]);
  });

  it('emails booked members the reason, frees their bookings and allowance, and removes waitlists, telling them', async () => {
    const day = summerDay(21);
    const classId = await classAt(`${day}T08:00:00Z`, 'Closed Class');
    const other = await classAt(`${summerDay(22)}T08:00:00Z`, 'Open Class');
    const booked = await createUser(db, 'closure-booked', { membership_tier: 'standard' });
    const held = await createUser(db, 'closure-held', { membership_tier: 'payg', has_used_trial: true });
    const waiting = await createUser(db, 'closure-waiting', { membership_tier: 'premium' });
    await book(booked, classId);
    await book(booked, other);
    await db.query(
      `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at) values ($1, $2, 'payg', 'pending', now() + interval '10 minutes')`,
      [held.memberId, classId],
    );
    await db.query(`insert into public.class_waitlist (class_id, member_id) values ($1, $2)`, [classId, waiting.memberId]);
    const usage = () => asUser(db, booked.claims, (tx) => rpc<{ used: number }>(tx, 'public.my_plan_usage()'));
    expect((await usage()).used).toBe(2);

    const result = await addClosure(admin, day, 'Hall repairs');
    expect(result).toMatchObject({ cancelled_classes: 1, affected_bookings: 2 });

    expect((await usage()).used).toBe(1);
    const { rows: left } = await db.query<{ class_id: string }>('select class_id from public.bookings where member_id = any ($1)', [
      [booked.memberId, held.memberId],
    ]);
    expect(left).toEqual([{ class_id: other }]);
    expect((await db.query('select 1 from public.class_waitlist where member_id = $1', [waiting.memberId])).rows).toEqual([]);
    expect((await db.query('select 1 from public.late_cancellations where member_id = $1', [booked.memberId])).rows).toEqual([]);

    const cancelled = (await emailsTo(db, booked.memberId)).filter((e) => e.kind === 'booking_cancelled');
    expect(cancelled).toHaveLength(1);
    expect(cancelled[0]!.subject).toMatch(/^Booking cancelled: Closed Class, /);
    expect(cancelled[0]!.body_text).toContain(
      'Your booking for Closed Class with Coach Test has been cancelled: the studio is closed (Hall repairs).',
    );
    expect(cancelled[0]!.body_text).toContain('It does not count against your plan.');
    // An unpaid hold was never confirmed: no email. Nobody on the waitlist is promoted; they are
    // told the class is gone (decision 0037).
    expect(await emailsTo(db, held.memberId)).toEqual([]);
    const toWaiting = await emailsTo(db, waiting.memberId);
    expect(toWaiting.map((e) => e.kind)).toEqual(['waitlist_cancelled']);
    expect(toWaiting[0]!.body_text).toContain(
      'The class you were on the waitlist for, Closed Class with Coach Test, has been cancelled: the studio is closed (Hall repairs).',
    );
  });

  it('records a card payment of a cancelled class as a refund owed', async () => {
    const day = summerDay(23);
    const classId = await classAt(`${day}T08:00:00Z`, 'Paid Class');
    const payer = await createUser(db, 'closure-payer', { membership_tier: 'payg', has_used_trial: true });
    const { rows } = await db.query<{ id: string }>(
      `insert into public.bookings (member_id, class_id, type, payment_status) values ($1, $2, 'payg', 'completed') returning id`,
      [payer.memberId, classId],
    );
    await db.query(
      `insert into public.payments (member_id, kind, class_id, booking_id, amount, description, checkout_reference, status, paid_at)
       values ($1, 'class', $2, $3, 10, 'Paid Class - PAYG Booking', 'class-closure-test', 'paid', now())`,
      [payer.memberId, classId, rows[0]!.id],
    );
    await addClosure(admin, day);
    const { rows: owed } = await db.query(
      `select r.reason, r.amount::text as amount, r.member_id from public.refunds_owed r
         join public.payments p on p.id = r.payment_id where p.checkout_reference = $1`,
      ['class-closure-test'],
    );
    expect(owed).toEqual([{ reason: 'class_deleted', amount: '10.00', member_id: payer.memberId }]);
  });
});

describe('timetable generation and closures', () => {
  it('regenerate_timetable skips closed dates; removing the closure brings the date back', async () => {
    // Monday to Friday of a summer week: 5 x 4 Breakfast Club + 1 Kids Club on the Monday.
    const { rows } = await db.query<{ monday: string; wednesday: string; friday: string }>(
      `select to_char(d, 'YYYY-MM-DD') as monday, to_char(d + 2, 'YYYY-MM-DD') as wednesday, to_char(d + 4, 'YYYY-MM-DD') as friday
         from (select date_trunc('week', $1::date)::date + 7 as d) w`,
      [summerDay(1)],
    );
    const { monday, wednesday, friday } = rows[0]!;
    const closure = await addClosure(admin, wednesday, 'Hall booked');
    const regenerate = () =>
      asUser(db, admin.claims, (tx) =>
        rpc<{ deleted: number; created: number }>(tx, 'public.regenerate_timetable($1, $2)', [monday, friday]),
      );

    expect((await regenerate()).created).toBe(4 * 4 + 1);
    const onWednesday = `select count(*)::int as n from public.classes where (start_time at time zone 'Europe/London')::date = $1::date`;
    expect((await db.query<{ n: number }>(onWednesday, [wednesday])).rows[0]!.n).toBe(0);

    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.remove_studio_closure($1)', [closure.closure_id])),
      {
        hint: 'not_admin',
        message: 'Access denied',
      },
    );
    const removed = await asUser(db, admin.claims, (tx) =>
      rpc<{ id: string; closed_on: string }>(tx, 'public.remove_studio_closure($1)', [closure.closure_id]),
    );
    expect(removed).toMatchObject({ id: closure.closure_id, closed_on: wednesday });
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.remove_studio_closure($1)', [closure.closure_id])),
      {
        code: 'P0002',
        hint: 'closure_not_found',
      },
    );

    // Only the reopened Wednesday's classes are new: the rest of the week's are already there.
    expect(await regenerate()).toEqual({ deleted: 0, created: 4 });
    expect((await db.query<{ n: number }>(onWednesday, [wednesday])).rows[0]!.n).toBe(4);
  });

  it('lets everyone read closures but nobody write them directly', async () => {
    expect(await asAnon(db, (tx) => tx.query('select id from public.studio_closures limit 1').then((r) => r.rows.length))).toBe(1);
    await expectSqlError(
      asUser(db, admin.claims, (tx) => tx.query(`insert into public.studio_closures (closed_on) values ('2099-01-01')`)),
      { code: '42501' },
    );
  });
});
