import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claim, claimDue, fail, PLAN, type Charge } from './support/membership-steps.ts';

// The Analytics reports, against a small history whose every figure is worked out by
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
      '2024-01-01 memberships_direct_debit 0 0 -0 = 0',
      '2024-01-01 classes 1 10 -10 = 0',
      '2024-01-01 packages 2 865 -0 = 865',
      '2024-01-01 guest_places 1 12 -12 = 0',
      '2024-01-01 hold_fees 0 0 -0 = 0',
      '2024-01-01 attendance_fees 0 0 -0 = 0',
      '2024-01-01 vouchers_sold 0 0 -0 = 0',
      '2024-01-01 balance_spent 0 0 -0 = 0',
      '2024-01-01 discounts 0 0 -0 = 0',
      '2024-02-01 memberships 3 270 -0 = 270',
      '2024-02-01 memberships_direct_debit 0 0 -0 = 0',
      '2024-02-01 classes 1 10 -0 = 10',
      '2024-02-01 packages 0 0 -750 = -750',
      '2024-02-01 guest_places 1 12 -0 = 12',
      '2024-02-01 hold_fees 0 0 -0 = 0',
      '2024-02-01 attendance_fees 0 0 -0 = 0',
      '2024-02-01 vouchers_sold 0 0 -0 = 0',
      '2024-02-01 balance_spent 0 0 -0 = 0',
      '2024-02-01 discounts 0 0 -0 = 0',
      'total memberships 7 705 -0 = 705',
      'total memberships_direct_debit 0 0 -0 = 0',
      'total classes 2 20 -10 = 10',
      'total packages 2 865 -750 = 115',
      'total guest_places 2 24 -12 = 12',
      'total hold_fees 0 0 -0 = 0',
      'total attendance_fees 0 0 -0 = 0',
      'total vouchers_sold 0 0 -0 = 0',
      'total balance_spent 0 0 -0 = 0',
      'total discounts 0 0 -0 = 0',
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
      'memberships_direct_debit 0',
      'classes 0',
      'packages 115',
      'guest_places 0',
      'hold_fees 0',
      'attendance_fees 0',
      'vouchers_sold 0',
      'balance_spent 0',
      'discounts 0',
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

// Decision 0036: MRR is read from each membership's own history, driven here through the
// membership functions as the jobs and the members would, a day at a time from August to December
// 2025 (London: BST to 26 October, then GMT). November is worked out by hand:
//
//   L  Standard £100 since 5 Aug, renews every month              long-standing, nothing changes
//   R  Platinum £165 from 20 Oct, renews 20 Nov                   a renewal, not New
//   N  Standard £100 from 12 Nov                                  New +100
//   U  Standard £100 from 8 Oct, upgrades to Platinum 18 Nov      Upgrade +65
//   D  Platinum £165 from 25 Oct, downgrade chosen 3 Nov,
//      renews on Standard 25 Nov                                  Downgrade -65
//   X  Standard £100 from 2 Oct, renewal declined 2 Nov, retried
//      3, 5 and 9 Nov, then lapses on 9 Nov                       Churned -100 (not before it lapsed)
//   C  Platinum £165 from 16 Oct, cancels 4 Nov, ends 16 Nov      Churned -165 (when it ends)
//   K  Standard £100 from 6 Oct, cancels 27 Nov, ends 6 Dec       still running at the end of November
//   Y  Standard £100 from 29 Oct, renewal declined 29 Nov, past
//      due over the month end, lapses 6 Dec                      still running at the end of November
//
// October: 100 (L) + 895 new (X, K, U, C, R, D, Y) = 995, 1 → 8 members.
// November: 995 + 100 new + 65 up − 65 down − 265 churned (X, C) = 830, 8 → 7 members, churn 2 / 8.
// December: 830 − 200 churned (K, Y) = 630, 7 → 5 members, churn 2 / 7.
describe('MRR from the memberships’ own history (decision 0036)', () => {
  type Step = (at: Date) => Promise<unknown>;
  const members: Record<string, TestUser> = {};
  const service = <T>(call: string, params: unknown[]) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
  const at = (day: string, time: string) => new Date(`${day}T${time}Z`);
  const buy =
    (who: string, plan: (typeof PLAN)[keyof typeof PLAN]): Step =>
    (when) =>
      buyPlan(db, members[who]!, when, plan);
  const upgrade =
    (who: string): Step =>
    async (when) => {
      const reference = await service<string>('public.start_membership_upgrade($1, $2, $3, $4, $5, $6)', [
        members[who]!.memberId,
        'platinum',
        165,
        'premium',
        null,
        when.toISOString(),
      ]);
      const charge = (await claim(db, reference, when))!;
      return applyPaid(db, charge, `chk-${reference}`, when);
    };
  const downgrade =
    (who: string): Step =>
    (when) =>
      service('public.schedule_membership_downgrade($1, $2, $3, $4, $5)', [
        members[who]!.memberId,
        'standard',
        100,
        'standard',
        when.toISOString(),
      ]);
  const cancel =
    (who: string): Step =>
    (when) =>
      asUser(db, members[who]!.claims, (tx) => rpc(tx, 'private.cancel_membership($1)', [when.toISOString()]));
  // What the members do, at noon (UTC) of the day.
  const steps: Record<string, Step[]> = {
    '2025-08-05': [buy('L', PLAN.standard)],
    '2025-10-02': [buy('X', PLAN.standard)],
    '2025-10-06': [buy('K', PLAN.standard)],
    '2025-10-08': [buy('U', PLAN.standard)],
    '2025-10-16': [buy('C', PLAN.platinum)],
    '2025-10-20': [buy('R', PLAN.platinum)],
    '2025-10-25': [buy('D', PLAN.platinum)],
    '2025-10-29': [buy('Y', PLAN.standard)],
    '2025-11-03': [downgrade('D')],
    '2025-11-04': [cancel('C')],
    '2025-11-12': [buy('N', PLAN.standard)],
    '2025-11-18': [upgrade('U')],
    '2025-11-27': [cancel('K')],
  };

  // The hourly jobs, once a day at 18:00 (UTC): renewals and retries are charged (X's and Y's cards
  // pay for the first month and decline every renewal), cancelled memberships past their period end end.
  async function jobs(when: Date) {
    const declining = [members.X!.memberId, members.Y!.memberId];
    for (const charge of (await claimDue(db, when)) as (Charge & { member_id: string })[]) {
      if (declining.includes(charge.member_id)) await fail(db, charge, when);
      else await applyPaid(db, charge, `chk-${charge.checkout_reference}`, when);
    }
    await service('public.end_finished_memberships($1)', [when.toISOString()]);
  }

  beforeAll(async () => {
    for (const who of ['L', 'R', 'N', 'U', 'D', 'X', 'C', 'K', 'Y']) members[who] = await createUser(db, `mrr-${who}`);
    for (let day = new Date('2025-08-05T00:00:00Z'); day < new Date('2026-01-01T00:00:00Z'); day = new Date(day.getTime() + 86_400_000)) {
      const date = day.toISOString().slice(0, 10);
      for (const step of steps[date] ?? []) await step(at(date, '12:00:00'));
      await jobs(at(date, '18:00:00'));
    }
  }, 120_000);

  type Mrr = {
    month: string | null;
    mrr_start: number;
    new_mrr: number;
    upgrades: number;
    downgrades: number;
    churned: number;
    mrr_end: number;
    subscribers_start: number;
    subscribers_end: number;
    new_members: number;
    churned_members: number;
    churn_rate: number | null;
  };
  const shown = (r: Mrr) =>
    `${r.month ?? 'total'}: ${r.mrr_start} +${r.new_mrr} +${r.upgrades} -${r.downgrades} -${r.churned} = ${r.mrr_end}; ` +
    `${r.subscribers_start}→${r.subscribers_end}, +${r.new_members} -${r.churned_members}, churn ${r.churn_rate}`;

  it('the membership functions took the members where the story says', async () => {
    const { rows } = await db.query<{ email: string; status: string; plan_slug: string; price: number; ended_at: Date | null }>(
      `select m.email, ms.status::text, ms.plan_slug, ms.price::float8 as price, ms.ended_at
         from public.memberships ms join public.members m on m.id = ms.member_id where m.email like 'mrr-%'`,
    );
    const state = Object.fromEntries(
      Object.entries(members).map(([who, u]) => {
        const r = rows.find((x) => x.email === u.email)!;
        return [who, `${r.status} ${r.plan_slug} ${r.price}${r.ended_at ? ` ended ${r.ended_at.toISOString()}` : ''}`];
      }),
    );
    expect(state).toEqual({
      L: 'active standard 100',
      R: 'active platinum 165',
      N: 'active standard 100',
      U: 'active platinum 165',
      D: 'active standard 100',
      X: 'lapsed standard 100 ended 2025-11-09T18:00:00.000Z',
      C: 'cancelled platinum 165 ended 2025-11-16T13:00:00.000Z',
      K: 'cancelled standard 100 ended 2025-12-06T13:00:00.000Z',
      Y: 'lapsed standard 100 ended 2025-12-06T18:00:00.000Z',
    });
  });

  it('November, worked out by hand: a renewal is not new, a member still running has not churned', async () => {
    const rows = await report<Mrr>('report_mrr', '2025-10-01', '2025-12-31');
    expect(rows.filter((r) => r.month !== null).map(shown)).toEqual([
      '2025-10-01: 100 +895 +0 -0 -0 = 995; 1→8, +7 -0, churn 0',
      '2025-11-01: 995 +100 +65 -65 -265 = 830; 8→7, +1 -2, churn 25',
      '2025-12-01: 830 +0 +0 -0 -200 = 630; 7→5, +0 -2, churn 28.6',
    ]);
    const november = await report<Mrr>('report_mrr', '2025-11-01', '2025-11-30');
    expect(november.map(shown)).toEqual([
      '2025-11-01: 995 +100 +65 -65 -265 = 830; 8→7, +1 -2, churn 25',
      'total: 995 +100 +65 -65 -265 = 830; 8→7, +1 -2, churn 25',
    ]);
  });

  it('every month ends where the next begins, at the figure the Memberships card gives for that instant', async () => {
    const rows = (await report<Mrr>('report_mrr', '2025-10-01', '2025-12-31')).filter((r) => r.month !== null);
    const monthEnds = ['2025-10-31T23:59:59.999999Z', '2025-11-30T23:59:59.999999Z', '2025-12-31T23:59:59.999999Z'];
    const cards = [];
    for (const end of monthEnds) {
      cards.push(
        await asUser(db, admin.claims, (tx) =>
          rpc<{ mrr: number; active_standard: number; active_premium: number }>(tx, 'public.admin_membership_stats($1)', [end]),
        ),
      );
    }
    expect(cards.map((c) => Number(c.mrr))).toEqual(rows.map((r) => Number(r.mrr_end)));
    expect(cards.map((c) => c.active_standard + c.active_premium)).toEqual(rows.map((r) => r.subscribers_end));
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.mrr_start).toBe(rows[i - 1]!.mrr_end);
    for (const r of rows) expect(r.mrr_end).toBe(r.mrr_start + r.new_mrr + r.upgrades - r.downgrades - r.churned);
  });
});

// Decision 0036: a plan counts from its first month paid, and an end is an end even when the member
// comes back in the same month. December 2022 to February 2023 (GMT):
//
//   Q  Standard £100 from 1 Dec, cancels 10 Dec, ends 1 Jan; back on Platinum £165 on 20 Jan
//   P  put on Standard at £70 by an admin on 5 Jan with no card saved (the renewal run cannot
//      charge it: past due); adds a card on 7 Jan, which pays the first month
//   S  put on Standard at £70 by an admin on 10 Jan, never adds a card, lapses 17 Jan
//
// January: 100 − 100 churned (Q) + 235 new (P 70, Q 165) = 235, 1 → 2 members; S never counts.
describe('MRR counts a plan from its first month paid, and an end even when the member comes back', () => {
  const members: Record<string, TestUser> = {};
  const service = <T>(call: string, params: unknown[]) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
  const putOnPlan = (who: string, when: Date) =>
    asUser(db, admin.claims, (tx) =>
      rpc(tx, 'private.admin_put_on_plan($1, $2, $3, $4)', [members[who]!.memberId, 'standard', 70, when.toISOString()]),
    );
  async function addCard(who: string, when: Date) {
    const setup = await service<{ setup_reference: string; amount: number; customer_id: string }>('public.start_card_update($1, $2)', [
      members[who]!.memberId,
      when.toISOString(),
    ]);
    const saved = await service<{ charge_reference: string }>(`public.apply_card_setup($1, $2, 'PAID', $3, 'GBP', $4, $5, $6)`, [
      setup.setup_reference,
      `chk-${setup.setup_reference}`,
      setup.amount,
      setup.customer_id,
      'tok-pays',
      when.toISOString(),
    ]);
    const charge = (await claim(db, saved.charge_reference, when))!;
    await applyPaid(db, charge, `chk-${saved.charge_reference}`, when);
  }
  const steps: Record<string, ((when: Date) => Promise<unknown>)[]> = {
    '2022-12-01': [(when) => buyPlan(db, members.Q!, when)],
    '2022-12-10': [(when) => asUser(db, members.Q!.claims, (tx) => rpc(tx, 'private.cancel_membership($1)', [when.toISOString()]))],
    '2023-01-05': [(when) => putOnPlan('P', when)],
    '2023-01-07': [(when) => addCard('P', when)],
    '2023-01-10': [(when) => putOnPlan('S', when)],
    '2023-01-20': [(when) => buyPlan(db, members.Q!, when, PLAN.platinum)],
  };

  beforeAll(async () => {
    for (const who of ['Q', 'P', 'S']) members[who] = await createUser(db, `mrr-back-${who}`);
    for (let day = new Date('2022-12-01T00:00:00Z'); day < new Date('2023-03-01T00:00:00Z'); day = new Date(day.getTime() + 86_400_000)) {
      const date = day.toISOString().slice(0, 10);
      for (const step of steps[date] ?? []) await step(new Date(`${date}T12:00:00Z`));
      // The renewal run: a membership with no saved card cannot be charged.
      const when = new Date(`${date}T18:00:00Z`);
      for (const charge of await claimDue(db, when)) {
        if (charge.card_token) await applyPaid(db, charge, `chk-${charge.checkout_reference}`, when);
        else await fail(db, charge, when, 'no_card');
      }
      await service('public.end_finished_memberships($1)', [when.toISOString()]);
    }
  }, 120_000);

  it('a put-on-plan never paid never counts; Q churns on 1 January and is new again on the 20th', async () => {
    const { rows } = await db.query<{ email: string; status: string; ended_at: Date | null }>(
      `select m.email, ms.status::text, ms.ended_at from public.memberships ms join public.members m on m.id = ms.member_id
        where m.email like 'mrr-back-%'`,
    );
    expect(rows.find((r) => r.email === members.S!.email)).toMatchObject({ status: 'lapsed', ended_at: new Date('2023-01-17T18:00:00Z') });
    const mrr = await report<Record<string, number | string | null>>('report_mrr', '2022-12-01', '2023-02-28');
    expect(
      mrr.map(
        (r) =>
          `${r.month ?? 'total'}: ${r.mrr_start} +${r.new_mrr} +${r.upgrades} -${r.downgrades} -${r.churned} = ${r.mrr_end}; ` +
          `${r.subscribers_start}→${r.subscribers_end}, +${r.new_members} -${r.churned_members}, churn ${r.churn_rate}`,
      ),
    ).toEqual([
      '2022-12-01: 0 +100 +0 -0 -0 = 100; 0→1, +1 -0, churn null',
      '2023-01-01: 100 +235 +0 -0 -100 = 235; 1→2, +2 -1, churn 100',
      '2023-02-01: 235 +0 +0 -0 -0 = 235; 2→2, +0 -0, churn 0',
      'total: 0 +335 +0 -0 -100 = 235; 0→2, +3 -1, churn null',
    ]);
    const card = (at: string) => asUser(db, admin.claims, (tx) => rpc<{ mrr: number }>(tx, 'public.admin_membership_stats($1)', [at]));
    // 6 January: Q has ended and P's first month is not paid yet.
    expect(Number((await card('2023-01-06T12:00:00Z')).mrr)).toBe(0);
    expect(Number((await card('2023-01-31T23:59:59.999999Z')).mrr)).toBe(235);
  });
});
