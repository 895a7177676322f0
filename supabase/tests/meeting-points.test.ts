import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Meeting points (decision 0055): a class away from the hall says where it meets in every email, the
// calendar feed's LOCATION, the schedule and pushes; a class in the hall still says the hall; a
// template slot's meeting point is given to the classes generated for it.

const HALL = 'Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom';
let db: Database;
let admin: TestUser;
let member: TestUser;
let parkId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'mp-admin', { is_admin: true });
  member = await createUser(db, 'mp-member', { membership_tier: 'premium' });
  parkId = await asUser(db, admin.claims, async (tx) => {
    const { rows } = await tx.query<{ id: string }>(
      `insert into public.meeting_points (name, address, directions, map_url)
       values ('Victoria Park Crown Gate', 'Old Ford Road, London E3 5DS', 'Meet at the gate by the cafe.', 'https://maps.example/vp')
       returning id`,
    );
    return rows[0]!.id;
  });
});
afterAll(async () => {
  await db.close();
});

const outdoorClass = async (name: string) => {
  const id = await createClass(db, { name });
  await db.query('update public.classes set meeting_point_id = $2 where id = $1', [id, parkId]);
  return id;
};

const outbox = async (classId: string, kind: string) =>
  (
    await db.query<{ body_text: string }>('select body_text from public.notification_outbox where class_id = $1 and kind = $2', [
      classId,
      kind,
    ])
  ).rows;

describe('where a class meets', () => {
  it('an outdoor class confirmation says its meeting point and directions; a hall class says the hall', async () => {
    const outdoor = await outdoorClass('Outdoor Bootcamp');
    const hall = await createClass(db, { name: 'Hall Spin' });
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [outdoor]));
    await asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [hall]));

    const [outdoorEmail] = await outbox(outdoor, 'booking_confirmed');
    expect(outdoorEmail!.body_text).toContain(
      'Where: Victoria Park Crown Gate, Old Ford Road, London E3 5DS\nDirections: Meet at the gate by the cafe.',
    );
    expect(outdoorEmail!.body_text).not.toContain(HALL);
    const [hallEmail] = await outbox(hall, 'booking_confirmed');
    expect(hallEmail!.body_text).toContain(`Where: ${HALL}`);
    expect(hallEmail!.body_text).not.toContain('Directions:');

    // What the sender renders the class card from.
    const { rows } = await db.query<{
      class_name: string;
      class_where: string;
      class_directions: string | null;
      class_map_url: string | null;
    }>(
      `select class_name, class_where, class_directions, class_map_url from public.dequeue_notifications(50, now() + interval '1 minute')`,
    );
    expect(rows.find((r) => r.class_name === 'Outdoor Bootcamp')).toMatchObject({
      class_where: 'Victoria Park Crown Gate, Old Ford Road, London E3 5DS',
      class_directions: 'Meet at the gate by the cafe.',
      class_map_url: 'https://maps.example/vp',
    });
    expect(rows.find((r) => r.class_name === 'Hall Spin')).toMatchObject({
      class_where: HALL,
      class_directions: null,
      class_map_url: null,
    });
  });

  it("the calendar feed's events carry the meeting point as their location", async () => {
    const outdoor = await outdoorClass('Outdoor Feed Class');
    const someone = await createUser(db, 'mp-feed', { membership_tier: 'premium' });
    await asUser(db, someone.claims, (tx) => rpc(tx, 'public.book_class($1)', [outdoor]));
    const token = await asUser(db, someone.claims, (tx) => rpc<{ calendar_token: string }>(tx, 'public.rotate_calendar_token()'));
    const { rows } = await db.query<{ location: string; directions: string | null }>(
      `select e.location, e.directions from public.calendar_feed($1) f cross join unnest(f.events) e`,
      [token.calendar_token],
    );
    expect(rows).toEqual([
      { location: 'Victoria Park Crown Gate, Old Ford Road, London E3 5DS', directions: 'Meet at the gate by the cafe.' },
    ]);
  });

  it('the schedule names the meeting point of each class (null in the hall)', async () => {
    const outdoor = await outdoorClass('Outdoor Schedule Class');
    const rows = await asUser(db, member.claims, (tx) =>
      rpc<{ meeting_point_id: string | null }[]>(tx, 'public.class_schedule(p_class_id => $1)', [outdoor]),
    );
    expect(rows[0]!.meeting_point_id).toBe(parkId);
  });

  it("a moved outdoor class's push says where to meet", async () => {
    const outdoor = await outdoorClass('Outdoor Push Class');
    const pushed = await createUser(db, 'mp-push', { membership_tier: 'premium' });
    await db.query(
      `insert into public.push_subscriptions (member_id, endpoint, p256dh, auth) values ($1, 'https://push.example/' || gen_random_uuid(), $2, $3)`,
      [pushed.memberId, 'B'.repeat(87), 'A'.repeat(22)],
    );
    await asUser(db, pushed.claims, (tx) => rpc(tx, 'public.book_class($1)', [outdoor]));
    await db.query(`update public.classes set start_time = start_time + interval '1 hour' where id = $1`, [outdoor]);
    const { rows } = await db.query<{ body: string }>(`select body from public.push_outbox where class_id = $1 and kind = 'class_moved'`, [
      outdoor,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body).toMatch(/Your place is kept\. Meet at Victoria Park Crown Gate, Old Ford Road, London E3 5DS\.$/);
  });

  it('members cannot write meeting points; a point in use cannot be deleted', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) => tx.query(`insert into public.meeting_points (name, address) values ('Mine', 'Here')`)),
      { code: '42501' },
    );
    await outdoorClass('Outdoor Keeps Its Point');
    await expectSqlError(
      asUser(db, admin.claims, (tx) => tx.query('delete from public.meeting_points where id = $1', [parkId])),
      { code: '23503' },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) =>
        tx.query(`insert into public.meeting_points (name, address, map_url) values ('Bad map', 'Somewhere', 'javascript:alert(1)')`),
      ),
      { code: '23514' },
    );
  });

  it("classes generated for a template slot meet at the slot's meeting point", async () => {
    await asUser(db, admin.claims, (tx) =>
      tx.query(`insert into public.timetable_slot_meeting_points (slot, meeting_point_id) values ('Kids Club 16:45', $1)`, [parkId]),
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) =>
        tx.query(`insert into public.timetable_slot_meeting_points (slot, meeting_point_id) values ('No Such Slot', $1)`, [parkId]),
      ),
      { code: '23514' },
    );
    await asUser(db, admin.claims, (tx) =>
      rpc(tx, 'public.regenerate_timetable($1, $2)', [
        new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
        new Date(Date.now() + 15 * 86_400_000).toISOString().slice(0, 10),
      ]),
    );
    const { rows } = await db.query<{ slot: string; meeting_point_id: string | null }>(
      `select distinct template_slot as slot, meeting_point_id from public.classes where template_slot is not null order by 1`,
    );
    expect(rows.find((r) => r.slot === 'Kids Club 16:45')!.meeting_point_id).toBe(parkId);
    expect(rows.filter((r) => r.slot.startsWith('Breakfast Club')).every((r) => r.meeting_point_id === null)).toBe(true);
  });
});
