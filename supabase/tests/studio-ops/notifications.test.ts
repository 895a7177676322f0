import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STUDIO_ADDRESS_LINES } from '../../../src/config/studio.ts';
import { asServiceRole, asUser } from '../../local/db/as-user.ts';
import type { Database } from '../../local/db/open-database.ts';
import { createTestDatabase } from '../../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc } from '../support/fixtures.ts';
import { call, emailsTo, type OutboxRow } from './helpers.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

describe('booking emails in the outbox', () => {
  it('queues a confirmation with the class, London time, the address and the My Bookings link', async () => {
    const member = await createUser(db, 'mail-confirm', { membership_tier: 'standard' }, { full_name: 'Cara Confirm' });
    // 06:00 London on a fixed summer day, booked "from the past" is impossible, so use a future one.
    const { rows } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer) values
         ('Breakfast Club', (date_trunc('year', now()) + interval '1 year 6 months 5 days 6 hours')::timestamp at time zone 'Europe/London', 'Coach Alex')
       returning id`,
    );
    const classId = rows[0]!.id;
    const { booking_id } = await call<{ booking_id: string }>(db, member, 'public.book_class($1)', [classId]);
    const [email] = await emailsTo(db, member.memberId);
    const { rows: when } = await db.query<{ text: string }>(
      `select to_char(start_time at time zone 'Europe/London', 'FMDay FMDD FMMonth YYYY') || ', 6:00 AM' as text from public.classes where id = $1`,
      [classId],
    );
    expect(email).toMatchObject<Partial<OutboxRow>>({
      kind: 'booking_confirmed',
      to_email: member.email,
      class_id: classId,
      booking_id,
      subject: `Booking confirmed: Breakfast Club, ${when[0]!.text}`,
      links: [{ label: 'Manage or cancel your booking', path: '/mybookings' }],
      sent_at: null,
    });
    expect(email!.body_text).toBe(
      [
        'Hi Cara,',
        'You are booked on Breakfast Club with Coach Alex.',
        `When: ${when[0]!.text} (London time)\nWhere: Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom`,
        'Plans change? Cancel from My Bookings. Cancelling less than 12 hours before the start still counts against your plan.',
      ].join('\n\n'),
    );
  });

  it('prints the same address as src/config/studio.ts', async () => {
    const { rows } = await db.query<{ address: string }>('select private.studio_address() as address');
    expect(rows[0]!.address).toBe(STUDIO_ADDRESS_LINES.join(', '));
  });

  it('queues nothing for a payment_required answer, and a confirmation once the hold is paid', async () => {
    const member = await createUser(db, 'mail-payg', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { price_payg: 10 });
    expect(await call(db, member, 'public.book_class($1)', [classId])).toMatchObject({ status: 'payment_required' });
    expect(await emailsTo(db, member.memberId)).toEqual([]);
    await db.query(
      `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at) values ($1, $2, 'payg', 'pending', now() + interval '10 minutes')`,
      [member.memberId, classId],
    );
    await db.query(`update public.bookings set payment_status = 'completed', hold_expires_at = null where member_id = $1`, [
      member.memberId,
    ]);
    expect((await emailsTo(db, member.memberId)).map((e) => e.kind)).toEqual(['booking_confirmed']);
  });

  it('is written in the booking transaction: a rolled-back booking leaves no email', async () => {
    const member = await createUser(db, 'mail-rollback', { membership_tier: 'premium' });
    const classId = await createClass(db);
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [classId]), { rollback: true });
    expect(await emailsTo(db, member.memberId)).toEqual([]);
  });

  it('is readable and writable by the service role only', async () => {
    const member = await createUser(db, 'mail-rls', { membership_tier: 'premium' });
    await call(db, member, 'public.book_class($1)', [await createClass(db)]);
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query('select * from public.notification_outbox')),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.dequeue_notifications()')),
      { code: '42501' },
    );
  });
});

describe('delivery: dequeue and requeue', () => {
  it('hands each unsent email out once, oldest first, and takes a failed one back', async () => {
    const fresh = await createTestDatabase();
    try {
      const m = await createUser(fresh, 'mail-dq', { membership_tier: 'premium' });
      for (const startsIn of ['1 day', '2 days', '3 days']) {
        const c = await createClass(fresh, { startsIn });
        await asUser(fresh, m.claims, (tx) => rpc(tx, 'public.book_class($1)', [c]));
      }
      const take = (limit: number) =>
        asServiceRole(
          fresh,
          async (tx) => (await tx.query<OutboxRow & { id: string }>('select * from public.dequeue_notifications($1)', [limit])).rows,
        );
      const first = await take(2);
      expect(first).toHaveLength(2);
      expect(first.every((e) => e.sent_at instanceof Date)).toBe(true);
      const second = await take(10);
      expect(second).toHaveLength(1);
      expect(await take(10)).toEqual([]);

      // Given back, it is due again after the first backoff (1 minute; email-delivery.test.ts has the rest).
      await asServiceRole(fresh, (tx) => tx.query('select public.requeue_notification($1, $2)', [second[0]!.id, 'SMTP 451']));
      expect(await take(10)).toEqual([]);
      const retried = await asServiceRole(
        fresh,
        async (tx) =>
          (await tx.query<{ id: string }>("select * from public.dequeue_notifications(10, now() + interval '61 seconds')")).rows,
      );
      expect(retried.map((e) => e.id)).toEqual([second[0]!.id]);
      const { rows } = await fresh.query<{ attempts: number; last_error: string }>(
        'select attempts, last_error from public.notification_outbox where id = $1',
        [second[0]!.id],
      );
      expect(rows).toEqual([{ attempts: 2, last_error: 'SMTP 451' }]);
    } finally {
      await fresh.close();
    }
  });
});

describe('enqueue_class_reminders', () => {
  it('queues one reminder per confirmed booking of a class starting within the window, however often it runs', async () => {
    const fresh = await createTestDatabase();
    try {
      const m = await createUser(fresh, 'mail-rem', { membership_tier: 'premium' }, { full_name: 'Rita Remind' });
      const payg = await createUser(fresh, 'mail-rem-payg', { membership_tier: 'payg', has_used_trial: true });
      const soon = await createClass(fresh, { name: 'Soon', startsIn: '5 hours' });
      const later = await createClass(fresh, { name: 'Later', startsIn: '30 hours' });
      const past = await createClass(fresh, { name: 'Past', startsIn: '-1 hour' });
      for (const c of [soon, later, past]) {
        await fresh.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [m.memberId, c]);
      }
      // An unpaid hold gets no reminder.
      await fresh.query(
        `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at) values ($1, $2, 'payg', 'pending', now() + interval '5 minutes')`,
        [payg.memberId, soon],
      );
      const run = (hours: number) => asServiceRole(fresh, (tx) => rpc<number>(tx, 'public.enqueue_class_reminders($1)', [hours]));
      expect(await run(24)).toBe(1);
      expect(await run(24)).toBe(0);
      expect(await run(48)).toBe(1);
      const { rows } = await fresh.query<OutboxRow>(
        `select * from public.notification_outbox where kind = 'class_reminder' order by created_at`,
      );
      expect(rows.map((r) => r.subject.split(',')[0])).toEqual(['Reminder: Soon', 'Reminder: Later']);
      expect(rows[0]).toMatchObject({ to_email: m.email, links: [{ label: 'Manage or cancel your booking', path: '/mybookings' }] });
      expect(rows[0]!.body_text).toContain('Where: Example Community Hall');
      expect(rows[0]!.dedupe_key).toMatch(/^class_reminder:/);

      await expectSqlError(run(0), { code: '22023', hint: 'invalid_window' });
      await expectSqlError(
        asUser(fresh, m.claims, (tx) => rpc(tx, 'public.enqueue_class_reminders(24)')),
        { code: '42501' },
      );
    } finally {
      await fresh.close();
    }
  });
});
