import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO, STUDIO_ADDRESS_LINES } from '../../../src/config/studio.ts';
import { applyMigrations, applyPlatform } from '../../../supabase/local/db/apply.ts';
import { asAnon, asUser } from '../../../supabase/local/db/as-user.ts';
import type { Database, SqlDatabase } from '../../../supabase/local/db/open-database.ts';
import { createTestDatabase } from '../../../supabase/local/db/snapshot.ts';
import { Inbox } from '../../../supabase/local/mail/inbox.ts';
import { startSmtpInbox, type SmtpInbox } from '../../../supabase/local/mail/smtp-inbox.ts';
import { createClass, createUser, rpc } from '../../../supabase/tests/support/fixtures.ts';
import { buyPlan, claimDue, fail } from '../../../supabase/tests/support/membership-steps.ts';
import {
  findPostgresBinDir,
  freePort,
  pg,
  pgClientDatabase,
  startThrowawayCluster,
} from '../../../supabase/tests/support/real-postgres.ts';
import { sqlOutboxStore } from '../../tests/email-support.ts';
import { deliverOutbox } from './deliver-outbox.ts';
import { createSmtpTransport } from './smtp-transport.ts';

// The production sender against a real SMTP server (npm smtp-server on a free port, parsed with
// mailparser) and the real outbox SQL: what a member's mail app receives, retries, no duplicates.

const SITE = 'https://studio.example';
const FROM = `${STUDIO.name} <${STUDIO.email}>`;
const soon = () => new Date(Date.now() + 60_000);

let db: Database;
let inbox: Inbox;
let smtp: SmtpInbox;

beforeAll(async () => {
  db = await createTestDatabase();
  inbox = new Inbox();
  smtp = await startSmtpInbox(inbox);
});
afterAll(async () => {
  await smtp?.stop();
  await db?.close();
});

async function deliver(database: SqlDatabase, smtpUrl: string, now = soon(), batchSize?: number) {
  const transport = createSmtpTransport(smtpUrl);
  try {
    return await deliverOutbox({
      store: sqlOutboxStore(database),
      transport,
      from: FROM,
      siteUrl: SITE,
      now,
      batchSize,
      log: { error: () => {}, warn: () => {} },
    });
  } finally {
    transport.close();
  }
}

describe('deliverOutbox through SMTP', () => {
  it('sends a booking confirmation with a branded HTML part and the database text as the text part', async () => {
    const member = await createUser(db, 'smtp-confirm', { membership_tier: 'premium' }, { full_name: 'Sam Smtp' });
    const classId = await createClass(db, { name: 'Sunrise <Spin> & Core' });
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));

    const report = await deliver(db, smtp.url);
    expect(report).toMatchObject({ sent: 1, retrying: 0, failed: 0 });
    const [mail] = inbox.list().filter((e) => e.to === member.email);
    expect(mail).toBeDefined();
    expect(mail!.from).toBe(STUDIO.email);
    expect(mail!.subject).toMatch(/^Booking confirmed: Sunrise <Spin> & Core, [A-Z][a-z]+day /);
    const when = /, ([A-Z][a-z]+day .+)$/.exec(mail!.subject)![1]!;

    // Text part: the database's words, then the link spelled out, then the signature.
    expect(mail!.text).toContain('Hi Sam,\n\nYou are booked on Sunrise <Spin> & Core with Coach Test.');
    expect(mail!.text).toContain(`When: ${when} (London time)\nWhere: ${STUDIO_ADDRESS_LINES.join(', ')}`);
    expect(mail!.text).toContain(`Manage or cancel your booking: ${SITE}/mybookings`);
    expect(mail!.text.trimEnd().endsWith(`${STUDIO.name}\n${STUDIO_ADDRESS_LINES.join(', ')}`)).toBe(true);

    // HTML part: the studio's frame, the class card (escaped), the button to act.
    expect(mail!.html).toMatch(/^<!DOCTYPE html/i);
    expect(mail!.html).toContain(STUDIO.name);
    expect(mail!.html).toContain('You&#x27;re booked');
    expect(mail!.html).toContain('Sunrise &lt;Spin&gt; &amp; Core with Coach Test');
    expect(mail!.html).toContain(`${when} (London time)`);
    expect(mail!.html).toContain('background-color:#c2410c');
    expect(mail!.links[0]).toBe(`${SITE}/mybookings`);
    expect(mail!.headers['list-unsubscribe']).toBeUndefined();
  });

  it('gives reminders one-click List-Unsubscribe headers, and Contact Us messages a Reply-To', async () => {
    const member = await createUser(db, 'smtp-remind', { membership_tier: 'premium' });
    const classId = await createClass(db, { name: 'Reminder Row', startsIn: '3 hours' });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [member.memberId, classId]);
    await asAnon(db, (tx) => rpc(tx, `public.submit_contact_message('Vic Visitor', 'vic@example.test', 'Is there parking?')`));
    const { rows } = await db.query<{ n: number }>('select public.enqueue_class_reminders(24) as n');
    expect(rows[0]!.n).toBeGreaterThanOrEqual(1);

    await deliver(db, smtp.url);
    const reminder = inbox.list().find((e) => e.to === member.email && e.subject.startsWith('Reminder: Reminder Row'))!;
    const { rows: tokens } = await db.query<{ t: string }>(
      'select unsubscribe_token as t from public.email_preferences where member_id = $1',
      [member.memberId],
    );
    const url = `${SITE}/.netlify/functions/unsubscribe?token=${tokens[0]!.t}`;
    expect(reminder.headers['list-unsubscribe']).toBe(`<${url}>`);
    expect(reminder.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(reminder.text).toContain(`Stop reminder emails: ${url}`);
    expect(reminder.links).toContain(url);

    const contact = inbox.list().find((e) => e.to === STUDIO.email && e.replyTo === 'vic@example.test')!;
    expect(contact.subject).toBe('Contact Us: enquiry from Vic Visitor');
    expect(contact.text).toMatch(/^Is there parking\?\n\nName: Vic Visitor\nEmail: vic@example\.test\n/);
    expect(contact.links[0]).toBe(`${SITE}/admin/messages`);
  });

  it('gives a come-back email an unsubscribe link for its own list', async () => {
    const member = await createUser(db, 'smtp-winback', {}, { signup_source: 'free-trial', marketing_opt_in: 'true' });
    const { rows } = await db.query<{ ended: Date }>(
      `update public.memberships set status = 'lapsed', ended_at = now() - interval '2 days' where member_id = $1 returning ended_at as ended`,
      [member.memberId],
    );
    await db.query('select public.enqueue_win_back_emails($1)', [new Date(rows[0]!.ended.getTime() + 26 * 3_600_000).toISOString()]);
    await deliver(db, smtp.url);
    const mail = inbox.list().find((e) => e.to === member.email && e.subject === 'Your free trial has ended')!;
    const { rows: tokens } = await db.query<{ t: string }>(
      'select unsubscribe_token as t from public.email_preferences where member_id = $1',
      [member.memberId],
    );
    const url = `${SITE}/.netlify/functions/unsubscribe?token=${tokens[0]!.t}&list=win_back`;
    expect(mail.headers['list-unsubscribe']).toBe(`<${url}>`);
    expect(mail.text).toContain(`Stop these emails: ${url}`);
  });

  it('gives a news-and-offers announcement the one-click unsubscribe of marketing and a footer link', async () => {
    const member = await createUser(db, 'smtp-news', {}, { signup_source: 'free-trial', marketing_opt_in: 'true' });
    await db.query(
      `insert into public.announcements (type, subject, body, segment, send_at)
       values ('marketing_announcement', 'Spring offers for ' || $1, 'Two classes for one this April.', 'consent', now())`,
      [member.email],
    );
    await db.query('select public.send_announcements_at(now())');
    await deliver(db, smtp.url);
    const mail = inbox.list().find((e) => e.to === member.email && e.subject === `Spring offers for ${member.email}`)!;
    const { rows: tokens } = await db.query<{ t: string }>(
      'select unsubscribe_token as t from public.email_preferences where member_id = $1',
      [member.memberId],
    );
    const url = `${SITE}/.netlify/functions/unsubscribe?token=${tokens[0]!.t}&list=win_back`;
    expect(mail.headers['list-unsubscribe']).toBe(`<${url}>`);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('Two classes for one this April.');
    expect(mail.text).toContain(`Stop these emails: ${url}`);
    expect(mail.links).toContain(url);
  });

  it('sends a failed renewal as "Your payment failed" with an Update card button to /membership', async () => {
    const member = await createUser(db, 'smtp-past-due', {}, { full_name: 'Pat Pastdue' });
    const bought = new Date('2031-01-15T10:00:00Z');
    await buyPlan(db, member, bought);
    const due = new Date('2031-02-15T10:00:00Z');
    const [renewal] = (await claimDue(db, due)).filter((c) => c.customer_id && c.checkout_reference.startsWith('renew-'));
    await fail(db, renewal!, due);

    await deliver(db, smtp.url, new Date(Date.now() + 120_000));
    const mail = inbox.list().find((e) => e.to === member.email && e.subject === 'Payment failed: please update your card')!;
    expect(mail).toBeDefined();
    expect(mail.text).toContain('Hi Pat,\n\nWe could not take the £100.00 renewal of your Standard membership: your card was declined.');
    expect(mail.text).toContain('You can keep booking classes while we try again on 16 February 2031.');
    expect(mail.text).toContain(`Update card: ${SITE}/membership`);
    expect(mail.html).toContain('Your payment failed');
    expect(mail.html).toContain('Update card');
    expect(mail.links[0]).toBe(`${SITE}/membership`);
    expect(mail.headers['list-unsubscribe']).toBeUndefined();
  });

  it('retries after a refused connection and delivers once the server is up', async () => {
    const fresh = await createTestDatabase();
    const port = await freePort();
    const later = new Inbox();
    let server: SmtpInbox | undefined;
    try {
      const member = await createUser(fresh, 'smtp-refused', { membership_tier: 'premium' });
      const classId = await createClass(fresh);
      await asUser(fresh, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
      const t0 = soon();
      const first = await deliver(fresh, `smtp://127.0.0.1:${port}`, t0);
      expect(first).toMatchObject({ sent: 0, retrying: 1, failed: 0 });
      const { rows } = await fresh.query<{ last_error: string; attempts: number; next_attempt_at: Date }>(
        `select last_error, attempts, next_attempt_at from public.notification_outbox where member_id = $1`,
        [member.memberId],
      );
      expect(rows[0]!.last_error).toMatch(/ECONNREFUSED/);
      expect(rows[0]!.attempts).toBe(1);
      expect(rows[0]!.next_attempt_at.getTime()).toBe(t0.getTime() + 60_000);

      server = await startSmtpInbox(later, { port });
      // Not due yet: nothing is sent before the backoff ends.
      expect(await deliver(fresh, server.url, new Date(t0.getTime() + 30_000))).toMatchObject({ sent: 0 });
      expect(await deliver(fresh, server.url, new Date(t0.getTime() + 60_000))).toMatchObject({ sent: 1 });
      expect(later.list().map((e) => e.to)).toEqual([member.email]);
      expect(await deliver(fresh, server.url, new Date(t0.getTime() + 3_600_000))).toMatchObject({ sent: 0 });
    } finally {
      await server?.stop();
      await fresh.close();
    }
  });

  it('marks an email failed with the error after the last attempt', async () => {
    const fresh = await createTestDatabase();
    try {
      const member = await createUser(fresh, 'smtp-fail', { membership_tier: 'premium' });
      const classId = await createClass(fresh);
      await asUser(fresh, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
      const dead = `smtp://127.0.0.1:${await freePort()}`;
      let now = soon();
      const outcomes = [];
      for (let i = 0; i < 6; i += 1) {
        outcomes.push(await deliver(fresh, dead, now));
        now = new Date(now.getTime() + 60 * 60_000);
      }
      expect(outcomes.map((r) => [r.retrying, r.failed])).toEqual([
        [1, 0],
        [1, 0],
        [1, 0],
        [1, 0],
        [1, 0],
        [0, 1],
      ]);
      const { rows } = await fresh.query<{ failed_at: Date | null; last_error: string }>(
        'select failed_at, last_error from public.notification_outbox where member_id = $1',
        [member.memberId],
      );
      expect(rows[0]!.failed_at).toBeInstanceOf(Date);
      expect(rows[0]!.last_error).toMatch(/ECONNREFUSED/);
    } finally {
      await fresh.close();
    }
  });
});

/** Queues `count` emails directly (as the owner), as the booking RPCs would. */
async function queueEmails(database: SqlDatabase, count: number, label: string) {
  for (let i = 0; i < count; i += 1) {
    await database.query(
      `select private.enqueue_email('booking_confirmed', $1, null, null, null, $2, 'Hi,\n\nBooked.', '[]', null, null,
                                    now() - interval '1 minute')`,
      [`${label}-${i}@example.test`, `${label} ${i}`],
    );
  }
}

describe('two senders at once', () => {
  const COUNT = 24;

  function expectEachOnce(box: Inbox, label: string) {
    const subjects = box
      .list()
      .filter((e) => e.subject.startsWith(label))
      .map((e) => e.subject)
      .sort();
    expect(subjects).toHaveLength(COUNT);
    expect(new Set(subjects).size).toBe(COUNT);
  }

  it('PGlite: every email is sent exactly once', async () => {
    await queueEmails(db, COUNT, 'pglite-race');
    const reports = await Promise.all([deliver(db, smtp.url, soon(), 3), deliver(db, smtp.url, soon(), 3)]);
    expect(reports[0].sent + reports[1].sent).toBeGreaterThanOrEqual(COUNT);
    expectEachOnce(inbox, 'pglite-race');
  });

  const binDir = findPostgresBinDir();
  it.skipIf(!binDir)('real PostgreSQL, one connection per sender: every email is sent exactly once', async () => {
    const cluster = await startThrowawayCluster(binDir!);
    const clients = [0, 1, 2].map(() => new pg.Client({ connectionString: cluster.connectionString }));
    const box = new Inbox();
    const server = await startSmtpInbox(box);
    try {
      await Promise.all(clients.map((c) => c.connect()));
      const [owner, a, b] = clients.map(pgClientDatabase);
      await applyPlatform(owner!);
      await applyMigrations(owner!);
      await queueEmails(owner!, COUNT, 'pg-race');
      const reports = await Promise.all([deliver(a!, server.url, soon(), 2), deliver(b!, server.url, soon(), 2)]);
      // Both took part, neither sent what the other sent.
      expect(reports.every((r) => r.sent > 0)).toBe(true);
      expect(new Set([...reports[0].ids.sent, ...reports[1].ids.sent]).size).toBe(COUNT);
      expectEachOnce(box, 'pg-race');
    } finally {
      await server.stop();
      await Promise.all(clients.map((c) => c.end().catch(() => {})));
      cluster.stop();
    }
  });
});
