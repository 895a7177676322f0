import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claimDue, emailsOf, membershipOf } from './support/membership-steps.ts';

// Decision 0050: a member pauses within the studio's rules (or an admin pauses anyone); the preview
// and the confirmation are one function; the renewal moves by the pause; plan bookings inside it go;
// the hold fee is charged once per month of pause by the renewal job; a reminder before it ends;
// ending early gives the days back; MRR leaves the paused days out. Every step takes "now".

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'pause-admin', { is_admin: true });
  await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_set_pause_rules(true, 7, 60, 2, 3, 12.5)'));
});
afterAll(async () => {
  await db.close();
});

// Mid-January 2027 (London on GMT): the plan renews on 15 February.
const T0 = new Date('2027-01-15T10:00:00Z');
const at = (iso: string) => new Date(iso);

type Quote = {
  starts_on: string;
  ends_on: string;
  days: number;
  hold_fee: number | null;
  fee_months: number;
  fee_total: number;
  renewal_before: string;
  renewal_after: string;
  cancelled_bookings: { booking_id: string; class_name: string; start_time: string; refund: number }[];
};

const preview = (u: TestUser, from: string, to: string, now: Date, memberId: string | null = null) =>
  asUser(db, u.claims, (tx) => rpc<Quote>(tx, 'private.preview_pause($1, $2, $3, $4)', [memberId, from, to, now.toISOString()]));
const confirm = (u: TestUser, from: string, to: string, now: Date, memberId: string | null = null) =>
  asUser(db, u.claims, (tx) => rpc<Quote>(tx, 'private.confirm_pause($1, $2, $3, $4)', [memberId, from, to, now.toISOString()]));
const endPause = (u: TestUser, now: Date) =>
  asUser(db, u.claims, (tx) =>
    rpc<{ ended_early_on: string | null; withdrawn_at: string | null } | null>(tx, 'private.end_pause(null, $1)', [now.toISOString()]),
  );
const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));

async function planClass(member: TestUser, name: string, startsAt: string) {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer, type, capacity, price_payg) values ($1, $2, 'Coach Test', 'Group', 10, 10) returning id`,
    [name, startsAt],
  );
  const booking = await db.query<{ id: string }>(
    `insert into public.bookings (member_id, class_id, type, payment_status) values ($1, $2, 'paid', 'completed') returning id`,
    [member.memberId, rows[0]!.id],
  );
  return booking.rows[0]!.id;
}

async function bookingsOf(member: TestUser) {
  const { rows } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1 order by booked_at', [
    member.memberId,
  ]);
  return rows.map((r) => r.id);
}

async function mrrAt(member: TestUser, when: string) {
  const { rows } = await db.query<{ amount: number }>(
    `select x.amount::float8 as amount from private.mrr_at($2) x join public.memberships ms on ms.id = x.membership_id
      where ms.member_id = $1`,
    [member.memberId, when],
  );
  return rows.map((r) => r.amount);
}

const holdFeesOf = (charges: { checkout_reference: string; amount: number }[]) =>
  charges.filter((c) => c.checkout_reference.startsWith('hold-'));

describe('a member pauses for 3 weeks', () => {
  it('sees the dates, the fee, the new renewal and the bookings that go; confirming does exactly that', async () => {
    const member = await createUser(db, 'pause-3-weeks');
    await buyPlan(db, member, T0);
    const inside = await planClass(member, 'Spin inside', '2027-01-27T18:00:00Z');
    const outside = await planClass(member, 'Spin after', '2027-02-20T18:00:00Z');

    const quote = await preview(member, '2027-01-25', '2027-02-14', T0);
    expect(quote).toMatchObject({
      starts_on: '2027-01-25',
      ends_on: '2027-02-14',
      days: 21,
      hold_fee: 12.5,
      fee_months: 1,
      fee_total: 12.5,
      renewal_before: '2027-02-15T10:00:00+00:00',
      renewal_after: '2027-03-08T10:00:00+00:00',
    });
    expect(quote.cancelled_bookings).toEqual([
      { booking_id: inside, class_name: 'Spin inside', start_time: '2027-01-27T18:00:00+00:00', refund: 0 },
    ]);
    // A preview changes nothing.
    expect(await bookingsOf(member)).toHaveLength(2);
    expect((await membershipOf(db, member)).period_end).toEqual(at('2027-02-15T10:00:00Z'));

    const confirmed = await confirm(member, '2027-01-25', '2027-02-14', T0);
    expect(confirmed).toEqual(quote);
    expect(await bookingsOf(member)).toEqual([outside]);
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'active',
      period_end: at('2027-03-08T10:00:00Z'),
      plan_renews_at: at('2027-03-08T10:00:00Z'),
    });
    const paused = (await emailsOf(db, member)).filter((e) => e.kind === 'membership_paused');
    expect(paused).toHaveLength(1);
    expect(paused[0]!.body_text).toContain('£12.50 a month');
    expect(paused[0]!.body_text).toContain('moves from 15 February 2027 to 8 March 2027');

    // Plan classes inside the pause are refused; after it they are not.
    const refusal = async (when: string) =>
      (
        await db.query<{ r: string | null }>('select private.plan_class_refusal(m, $2) as r from public.members m where m.id = $1', [
          member.memberId,
          when,
        ])
      ).rows[0]!.r;
    expect(await refusal('2027-02-01T18:00:00Z')).toBe('plan_paused');
    expect(await refusal('2027-02-16T18:00:00Z')).toBeNull();
  });

  it('charges the hold fee once, reminds once, renews on the moved date and leaves the pause out of MRR', async () => {
    const member = await createUser(db, 'pause-charges');
    await buyPlan(db, member, T0);
    await confirm(member, '2027-01-25', '2027-02-14', T0);

    expect(holdFeesOf(await claimDue(db, at('2027-01-24T23:00:00Z')))).toEqual([]);
    const firstDay = at('2027-01-25T01:00:00Z');
    const fees = holdFeesOf(await claimDue(db, firstDay));
    const { rows: pauseRows } = await db.query<{ id: string }>('select id from public.membership_pauses where member_id = $1', [
      member.memberId,
    ]);
    const fee = fees.find((c) => c.checkout_reference === `hold-${pauseRows[0]!.id}-1`)!;
    expect(fee).toMatchObject({ amount: 12.5, billing_reason: 'hold_fee', attempt: 1 });
    // A second run at once finds it claimed; paid, it is never charged again.
    expect(holdFeesOf(await claimDue(db, firstDay)).map((c) => c.checkout_reference)).not.toContain(fee.checkout_reference);
    await applyPaid(db, fee, `chk-${fee.checkout_reference}`, firstDay);
    expect(await applyPaid(db, fee, `chk-${fee.checkout_reference}`, firstDay)).toMatchObject({ outcome: 'already_applied' });
    const later = await claimDue(db, at('2027-02-14T20:00:00Z'));
    expect(later.map((c) => c.checkout_reference).filter((r) => r.includes(pauseRows[0]!.id))).toEqual([]);
    const { rows: paid } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.payments where member_id = $1 and billing_reason = 'hold_fee' and status = 'paid'`,
      [member.memberId],
    );
    expect(paid[0]!.n).toBe(1);
    expect((await emailsOf(db, member)).filter((e) => e.kind === 'payment_receipt' && e.subject.includes('hold fee'))).toHaveLength(1);

    // No renewal on the old date.
    const { rows: ms } = await db.query<{ id: string }>('select id from public.memberships where member_id = $1', [member.memberId]);
    const renewals = <T extends { checkout_reference: string }>(charges: T[]) =>
      charges.filter((c) => c.checkout_reference.startsWith(`renew-${ms[0]!.id}`));
    expect(renewals(await claimDue(db, at('2027-02-15T10:30:00Z')))).toEqual([]);

    // The reminder a few days before the end, once.
    await service('public.enqueue_membership_reminders($1)', ['2027-02-12T12:00:00Z']);
    await service('public.enqueue_membership_reminders($1)', ['2027-02-13T12:00:00Z']);
    const reminders = (await emailsOf(db, member)).filter((e) => e.kind === 'pause_ending');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.subject).toBe('Your membership pause ends on 14 February 2027');

    // The renewal comes on the moved date and the next one a calendar month later.
    const renewal = renewals(await claimDue(db, at('2027-03-08T10:30:00Z')));
    expect(renewal).toHaveLength(1);
    await applyPaid(db, renewal[0]!, `chk-${renewal[0]!.checkout_reference}`, at('2027-03-08T10:30:00Z'));
    // 10:00 London on 8 April is 09:00 UTC (summer time): the London wall-clock time is kept.
    expect((await membershipOf(db, member)).period_end).toEqual(at('2027-04-08T09:00:00Z'));

    // MRR counts the plan before and after the pause, not during it.
    expect(await mrrAt(member, '2027-01-20T12:00:00Z')).toEqual([100]);
    expect(await mrrAt(member, '2027-02-01T12:00:00Z')).toEqual([]);
    expect(await mrrAt(member, '2027-02-20T12:00:00Z')).toEqual([100]);
    expect(await mrrAt(member, '2027-03-20T12:00:00Z')).toEqual([100]);

    // Hold fees are their own line of revenue.
    const revenue = await asUser(db, admin.claims, (tx) =>
      rpc<{ revenue: { month: string | null; line: string; gross: number }[] }>(tx, `public.admin_reports('2027-01-01', '2027-01-31')`),
    );
    expect(revenue.revenue.find((r) => r.month && r.line === 'hold_fees')!.gross).toBeGreaterThanOrEqual(12.5);
  });
});

describe('the MRR report', () => {
  type Mrr = {
    month: string | null;
    mrr_start: number;
    new_mrr: number;
    upgrades: number;
    downgrades: number;
    churned: number;
    mrr_end: number;
    new_members: number;
    churned_members: number;
    paused: number;
    resumed: number;
  };
  const mrrReport = async (from: string, to: string) =>
    (await asUser(db, admin.claims, (tx) => rpc<{ mrr: Mrr[] }>(tx, 'public.admin_reports($1, $2)', [from, to]))).mrr.map(
      (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && k !== 'month' ? Number(v) : v])) as Mrr,
    );

  it('shows a pause as paused and resumed, never as churn and new, and each month still adds up', async () => {
    // In the past (the report ends each month at now): a plan from 10 March 2024, paused 25 March to 14 April.
    const before = await mrrReport('2024-03-01', '2024-04-30');
    const member = await createUser(db, 'pause-mrr');
    const start = at('2024-03-10T10:00:00Z');
    await buyPlan(db, member, start);
    await confirm(member, '2024-03-25', '2024-04-14', start);
    const after = await mrrReport('2024-03-01', '2024-04-30');
    const moved = (month: string) => {
      const b = before.find((r) => r.month === month)!;
      const a = after.find((r) => r.month === month)!;
      return {
        new_mrr: a.new_mrr - b.new_mrr,
        churned: a.churned - b.churned,
        paused: a.paused - b.paused,
        resumed: a.resumed - b.resumed,
        new_members: a.new_members - b.new_members,
        churned_members: a.churned_members - b.churned_members,
      };
    };
    expect(moved('2024-03-01')).toEqual({ new_mrr: 100, churned: 0, paused: 100, resumed: 0, new_members: 1, churned_members: 0 });
    expect(moved('2024-04-01')).toEqual({ new_mrr: 0, churned: 0, paused: 0, resumed: 100, new_members: 0, churned_members: 0 });
    for (const r of after) {
      expect(r.mrr_end).toBeCloseTo(r.mrr_start + r.new_mrr + r.upgrades - r.downgrades - r.churned - r.paused + r.resumed, 2);
    }
  });
});

describe('the rules', () => {
  it('refuses a pause without notice, too long or too short, a second one, and another member', async () => {
    const member = await createUser(db, 'pause-rules');
    const other = await createUser(db, 'pause-other');
    await buyPlan(db, member, T0);
    await expectSqlError(preview(member, '2027-01-16', '2027-01-30', T0), {
      hint: 'pause_notice',
      message: /3 days' notice: the earliest first day is 18 January 2027/,
    });
    await expectSqlError(preview(member, '2027-01-20', '2027-01-22', T0), {
      hint: 'pause_length',
      message: 'A pause is 7 to 60 days; this one is 3.',
    });
    await expectSqlError(preview(member, '2027-01-20', '2027-04-22', T0), { hint: 'pause_length' });
    await expectSqlError(preview(member, '2027-02-20', '2027-03-01', T0), { hint: 'pause_after_renewal' });
    await expectSqlError(preview(member, '2027-01-30', '2027-01-20', T0), { hint: 'invalid_dates' });
    await expectSqlError(preview(other, '2027-01-20', '2027-01-30', T0, member.memberId), { hint: 'not_admin' });
    await expectSqlError(preview(other, '2027-01-20', '2027-01-30', T0), { hint: 'no_running_membership' });
    await confirm(member, '2027-01-20', '2027-01-30', T0);
    await expectSqlError(confirm(member, '2027-02-01', '2027-02-10', T0), { hint: 'pause_exists' });
  });

  it('an admin pauses anyone from today, beyond the member limits, and the member may end it early', async () => {
    const member = await createUser(db, 'pause-by-admin');
    await buyPlan(db, member, T0);
    const quote = await confirm(admin, '2027-01-15', '2027-03-31', T0, member.memberId);
    expect(quote).toMatchObject({ days: 76, fee_months: 3, fee_total: 37.5 });
    const { rows } = await db.query<{ by_admin: boolean }>('select by_admin from public.membership_pauses where member_id = $1', [
      member.memberId,
    ]);
    expect(rows).toEqual([{ by_admin: true }]);
    // Back on 1 February: the pause ran 15 to 31 January (17 days), the renewal moves 17 days from 15 February.
    const ended = await endPause(member, at('2027-02-01T09:00:00Z'));
    expect(ended).toMatchObject({ ended_early_on: '2027-01-31', withdrawn_at: null });
    expect((await membershipOf(db, member)).period_end).toEqual(at('2027-03-04T10:00:00Z'));
    expect(await endPause(member, at('2027-02-01T09:00:00Z'))).toBeNull();
    // Only the first month's fee: the later ones fall after the pause ended.
    const fees = (await claimDue(db, at('2027-03-01T12:00:00Z'))).filter(
      (c) => c.checkout_reference.startsWith('hold-') && (c as { member_id?: string }).member_id === member.memberId,
    );
    expect(fees.map((c) => c.checkout_reference.split('-').at(-1))).toEqual(['1']);
    expect(await mrrAt(member, '2027-01-20T12:00:00Z')).toEqual([]);
    expect(await mrrAt(member, '2027-02-02T12:00:00Z')).toEqual([100]);
  });

  it('withdrawing a pause before it starts moves the renewal back and closes the gap in MRR', async () => {
    const member = await createUser(db, 'pause-withdrawn');
    await buyPlan(db, member, T0);
    await confirm(member, '2027-01-25', '2027-02-14', T0);
    const ended = await endPause(member, at('2027-01-20T09:00:00Z'));
    expect(ended?.withdrawn_at).not.toBeNull();
    expect((await membershipOf(db, member)).period_end).toEqual(at('2027-02-15T10:00:00Z'));
    expect(await mrrAt(member, '2027-02-01T12:00:00Z')).toEqual([100]);
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.membership_price_history h join public.memberships ms on ms.id = h.membership_id where ms.member_id = $1`,
      [member.memberId],
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses a member when the studio takes pauses only at the desk, and bad rules', async () => {
    const member = await createUser(db, 'pause-off');
    await buyPlan(db, member, T0);
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_set_pause_rules(false, 7, 60, 2, 3, null)')),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_set_pause_rules(true, 30, 7, 2, 3, null)')),
      { hint: 'invalid_lengths' },
    );
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_set_pause_rules(false, 7, 60, 2, 3, 12.5)'));
    try {
      await expectSqlError(preview(member, '2027-01-20', '2027-01-30', T0), { hint: 'pauses_off' });
    } finally {
      await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_set_pause_rules(true, 7, 60, 2, 3, 12.5)'));
    }
  });
});
