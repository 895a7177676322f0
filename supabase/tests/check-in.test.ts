import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Issue 28: self check-in with the day's door code, and bookings nobody checked in becoming
// no-shows (decision 0022).

let db: Database;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'checkin-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

const book = async (member: TestUser, classId: string) =>
  (
    await db.query<{ id: string }>(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid') returning id`, [
      member.memberId,
      classId,
    ])
  ).rows[0]!.id;
const attendance = async (bookingId: string) =>
  (await db.query<{ attendance: string | null }>('select attendance from public.bookings where id = $1', [bookingId])).rows[0]!.attendance;
const todaysCode = () => asUser(db, admin.claims, (tx) => rpc<string>(tx, 'public.todays_door_code()'));

describe('door code', () => {
  it('is four digits, the same all day, and only admins read it', async () => {
    const code = await todaysCode();
    expect(code).toMatch(/^\d{4}$/);
    expect(await todaysCode()).toBe(code);
    const member = await createUser(db, 'checkin-nosy');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.todays_door_code()')),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query('select * from public.door_codes')),
      { code: '42501' },
    );
  });
});

describe('check_in_with_code', () => {
  it('checks the member in to their class starting within the window, and never books one', async () => {
    const code = await todaysCode();
    const member = await createUser(db, 'checkin-member');
    const soon = await createClass(db, { name: 'Soon', startsIn: '20 minutes' });
    const later = await createClass(db, { name: 'Later', startsIn: '3 hours' });
    const booking = await book(member, soon);
    const laterBooking = await book(member, later);

    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.check_in_with_code($1)', ['x' + code])),
      { hint: 'check_in_wrong_code' },
    );
    const result = await asUser(db, member.claims, (tx) =>
      rpc<{ class_id: string; class_name: string }>(tx, 'public.check_in_with_code($1)', [` ${code} `]),
    );
    expect(result).toMatchObject({ booking_id: booking, class_id: soon, class_name: 'Soon' });
    expect(await attendance(booking)).toBe('attended');
    expect(await attendance(laterBooking)).toBeNull();
    // Twice: the same answer.
    expect(await asUser(db, member.claims, (tx) => rpc(tx, 'public.check_in_with_code($1)', [code]))).toMatchObject({
      booking_id: booking,
    });

    const unbooked = await createUser(db, 'checkin-unbooked');
    await expectSqlError(
      asUser(db, unbooked.claims, (tx) => rpc(tx, 'public.check_in_with_code($1)', [code])),
      { hint: 'check_in_no_booking' },
    );
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.bookings where member_id = $1', [
      unbooked.memberId,
    ]);
    expect(rows[0]!.n).toBe(0);
  });

  it('refuses a class that started more than 30 minutes ago', async () => {
    const code = await todaysCode();
    const member = await createUser(db, 'checkin-late');
    await book(member, await createClass(db, { startsIn: '-31 minutes' }));
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.check_in_with_code($1)', [code])),
      { hint: 'check_in_no_booking' },
    );
  });

  it('checks in to back-to-back classes one after the other, the nearest first', async () => {
    const code = await todaysCode();
    const member = await createUser(db, 'checkin-double');
    const first = await book(member, await createClass(db, { name: 'First', startsIn: '-20 minutes' }));
    const second = await book(member, await createClass(db, { name: 'Second', startsIn: '25 minutes' }));
    const checkIn = () => asUser(db, member.claims, (tx) => rpc<{ class_name: string }>(tx, 'public.check_in_with_code($1)', [code]));
    expect((await checkIn()).class_name).toBe('First');
    expect((await checkIn()).class_name).toBe('Second');
    expect([await attendance(first), await attendance(second)]).toEqual(['attended', 'attended']);
  });
});

describe('mark_no_shows', () => {
  it('marks unmarked bookings 30 minutes after the start, once, and leaves marked ones and pending holds alone', async () => {
    const member = await createUser(db, 'noshow-member');
    const other = await createUser(db, 'noshow-other');
    const classId = await createClass(db, { startsIn: '-1 hour' });
    const justStarted = await createClass(db, { startsIn: '-10 minutes' });
    const missed = await book(member, classId);
    const came = await book(other, classId);
    await db.query(`update public.bookings set attendance = 'attended', attendance_marked_at = now() where id = $1`, [came]);
    const tooSoon = await book(member, justStarted);

    const now = (await db.query<{ now: Date }>('select now()')).rows[0]!.now.toISOString();
    const run = () => asServiceRole(db, (tx) => rpc<number>(tx, 'public.mark_no_shows($1)', [now]));
    expect(await run()).toBeGreaterThanOrEqual(1);
    expect(await attendance(missed)).toBe('no_show');
    expect(await attendance(came)).toBe('attended');
    expect(await attendance(tooSoon)).toBeNull();
    expect(await run()).toBe(0);
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.mark_no_shows($1)', [now])),
      { code: '42501' },
    );
  });

  it('does not reach back past two days (history from before check-in stays unmarked)', async () => {
    const member = await createUser(db, 'noshow-old');
    const old = await book(member, await createClass(db, { startsIn: '-3 days' }));
    const now = (await db.query<{ now: Date }>('select now()')).rows[0]!.now.toISOString();
    await asServiceRole(db, (tx) => rpc<number>(tx, 'public.mark_no_shows($1)', [now]));
    expect(await attendance(old)).toBeNull();
  });
});
