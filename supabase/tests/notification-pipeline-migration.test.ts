import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform, listMigrations } from '../local/db/apply.ts';
import { openDatabase, type Database } from '../local/db/open-database.ts';

// The one notification pipeline (decision 0040) replaced the email and push outboxes. Production
// had queued, failed and sent rows in both when it ran: this builds a database as it was just
// before, with such rows, applies the migration and checks every row is there to read, send,
// retry and deduplicate as before.

const PIPELINE = '20261210000000';

let db: Database;
let dir: string;
const ids = {
  member: '00000000-0000-4000-8000-000000000001',
  booking: '00000000-0000-4000-8000-000000000002',
  device: '00000000-0000-4000-8000-000000000003',
  queued: '00000000-0000-4000-8000-000000000010',
  failed: '00000000-0000-4000-8000-000000000011',
  sent: '00000000-0000-4000-8000-000000000012',
  contact: '00000000-0000-4000-8000-000000000013',
  promoted: '00000000-0000-4000-8000-000000000014',
  pushQueued: '00000000-0000-4000-8000-000000000020',
  pushSent: '00000000-0000-4000-8000-000000000021',
  pushFailed: '00000000-0000-4000-8000-000000000022',
  pushPayment: '00000000-0000-4000-8000-000000000023',
};
const endpoint = 'https://fcm.googleapis.com/fcm/send/device-one';

beforeAll(async () => {
  dir = mkdtempSync(`${tmpdir()}/before-pipeline-`);
  for (const m of listMigrations().filter((m) => m.version < PIPELINE)) copyFileSync(m.path, `${dir}/${m.version}_${m.name}.sql`);
  db = await openDatabase({ dataDir: 'memory' });
  await applyPlatform(db);
  await applyMigrations(db, dir);

  await db.query(`insert into public.members (id, email, name) values ($1, 'old-rows@example.test', 'Olive Rows')`, [ids.member]);
  await db.query(
    `insert into public.push_subscriptions (id, member_id, endpoint, p256dh, auth, device) values ($1, $2, $3, $4, $5, 'Pixel')`,
    [ids.device, ids.member, endpoint, 'B'.repeat(87), 'a'.repeat(22)],
  );
  await db.query(
    `insert into public.notification_outbox
       (id, kind, to_email, member_id, booking_id, subject, body_text, links, dedupe_key, created_at, sent_at, attempts, last_error,
        next_attempt_at, failed_at, reply_to, unsubscribe_token)
     values
       ($1, 'class_reminder', 'old-rows@example.test', $5, $6::uuid, 'Reminder: Yoga', 'See you soon.', '[{"label":"Manage","path":"/mybookings"}]',
        'class_reminder:' || $6::text, '2026-12-01T08:00Z', null, 2, 'SMTP 451', '2026-12-01T08:04Z', null, null, null),
       ($2, 'payment_failed', 'old-rows@example.test', $5, null, 'Payment failed', 'Please update your card.', '[]',
        'payment_failed:x', '2026-12-01T07:00Z', null, 6, '550 mailbox unknown', '2026-12-01T07:31Z', '2026-12-01T07:31Z', null, null),
       ($3, 'booking_confirmed', 'old-rows@example.test', $5, $6::uuid, 'Booking confirmed', 'You are booked.', '[]',
        null, '2026-11-30T08:00Z', '2026-11-30T08:00:05Z', 1, null, '2026-11-30T08:00Z', null, null, null),
       ($4, 'contact_message', 'studio@example.test', null, null, 'Contact Us: enquiry', 'Hello', '[]',
        null, '2026-12-01T09:00Z', null, 0, null, '2026-12-01T09:00Z', null, 'visitor@example.test', null)`,
    [ids.queued, ids.failed, ids.sent, ids.contact, ids.member, ids.booking],
  );
  await db.query(
    `insert into public.notification_outbox (id, kind, to_email, member_id, subject, body_text, dedupe_key, created_at, sent_at, attempts)
     values ($1, 'waitlist_promoted', 'old-rows@example.test', $2, 'A spot opened', 'Booked.', 'waitlist_promoted:y',
             '2026-12-01T10:00Z', '2026-12-01T10:00Z', 1)`,
    [ids.promoted, ids.member],
  );
  // The email trigger queued the promotion's push ('<kind>:<email id>:<device>'); the others by hand.
  await db.query(`delete from public.push_outbox`);
  await db.query(
    `insert into public.push_outbox (id, subscription_id, member_id, kind, title, body, path, booking_id, dedupe_key, next_attempt_at,
                                     expires_at, sent_at, attempts, last_error, failed_at)
     values ($1, $4::uuid, $5, 'class_reminder', 'Reminder: Yoga at 6:00 AM', 'With Sam.', '/mybookings', $6::uuid, 'class_reminder:' || $6::text || ':' || $4::text,
             '2026-12-01T05:00Z', '2026-12-01T06:00Z', null, 0, null, null),
            ($2, $4::uuid, $5, 'waitlist_promoted', 'A spot opened: you are booked', 'Yoga.', '/mybookings', null,
             'waitlist_promoted:' || $7::text || ':' || $4::text, now(), null, now(), 1, null, null),
            ($3, $4::uuid, $5, 'class_cancelled', 'Class cancelled: Yoga', 'The studio cancelled.', '/mybookings', null,
             'class_removed:' || $6::text || ':' || $4::text, now(), null, null, 6, '500 push service down', now()),
            ($8, $4::uuid, $5, 'payment_failed', 'Payment failed', 'The details are in the email.', '/membership', null,
             'payment_failed:x:' || $4::text, '2026-12-01T05:00Z', null, null, 0, null, null)`,
    [ids.pushQueued, ids.pushSent, ids.pushFailed, ids.device, ids.member, ids.booking, ids.promoted, ids.pushPayment],
  );
  await applyMigrations(db);
}, 180_000);

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the migration to one notification pipeline', () => {
  it('keeps every queued, failed and sent email, field by field, as email deliveries of their own events', async () => {
    const token = (
      await db.query<{ t: string }>('select unsubscribe_token as t from public.email_preferences where member_id = $1', [ids.member])
    ).rows[0]!.t;
    const { rows } = await db.query<Record<string, unknown>>(
      `select id, kind, to_email::text, member_id, booking_id, subject, body_text, links, dedupe_key, sent_at is not null as sent,
              attempts, last_error, failed_at is not null as failed, reply_to::text, unsubscribe_token
         from public.notification_outbox order by created_at`,
    );
    expect(rows).toEqual([
      expect.objectContaining({ id: ids.sent, kind: 'booking_confirmed', sent: true, attempts: 1, failed: false }),
      expect.objectContaining({
        id: ids.failed,
        kind: 'payment_failed',
        sent: false,
        attempts: 6,
        failed: true,
        last_error: '550 mailbox unknown',
      }),
      expect.objectContaining({
        id: ids.queued,
        kind: 'class_reminder',
        to_email: 'old-rows@example.test',
        booking_id: ids.booking,
        subject: 'Reminder: Yoga',
        links: [{ label: 'Manage', path: '/mybookings' }],
        dedupe_key: `class_reminder:${ids.booking}`,
        sent: false,
        attempts: 2,
        last_error: 'SMTP 451',
        // The member's token, which the outbox's trigger wrote on the row.
        unsubscribe_token: token,
      }),
      expect.objectContaining({ id: ids.contact, kind: 'contact_message', member_id: null, reply_to: 'visitor@example.test' }),
      expect.objectContaining({ id: ids.promoted, kind: 'waitlist_promoted', sent: true }),
    ]);
  });

  it('keeps every push, on the event of the email it came with or of its own key', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select p.id, p.kind, p.title, p.path, p.dedupe_key, p.sent_at is not null as sent, p.failed_at is not null as failed, p.attempts,
              p.last_error, p.expires_at, p.event_id
         from public.push_outbox p order by p.id`,
    );
    const events = new Map(
      (await db.query<{ id: string; event_id: string }>('select id, event_id from public.notification_outbox')).rows.map((r) => [
        r.id,
        r.event_id,
      ]),
    );
    expect(rows).toEqual([
      expect.objectContaining({
        id: ids.pushQueued,
        kind: 'class_reminder',
        path: '/mybookings',
        dedupe_key: `class_reminder:${ids.booking}:${ids.device}`,
        sent: false,
        failed: false,
        expires_at: new Date('2026-12-01T06:00Z'),
        // The reminder by push and by email are one event, by both channels.
        event_id: events.get(ids.queued),
      }),
      expect.objectContaining({ id: ids.pushSent, kind: 'waitlist_promoted', sent: true, event_id: events.get(ids.promoted) }),
      expect.objectContaining({
        id: ids.pushFailed,
        kind: 'class_cancelled',
        failed: true,
        attempts: 6,
        last_error: '500 push service down',
      }),
      // Queued beside the email of the same key.
      expect.objectContaining({ id: ids.pushPayment, kind: 'payment_failed', sent: false, event_id: events.get(ids.failed) }),
    ]);
  });

  it('sends, retries and deduplicates the moved rows as the pipeline does', async () => {
    const emails = await db.query<{ id: string }>(`select id from public.dequeue_notifications(50, '2026-12-02T00:00Z')`);
    expect(emails.rows.map((r) => r.id).sort()).toEqual([ids.queued, ids.contact].sort());
    const pushes = await db.query<{ id: string; endpoint: string }>(`select id, endpoint from public.dequeue_pushes('2026-12-01T05:01Z')`);
    // The reminder's booking is not confirmed (there is none here): it is dropped, not sent.
    expect(pushes.rows).toEqual([{ id: ids.pushPayment, endpoint }]);
    // The failed email and the failed push are the admins' to retry, in one list.
    const failed = await db.query<{ id: string; channel: string }>(
      `select o.id, o.channel from public.notification_deliveries o
        where o.failed_at is not null and o.last_error not like 'expired:%' order by o.channel`,
    );
    expect(failed.rows).toEqual([
      { id: ids.failed, channel: 'email' },
      { id: ids.pushFailed, channel: 'push' },
    ]);
    // The reminder's key is taken: the job queues no second email for the booking.
    const again = await db.query<{ id: string | null }>(
      `select private.enqueue_email('class_reminder', 'old-rows@example.test', $1, null, $2, 'Reminder', 'Again', '[]', $3) as id`,
      [ids.member, ids.booking, `class_reminder:${ids.booking}`],
    );
    expect(again.rows[0]!.id).toBeNull();
  });
});
