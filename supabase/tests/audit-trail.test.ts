import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// The audit trail (decision 0045): every change an admin or coach makes is recorded by the
// database itself, with before and after; members' own changes and the service role's jobs are not;
// nobody changes the record through the API, admins included.

let db: Database;
let admin: TestUser;
let member: TestUser;

type AuditRow = {
  actor_member_id: string | null;
  actor_name: string;
  actor_role: string;
  table_name: string;
  row_id: string | null;
  action: string;
  kind: string;
  member_id: string | null;
  class_id: string | null;
  subject: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
};

const as = <T>(user: TestUser, fn: Parameters<typeof asUser<T>>[2]) => asUser(db, user.claims, fn);

/** The events recorded since `since` (an id), oldest first. */
async function eventsSince(since: number): Promise<AuditRow[]> {
  const { rows } = await db.query<AuditRow>('select * from public.audit_events where id > $1 order by id', [since]);
  return rows;
}

async function lastId(): Promise<number> {
  const { rows } = await db.query<{ id: number }>('select coalesce(max(id), 0)::int as id from public.audit_events');
  return rows[0]!.id;
}

const summerDay = (day: number) => `${new Date().getUTCFullYear() + 1}-08-${String(day).padStart(2, '0')}`;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'audit-admin', { membership_tier: 'premium', is_admin: true });
  member = await createUser(db, 'audit-member', { membership_tier: 'standard' });
  await db.query(`update public.members set name = 'Ada Admin' where id = $1`, [admin.memberId]);
});
afterAll(async () => {
  await db.close();
});

describe('admin changes are recorded with who, what, before and after', () => {
  it('a class created, edited and deleted through the table API', async () => {
    const from = await lastId();
    const classId = await as(admin, async (tx) => {
      const { rows } = await tx.query<{ id: string }>(
        `insert into public.classes (name, start_time, trainer, capacity, price_payg)
         values ('Audit Yoga', now() + interval '3 days', 'Coach Test', 8, 10) returning id`,
      );
      await tx.query('update public.classes set capacity = 12 where id = $1', [rows[0]!.id]);
      return rows[0]!.id;
    });
    await as(admin, (tx) => tx.query('delete from public.classes where id = $1', [classId]));
    const events = (await eventsSince(from)).filter((e) => e.table_name === 'classes');
    expect(events.map((e) => e.action)).toEqual(['insert', 'update', 'delete']);
    for (const e of events) {
      expect(e).toMatchObject({
        actor_member_id: admin.memberId,
        actor_name: 'Ada Admin',
        actor_role: 'admin',
        kind: 'class',
        class_id: classId,
      });
      expect(e.subject).toMatch(/^Audit Yoga, /);
    }
    expect(events[0]!.before).toBeNull();
    expect(events[0]!.after).toMatchObject({ name: 'Audit Yoga', capacity: 8 });
    // An update keeps only what changed.
    expect(events[1]!.before).toEqual({ capacity: 8, spots_left: 8 });
    expect(events[1]!.after).toEqual({ capacity: 12, spots_left: 12 });
    expect(events[2]!.before).toMatchObject({ name: 'Audit Yoga', capacity: 12 });
    expect(events[2]!.after).toBeNull();
  });

  it('a closure, a plan put on a member at a price, credits granted, attendance marked', async () => {
    const classId = await createClass(db, { name: 'Audit Spin', startsIn: '-10 minutes' });
    const { rows } = await db.query<{ id: string }>(
      `insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid') returning id`,
      [member.memberId, classId],
    );
    const bookingId = rows[0]!.id;
    const from = await lastId();
    await as(admin, (tx) => rpc(tx, 'public.add_studio_closure($1, $2)', [summerDay(3), 'Boiler repair']));
    await as(admin, (tx) => rpc(tx, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'standard', 55]));
    await as(admin, (tx) => rpc(tx, 'public.admin_grant_credits($1, $2, $3, $4, $5)', [member.memberId, 'guest_pass', 2, 30, 'Goodwill']));
    await as(admin, (tx) => rpc(tx, 'public.mark_attendance($1, $2)', [bookingId, 'attended']));
    const events = await eventsSince(from);
    expect(events.every((e) => e.actor_member_id === admin.memberId && e.actor_role === 'admin')).toBe(true);

    const closure = events.find((e) => e.table_name === 'studio_closures');
    expect(closure).toMatchObject({ action: 'insert', kind: 'closure', subject: summerDay(3) });
    expect(closure!.after).toMatchObject({ closed_on: summerDay(3), reason: 'Boiler repair' });

    const plan = events.find((e) => e.table_name === 'memberships');
    expect(plan).toMatchObject({ kind: 'plan', member_id: member.memberId });
    expect(plan!.after).toMatchObject({ plan_slug: 'standard', price: 55 });

    const credits = events.filter((e) => e.table_name === 'credits');
    expect(credits).toHaveLength(2);
    expect(credits[0]).toMatchObject({ action: 'insert', kind: 'credit', member_id: member.memberId });

    const attendance = events.find((e) => e.table_name === 'bookings');
    expect(attendance).toMatchObject({
      action: 'update',
      kind: 'attendance',
      member_id: member.memberId,
      class_id: classId,
      row_id: bookingId,
    });
    expect(attendance!.before).toEqual({ attendance: null, attendance_marked_at: null });
    expect(attendance!.after).toMatchObject({ attendance: 'attended' });
  });

  it('a meeting point, a coach pay rate and the pause rules (the tables that landed beside the trail)', async () => {
    const from = await lastId();
    const { rows: trainer } = await db.query<{ id: string }>(`insert into public.trainers (name) values ('Coach Audit') returning id`);
    await as(admin, (tx) =>
      tx.query(`insert into public.meeting_points (name, address) values ('Audit Park Gate', 'Victoria Park, London E9 7BT')`),
    );
    await as(admin, (tx) =>
      rpc(tx, 'public.set_coach_pay_rate($1, $2, $3, $4, $5, $6)', [trainer[0]!.id, 'Group', 'per_class', 30, 0, summerDay(1)]),
    );
    await as(admin, (tx) => rpc(tx, 'public.admin_set_pause_rules($1, $2, $3, $4, $5, $6)', [true, 7, 60, 2, 3, 5]));
    const events = (await eventsSince(from)).map((e) => [e.table_name, e.action, e.kind, e.actor_name]);
    expect(events).toEqual(
      expect.arrayContaining([
        ['meeting_points', 'insert', 'settings', 'Ada Admin'],
        ['coach_pay_rates', 'insert', 'trainer', 'Ada Admin'],
        ['pause_rules', expect.stringMatching(/^(insert|update)$/), 'settings', 'Ada Admin'],
      ]),
    );
  });

  it("a member's own booking and the service role's changes are not recorded", async () => {
    const classId = await createClass(db, { name: 'Audit Own Booking' });
    const from = await lastId();
    await as(member, (tx) => rpc(tx, 'public.book_class($1)', [classId]));
    await asUser(db, { role: 'service_role' }, (tx) => tx.query('update public.classes set capacity = 11 where id = $1', [classId]));
    expect(await eventsSince(from)).toEqual([]);
  });
});

describe('the record is append-only and read by admins only', () => {
  it("refuses an admin's insert, update and delete through the API, and the owner's update", async () => {
    const { rows } = await db.query<{ id: number }>('select id from public.audit_events order by id limit 1');
    const id = rows[0]!.id;
    await expectSqlError(
      as(admin, (tx) => tx.query('update public.audit_events set actor_name = $1 where id = $2', ['x', id])),
      {
        code: '42501',
      },
    );
    await expectSqlError(
      as(admin, (tx) => tx.query('delete from public.audit_events where id = $1', [id])),
      { code: '42501' },
    );
    await expectSqlError(
      as(admin, (tx) =>
        tx.query(
          `insert into public.audit_events (actor_name, actor_role, table_name, action, kind) values ('x', 'admin', 'classes', 'insert', 'class')`,
        ),
      ),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, { role: 'service_role' }, (tx) => tx.query('delete from public.audit_events where id = $1', [id])),
      { code: '42501' },
    );
    // Even the owner (migrations, SQL editor) is refused by the trigger.
    await expectSqlError(db.query('update public.audit_events set actor_name = $1 where id = $2', ['x', id]), {
      code: '42501',
      hint: 'audit_append_only',
      message: 'The activity log cannot be changed',
    });
    await expectSqlError(db.query('delete from public.audit_events where id = $1', [id]), { hint: 'audit_append_only' });
    expect((await db.query('select 1 from public.audit_events where id = $1 and actor_name <> $2', [id, 'x'])).rows).toHaveLength(1);
  });

  it('admins read it; members read nothing', async () => {
    const adminSees = await as(admin, (tx) => tx.query<{ n: number }>('select count(*)::int as n from public.audit_events'));
    const memberSees = await as(member, (tx) => tx.query<{ n: number }>('select count(*)::int as n from public.audit_events'));
    expect(adminSees.rows[0]!.n).toBeGreaterThan(0);
    expect(memberSees.rows[0]!.n).toBe(0);
  });

  it('the purge removes only events past 6 years', async () => {
    const before = (await db.query<{ n: number }>('select count(*)::int as n from public.audit_events')).rows[0]!.n;
    const { rows } = await db.query<{ n: number }>(`select private.purge_audit_events(now() + interval '1 day') as n`);
    expect(rows[0]!.n).toBe(0);
    const purged = await db.query<{ n: number }>(`select private.purge_audit_events(now() + interval '6 years 1 day') as n`);
    expect(purged.rows[0]!.n).toBe(before);
  });
});
