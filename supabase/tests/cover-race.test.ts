import { describe, expect, it } from 'vitest';
import { createUser, uniqueEmail, type TestUser } from './support/fixtures.ts';
import { findPostgresBinDir, pgClientDatabase, migratedClusterForFile, together } from './support/real-postgres.ts';

// Races on the real PostgreSQL server (decisions 0087, 0088): two coaches offering to cover the
// same class, two admins approving the same offer, two review-request runs at once. Each is
// decided once by the database's locks and keys: one coach, one change of coach, one message.

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('cover and review races', binDir);

describe.skipIf(!binDir)('on the real PostgreSQL server', () => {
  const db = () => pgClientDatabase(server.admin()!);
  const url = () => server.cluster()!.connectionString;

  async function coach(admin: TestUser, label: string) {
    const user = await createUser(db(), `race-${label}`);
    const { rows } = await db().query<{ id: string }>('insert into public.trainers (name) values ($1) returning id', [
      `Coach ${uniqueEmail(label)}`,
    ]);
    await db().query('insert into public.trainer_accounts (trainer_id, member_id, linked_by) values ($1, $2, $3)', [
      rows[0]!.id,
      user.memberId,
      admin.memberId,
    ]);
    return { user, trainerId: rows[0]!.id };
  }

  it('two coaches accept at once: one covers, the other is told it is taken; two admins approve at once: the coach changes once', async () => {
    const admin = await createUser(db(), 'race-admin', { is_admin: true });
    const admin2 = await createUser(db(), 'race-admin-2', { is_admin: true });
    const alex = await coach(admin, 'alex');
    const jess = await coach(admin, 'jess');
    const kim = await coach(admin, 'kim');
    const { rows } = await db().query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer_id, type, capacity, duration)
       values ('Race Yoga', now() + interval '3 days', $1, 'Group', 10, 60) returning id`,
      [alex.trainerId],
    );
    const classId = rows[0]!.id;
    const booked = await createUser(db(), 'race-booked');
    await db().query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [booked.memberId, classId]);
    const asked = await together<{ id: string }>(url(), [
      { sql: 'select id from public.request_cover($1, null)', params: [classId], claims: alex.user.claims },
    ]);
    const requestId = asked[0]!.rows![0]!.id;

    const offers = await together(url(), [
      { sql: 'select * from public.accept_cover($1)', params: [requestId], claims: jess.user.claims },
      { sql: 'select * from public.accept_cover($1)', params: [requestId], claims: kim.user.claims },
    ]);
    expect(offers.filter((o) => o.rows)).toHaveLength(1);
    expect(offers.find((o) => o.error)!.error!.hint).toBe('cover_already_taken');

    const approvals = await together(url(), [
      { sql: 'select * from public.approve_cover($1)', params: [requestId], claims: admin.claims },
      { sql: 'select * from public.approve_cover($1)', params: [requestId], claims: admin2.claims },
    ]);
    expect(approvals.filter((a) => a.rows)).toHaveLength(1);
    expect(approvals.find((a) => a.error)!.error!.hint).toBe('cover_request_closed');

    const { rows: now } = await db().query<{ trainer_id: string }>('select trainer_id from public.classes where id = $1', [classId]);
    expect([jess.trainerId, kim.trainerId]).toContain(now[0]!.trainer_id);
    await db().query(`select private.send_class_changes_at(now() + interval '6 minutes')`);
    const { rows: told } = await db().query<{ n: number }>(
      `select count(*)::int as n from public.notification_events where type = 'class_changed' and class_id = $1 and member_id = $2`,
      [classId, booked.memberId],
    );
    expect(told[0]!.n).toBe(1);
  });

  it('two review-request runs at once send one request', async () => {
    const admin = await createUser(db(), 'race-review-admin', { is_admin: true });
    await together(url(), [
      {
        sql: 'select public.set_review_request_settings(2, 6, $1)',
        params: ['https://g.page/r/race/review'],
        claims: admin.claims,
      },
    ]);
    const member = await createUser(db(), 'race-reviewer');
    for (const ago of ['2 days', '1 day']) {
      const { rows } = await db().query<{ id: string }>(
        `insert into public.classes (name, start_time, trainer, type, capacity) values ('Race Pilates', now() - $1::interval, 'Coach Test', 'Group', 10) returning id`,
        [ago],
      );
      await db().query(`insert into public.bookings (member_id, class_id, type, attendance) values ($1, $2, 'paid', 'attended')`, [
        member.memberId,
        rows[0]!.id,
      ]);
    }
    const at = new Date().toISOString();
    const runs = await together<{ n: number }>(url(), [
      { sql: 'select public.send_review_requests_at($1) as n', params: [at] },
      { sql: 'select public.send_review_requests_at($1) as n', params: [at] },
    ]);
    expect(runs.every((r) => r.rows)).toBe(true);
    const { rows } = await db().query<{ n: number }>(
      `select count(*)::int as n from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where e.type = 'review_request' and e.member_id = $1`,
      [member.memberId],
    );
    expect(rows[0]!.n).toBe(1);
  });
});
