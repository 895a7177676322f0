import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, type TestUser } from './support/fixtures.ts';

// Class changes tell people (supabase/schemas/26_class_changes.sql, decision 0042): a new coach
// reaches everyone booked or waitlisted by their channels, once, after the quiet period; quick
// edits are one message; an edit undone, or a class already run, tells nobody.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const minutes = (n: number) => new Date(Date.now() + n * 60_000).toISOString();
const send = async (at: string) => (await db.query<{ n: number }>('select private.send_class_changes_at($1) as n', [at])).rows[0]!.n;

async function told(classId: string) {
  const { rows } = await db.query<{ member_id: string; channel: string; subject: string | null; body_text: string }>(
    `select e.member_id, d.channel, d.subject, d.body_text from public.notification_deliveries d
       join public.notification_events e on e.id = d.event_id
      where e.type = 'class_changed' and e.class_id = $1 order by d.channel, e.member_id`,
    [classId],
  );
  return rows;
}

async function bookedAndWaitlisted() {
  const classId = await createClass(db, { name: 'Coach Swap Yoga', startsIn: '2 days' });
  const booked: TestUser = await createUser(db, 'change-booked');
  const waiting: TestUser = await createUser(db, 'change-waiting');
  await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [booked.memberId, classId]);
  await db.query(`insert into public.class_waitlist (member_id, class_id) values ($1, $2)`, [waiting.memberId, classId]);
  return { classId, booked, waiting };
}

describe('a new coach', () => {
  it('reaches the booked and the waitlisted once the class is left alone; three quick edits are one message', async () => {
    const { classId, booked, waiting } = await bookedAndWaitlisted();
    await db.query(`update public.classes set trainer = 'Coach Jess' where id = $1`, [classId]);
    await db.query(`update public.classes set trainer = 'Coach Kim' where id = $1`, [classId]);
    await db.query(`update public.classes set trainer = 'Coach Lee' where id = $1`, [classId]);
    // Inside the quiet period: nothing yet.
    expect(await send(minutes(2))).toBe(0);
    expect(await told(classId)).toEqual([]);

    expect(await send(minutes(6))).toBe(2);
    const emails = await told(classId);
    expect(emails.map((e) => [e.member_id, e.channel])).toEqual(
      [
        [booked.memberId, 'email'],
        [waiting.memberId, 'email'],
      ].sort((a, b) => a[0]!.localeCompare(b[0]!)),
    );
    const toBooked = emails.find((e) => e.member_id === booked.memberId)!;
    expect(toBooked.subject).toMatch(/^Class changed: Coach Swap Yoga, /);
    expect(toBooked.body_text).toContain('The studio has changed Coach Swap Yoga:\nCoach: Coach Lee (was Coach Test)');
    expect(toBooked.body_text).toContain('Your place is kept.');
    expect(emails.find((e) => e.member_id === waiting.memberId)!.body_text).toContain('You are still on its waitlist.');

    // Told once: later runs send nothing more.
    expect(await send(minutes(30))).toBe(0);
    expect(await told(classId)).toHaveLength(2);
  });

  it('by text and push too, to members who chose them (the same event)', async () => {
    const { classId, booked } = await bookedAndWaitlisted();
    await db.query(`insert into public.sms_numbers (member_id, phone) values ($1, '+447700900555')`, [booked.memberId]);
    await db.query(`insert into public.notification_preferences (member_id, channel, topic, enabled) values ($1, 'sms', 'service', true)`, [
      booked.memberId,
    ]);
    await db.query(`update public.classes set trainer = 'Coach Jess' where id = $1`, [classId]);
    await send(minutes(6));
    const texts = (await told(classId)).filter((d) => d.channel === 'sms');
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body_text).toMatch(/^Changed: Coach Swap Yoga, .+: now with Coach Jess\.\nReply STOP to opt out$/);
  });

  it('tells nobody when the edit is undone, or about other columns, or once the class has started', async () => {
    const { classId } = await bookedAndWaitlisted();
    await db.query(`update public.classes set trainer = 'Coach Jess' where id = $1`, [classId]);
    await db.query(`update public.classes set trainer = 'Coach Test' where id = $1`, [classId]);
    await db.query(`update public.classes set capacity = capacity + 1 where id = $1`, [classId]);
    expect(await send(minutes(6))).toBe(0);
    expect(await told(classId)).toEqual([]);
    const { rows } = await db.query('select 1 from public.class_changes where class_id = $1', [classId]);
    expect(rows).toEqual([]);

    await db.query(`update public.classes set trainer = 'Coach Kim' where id = $1`, [classId]);
    expect(await send(minutes(3 * 24 * 60))).toBe(0);
  });
});
