import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import {
  createUser,
  expectSqlError,
  publishBookingDocuments,
  rpc,
  signCurrentDocuments,
  uniqueEmail,
  type TestUser,
} from './support/fixtures.ts';

// A coach is a member account linked to a trainer record. It reads
// the roster (with the health flag and emergency contacts) of the classes its trainer teaches and
// checks people in; every other class, every admin function and every other write is refused.

let db: Database;
let admin: TestUser;
let coach: TestUser;
let otherCoach: TestUser;
let trainerId: string;
let otherTrainerId: string;

const newTrainer = async (label: string) =>
  (await db.query<{ id: string }>('insert into public.trainers (name) values ($1) returning id', [`Coach ${uniqueEmail(label)}`])).rows[0]!
    .id;

const classFor = async (trainer: string, startsIn: string, name = 'Coached Class') =>
  (
    await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer_id, type, capacity, price_payg)
       values ($1, now() + $2::interval, $3, 'Group', 10, 10) returning id`,
      [name, startsIn, trainer],
    )
  ).rows[0]!.id;

const book = async (member: TestUser, classId: string) =>
  (
    await db.query<{ id: string }>(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid') returning id`, [
      member.memberId,
      classId,
    ])
  ).rows[0]!.id;

const link = (by: TestUser, trainer: string, email: string) =>
  asUser(db, by.claims, (tx) => rpc<{ member_id: string; email: string }>(tx, 'public.link_trainer_account($1, $2)', [trainer, email]));

interface RosterEntry {
  booking_id: string | null;
  name: string;
  contact_name: string | null;
  attendance: string | null;
  emergency_contact_name: string | null;
  emergency_contact_phone: string | null;
  health_flag: boolean;
  health_yes: string[];
  health_details: string | null;
}
const roster = (u: TestUser, classId: string) =>
  asUser(db, u.claims, (tx) => rpc<RosterEntry[]>(tx, 'public.coach_class_roster($1)', [classId]));
const markAs = (u: TestUser, bookingId: string, status: string | null) =>
  asUser(db, u.claims, (tx) => rpc<{ attendance: string | null }>(tx, 'public.coach_mark_attendance($1, $2)', [bookingId, status]));

beforeAll(async () => {
  db = await createTestDatabase();
  await publishBookingDocuments(db, 'Coach');
  admin = await createUser(db, 'coach-admin', { is_admin: true, membership_tier: 'premium' });
  coach = await createUser(db, 'coach-alex');
  otherCoach = await createUser(db, 'coach-jess');
  trainerId = await newTrainer('alex');
  otherTrainerId = await newTrainer('jess');
  await link(admin, trainerId, coach.email.toUpperCase());
  await link(admin, otherTrainerId, otherCoach.email);
});
afterAll(async () => {
  await db.close();
});

describe('linking a trainer to an account', () => {
  it('is for admins only, refuses an unknown email, an admin account and an account of another trainer', async () => {
    const spare = await newTrainer('spare');
    const member = await createUser(db, 'coach-wannabe');
    await expectSqlError(link(member, spare, member.email), { hint: 'not_admin' });
    await expectSqlError(link(admin, spare, 'nobody@example.test'), { hint: 'coach_account_not_found' });
    await expectSqlError(link(admin, spare, admin.email), { hint: 'coach_account_is_admin' });
    await expectSqlError(link(admin, spare, coach.email), { hint: 'coach_account_taken' });
    await expectSqlError(
      asUser(db, member.claims, (tx) =>
        tx.query('insert into public.trainer_accounts (trainer_id, member_id) values ($1, $2)', [spare, member.memberId]),
      ),
      { code: '42501' },
    );
    const linked = await link(admin, spare, member.email);
    expect(linked).toMatchObject({ member_id: member.memberId, email: member.email });
    const mine = await asUser(db, member.claims, (tx) => rpc<{ id: string }[]>(tx, 'public.my_coach_profile()'));
    expect(mine.map((t) => t.id)).toEqual([spare]);
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.unlink_trainer_account($1)', [spare])),
      { hint: 'not_admin' },
    );
    expect(await asUser(db, admin.claims, (tx) => rpc<boolean>(tx, 'public.unlink_trainer_account($1)', [spare]))).toBe(true);
    expect(await asUser(db, member.claims, (tx) => rpc<unknown[]>(tx, 'public.my_coach_profile()'))).toEqual([]);
  });

  it('never gives a coach account admin rights', async () => {
    await expectSqlError(db.query('update public.members set is_admin = true where id = $1', [coach.memberId]), {
      hint: 'coach_cannot_be_admin',
    });
  });
});

describe('a coach', () => {
  it('lists the classes their trainer teaches from today on, with counts, and nobody else is a coach', async () => {
    const mine = await classFor(trainerId, '3 hours', 'Mine Soon');
    const theirs = await classFor(otherTrainerId, '3 hours', 'Theirs Soon');
    const member = await createUser(db, 'coach-booker');
    await signCurrentDocuments(db, member.memberId);
    await book(member, mine);
    const classes = await asUser(db, coach.claims, (tx) => rpc<{ id: string; booked: number }[]>(tx, 'public.coach_classes()'));
    expect(classes.find((c) => c.id === mine)).toMatchObject({ booked: 1 });
    expect(classes.some((c) => c.id === theirs)).toBe(false);
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.coach_classes()')),
      { hint: 'coach_only' },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.coach_class_roster($1)', [mine])),
      { hint: 'coach_only' },
    );
  });

  it("reads their class's roster with emergency contacts, guests and the health flag, and checks people in", async () => {
    const classId = await classFor(trainerId, '30 minutes');
    const flagged = await createUser(db, 'coach-flagged');
    const fine = await createUser(db, 'coach-fine');
    await signCurrentDocuments(db, flagged.memberId);
    await signCurrentDocuments(db, fine.memberId);
    await db.query(`update public.health_answers set answers = '[false, true]', details = 'Asthma: inhaler in bag' where member_id = $1`, [
      flagged.memberId,
    ]);
    await db.query(
      `update public.members set name = 'Flo Flagged', emergency_contact_name = 'Kim', emergency_contact_phone = '07700 900111' where id = $1`,
      [flagged.memberId],
    );
    await db.query(`update public.members set name = 'Fay Fine' where id = $1`, [fine.memberId]);
    const flaggedBooking = await book(flagged, classId);
    const fineBooking = await book(fine, classId);
    await db.query(
      `insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email) values ($1, $2, $3, 'Gus Guest', $4)`,
      [classId, fineBooking, fine.memberId, uniqueEmail('guest')],
    );

    const rows = await roster(coach, classId);
    expect(rows.map((r) => [r.name, r.contact_name])).toEqual([
      ['Fay Fine', null],
      ['Gus Guest', 'Fay Fine'],
      ['Flo Flagged', null],
    ]);
    expect(rows.find((r) => r.booking_id === flaggedBooking)).toMatchObject({
      emergency_contact_name: 'Kim',
      emergency_contact_phone: '07700 900111',
      health_flag: true,
      health_yes: ['Do you feel pain in your chest when active?'],
      health_details: 'Asthma: inhaler in bag',
    });
    expect(rows.find((r) => r.booking_id === fineBooking)).toMatchObject({ health_flag: false, health_yes: [] });

    expect(await markAs(coach, flaggedBooking, 'attended')).toMatchObject({ attendance: 'attended' });
    expect(await markAs(coach, flaggedBooking, null)).toMatchObject({ attendance: null });
    expect(await markAs(coach, fineBooking, 'attended')).toMatchObject({ attendance: 'attended' });
    await expectSqlError(markAs(coach, fineBooking, 'present'), { hint: 'invalid_attendance' });
    const { rows: count } = await db.query<{ n: number }>('select count(*)::int as n from public.bookings where class_id = $1', [classId]);
    expect(count[0]!.n).toBe(2);
  });

  it("is refused another trainer's class, a class too far ahead to check in, and a roster closed a day after", async () => {
    const theirs = await classFor(otherTrainerId, '10 minutes');
    const later = await classFor(trainerId, '3 hours');
    const old = await classFor(trainerId, '-2 days');
    const member = await createUser(db, 'coach-other-member');
    await signCurrentDocuments(db, member.memberId);
    const theirBooking = await book(member, theirs);
    const laterBooking = await book(member, later);

    await expectSqlError(roster(coach, theirs), { hint: 'not_your_class' });
    await expectSqlError(markAs(coach, theirBooking, 'attended'), { hint: 'not_your_class' });
    await expectSqlError(markAs(coach, '00000000-0000-4000-a000-00000000ffff', 'attended'), { hint: 'not_your_class' });
    await expectSqlError(markAs(coach, laterBooking, 'attended'), { hint: 'attendance_too_early' });
    await expectSqlError(markAs(coach, laterBooking, 'no_show'), { hint: 'attendance_too_early' });
    await expectSqlError(roster(coach, old), { hint: 'coach_roster_closed' });
    expect(await roster(otherCoach, theirs)).toHaveLength(1);
    await expectSqlError(roster(otherCoach, later), { hint: 'not_your_class' });
  });

  it('marks a no-show only once the class has started, and attended from an hour before', async () => {
    const soon = await classFor(trainerId, '12 minutes');
    const started = await classFor(trainerId, '-5 minutes');
    const member = await createUser(db, 'coach-noshow-member');
    await signCurrentDocuments(db, member.memberId);
    const [soonBooking, startedBooking] = [await book(member, soon), await book(member, started)];

    await expectSqlError(markAs(coach, soonBooking, 'no_show'), {
      code: 'P0001',
      hint: 'no_show_too_early',
      message: 'A no-show can be marked once the class has started',
    });
    expect(await markAs(coach, soonBooking, 'attended')).toMatchObject({ attendance: 'attended' });
    expect(await markAs(coach, startedBooking, 'no_show')).toMatchObject({ attendance: 'no_show' });
  });

  it('is refused admin functions, money, the member list, health answers and every write beyond attendance', async () => {
    const classId = await classFor(trainerId, '1 day');
    const member = await createUser(db, 'coach-private');
    await signCurrentDocuments(db, member.memberId);
    const bookingId = await book(member, classId);
    const as = <T>(fn: Parameters<typeof asUser<T>>[2]) => asUser(db, coach.claims, fn);

    await expectSqlError(
      as((tx) => rpc(tx, 'public.admin_stats()')),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      as((tx) => rpc(tx, `public.admin_reports(current_date - 30, current_date)`)),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      as((tx) => rpc(tx, 'public.admin_class_places($1::uuid[])', [[classId]])),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      as((tx) => rpc(tx, 'public.mark_attendance($1, $2)', [bookingId, 'attended'])),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      as((tx) => rpc(tx, 'public.admin_trainer_accounts()')),
      { hint: 'not_admin' },
    );
    // Row-level security: the coach sees only their own rows, as any member does.
    const visible = async (sql: string) => (await as((tx) => tx.query<{ n: number }>(sql))).rows[0]!.n;
    expect(await visible('select count(*)::int as n from public.members')).toBe(1);
    expect(await visible('select count(*)::int as n from public.payments')).toBe(0);
    expect(await visible('select count(*)::int as n from public.bookings')).toBe(0);
    expect(await visible('select count(*)::int as n from public.health_answers')).toBe(0);
    expect(await visible('select count(*)::int as n from public.trainer_accounts')).toBe(1);
    // Writes: nothing beyond attendance through coach_mark_attendance.
    await expectSqlError(
      as((tx) => tx.query(`update public.bookings set attendance = 'attended' where id = $1`, [bookingId])),
      { code: '42501' },
    );
    // Row-level security lets only admins change a class: the update changes no row.
    const changed = await as((tx) => tx.query(`update public.classes set capacity = 1 where id = $1 returning id`, [classId]));
    expect(changed.rows).toHaveLength(0);
    await expectSqlError(
      as((tx) => tx.query(`delete from public.trainer_accounts`)),
      { code: '42501' },
    );
    await expectSqlError(
      as((tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId])),
      {},
    );
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.bookings where id = $1', [bookingId]);
    expect(rows[0]!.n).toBe(1);
  });
});
