import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Texts (supabase/schemas/25_sms.sql, decision 0041) through the API roles: the mobile number and
// its normalisation, preferences per channel with their defaults, which events are texted beside
// the email (one event, each channel once), quiet hours, the daily cap, STOP, and the sender's
// contract.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

type Text = { id: string; kind: string; to_phone: string; body: string; attempts: number };
const dequeue = (now: string) =>
  asServiceRole(db, async (tx) => (await tx.query<Text>('select * from public.dequeue_texts($1)', [now])).rows);

async function textsOn(member: TestUser, phone = '07700 900123') {
  await asUser(db, member.claims, async (tx) => {
    await rpc(tx, 'public.set_sms_number($1)', [phone]);
    await rpc(tx, 'public.set_notification_preference($1, $2, $3)', ['sms', 'service', true]);
  });
}

async function bookedOn(member: TestUser, startsIn = '3 hours') {
  const classId = await createClass(db, { name: 'Text Yoga', startsIn });
  const { rows } = await db.query<{ id: string }>(
    `insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid') returning id`,
    [member.memberId, classId],
  );
  return { classId, bookingId: rows[0]!.id };
}

const channelsOf = async (bookingId: string) =>
  (
    await db.query<{ channel: string; event_id: string }>(
      `select d.channel, d.event_id from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where e.idempotency_key = 'class_reminder:' || $1 order by d.channel`,
      [bookingId],
    )
  ).rows;

/** A London afternoon well away from the texts' quiet hours. */
const afternoon = () => {
  const d = new Date();
  d.setUTCHours(14, 0, 0, 0);
  return d;
};

describe('mobile numbers', () => {
  it('are saved in E.164 (UK 07... becomes +447...), and a number that cannot take texts is refused with nothing changed', async () => {
    const member = await createUser(db, 'sms-number');
    const saved = await asUser(db, member.claims, (tx) => rpc<{ phone: string }>(tx, 'public.set_sms_number($1)', ['07700 900-123']));
    expect(saved.phone).toBe('+447700900123');
    const { rows: forms } = await db.query<{ a: string; b: string; c: string; d: string | null; e: string | null }>(
      `select private.normalise_mobile('+44 (0)7700 900123') as a, private.normalise_mobile('0033 6 12 34 56 78') as b,
              private.normalise_mobile('447700900123') as c, private.normalise_mobile('020 7946 0000') as d,
              private.normalise_mobile('call me') as e`,
    );
    // '+44 (0)7...' keeps the trunk 0, which is not a number: refused rather than guessed.
    expect(forms[0]).toEqual({ a: null, b: '+33612345678', c: '+447700900123', d: null, e: null });
    for (const bad of ['020 7946 0000', '12345', 'call me']) {
      await expectSqlError(
        asUser(db, member.claims, (tx) => rpc(tx, 'public.set_sms_number($1)', [bad])),
        { code: '22023', hint: 'invalid_mobile', message: /mobile number that can receive texts/ },
      );
    }
    const { rows } = await db.query('select phone from public.sms_numbers where member_id = $1', [member.memberId]);
    expect(rows).toEqual([{ phone: '+447700900123' }]);
  });

  it('are needed before texts can be turned on; a member reads only their own', async () => {
    const member = await createUser(db, 'sms-none');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.set_notification_preference($1, $2, $3)', ['sms', 'service', true])),
      { hint: 'no_mobile', message: 'Add your mobile number first' },
    );
    const other = await createUser(db, 'sms-other');
    await textsOn(other);
    const seen = await asUser(db, member.claims, async (tx) => (await tx.query('select * from public.sms_numbers')).rows);
    expect(seen).toEqual([]);
  });
});

describe('preferences by channel and type or category', () => {
  it('default to service by email and push on, texts off, marketing only with consent', async () => {
    const member = await createUser(db, 'prefs-defaults');
    const wanted = async (channel: string, type: string) =>
      (await db.query<{ w: boolean }>('select private.notification_wanted($1, $2, $3) as w', [member.memberId, channel, type])).rows[0]!.w;
    expect(await wanted('email', 'class_reminder')).toBe(true);
    expect(await wanted('push', 'class_cancelled')).toBe(true);
    expect(await wanted('sms', 'class_reminder')).toBe(false);
    expect(await wanted('email', 'marketing_announcement')).toBe(false);
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.set_marketing_consent($1)', [true]));
    expect(await wanted('email', 'marketing_announcement')).toBe(true);
    // A type's own row wins over its category's.
    await textsOn(member);
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.set_notification_preference($1, $2, $3)', ['sms', 'class_reminder', false]));
    expect(await wanted('sms', 'class_reminder')).toBe(false);
    expect(await wanted('sms', 'class_cancelled')).toBe(true);
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.set_notification_preference($1, $2, $3)', ['fax', 'service', true])),
      { hint: 'invalid_preference' },
    );
  });
});

describe('texts beside the emails', () => {
  it('reminds a member with texts on by email and by text for the same class, each once, however often the job runs', async () => {
    const member = await createUser(db, 'sms-reminder');
    await textsOn(member);
    const { bookingId } = await bookedOn(member);
    const now = new Date().toISOString();
    await db.query('select private.enqueue_class_reminders_at(24, $1)', [now]);
    await db.query('select private.enqueue_class_reminders_at(24, $1)', [now]);
    const deliveries = await channelsOf(bookingId);
    expect(deliveries.map((d) => d.channel)).toEqual(['email', 'sms']);
    // One event, delivered by both channels.
    expect(new Set(deliveries.map((d) => d.event_id)).size).toBe(1);
    const { rows } = await db.query<{ to_phone: string; body_text: string }>(
      `select to_phone, body_text from public.notification_deliveries where channel = 'sms' and event_id = $1`,
      [deliveries[0]!.event_id],
    );
    expect(rows[0]!.to_phone).toBe('+447700900123');
    expect(rows[0]!.body_text).toMatch(
      /^Reminder: Text Yoga with Coach Test, .+\. Cannot make it\? Cancel in My Bookings\.\nReply STOP to opt out$/,
    );
  });

  it('texts nobody who has not turned texts on, and tells members of a class the studio removed', async () => {
    const quiet = await createUser(db, 'sms-off');
    await asUser(db, quiet.claims, (tx) => rpc(tx, 'public.set_sms_number($1)', ['07700 900124']));
    const { bookingId } = await bookedOn(quiet);
    await db.query('select private.enqueue_class_reminders_at(24, now())');
    expect((await channelsOf(bookingId)).map((d) => d.channel)).toEqual(['email']);

    const on = await createUser(db, 'sms-removed');
    await textsOn(on, '07700 900125');
    const removed = await bookedOn(on, '2 days');
    await db.query('delete from public.classes where id = $1', [removed.classId]);
    const { rows } = await db.query<{ body_text: string }>(
      `select d.body_text from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where d.channel = 'sms' and e.idempotency_key = 'class_removed:' || $1`,
      [removed.bookingId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body_text).toMatch(
      /^Cancelled: Text Yoga, .+: the studio cancelled the class\. It does not count against your plan\.\nReply STOP/,
    );
  });

  it('sends at most the daily cap to one member in a London day', async () => {
    const member = await createUser(db, 'sms-cap');
    await textsOn(member, '07700 900126');
    for (let i = 0; i < 7; i += 1) await bookedOn(member);
    await db.query('select private.enqueue_class_reminders_at(24, now())');
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where d.channel = 'sms' and e.member_id = $1`,
      [member.memberId],
    );
    expect(rows[0]!.n).toBe(5);
  });
});

describe('the sender, quiet hours and STOP', () => {
  it('hands each text out once, holds one in the quiet hours, and records the provider id and a failed status', async () => {
    const member = await createUser(db, 'sms-send');
    await textsOn(member, '07700 900127');
    await bookedOn(member, '30 hours');
    await db.query('select private.enqueue_class_reminders_at(48, now())');
    // 23:00 London is in the texts' quiet hours (21:00-08:00): held until 08:00.
    const night = new Date(afternoon().getTime() + 9 * 3_600_000).toISOString();
    expect((await dequeue(night)).filter((t) => t.to_phone === '+447700900127')).toEqual([]);
    const { rows: held } = await db.query<{ next_attempt_at: Date }>(
      `select next_attempt_at from public.notification_deliveries where to_phone = '+447700900127'`,
    );
    expect(held[0]!.next_attempt_at.getTime()).toBeGreaterThan(Date.parse(night));

    const morning = new Date(held[0]!.next_attempt_at.getTime() + 60_000).toISOString();
    const taken = (await dequeue(morning)).filter((t) => t.to_phone === '+447700900127');
    expect(taken).toHaveLength(1);
    expect(await dequeue(morning).then((r) => r.filter((t) => t.to_phone === '+447700900127'))).toEqual([]);
    await asServiceRole(db, async (tx) => {
      expect(await rpc(tx, 'public.text_accepted($1, $2)', [taken[0]!.id, 'SM-test-1'])).toBe(true);
      expect(await rpc(tx, 'public.text_status($1, $2, $3)', ['SM-test-1', 'undelivered', '30003 Unreachable handset'])).toBe(true);
    });
    const { rows } = await db.query(
      'select failed_at is not null as failed, last_error from public.notification_deliveries where id = $1',
      [taken[0]!.id],
    );
    expect(rows).toEqual([{ failed: true, last_error: 'SMS undelivered: 30003 Unreachable handset' }]);
  });

  it('stops texts to a number that replied STOP (queued ones too), and START lets them again', async () => {
    const member = await createUser(db, 'sms-stop');
    await textsOn(member, '07700 900128');
    await bookedOn(member);
    await db.query('select private.enqueue_class_reminders_at(24, now())');
    const changed = await asServiceRole(db, (tx) => rpc<number>(tx, 'public.text_received($1, $2)', ['+447700900128', ' stop ']));
    expect(changed).toBe(1);
    const { rows } = await db.query<{ failed: boolean }>(
      `select failed_at is not null as failed from public.notification_deliveries where to_phone = '+447700900128'`,
    );
    expect(rows).toEqual([{ failed: true }]);
    const wanted = async () =>
      (await db.query<{ w: boolean }>(`select private.notification_wanted($1, 'sms', 'class_reminder') as w`, [member.memberId])).rows[0]!
        .w;
    expect(await wanted()).toBe(false);
    await asServiceRole(db, (tx) => rpc(tx, 'public.text_received($1, $2)', ['07700900128', 'START']));
    expect(await wanted()).toBe(true);
  });
});
