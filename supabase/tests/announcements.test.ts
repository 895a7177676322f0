import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Announcements (supabase/schemas/28_announcements.sql, decision 0090) through the API roles: the
// segments, the preview by channel and that it matches what is queued, scheduling with "now" and
// idempotent sending, marketing only with consent (every channel), a service announcement whatever
// the marketing choice, the throttle, cancelling, and refusals that change nothing.

let db: Database;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'announce-admin', { is_admin: true });
});
afterAll(async () => {
  await db.close();
});

type Preview = { recipients: number; emails: number; pushes: number; texts: number; unreachable: number };
type Announcement = Preview & { id: string; sent_at: Date | null; cancelled_at: Date | null; send_at: Date };

const asAdmin = <T>(sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => rpc<T>(tx, sql, params));

/** A membership row as the membership functions leave it: running, or ended some days ago. */
async function membership(member: TestUser, status: string, endedDaysAgo: number | null, plan = 'standard') {
  await db.query(
    `insert into public.memberships (member_id, plan_slug, tier, status, price, period_number, period_start, period_end, anchor_at, renews, ended_at)
     values ($1, $2, 'standard', $3::public.membership_status, 100, 1, now() - interval '40 days', now() + interval '10 days',
             now() - interval '40 days', $3 in ('active', 'past_due'), now() - make_interval(days => $4::int))
     on conflict (member_id) do update set plan_slug = excluded.plan_slug, status = excluded.status, renews = excluded.renews,
       ended_at = excluded.ended_at`,
    [member.memberId, plan, status, endedDaysAgo],
  );
}

const consent = (member: TestUser, granted: boolean) =>
  asUser(db, member.claims, (tx) => rpc(tx, 'public.set_marketing_consent($1)', [granted]));

const deliveriesOf = async (announcementId: string) =>
  (
    await db.query<{ member_id: string; channel: string; unsubscribe_token: string | null; body_text: string; next_attempt_at: Date }>(
      `select e.member_id, d.channel, d.unsubscribe_token, d.body_text, d.next_attempt_at
         from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where e.idempotency_key like 'announcement:' || $1 || ':%' order by e.member_id, d.channel`,
      [announcementId],
    )
  ).rows;

describe('a marketing announcement to members lapsed in the last 60 days', () => {
  it('previews, then reaches exactly the consenting members of the segment, once, at its time', async () => {
    const yes = await createUser(db, 'lapsed-yes');
    const no = await createUser(db, 'lapsed-no');
    const long = await createUser(db, 'lapsed-long-ago');
    const running = await createUser(db, 'still-on-plan');
    await membership(yes, 'lapsed', 10);
    await membership(no, 'cancelled', 20);
    await membership(long, 'lapsed', 90);
    await membership(running, 'active', null);
    for (const m of [yes, long, running]) await consent(m, true);
    await consent(no, false);
    // The consenting member also takes news by text.
    await asUser(db, yes.claims, async (tx) => {
      await rpc(tx, 'public.set_sms_number($1)', ['07700 900321']);
      await rpc(tx, 'public.set_notification_preference($1, $2, $3)', ['sms', 'marketing', true]);
    });

    const preview = await asAdmin<Preview>('public.preview_announcement($1, $2, null, null, $3)', ['marketing_announcement', 'lapsed', 60]);
    expect(preview).toEqual({ recipients: 1, emails: 1, pushes: 0, texts: 1, unreachable: 1 });

    const sendAt = new Date(Date.now() + 2 * 3600_000);
    const created = await asAdmin<Announcement>('public.create_announcement($1, $2, $3, $4, null, null, $5, $6)', [
      'marketing_announcement',
      'Come back for spring',
      'Your first class back is on us.\n\nBook any class this month.',
      'lapsed',
      60,
      sendAt.toISOString(),
    ]);
    expect(created.sent_at).toBeNull();

    // Before its time the job sends nothing; at its time, once; a second run nothing.
    expect((await db.query<{ n: number }>('select public.send_announcements_at($1) as n', [new Date().toISOString()])).rows[0]!.n).toBe(0);
    const at = new Date(sendAt.getTime() + 60_000).toISOString();
    expect((await db.query<{ n: number }>('select public.send_announcements_at($1) as n', [at])).rows[0]!.n).toBe(1);
    expect((await db.query<{ n: number }>('select public.send_announcements_at($1) as n', [at])).rows[0]!.n).toBe(0);

    const sent = (await db.query<Announcement>('select * from public.announcements where id = $1', [created.id])).rows[0]!;
    expect({ recipients: sent.recipients, emails: sent.emails, pushes: sent.pushes, texts: sent.texts }).toEqual({
      recipients: preview.recipients,
      emails: preview.emails,
      pushes: preview.pushes,
      texts: preview.texts,
    });
    const deliveries = await deliveriesOf(created.id);
    expect(deliveries.map((d) => [d.member_id, d.channel])).toEqual([
      [yes.memberId, 'email'],
      [yes.memberId, 'sms'],
    ]);
    // The email carries the one-click unsubscribe token; the text ends with the STOP line.
    expect(deliveries[0]!.unsubscribe_token).toMatch(/^[0-9a-f]{64}$/);
    expect(deliveries[0]!.body_text).toMatch(/Your first class back is on us\.\n\nBook any class this month\.$/);
    expect(deliveries[1]!.body_text).toMatch(/^Come back for spring: Your first class back is on us\./);
    expect(deliveries[1]!.body_text).toMatch(/\nReply STOP to opt out$/);
  });
});

describe('a service announcement to a class', () => {
  it("reaches the class's members whatever their marketing choice, without an unsubscribe token, at once", async () => {
    const classId = await createClass(db, { name: 'Hall Yoga', startsIn: '2 days' });
    const booked = await createUser(db, 'hall-booked');
    const refused = await createUser(db, 'hall-refused');
    const elsewhere = await createUser(db, 'hall-elsewhere');
    await consent(refused, false);
    for (const m of [booked, refused]) {
      await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [m.memberId, classId]);
    }
    const otherClass = await createClass(db, { name: 'Other Yoga', startsIn: '2 days' });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [elsewhere.memberId, otherClass]);

    const preview = await asAdmin<Preview>('public.preview_announcement($1, $2, null, $3)', ['announcement', 'class', classId]);
    expect(preview).toEqual({ recipients: 2, emails: 2, pushes: 0, texts: 0, unreachable: 0 });
    const sent = await asAdmin<Announcement>('public.create_announcement($1, $2, $3, $4, null, $5)', [
      'announcement',
      'The hall is closed on Saturday',
      'Hall Yoga meets in the park instead.',
      'class',
      classId,
    ]);
    expect(sent.sent_at).not.toBeNull();
    expect(sent.recipients).toBe(2);
    const deliveries = await deliveriesOf(sent.id);
    expect(deliveries.map((d) => d.member_id).sort()).toEqual([booked.memberId, refused.memberId].sort());
    expect(deliveries.every((d) => d.channel === 'email' && d.unsubscribe_token === null)).toBe(true);
  });
});

describe('the other segments', () => {
  it('are all active members, a plan, trials that ended, and everyone who said yes to marketing', async () => {
    const onPlatinum = await createUser(db, 'seg-platinum');
    const onStandard = await createUser(db, 'seg-standard');
    const trialOver = await createUser(db, 'seg-trial-over');
    await membership(onPlatinum, 'active', null, 'platinum');
    await membership(onStandard, 'past_due', null);
    await db.query(
      `insert into public.memberships (member_id, tier, status, period_start, period_end, anchor_at, renews, ended_at)
       values ($1, 'trial', 'lapsed', now() - interval '20 days', now() - interval '6 days', now() - interval '20 days', false, now() - interval '6 days')
       on conflict (member_id) do update set tier = 'trial', plan_slug = null, price = null, status = 'lapsed', renews = false, ended_at = excluded.ended_at`,
      [trialOver.memberId],
    );
    await consent(onStandard, true);
    const members = async (segment: string, plan: string | null = null) => {
      const { rows } = await db.query<{ member_id: string }>(
        `select r.member_id from private.announcement_recipients(
           row(null, 'announcement', 's', 'b', $1, $2, null, null, now(), null, now(), null, null, null, null, null, null)::public.announcements, now()) r`,
        [segment, plan],
      );
      return rows.map((r) => r.member_id);
    };
    const mine = [onPlatinum.memberId, onStandard.memberId, trialOver.memberId];
    const ofMine = (ids: string[]) => mine.filter((id) => ids.includes(id));
    expect(ofMine(await members('active'))).toEqual([onPlatinum.memberId, onStandard.memberId]);
    expect(ofMine(await members('plan', 'platinum'))).toEqual([onPlatinum.memberId]);
    expect(ofMine(await members('trial_ended'))).toEqual([trialOver.memberId]);
    expect(ofMine(await members('consent'))).toEqual([onStandard.memberId]);
    // Admins are never in a segment.
    expect(await members('active')).not.toContain(admin.memberId);
  });
});

describe('throttling', () => {
  it('spreads a large announcement over minutes: the 61st member is due a minute after the first', async () => {
    // 61 members on the student plan, made directly (no accounts needed to be written to).
    await db.query(
      `with m as (
         insert into public.members (email, name) select 'throttle-' || g || '-' || $1 || '@example.test', 'Member ' || g
           from generate_series(1, 61) g returning id)
       insert into public.memberships (member_id, plan_slug, tier, status, price, period_number, period_start, period_end, anchor_at, renews)
       select id, 'student', 'standard', 'active', 70, 1, now() - interval '5 days', now() + interval '25 days', now() - interval '5 days', true from m
       on conflict (member_id) do update set plan_slug = 'student', tier = 'standard', status = 'active', price = 70, renews = true, ended_at = null`,
      [Date.now()],
    );
    const now = new Date('2027-01-05T12:00:00Z');
    const { rows } = await db.query<{ id: string }>(
      `insert into public.announcements (type, subject, body, segment, plan_slug, send_at)
       values ('announcement', 'Student prices', 'Nothing changes for you.', 'plan', 'student', $1) returning id`,
      [now.toISOString()],
    );
    const id = rows[0]!.id;
    expect((await db.query<{ n: number }>('select public.send_announcements_at($1) as n', [now.toISOString()])).rows[0]!.n).toBe(61);
    const due = (await deliveriesOf(id)).map((d) => d.next_attempt_at.getTime()).sort((a, b) => a - b);
    expect(due).toHaveLength(61);
    expect(due.filter((t) => t === now.getTime())).toHaveLength(60);
    expect(due.at(-1)).toBe(now.getTime() + 60_000);
  });
});

describe('admins only, and bad input', () => {
  it('refuses members, bad segments and empty words, changing nothing; a cancelled announcement never goes', async () => {
    const member = await createUser(db, 'announce-member');
    const before = (await db.query<{ n: number }>('select count(*)::int as n from public.announcements')).rows[0]!.n;
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.create_announcement($1, $2, $3, $4)', ['announcement', 'Hi', 'Hello', 'active'])),
      { hint: 'not_admin' },
    );
    await expectSqlError(asAdmin('public.create_announcement($1, $2, $3, $4)', ['announcement', ' ', 'Hello', 'active']), {
      hint: 'invalid_announcement',
      message: /Write a subject/,
    });
    await expectSqlError(asAdmin('public.preview_announcement($1, $2, $3)', ['announcement', 'plan', 'bronze']), {
      hint: 'invalid_segment',
      message: 'Choose a membership plan',
    });
    await expectSqlError(asAdmin('public.preview_announcement($1, $2, null, null, $3)', ['announcement', 'lapsed', 0]), {
      hint: 'invalid_segment',
    });
    await expectSqlError(asAdmin('public.create_announcement($1, $2, $3, $4)', ['newsletter', 'Hi', 'Hello', 'active']), {
      hint: 'invalid_announcement',
    });
    expect((await db.query<{ n: number }>('select count(*)::int as n from public.announcements')).rows[0]!.n).toBe(before);

    const later = new Date(Date.now() + 3600_000);
    const scheduled = await asAdmin<Announcement>('public.create_announcement($1, $2, $3, $4, null, null, null, $5)', [
      'announcement',
      'Timetable change',
      'New classes next week.',
      'active',
      later.toISOString(),
    ]);
    const cancelled = await asAdmin<Announcement>('public.cancel_announcement($1)', [scheduled.id]);
    expect(cancelled.cancelled_at).not.toBeNull();
    await db.query('select public.send_announcements_at($1)', [new Date(later.getTime() + 60_000).toISOString()]);
    expect(await deliveriesOf(scheduled.id)).toEqual([]);
    // Members read no announcements; admins read them all.
    const seen = await asUser(db, member.claims, async (tx) => (await tx.query('select id from public.announcements')).rows);
    expect(seen).toEqual([]);
  });
});
