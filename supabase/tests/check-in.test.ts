import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Self check-in with the day's door code, and bookings nobody checked in becoming
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
/** A four-digit code that is not today's. */
const wrongCodeFor = (code: string) => String((Number(code) + 1) % 10000).padStart(4, '0');

type CheckInAnswer = { class_name: string | null; refusal: string | null; message: string | null };
/**
 * One try at the door, as the screen sees it: checked in (the class), or refused (its hint and
 * message), whether the database raised the refusal or answered it.
 */
async function attempt(member: TestUser, code: string): Promise<{ checkedIn?: string | null; hint?: string; message?: string }> {
  try {
    const answer = await asUser(db, member.claims, (tx) => rpc<CheckInAnswer>(tx, 'public.check_in_with_code($1)', [code]));
    return answer.refusal ? { hint: answer.refusal, message: answer.message ?? '' } : { checkedIn: answer.class_name };
  } catch (error) {
    const e = error as { hint?: string; message: string };
    return { hint: e.hint, message: e.message };
  }
}

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

    expect(await attempt(member, 'x' + code)).toEqual({
      hint: 'check_in_wrong_code',
      message: "That is not today's door code. Check the code at the door and try again.",
    });
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

describe('wrong door codes', () => {
  it('after 5 wrong codes in 15 minutes refuses every code, the right one too, until the window has passed', async () => {
    const code = await todaysCode();
    const member = await createUser(db, 'checkin-guesser');
    const booking = await book(member, await createClass(db, { name: 'Guessed', startsIn: '10 minutes' }));
    const wrong = wrongCodeFor(code);

    for (let i = 1; i <= 5; i += 1) expect((await attempt(member, wrong)).hint).toBe('check_in_wrong_code');
    const locked = { hint: 'too_many_attempts', message: 'Too many wrong codes. Please try again in 15 minutes.' };
    expect(await attempt(member, wrong)).toEqual(locked);
    expect(await attempt(member, code)).toEqual(locked);
    expect(await attendance(booking)).toBeNull();
    // Refused tries while locked are not counted: the lock ends 15 minutes after the fifth wrong code.
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.check_in_attempts where member_id = $1', [
      member.memberId,
    ]);
    expect(rows[0]!.n).toBe(5);

    // Another member is not held back by this one's guesses.
    const other = await createUser(db, 'checkin-neighbour');
    await book(other, await createClass(db, { name: 'Neighbour', startsIn: '10 minutes' }));
    expect(await attempt(other, code)).toEqual({ checkedIn: 'Neighbour' });

    // Ten minutes on (the tries moved back in time): five minutes left.
    await db.query(`update public.check_in_attempts set attempted_at = attempted_at - interval '10 minutes' where member_id = $1`, [
      member.memberId,
    ]);
    expect(await attempt(member, code)).toEqual({ ...locked, message: 'Too many wrong codes. Please try again in 5 minutes.' });
    // Fifteen minutes on: the right code checks in.
    await db.query(`update public.check_in_attempts set attempted_at = attempted_at - interval '5 minutes' where member_id = $1`, [
      member.memberId,
    ]);
    expect(await attempt(member, code)).toEqual({ checkedIn: 'Guessed' });
    expect(await attendance(booking)).toBe('attended');
  });

  it('a few mistakes then the right code checks in', async () => {
    const code = await todaysCode();
    const member = await createUser(db, 'checkin-fumbler');
    await book(member, await createClass(db, { name: 'Fumbled', startsIn: '5 minutes' }));
    for (let i = 1; i <= 4; i += 1) expect((await attempt(member, wrongCodeFor(code))).hint).toBe('check_in_wrong_code');
    expect(await attempt(member, code)).toEqual({ checkedIn: 'Fumbled' });
  });

  it('keeps the tries where members can neither read nor write them', async () => {
    const member = await createUser(db, 'checkin-tamper');
    await attempt(member, 'nope');
    for (const sql of [
      'select * from public.check_in_attempts',
      'delete from public.check_in_attempts where member_id is not null',
      `insert into public.check_in_attempts (member_id, attempted_at) values ('${member.memberId}', now() - interval '1 day')`,
    ]) {
      await expectSqlError(
        asUser(db, member.claims, (tx) => tx.query(sql)),
        { code: '42501' },
      );
    }
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

  it('marks every class since the last run however long the gap, but not classes from before check-in existed', async () => {
    const member = await createUser(db, 'noshow-gap');
    // The job next runs 30 days from now (stopped, or a jump with `npm run jobs -- --at`).
    const tenDaysAgo = await book(member, await createClass(db, { startsIn: '20 days' }));
    const beforeCheckIn = await book(member, await createClass(db, { startsIn: '-2 years' }));
    const now = (await db.query<{ now: Date }>(`select now() + interval '30 days' as now`)).rows[0]!.now.toISOString();
    await asServiceRole(db, (tx) => rpc<number>(tx, 'public.mark_no_shows($1)', [now]));
    expect(await attendance(tenDaysAgo)).toBe('no_show');
    expect(await attendance(beforeCheckIn)).toBeNull();
  });
});

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('check-in attempts', binDir);

describe.skipIf(!binDir)('wrong door codes on PostgreSQL', () => {
  it('ten wrong codes sent at once: five are counted and answered, the rest refused', async () => {
    const pgdb = pgClientDatabase(server.admin()!);
    const member = await createUser(pgdb, 'checkin-burst');
    // No door code exists on this server yet, so every code is wrong.
    const results = await together<CheckInAnswer>(
      server.cluster()!.connectionString,
      Array.from({ length: 10 }, (_, i) => ({
        sql: 'select * from public.check_in_with_code($1)',
        params: [String(1000 + i)],
        claims: member.claims,
      })),
    );
    const outcomes = results.map((r) => (r.error ? r.error.hint : r.rows[0]!.refusal));
    console.log(`[check-in] ten wrong codes at once: ${outcomes.filter((o) => o === 'check_in_wrong_code').length} answered`);
    expect(outcomes.filter((o) => o === 'check_in_wrong_code')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'too_many_attempts')).toHaveLength(5);
    const { rows } = await pgdb.query<{ n: number }>('select count(*)::int as n from public.check_in_attempts where member_id = $1', [
      member.memberId,
    ]);
    expect(rows[0]!.n).toBe(5);
  });
});
