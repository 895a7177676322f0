import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Issue 28: the Analytics reports, against a small history whose every figure is worked out by
// hand below (December 2023 to February 2024, all in GMT so London time is UTC).

let db: Database;
let admin: TestUser;
let ref = 0;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'reports-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

async function pay(member: TestUser, paidAt: string, amount: number, what: { plan?: string; reason?: string; guest?: boolean } = {}) {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.payments (member_id, kind, plan_slug, amount, description, checkout_reference, status, paid_at, billing_reason)
     values ($1, $2, $3, $4, 'fixture', $5, 'paid', $6, $7) returning id`,
    [
      member.memberId,
      what.plan ? 'plan' : 'class',
      what.plan ?? null,
      amount,
      // A guest's place paid at the class price is a class payment with a guest- reference (create_guest_payment_hold).
      `${what.guest ? 'guest' : 'report-fixture'}-${++ref}`,
      paidAt,
      what.reason ?? null,
    ],
  );
  return rows[0]!.id;
}
async function refund(member: TestUser, paymentId: string, amount: number, refundedAt: string) {
  await db.query(
    `insert into public.refunds_owed (payment_id, member_id, member_email, description, amount, reason, refunded_at)
     values ($1, $2, $3, 'fixture', $4, 'admin_cancelled', $5)`,
    [paymentId, member.memberId, member.email, amount, refundedAt],
  );
}
async function classAt(startTime: string, capacity: number) {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer, capacity) values ('Report class', $1, 'Coach Test', $2) returning id`,
    [startTime, capacity],
  );
  return rows[0]!.id;
}
async function booking(member: TestUser, classId: string, attendance: 'attended' | 'no_show' | null) {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.bookings (member_id, class_id, type, attendance) values ($1, $2, 'paid', $3) returning id`,
    [member.memberId, classId, attendance],
  );
  return rows[0]!.id;
}

/** One report of admin_reports (every report for the range in one call, as Analytics reads them). */
const report = async <T>(fn: string, from = '2024-01-01', to = '2024-02-29') => {
  const all = await asUser(db, admin.claims, (tx) => rpc<Record<string, T[]>>(tx, 'public.admin_reports($1, $2)', [from, to]));
  return all[fn.replace(/^report_/, '')]!;
};

describe('reports', () => {
  beforeAll(async () => {
    const [a, b, c, d, e, f] = await Promise.all(['a', 'b', 'c', 'd', 'e', 'f'].map((x) => createUser(db, `reports-${x}`)));
    // A: Standard all along. B: Standard, upgrades to Platinum on 5 Jan, never renews (gone by
    // the end of February). C: Platinum, renews on Standard from 15 Jan. D: Student from 20 Jan.
    await pay(a!, '2023-12-10T09:00:00Z', 100, { plan: 'standard', reason: 'start' });
    await pay(a!, '2024-01-10T09:00:00Z', 100, { plan: 'standard', reason: 'renewal' });
    await pay(a!, '2024-02-10T09:00:00Z', 100, { plan: 'standard', reason: 'renewal' });
    await pay(b!, '2023-12-20T09:00:00Z', 100, { plan: 'standard', reason: 'start' });
    await pay(b!, '2024-01-05T09:00:00Z', 165, { plan: 'platinum', reason: 'upgrade' });
    await pay(c!, '2023-12-15T09:00:00Z', 165, { plan: 'platinum', reason: 'start' });
    await pay(c!, '2024-01-15T09:00:00Z', 100, { plan: 'standard', reason: 'renewal' });
    await pay(c!, '2024-02-15T09:00:00Z', 100, { plan: 'standard', reason: 'renewal' });
    await pay(d!, '2024-01-20T09:00:00Z', 70, { plan: 'student', reason: 'start' });
    await pay(d!, '2024-02-20T09:00:00Z', 70, { plan: 'student', reason: 'renewal' });
    // E: a Bronze Package in January, refunded in February. F: two classes, the first refunded.
    await refund(e!, await pay(e!, '2024-01-12T09:00:00Z', 750, { plan: 'bronze' }), 750, '2024-02-03T09:00:00Z');
    await refund(f!, await pay(f!, '2024-01-08T09:00:00Z', 10), 10, '2024-01-25T09:00:00Z');
    await pay(f!, '2024-02-09T09:00:00Z', 10);
    // F also paid £12 for a guest in January (refunded) and in February.
    await refund(f!, await pay(f!, '2024-01-11T09:00:00Z', 12, { guest: true }), 12, '2024-01-15T09:00:00Z');
    await pay(f!, '2024-02-12T09:00:00Z', 12, { guest: true });

    // Trials: T1 ends 8 Jan and buys a Drop-In the next day; T2 ends 20 Jan and buys nothing; T3
    // ends 10 Feb and buys only 39 days later (not a conversion).
    const [t1, t2, t3] = await Promise.all(['t1', 't2', 't3'].map((x) => createUser(db, `reports-${x}`)));
    const trial = (t: TestUser, start: string, end: string) =>
      db.query('insert into public.member_trials (member_id, started_at, ends_at) values ($1, $2, $3)', [t.memberId, start, end]);
    await trial(t1!, '2024-01-01T10:00:00Z', '2024-01-08T10:00:00Z');
    await trial(t2!, '2024-01-13T10:00:00Z', '2024-01-20T10:00:00Z');
    await trial(t3!, '2024-02-03T10:00:00Z', '2024-02-10T10:00:00Z');
    await pay(t1!, '2024-01-09T09:00:00Z', 115, { plan: 'dropin' });
    await pay(t3!, '2024-03-20T09:00:00Z', 750, { plan: 'bronze' });

    // Classes: Monday 8 Jan 07:15 (4 places: 2 attended, 1 no-show, 1 unmarked); Wednesday 10 Jan
    // 18:00 (10 places: 1 attended and their guest; 1 late cancel); Monday 5 Feb 07:15 (4 places:
    // 2 no-shows).
    const x = await classAt('2024-01-08T07:15:00Z', 4);
    await booking(a!, x, 'attended');
    await booking(b!, x, 'attended');
    await booking(c!, x, 'no_show');
    await booking(d!, x, null);
    const y = await classAt('2024-01-10T18:00:00Z', 10);
    const host = await booking(a!, y, 'attended');
    await db.query(
      `insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email) values ($1, $2, $3, 'Gus', 'gus@example.test')`,
      [y, host, a!.memberId],
    );
    await db.query(
      `insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
       values ($1, $2, gen_random_uuid(), 'paid', '2024-01-01T00:00:00Z', '2024-01-10T18:00:00Z')`,
      [b!.memberId, y],
    );
    const z = await classAt('2024-02-05T07:15:00Z', 4);
    await booking(a!, z, 'no_show');
    await booking(b!, z, 'no_show');
  });

  it('revenue by product line, net of refunds, by month and for the range', async () => {
    const rows = await report<{ month: string | null; line: string; payments: number; gross: number; refunded: number; net: number }>(
      'report_revenue',
    );
    const shown = rows.map((r) => `${r.month ?? 'total'} ${r.line} ${r.payments} ${r.gross} -${r.refunded} = ${r.net}`);
    expect(shown).toEqual([
      '2024-01-01 memberships 4 435 -0 = 435',
      '2024-01-01 classes 1 10 -10 = 0',
      '2024-01-01 packages 2 865 -0 = 865',
      '2024-01-01 guest_places 1 12 -12 = 0',
      '2024-02-01 memberships 3 270 -0 = 270',
      '2024-02-01 classes 1 10 -0 = 10',
      '2024-02-01 packages 0 0 -750 = -750',
      '2024-02-01 guest_places 1 12 -0 = 12',
      'total memberships 7 705 -0 = 705',
      'total classes 2 20 -10 = 10',
      'total packages 2 865 -750 = 115',
      'total guest_places 2 24 -12 = 12',
    ]);
  });

  it('MRR and its movement: new, upgrades, downgrades, churned; churn rate', async () => {
    const rows = await report<Record<string, number | string | null>>('report_mrr');
    const shown = rows.map(
      (r) =>
        `${r.month ?? 'total'}: ${r.mrr_start} +${r.new_mrr} +${r.upgrades} -${r.downgrades} -${r.churned} = ${r.mrr_end}; ` +
        `${r.subscribers_start}→${r.subscribers_end}, +${r.new_members} -${r.churned_members}, churn ${r.churn_rate}`,
    );
    expect(shown).toEqual([
      '2024-01-01: 365 +70 +65 -65 -0 = 435; 3→4, +1 -0, churn 0',
      '2024-02-01: 435 +0 +0 -0 -165 = 270; 4→3, +0 -1, churn 25',
      'total: 365 +70 +65 -65 -165 = 270; 3→3, +1 -1, churn 33.3',
    ]);
  });

  it('trial-to-paid conversion', async () => {
    const rows = await report<{ month: string | null; trials_ended: number; converted: number; conversion_rate: number | null }>(
      'report_trials',
    );
    expect(rows.map((r) => [r.month, r.trials_ended, r.converted, r.conversion_rate])).toEqual([
      ['2024-01-01', 2, 1, 50],
      ['2024-02-01', 1, 0, 0],
      [null, 3, 1, 33.3],
    ]);
  });

  it('no-show and late-cancel rates', async () => {
    const rows = await report<Record<string, number | string | null>>('report_attendance');
    expect(
      rows.map((r) => [r.month, r.bookings, r.attended, r.no_shows, r.unmarked, r.late_cancels, r.no_show_rate, r.late_cancel_rate]),
    ).toEqual([
      ['2024-01-01', 5, 3, 1, 1, 1, 20, 16.7],
      ['2024-02-01', 2, 0, 2, 0, 0, 100, 0],
      [null, 7, 3, 3, 1, 1, 42.9, 12.5],
    ]);
  });

  it('fill rate by weekday and start time (guests take places too)', async () => {
    const rows = await report<{ weekday: number; slot: string; classes: number; places: number; taken: number; fill_rate: number }>(
      'report_fill',
    );
    expect(rows).toEqual([
      { weekday: 1, slot: '07:15', classes: 2, places: 8, taken: 6, fill_rate: 75 },
      { weekday: 3, slot: '18:00', classes: 1, places: 10, taken: 2, fill_rate: 20 },
    ]);
  });

  it('a custom range clips the months, and an empty month answers zeros', async () => {
    const rows = await report<{ month: string | null; line: string; net: number }>('report_revenue', '2024-01-09', '2024-01-10');
    expect(rows.filter((r) => r.month === null).map((r) => `${r.line} ${r.net}`)).toEqual([
      'memberships 100',
      'classes 0',
      'packages 115',
      'guest_places 0',
    ]);
    const mrr = await report<{ month: string | null; churn_rate: number | null }>('report_mrr', '2022-01-01', '2022-01-31');
    expect(mrr.map((r) => r.churn_rate)).toEqual([null, null]);
  });

  it('is for admins only, and refuses a range backwards or over 10 years', async () => {
    const member = await createUser(db, 'reports-nosy');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_reports($1, $2)', ['2024-01-01', '2024-01-31'])),
      { hint: 'not_admin' },
    );
    await expectSqlError(report('report_mrr', '2024-02-01', '2024-01-01'), { hint: 'invalid_report_range' });
    await expectSqlError(report('report_fill', '2000-01-01', '2024-01-01'), { hint: 'invalid_report_range' });
  });
});
