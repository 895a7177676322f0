import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO } from '../../src/config/studio.ts';
import { asAnon, asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database, SqlExecutor } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, uniqueEmail, type TestUser } from './support/fixtures.ts';

// The SQL of email delivery (20261122000300_email_delivery.sql) through the API roles, as
// PostgREST runs it: retries and failure, preferences, Contact Us, admin reads, the email copy.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

type Dequeued = {
  id: string;
  kind: string;
  attempts: number;
  class_name: string | null;
  class_when: string | null;
  unsubscribe_token: string | null;
  reply_to: string | null;
};

const dequeue = (d: Database, now: string, limit = 50) =>
  asServiceRole(d, async (tx) => (await tx.query<Dequeued>('select * from public.dequeue_notifications($1, $2)', [limit, now])).rows);
// Zero rows (not out for delivery) or one: how the email was given back.
const requeue = async (d: Database, id: string, error: string, now: string) =>
  (
    await asServiceRole(d, (tx) =>
      rpc<{ id: string; status: string; attempts: number; next_attempt_at: string | null }[]>(
        tx,
        'public.requeue_notification($1, $2, $3)',
        [id, error, now],
      ),
    )
  )[0] ?? null;

async function outboxRow(d: SqlExecutor, id: string) {
  const { rows } = await d.query<{
    attempts: number;
    last_error: string | null;
    failed_at: Date | null;
    sent_at: Date | null;
    next_attempt_at: Date;
  }>('select attempts, last_error, failed_at, sent_at, next_attempt_at from public.notification_outbox where id = $1', [id]);
  return rows[0]!;
}

const at = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

describe('delivery with retries', () => {
  it('backs off 1, 2, 4, 8, 16 minutes, then marks the email failed with the error; an admin retries it', async () => {
    const fresh = await createTestDatabase();
    try {
      const member = await createUser(fresh, 'retry', { membership_tier: 'premium' });
      const admin = await createUser(fresh, 'retry-admin', { is_admin: true });
      const classId = await createClass(fresh, { name: 'Retry Spin' });
      await asUser(fresh, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
      // Far enough ahead that the row's default next_attempt_at (now()) has passed.
      let now = at(new Date().toISOString(), 1);
      const [first, ...rest] = await dequeue(fresh, now);
      expect(rest).toEqual([]);
      expect(first).toMatchObject({ kind: 'booking_confirmed', attempts: 1, class_name: 'Retry Spin', unsubscribe_token: null });
      expect(first!.class_when).toMatch(/^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}, \d{1,2}:\d{2} [AP]M$/);

      for (const [attempt, wait] of [
        [1, 1],
        [2, 2],
        [3, 4],
        [4, 8],
        [5, 16],
      ] as const) {
        expect(await requeue(fresh, first!.id, `421 try later (${attempt})`, now)).toMatchObject({
          status: 'retrying',
          attempts: attempt,
          next_attempt_at: expect.any(String),
        });
        // Not due a second before the backoff ends; due at its end.
        expect(await dequeue(fresh, at(now, wait - 1 / 60))).toEqual([]);
        now = at(now, wait);
        expect((await dequeue(fresh, now)).map((e) => e.id)).toEqual([first!.id]);
      }
      expect(await requeue(fresh, first!.id, 'connect ECONNREFUSED 127.0.0.1:25', now)).toEqual({
        id: first!.id,
        status: 'failed',
        attempts: 6,
        next_attempt_at: null,
      });
      expect(await outboxRow(fresh, first!.id)).toMatchObject({
        attempts: 6,
        last_error: 'connect ECONNREFUSED 127.0.0.1:25',
        sent_at: null,
        failed_at: new Date(now),
      });
      expect(await dequeue(fresh, at(now, 24 * 60))).toEqual([]);
      // A second requeue of the same delivery changes nothing.
      expect(await requeue(fresh, first!.id, 'again', now)).toBeNull();

      const listed = await asUser(fresh, admin.claims, async (tx) => (await tx.query('select * from public.undelivered_emails()')).rows);
      expect(listed).toEqual([
        expect.objectContaining({ id: first!.id, to_email: member.email, attempts: 6, last_error: 'connect ECONNREFUSED 127.0.0.1:25' }),
      ]);
      await expectSqlError(
        asUser(fresh, member.claims, (tx) => tx.query('select * from public.undelivered_emails()')),
        { hint: 'not_admin' },
      );
      await expectSqlError(
        asUser(fresh, member.claims, (tx) => rpc(tx, 'public.retry_email($1)', [first!.id])),
        { hint: 'not_admin' },
      );

      const retried = await asUser(fresh, admin.claims, (tx) =>
        rpc<{ id: string; next_attempt_at: string }>(tx, 'public.retry_email($1)', [first!.id]),
      );
      expect(retried).toEqual({ id: first!.id, next_attempt_at: expect.any(String) });
      expect(await outboxRow(fresh, first!.id)).toMatchObject({ attempts: 0, failed_at: null });
      expect((await dequeue(fresh, at(new Date().toISOString(), 1))).map((e) => [e.id, e.attempts])).toEqual([[first!.id, 1]]);
      await expectSqlError(
        asUser(fresh, admin.claims, (tx) => rpc(tx, 'public.retry_email($1)', [first!.id])),
        { hint: 'email_not_failed', code: 'P0002' },
      );
    } finally {
      await fresh.close();
    }
  });

  it('keeps delivery to the service role', async () => {
    const member = await createUser(db, 'deliver-refused');
    for (const sql of ['public.dequeue_notifications()', `public.requeue_notification(gen_random_uuid(), 'x')`]) {
      await expectSqlError(
        asUser(db, member.claims, (tx) => rpc(tx, sql)),
        { code: '42501' },
      );
      await expectSqlError(
        asAnon(db, (tx) => rpc(tx, sql)),
        { code: '42501' },
      );
    }
  });
});

describe('reminder preferences', () => {
  it('reminds members by default with their unsubscribe token, and not once they turn reminders off', async () => {
    const fresh = await createTestDatabase();
    try {
      const keen = await createUser(fresh, 'pref-keen', { membership_tier: 'premium' });
      const quiet = await createUser(fresh, 'pref-quiet', { membership_tier: 'premium' });
      const classId = await createClass(fresh, { startsIn: '5 hours' });
      for (const m of [keen, quiet]) {
        await fresh.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [m.memberId, classId]);
      }
      const off = `public.set_notification_preference('email', 'class_reminder', false)`;
      expect(await asUser(fresh, quiet.claims, (tx) => rpc(tx, off))).toMatchObject({
        channel: 'email',
        topic: 'class_reminder',
        enabled: false,
      });
      const own = await asUser(
        fresh,
        quiet.claims,
        async (tx) => (await tx.query('select channel, topic, enabled from public.notification_preferences')).rows,
      );
      expect(own).toEqual([{ channel: 'email', topic: 'class_reminder', enabled: false }]);
      // The emails that are the record of a booking or a payment cannot be turned off.
      await expectSqlError(
        asUser(fresh, quiet.claims, (tx) => rpc(tx, `public.set_notification_preference('email', 'booking_confirmed', false)`)),
        { hint: 'email_always_sent', message: 'Emails about your bookings, payments and documents always come' },
      );
      // The token is the sender's business, not readable through the API.
      await expectSqlError(
        asUser(fresh, quiet.claims, (tx) => tx.query('select unsubscribe_token from public.email_preferences')),
        { code: '42501' },
      );

      expect(await asServiceRole(fresh, (tx) => rpc(tx, 'public.enqueue_class_reminders(24)'))).toBe(1);
      const emails = await dequeue(fresh, at(new Date().toISOString(), 1));
      expect(emails.filter((e) => e.kind === 'class_reminder').map((e) => e.unsubscribe_token)).toEqual([
        expect.stringMatching(/^[0-9a-f]{64}$/),
      ]);
      const { rows } = await fresh.query<{ member_id: string }>(
        `select member_id from public.notification_outbox where kind = 'class_reminder'`,
      );
      expect(rows.map((r) => r.member_id)).toEqual([keen.memberId]);

      // Turned back on before the class: the next run reminds them after all. Confirmations always go.
      await asUser(fresh, quiet.claims, (tx) => rpc(tx, `public.set_notification_preference('email', 'class_reminder', true)`));
      expect(await asServiceRole(fresh, (tx) => rpc(tx, 'public.enqueue_class_reminders(24)'))).toBe(1);
    } finally {
      await fresh.close();
    }
  });

  it('unsubscribes by token (service role only); a bad token changes nothing', async () => {
    const member = await createUser(db, 'unsub', { membership_tier: 'premium' });
    const other = await createUser(db, 'unsub-other', { membership_tier: 'premium' });
    const { rows } = await db.query<{ token: string }>(
      `insert into public.email_preferences (member_id) values ($1), ($2) returning unsubscribe_token as token`,
      [member.memberId, other.memberId],
    );
    const [token] = rows.map((r) => r.token);
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.unsubscribe_reminders($1)', [token])),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, other.claims, (tx) => rpc(tx, 'public.unsubscribe_reminders($1)', [token])),
      { code: '42501' },
    );
    for (const bad of ['', 'nope', token!.replace(/.$/, (c) => (c === '0' ? '1' : '0')), `${token}' or true --`]) {
      await expectSqlError(
        asServiceRole(db, (tx) => rpc(tx, 'public.unsubscribe_reminders($1)', [bad])),
        { hint: 'invalid_unsubscribe_token', code: 'P0002' },
      );
    }
    const reminded = async (m: TestUser) =>
      (await db.query<{ w: boolean }>(`select private.notification_wanted($1, 'email', 'class_reminder') as w`, [m.memberId])).rows[0]!.w;
    expect([await reminded(member), await reminded(other)]).toEqual([true, true]);

    expect(await asServiceRole(db, (tx) => rpc(tx, 'public.unsubscribe_reminders($1)', [token]))).toEqual({
      email: member.email,
      class_reminders: false,
    });
    // The member's reminder emails cell of the grid is off; nobody else's changed.
    expect([await reminded(member), await reminded(other)]).toEqual([false, true]);
  });
});

describe('Contact Us', () => {
  const submit = (d: Database, args: { name?: string; email: string; message?: string; phone?: string | null; website?: string | null }) =>
    asAnon(d, (tx) =>
      rpc(
        tx,
        'public.submit_contact_message(p_name => $1, p_email => $2, p_message => $3, p_phone => $4, p_topic => $5, p_website => $6)',
        [
          args.name ?? 'Vera Visitor',
          args.email,
          args.message ?? 'Do you run classes on Saturdays?',
          args.phone ?? null,
          'Student / Hackney Worker',
          args.website ?? null,
        ],
      ),
    );

  it('stores a guest message and queues an email to the studio that replies to the visitor', async () => {
    const email = uniqueEmail('contact');
    expect(await submit(db, { email: `  ${email.toUpperCase()} `, phone: '07700 900456' })).toEqual({ status: 'received' });
    const { rows } = await db.query('select name, email, phone, message, topic, handled_at from public.contact_messages where email = $1', [
      email,
    ]);
    expect(rows).toEqual([
      {
        name: 'Vera Visitor',
        email,
        phone: '07700 900456',
        message: 'Do you run classes on Saturdays?',
        topic: 'Student / Hackney Worker',
        handled_at: null,
      },
    ]);
    const mail = await db.query<{ to_email: string; reply_to: string; subject: string; body_text: string; links: unknown }>(
      `select to_email, reply_to, subject, body_text, links from public.notification_outbox where kind = 'contact_message' and reply_to = $1`,
      [email],
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]).toMatchObject({
      to_email: STUDIO.email,
      subject: 'Contact Us: Student / Hackney Worker enquiry from Vera Visitor',
      links: [{ label: 'Open Messages in the admin portal', path: '/admin/messages' }],
    });
    expect(mail.rows[0]!.body_text).toMatch(
      new RegExp(
        `^Do you run classes on Saturdays\\?\\n\\nName: Vera Visitor\\nEmail: ${email.replace(/[.+]/g, '\\$&')}\\nPhone: 07700 900456\\nAbout: Student / Hackney Worker\\nSent: .+ \\(London time\\)\\n\\nReply to this email to answer Vera Visitor\\.$`,
      ),
    );
  });

  it('mirrors the studio address of src/config/studio.ts', async () => {
    expect((await db.query<{ e: string }>('select private.studio_email() as e')).rows[0]!.e).toBe(STUDIO.email);
  });

  it('answers a filled honeypot like a success and keeps nothing', async () => {
    const email = uniqueEmail('bot');
    expect(await submit(db, { email, website: 'http://spam.example' })).toEqual({ status: 'received' });
    expect((await db.query('select 1 from public.contact_messages where email = $1', [email])).rows).toEqual([]);
    expect((await db.query('select 1 from public.notification_outbox where reply_to = $1', [email])).rows).toEqual([]);
  });

  it('refuses bad input with a clear message and stores nothing', async () => {
    const email = uniqueEmail('bad');
    const cases: Array<[Parameters<typeof submit>[1], string]> = [
      [{ email, name: '  ' }, 'Name is required'],
      [{ email: '' }, 'Email is required'],
      [{ email: 'not-an-address' }, 'Please enter a valid email address'],
      [{ email, message: ' ' }, 'Message is required'],
      [{ email, message: 'x'.repeat(1501) }, 'Your message is too long (at most 1500 characters)'],
    ];
    for (const [args, message] of cases) {
      await expectSqlError(submit(db, args), { code: '22023', hint: 'invalid_contact', message });
    }
    expect((await db.query('select 1 from public.contact_messages where email = $1', [email])).rows).toEqual([]);
  });

  it('takes 3 messages an hour from one address, case-insensitively, and more after the hour', async () => {
    const email = uniqueEmail('limit');
    const send = (address: string, now: string) =>
      asAnon(db, (tx) => rpc(tx, `private.submit_contact_message('Lim', $1, null, 'Hello', null, null, $2)`, [address, now]));
    const t0 = '2031-03-01T10:00:00Z';
    await send(email, t0);
    await send(email.toUpperCase(), at(t0, 10));
    await send(email, at(t0, 20));
    await expectSqlError(send(email, at(t0, 59)), { hint: 'contact_rate_limited', code: 'P0001' });
    // Another address is not limited by this one.
    await send(uniqueEmail('limit-other'), at(t0, 59));
    // An hour after the first message, one slot is free again.
    await send(email, at(t0, 60));
    await expectSqlError(send(email, at(t0, 61)), { hint: 'contact_rate_limited' });
    expect((await db.query('select count(*)::int as n from public.contact_messages where email = $1', [email])).rows).toEqual([{ n: 4 }]);
  });

  it('takes 3 messages an hour from one client whatever address it types, and 20 from everyone together', async () => {
    // As PostgREST runs an API call: the gateway's x-forwarded-for in request.headers.
    const sendFrom = (client: string, address: string, now: string) =>
      asAnon(db, async (tx) => {
        await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify({ 'x-forwarded-for': `${client}, 10.0.0.1` })]);
        return rpc(tx, `private.submit_contact_message('Flood', $1, null, 'Hello', null, null, $2)`, [address, now]);
      });
    const t0 = '2032-05-01T10:00:00Z';
    for (let i = 0; i < 3; i += 1) await sendFrom('203.0.113.7', uniqueEmail(`rotating-${i}`), at(t0, i));
    await expectSqlError(sendFrom('203.0.113.7', uniqueEmail('rotating-4'), at(t0, 4)), { hint: 'contact_rate_limited' });

    // Many clients: the studio takes 20 an hour in all (3 already), then says so.
    for (let i = 0; i < 17; i += 1) await sendFrom(`198.51.100.${i}`, uniqueEmail(`crowd-${i}`), at(t0, 5));
    await expectSqlError(sendFrom('198.51.100.200', uniqueEmail('crowd-last'), at(t0, 6)), {
      hint: 'contact_rate_limited',
      message: 'We are receiving a lot of messages right now. Please try again in a little while, or call us.',
    });
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.contact_messages where created_at >= $1 and created_at < $2`,
      [t0, at(t0, 60)],
    );
    expect(rows).toEqual([{ n: 20 }]);
  });

  it('refuses an address carrying mailto parameters (?cc=, &body=), storing and sending nothing', async () => {
    for (const address of ['someone@example.test?cc=victim@example.test', 'a@b.test&body=hi', 'a@b.test%0Acc', 'a b@c.test']) {
      await expectSqlError(
        asAnon(db, (tx) => rpc(tx, `public.submit_contact_message('Bad', $1, 'Hi')`, [address])),
        { hint: 'invalid_contact', message: 'Please enter a valid email address' },
      );
    }
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from public.contact_messages where name = 'Bad'`);
    expect(rows).toEqual([{ n: 0 }]);
  });

  it('lets admins only read messages and mark them handled', async () => {
    const admin = await createUser(db, 'contact-admin', { is_admin: true });
    const member = await createUser(db, 'contact-member');
    const email = uniqueEmail('handled');
    await submit(db, { email });
    const { rows } = await db.query<{ id: string }>('select id from public.contact_messages where email = $1', [email]);
    const id = rows[0]!.id;

    expect(await asUser(db, member.claims, async (tx) => (await tx.query('select id from public.contact_messages')).rows)).toEqual([]);
    expect(await asAnon(db, (tx) => tx.query('select id from public.contact_messages')).catch((e: { code: string }) => e.code)).toBe(
      '42501',
    );
    const seen = await asUser(
      db,
      admin.claims,
      async (tx) => (await tx.query<{ id: string }>('select id from public.contact_messages where id = $1', [id])).rows,
    );
    expect(seen).toEqual([{ id }]);

    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.mark_contact_message_handled($1)', [id])),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) => tx.query(`update public.contact_messages set handled_at = now() where id = $1`, [id])),
      { code: '42501' },
    );
    const handled = await asUser(db, admin.claims, (tx) =>
      rpc<{ handled_at: string | null; handled_by: string }>(tx, 'row_to_json(public.mark_contact_message_handled($1))', [id]),
    );
    expect(handled).toMatchObject({ handled_at: expect.any(String), handled_by: admin.memberId });
    const reopened = await asUser(db, admin.claims, (tx) =>
      rpc<{ handled_at: string | null }>(tx, 'row_to_json(public.mark_contact_message_handled($1, false))', [id]),
    );
    expect(reopened.handled_at).toBeNull();
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.mark_contact_message_handled(gen_random_uuid())')),
      { hint: 'message_not_found' },
    );
  });
});

describe('a changed login email', () => {
  it('is copied to the member row when auth.users.email changes', async () => {
    const member = await createUser(db, 'change-from');
    const next = uniqueEmail('change-to');
    await db.query('update auth.users set email = $2 where id = $1', [member.userId, next]);
    expect((await db.query('select email from public.members where id = $1', [member.memberId])).rows).toEqual([{ email: next }]);
  });

  it('leaves the member row alone (and the login change succeeds) when another member has that address', async () => {
    const member = await createUser(db, 'clash-from');
    const other = await createUser(db, 'clash-owner');
    await db.query('update public.members set user_id = null where id = $1', [other.memberId]);
    await db.query('delete from auth.users where id = $1', [other.userId]);
    await db.query('update auth.users set email = $2 where id = $1', [member.userId, other.email]);
    expect((await db.query('select email from public.members where id = $1', [member.memberId])).rows).toEqual([{ email: member.email }]);
    expect((await db.query('select email from auth.users where id = $1', [member.userId])).rows).toEqual([{ email: other.email }]);
  });
});
