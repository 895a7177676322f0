import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKETING_CONSENT_WORDING } from '../../src/config/consent.ts';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// The members the studio should contact, why and since when, and what was done about it;
// the come-back emails after a trial or a membership ends.

let db: Database;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'contact-admin', { is_admin: true, membership_tier: 'premium' });
  await db.query(`update public.members set name = 'Ada Admin' where id = $1`, [admin.memberId]);
});
afterAll(async () => {
  await db.close();
});

type Row = {
  member_id: string;
  reason: string;
  since: Date;
  detail: string;
  last_contacted_at: Date | null;
  last_contacted_by: string | null;
  last_note: string | null;
};

const asAdmin = <T>(sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => rpc<T>(tx, sql, params));
const listFor = async (members: TestUser[]) =>
  (await asUser(db, admin.claims, (tx) => tx.query<Row>('select * from public.members_to_contact()'))).rows.filter((r) =>
    members.some((m) => m.memberId === r.member_id),
  );

/** A membership row as the membership functions leave it (ended or running), for the list to read. */
async function membership(
  member: TestUser,
  fields: { status: string; endedDaysAgo?: number; plan?: 'standard' | 'platinum'; nextRetryInDays?: number },
) {
  const plan = fields.plan ?? 'standard';
  await db.query(
    `insert into public.memberships (member_id, plan_slug, tier, status, price, period_number, period_start, period_end, anchor_at, renews, ended_at, next_retry_at)
     values ($1, $2, $3, $4::public.membership_status, $5, 1, now() - interval '40 days', now() - interval '10 days', now() - interval '40 days',
             $4 in ('active', 'past_due'), now() - make_interval(days => $6::int), now() + make_interval(days => $7::int))
     on conflict (member_id) do update set plan_slug = excluded.plan_slug, tier = excluded.tier, status = excluded.status, price = excluded.price,
       renews = excluded.renews, ended_at = excluded.ended_at, next_retry_at = excluded.next_retry_at`,
    [
      member.memberId,
      plan,
      plan === 'standard' ? 'standard' : 'premium',
      fields.status,
      plan === 'standard' ? 100 : 165,
      fields.endedDaysAgo ?? null,
      fields.nextRetryInDays ?? null,
    ],
  );
  if (fields.endedDaysAgo === undefined)
    await db.query('update public.memberships set ended_at = null where member_id = $1', [member.memberId]);
  if (fields.nextRetryInDays === undefined)
    await db.query('update public.memberships set next_retry_at = null where member_id = $1', [member.memberId]);
}

describe('members_to_contact', () => {
  it('names ended trials and memberships, past-due members, dropped attendance and expiring credits, each with why and since when', async () => {
    const trial = await createUser(db, 'contact-trial', {}, { signup_source: 'free-trial' });
    await db.query(`update public.memberships set status = 'lapsed', ended_at = now() - interval '3 days' where member_id = $1`, [
      trial.memberId,
    ]);
    const lapsed = await createUser(db, 'contact-lapsed');
    await membership(lapsed, { status: 'lapsed', endedDaysAgo: 5 });
    const cancelled = await createUser(db, 'contact-cancelled');
    await membership(cancelled, { status: 'cancelled', endedDaysAgo: 20, plan: 'platinum' });
    const longGone = await createUser(db, 'contact-long-gone');
    await membership(longGone, { status: 'lapsed', endedDaysAgo: 61 });
    const pastDue = await createUser(db, 'contact-past-due');
    await membership(pastDue, { status: 'past_due', nextRetryInDays: 2 });

    const quiet = await createUser(db, 'contact-quiet', { membership_tier: 'standard' });
    await membership(quiet, { status: 'active' });
    for (const daysAgo of [35, 42, 49, 56, 63, 70, 10]) {
      const classId = await createClass(db, { startsIn: `-${daysAgo} days` });
      await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [quiet.memberId, classId]);
    }
    const steady = await createUser(db, 'contact-steady', { membership_tier: 'standard' });
    await membership(steady, { status: 'active' });
    for (const daysAgo of [35, 42, 49, 56, 3, 10]) {
      const classId = await createClass(db, { startsIn: `-${daysAgo} days` });
      await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [steady.memberId, classId]);
    }
    const expiring = await createUser(db, 'contact-expiring');
    await asAdmin('public.admin_grant_credits($1, $2, 2, 5, $3)', [expiring.memberId, 'guest_pass', 'Spare passes']);

    const rows = await listFor([trial, lapsed, cancelled, longGone, pastDue, quiet, steady, expiring, admin]);
    const byMember = (m: TestUser) => rows.filter((r) => r.member_id === m.memberId).map((r) => [r.reason, r.detail]);
    expect(byMember(trial)).toEqual([['trial_ended', 'Free trial ended without a class booked']]);
    expect(byMember(lapsed)).toEqual([['membership_lapsed', 'Standard, ended after failed payments']]);
    expect(byMember(cancelled)).toEqual([['membership_cancelled', 'Platinum Premium, cancelled']]);
    expect(byMember(pastDue)).toEqual([['past_due', expect.stringMatching(/^Standard: £100\.00 renewal unpaid, next try \d+ \w+ \d{4}$/)]]);
    expect(byMember(quiet)).toEqual([['attendance_dropped', '1 booking in the last 4 weeks, 6 in the 8 before']]);
    expect(byMember(expiring)).toEqual([['credits_expiring', expect.stringMatching(/^2 guest passes: the first expires \d+ \w+ \d{4}$/)]]);
    // Out of the window, steady, or an admin: not on the list.
    expect(byMember(longGone)).toEqual([]);
    expect(byMember(steady)).toEqual([]);
    expect(byMember(admin)).toEqual([]);
    expect(rows.every((r) => r.last_contacted_at === null)).toBe(true);
  });

  it("remembers a note and an email, by whom; the email goes through the outbox in the admin's words", async () => {
    const member = await createUser(db, 'contact-remembered');
    await db.query(`update public.members set name = 'Rita Returner' where id = $1`, [member.memberId]);
    await membership(member, { status: 'lapsed', endedDaysAgo: 2 });

    await asAdmin('public.admin_record_contact($1, $2, $3)', [member.memberId, 'membership_lapsed', 'Called: card expired, will update']);
    let [row] = await listFor([member]);
    expect(row).toMatchObject({ last_contacted_by: 'Ada Admin', last_note: 'Called: card expired, will update' });

    await asAdmin('public.admin_email_member($1, $2, $3, $4)', [
      member.memberId,
      'membership_lapsed',
      'We miss you at Breakfast Club',
      'Your spot is waiting.\n\nCome back this week?',
    ]);
    [row] = await listFor([member]);
    expect(row).toMatchObject({ last_note: 'We miss you at Breakfast Club' });
    const { rows: emails } = await db.query<{ kind: string; subject: string; body_text: string }>(
      `select kind, subject, body_text from public.notification_outbox where member_id = $1 and kind = 'studio_message'`,
      [member.memberId],
    );
    expect(emails).toEqual([
      {
        kind: 'studio_message',
        subject: 'We miss you at Breakfast Club',
        body_text: 'Hi Rita,\n\nYour spot is waiting.\n\nCome back this week?',
      },
    ]);
  });

  it('is for admins only, and refuses an empty note or subject, changing nothing', async () => {
    const member = await createUser(db, 'contact-nosy');
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query('select * from public.members_to_contact()')),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_record_contact($1, $2, $3)', [member.memberId, 'past_due', 'x'])),
      {
        hint: 'not_admin',
      },
    );
    await expectSqlError(asAdmin('public.admin_record_contact($1, $2, $3)', [member.memberId, 'past_due', '  ']), {
      hint: 'invalid_contact',
    });
    await expectSqlError(asAdmin('public.admin_email_member($1, $2, $3, $4)', [member.memberId, 'past_due', '', 'Hello']), {
      hint: 'invalid_contact',
    });
    await expectSqlError(asAdmin('public.admin_record_contact($1, $2, $3)', [member.memberId, 'because', 'Hello']), {
      hint: 'invalid_contact',
    });
    expect((await db.query('select 1 from public.member_contacts where member_id = $1', [member.memberId])).rows).toEqual([]);
  });
});

describe('a trial member on the list and in the come-back emails', () => {
  const classEnd = async (classId: string) =>
    (
      await db.query<{ ends: Date }>(`select start_time + make_interval(mins => duration) as ends from public.classes where id = $1`, [
        classId,
      ])
    ).rows[0]!.ends;
  const listAt = async (member: TestUser, now: Date) =>
    (await asUser(db, admin.claims, (tx) => tx.query<Row>('select * from public.members_to_contact($1)', [now.toISOString()]))).rows
      .filter((r) => r.member_id === member.memberId)
      .map((r) => [r.reason, r.detail]);
  const hours = (at: Date, h: number) => new Date(at.getTime() + h * 3_600_000);

  it('is listed only once the free class is over, as came or missed, never when it is just booked', async () => {
    const came = await createUser(db, 'free-class-came', {}, { signup_source: 'free-trial' });
    const missed = await createUser(db, 'free-class-missed', {}, { signup_source: 'free-trial' });
    const classId = await createClass(db, { name: 'Free Class Flow', startsIn: '2 days' });
    for (const member of [came, missed]) await asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
    const ends = await classEnd(classId);

    // Booked, not happened yet: the trial has ended (the class used it) but nothing is said.
    expect(await listAt(came, new Date())).toEqual([]);
    expect(await listAt(came, hours(ends, -1))).toEqual([]);

    await db.query(`update public.bookings set attendance = 'no_show', attendance_marked_at = now() where member_id = $1`, [
      missed.memberId,
    ]);
    expect(await listAt(came, hours(ends, 1))).toEqual([
      ['free_class_taken', expect.stringMatching(/^Free class: Free Class Flow, \d+ \w+ \d{4}$/)],
    ]);
    expect(await listAt(missed, hours(ends, 1))).toEqual([
      ['free_class_missed', expect.stringMatching(/^Missed their free class: Free Class Flow, \d+ \w+ \d{4}$/)],
    ]);
    await asAdmin('public.admin_record_contact($1, $2, $3)', [came.memberId, 'free_class_taken', 'Called after the class']);
  });

  it('gets the first come-back email a day after the free class, saying whether they came', async () => {
    const came = await createUser(db, 'winback-came', {}, { signup_source: 'free-trial', marketing_opt_in: 'true' });
    const missed = await createUser(db, 'winback-missed', {}, { signup_source: 'free-trial', marketing_opt_in: 'true' });
    const classId = await createClass(db, { name: 'Free Class Mail', startsIn: '5 days' });
    for (const member of [came, missed]) await asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
    await db.query(`update public.bookings set attendance = 'no_show', attendance_marked_at = now() where member_id = $1`, [
      missed.memberId,
    ]);
    const ends = await classEnd(classId);
    const firstSubjects = async () =>
      (
        await db.query<{ member_id: string; subject: string; body_text: string }>(
          `select member_id, subject, body_text from public.notification_outbox where kind = 'win_back' and member_id = any ($1)`,
          [[came.memberId, missed.memberId]],
        )
      ).rows;
    const run = (at: Date) => asServiceRole(db, (tx) => rpc(tx, 'public.enqueue_win_back_emails($1)', [at.toISOString()]));

    // A day and more after booking, before the class: nothing ("how was it?" cannot come first).
    await run(hours(new Date(), 30));
    expect(await firstSubjects()).toEqual([]);
    await run(hours(ends, 25));
    const sent = await firstSubjects();
    expect(sent.find((e) => e.member_id === came.memberId)).toMatchObject({
      subject: 'Thank you for trying the studio',
      body_text: expect.stringContaining('We hope you enjoyed your free class.'),
    });
    expect(sent.find((e) => e.member_id === missed.memberId)).toMatchObject({
      subject: 'We missed you',
      body_text: expect.stringContaining('We are sorry we did not see you at your free class.'),
    });
  });
});

describe('come-back emails', () => {
  const service = <T>(sql: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, sql, params));
  const at = (ended: Date, days: number) => new Date(ended.getTime() + days * 86_400_000 + 3_600_000).toISOString();
  const winBacks = async (member: TestUser) =>
    (
      await db.query<{ subject: string; body_text: string }>(
        `select subject, body_text from public.notification_outbox where member_id = $1 and kind = 'win_back' order by created_at`,
        [member.memberId],
      )
    ).rows;

  it('after a trial: day 1, then day 7, each once, the missed ones skipped, and none once they book', async () => {
    const member = await createUser(db, 'winback-trial', {}, { signup_source: 'free-trial', marketing_opt_in: 'true' });
    const { rows } = await db.query<{ ended_at: Date }>(
      `update public.memberships set status = 'lapsed', ended_at = now() - interval '10 days' where member_id = $1 returning ended_at`,
      [member.memberId],
    );
    const ended = rows[0]!.ended_at;
    const run = (days: number) => service<number>('public.enqueue_win_back_emails($1)', [at(ended, days)]);

    await run(0.5);
    expect(await winBacks(member)).toEqual([]);
    await run(1);
    await run(1);
    await run(3);
    // The trial ran out without a class booked: the first email says so.
    expect((await winBacks(member)).map((e) => e.subject)).toEqual(['Your free trial has ended']);
    expect((await winBacks(member))[0]!.body_text).toContain('Your free trial ended before you booked your free class.');
    expect((await winBacks(member))[0]!.body_text).toContain('Standard gives you 12 classes a month for £100.00');
    await run(7);
    expect((await winBacks(member)).map((e) => e.subject)).toEqual(['Your free trial has ended', 'Your next class is waiting']);

    // They book (after the trial ended): the sequence stops.
    await db.query(`update public.members set membership_tier = 'premium' where id = $1`, [member.memberId]);
    const classId = await createClass(db);
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
    await run(21);
    expect(await winBacks(member)).toHaveLength(2);
  });

  it('after a membership ended, skips members who turned them off; their link turns off this list only', async () => {
    const keen = await createUser(db, 'winback-keen', {}, { full_name: 'Test keen', marketing_opt_in: 'true' });
    await membership(keen, { status: 'cancelled', endedDaysAgo: 30 });
    const quiet = await createUser(db, 'winback-opted-out', {}, { full_name: 'Test quiet', marketing_opt_in: 'true' });
    await membership(quiet, { status: 'lapsed', endedDaysAgo: 30 });
    // They said yes at sign-up and have since turned come-back emails off on Edit Profile.
    await asUser(db, quiet.claims, (tx) => rpc(tx, 'public.set_marketing_consent($1)', [false]));
    const { rows } = await db.query<{ ended_at: Date }>('select ended_at from public.memberships where member_id = $1', [keen.memberId]);
    await service('public.enqueue_win_back_emails($1)', [at(rows[0]!.ended_at, 21)]);
    expect((await winBacks(keen)).map((e) => e.subject)).toEqual(['Your place is still here']);
    expect(await winBacks(quiet)).toEqual([]);

    const { rows: prefs } = await db.query<{ unsubscribe_token: string }>(
      'select unsubscribe_token from public.email_preferences where member_id = $1',
      [keen.memberId],
    );
    expect(await service<string>('public.unsubscribe_win_back($1)', [prefs[0]!.unsubscribe_token])).toBe(keen.email);
    const wanted = async (type: string) =>
      (await db.query<{ w: boolean }>(`select private.notification_wanted($1, 'email', $2) as w`, [keen.memberId, type])).rows[0]!.w;
    expect([await wanted('win_back'), await wanted('marketing_announcement'), await wanted('class_reminder')]).toEqual([
      false,
      false,
      true,
    ]);
    await expectSqlError(service('public.unsubscribe_win_back($1)', ['nope']), { hint: 'invalid_unsubscribe_token' });
    // The link is recorded as the member withdrawing their consent, with the words they had agreed to.
    expect(
      (
        await db.query('select granted, source, wording from public.marketing_consents where member_id = $1 order by recorded_at', [
          keen.memberId,
        ])
      ).rows,
    ).toEqual([
      { granted: true, source: 'sign_up', wording: MARKETING_CONSENT_WORDING },
      { granted: false, source: 'unsubscribe', wording: MARKETING_CONSENT_WORDING },
    ]);
  });

  it('go only to members who said yes: not to one who left the box unticked, nor to one never asked', async () => {
    const unticked = await createUser(db, 'winback-unticked', {}, { full_name: 'Test unticked', marketing_opt_in: 'false' });
    const neverAsked = await createUser(db, 'winback-never-asked');
    const later = await createUser(db, 'winback-later', {}, { full_name: 'Test later', marketing_opt_in: 'false' });
    for (const m of [unticked, neverAsked, later]) await membership(m, { status: 'lapsed', endedDaysAgo: 30 });
    // One of them changes their mind on Edit Profile.
    expect(await asUser(db, later.claims, (tx) => rpc<boolean>(tx, 'public.set_marketing_consent($1)', [true]))).toBe(true);
    const { rows } = await db.query<{ ended_at: Date }>('select ended_at from public.memberships where member_id = $1', [later.memberId]);
    await service('public.enqueue_win_back_emails($1)', [at(rows[0]!.ended_at, 21)]);
    expect(await winBacks(unticked)).toEqual([]);
    expect(await winBacks(neverAsked)).toEqual([]);
    expect(await winBacks(later)).toHaveLength(1);
    expect(
      (await db.query('select granted, source from public.marketing_consents where member_id = $1', [unticked.memberId])).rows,
    ).toEqual([{ granted: false, source: 'sign_up' }]);
    expect((await db.query('select 1 from public.marketing_consents where member_id = $1', [neverAsked.memberId])).rows).toEqual([]);
    // A member reads only their own record.
    const seen = await asUser(db, later.claims, (tx) => tx.query<{ member_id: string }>('select member_id from public.marketing_consents'));
    expect(seen.rows.every((r) => r.member_id === later.memberId)).toBe(true);
  });
});
