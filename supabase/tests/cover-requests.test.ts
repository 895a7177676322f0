import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, uniqueEmail, type TestUser } from './support/fixtures.ts';

// Cover requests (supabase/schemas/28_cover_requests.sql, decision 0087): a coach asks, another
// accepts, an admin approves; the class's coach changes once and the class-change notice
// (26_class_changes.sql) tells everyone booked and waitlisted, once.

let db: Database;
let admin: TestUser;
let alex: TestUser;
let jess: TestUser;
let kim: TestUser;
const trainers: Record<string, string> = {};

const newTrainer = async (label: string) =>
  (await db.query<{ id: string }>('insert into public.trainers (name) values ($1) returning id', [`Coach ${uniqueEmail(label)}`])).rows[0]!
    .id;

const classFor = async (trainerId: string, startsIn: string, name = 'Covered Class') =>
  (
    await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer_id, type, capacity, price_payg, duration)
       values ($1, now() + $2::interval, $3, 'Group', 10, 10, 60) returning id`,
      [name, startsIn, trainerId],
    )
  ).rows[0]!.id;

interface CoverRequest {
  id: string;
  class_id: string;
  status: string;
  requested_by: string;
  requested_by_name: string;
  accepted_by: string | null;
  accepted_by_name: string | null;
  note: string | null;
  mine: boolean;
  covering: boolean;
}

const as = <T>(u: TestUser, call: string, params: unknown[] = []) => asUser(db, u.claims, (tx) => rpc<T>(tx, call, params));
const ask = (u: TestUser, classId: string, note: string | null = null) =>
  as<CoverRequest>(u, 'public.request_cover($1, $2)', [classId, note]);
const accept = (u: TestUser, id: string) => as<CoverRequest>(u, 'public.accept_cover($1)', [id]);
const approve = (u: TestUser, id: string) => as<CoverRequest>(u, 'public.approve_cover($1)', [id]);
const trainerOf = async (classId: string) =>
  (await db.query<{ trainer_id: string; trainer: string }>('select trainer_id, trainer from public.classes where id = $1', [classId]))
    .rows[0]!;
const sendChanges = async (minutesAhead: number) =>
  (await db.query<{ n: number }>('select private.send_class_changes_at(now() + make_interval(mins => $1)) as n', [minutesAhead])).rows[0]!
    .n;
const changedEmails = async (classId: string) =>
  (
    await db.query<{ member_id: string; body_text: string }>(
      `select e.member_id, d.body_text from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where e.type = 'class_changed' and e.class_id = $1 and d.channel = 'email' order by e.member_id`,
      [classId],
    )
  ).rows;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'cover-admin', { is_admin: true, membership_tier: 'premium' });
  alex = await createUser(db, 'cover-alex');
  jess = await createUser(db, 'cover-jess');
  kim = await createUser(db, 'cover-kim');
  for (const [name, user] of [
    ['alex', alex],
    ['jess', jess],
    ['kim', kim],
  ] as const) {
    trainers[name] = await newTrainer(name);
    await as(admin, 'public.link_trainer_account($1, $2)', [trainers[name], user.email]);
  }
});
afterAll(async () => {
  await db.close();
});

describe('a cover request', () => {
  it('asked, accepted and approved: the class has the new coach and each booked or waitlisted member gets one message', async () => {
    const classId = await classFor(trainers.alex!, '3 days', 'Cover Yoga');
    const booked = await createUser(db, 'cover-booked');
    const waiting = await createUser(db, 'cover-waiting');
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [booked.memberId, classId]);
    await db.query(`insert into public.class_waitlist (member_id, class_id) values ($1, $2)`, [waiting.memberId, classId]);

    const asked = await ask(alex, classId, '  Off sick  ');
    expect(asked).toMatchObject({ status: 'open', note: 'Off sick', mine: true, covering: false, accepted_by: null });

    // Jess sees it among the open requests, as someone else's.
    const seen = await as<CoverRequest[]>(jess, 'public.coach_cover_requests()');
    expect(seen.find((r) => r.id === asked.id)).toMatchObject({ mine: false, status: 'open' });

    const accepted = await accept(jess, asked.id);
    expect(accepted).toMatchObject({ status: 'accepted', accepted_by: trainers.jess, covering: true });
    // Accepted is not approved: the class keeps its coach until an admin says yes.
    expect((await trainerOf(classId)).trainer_id).toBe(trainers.alex);

    const approved = await approve(admin, asked.id);
    expect(approved.status).toBe('approved');
    const now = await trainerOf(classId);
    expect(now.trainer_id).toBe(trainers.jess);
    expect(now.trainer).toMatch(/^Coach jess-/);

    // Approving again changes nothing: the coach changes once.
    await expectSqlError(approve(admin, asked.id), { hint: 'cover_request_closed' });

    // The existing class-change notice, after the quiet period: one message each.
    expect(await sendChanges(6)).toBe(2);
    const emails = await changedEmails(classId);
    expect(emails.map((e) => e.member_id).sort()).toEqual([booked.memberId, waiting.memberId].sort());
    expect(emails[0]!.body_text).toMatch(/Coach: Coach jess-.* \(was Coach alex-/);
    expect(await sendChanges(30)).toBe(0);
    expect(await changedEmails(classId)).toHaveLength(2);

    // Settled requests leave the lists; the class is now Jess's.
    expect((await as<CoverRequest[]>(admin, 'public.admin_cover_requests()')).some((r) => r.id === asked.id)).toBe(false);
    const jessClasses = await as<{ id: string }[]>(jess, 'public.coach_classes(14)');
    expect(jessClasses.some((c) => c.id === classId)).toBe(true);
  });

  it('is approved at once when the studio auto-approves', async () => {
    await as(admin, 'public.set_cover_auto_approve(true)');
    try {
      expect(await as<boolean>(admin, 'public.admin_cover_auto_approve()')).toBe(true);
      const classId = await classFor(trainers.alex!, '4 days');
      const asked = await ask(alex, classId);
      expect((await accept(kim, asked.id)).status).toBe('approved');
      expect((await trainerOf(classId)).trainer_id).toBe(trainers.kim);
    } finally {
      await as(admin, 'public.set_cover_auto_approve(false)');
    }
  });

  it('refuses what is not the caller’s to do, and changes nothing', async () => {
    const classId = await classFor(trainers.alex!, '5 days');
    const member = await createUser(db, 'cover-member');
    await expectSqlError(ask(member, classId), { hint: 'coach_only' });
    await expectSqlError(ask(jess, classId), { hint: 'not_your_class' });
    await expectSqlError(ask(alex, classId, 'x'.repeat(501)), { hint: 'invalid_note' });

    const asked = await ask(alex, classId);
    await expectSqlError(ask(alex, classId), { hint: 'cover_already_requested' });
    await expectSqlError(accept(alex, asked.id), { hint: 'cannot_cover_own_class' });
    await expectSqlError(approve(admin, asked.id), { hint: 'cover_not_accepted' });
    await expectSqlError(approve(jess, asked.id), { hint: 'not_admin' });
    await expectSqlError(as(jess, 'public.withdraw_cover_request($1)', [asked.id]), { hint: 'cover_request_not_found' });

    await accept(jess, asked.id);
    await expectSqlError(accept(kim, asked.id), { hint: 'cover_already_taken' });

    const withdrawn = await as<CoverRequest>(alex, 'public.withdraw_cover_request($1)', [asked.id]);
    expect(withdrawn.status).toBe('withdrawn');
    await expectSqlError(approve(admin, asked.id), { hint: 'cover_request_closed' });
    expect((await trainerOf(classId)).trainer_id).toBe(trainers.alex);
    // Withdrawn, the class can be asked about again.
    expect((await ask(alex, classId)).status).toBe('open');
  });

  it('refuses a coach who teaches at that time', async () => {
    const classId = await classFor(trainers.alex!, '6 days');
    await db.query(
      `insert into public.classes (name, start_time, trainer_id, type, capacity, duration)
       select 'Kim''s own class', start_time + interval '30 minutes', $2, 'Group', 10, 45 from public.classes where id = $1`,
      [classId, trainers.kim],
    );
    const asked = await ask(alex, classId);
    await expectSqlError(accept(kim, asked.id), { hint: 'cover_clash' });
    await expectSqlError(as(admin, 'public.admin_swap_coach($1, $2)', [classId, trainers.kim]), { hint: 'cover_clash' });
  });
});

describe("an admin's direct swap", () => {
  it('changes the coach with the same notice, and supersedes a request under way', async () => {
    const classId = await classFor(trainers.alex!, '7 days', 'Swap Pilates');
    const booked = await createUser(db, 'swap-booked');
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [booked.memberId, classId]);
    const asked = await ask(alex, classId);
    await accept(jess, asked.id);

    await expectSqlError(as(admin, 'public.admin_swap_coach($1, $2)', [classId, trainers.alex]), { hint: 'same_coach' });
    await expectSqlError(as(jess, 'public.admin_swap_coach($1, $2)', [classId, trainers.kim]), { hint: 'not_admin' });
    const swapped = await as<{ trainer_id: string }>(admin, 'public.admin_swap_coach($1, $2)', [classId, trainers.kim]);
    expect(swapped.trainer_id).toBe(trainers.kim);

    const { rows } = await db.query<{ status: string }>('select status from public.cover_requests where id = $1', [asked.id]);
    expect(rows[0]!.status).toBe('superseded');
    await expectSqlError(approve(admin, asked.id), { hint: 'cover_request_closed' });

    expect(await sendChanges(6)).toBeGreaterThanOrEqual(1);
    const emails = await changedEmails(classId);
    expect(emails.map((e) => e.member_id)).toEqual([booked.memberId]);
    expect(emails[0]!.body_text).toMatch(/Coach: Coach kim-/);
  });

  it('refuses a class that has started', async () => {
    const started = await classFor(trainers.alex!, '-10 minutes');
    await expectSqlError(as(admin, 'public.admin_swap_coach($1, $2)', [started, trainers.jess]), { hint: 'class_started' });
  });
});
