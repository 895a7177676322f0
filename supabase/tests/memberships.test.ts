import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claim, claimDue, days, emailsOf, fail, membershipOf, paymentsOf, PLAN } from './support/membership-steps.ts';

// Decision 0009: a membership renews every calendar month with the saved card, is retried 1, 3 and 7
// days after a failed renewal and then lapses; cancel, resume, upgrade, downgrade; trials end on
// time; reminders; an admin puts a member on a plan at a price. Every transition takes "now".

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

// Mid-January, London on GMT; a month later is mid-February at the same London time.
const T0 = new Date('2027-01-15T10:00:00Z');
const T1 = new Date('2027-02-15T10:00:00Z');
const T2 = new Date('2027-03-15T10:00:00Z');

const asMember = <T>(u: TestUser, call: string, params: unknown[] = []) => asUser(db, u.claims, (tx) => rpc<T>(tx, call, params));
const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
const chargesFor = <T extends { checkout_reference: string }>(charges: T[], prefix: string) =>
  charges.filter((c) => c.checkout_reference.startsWith(prefix));
const renewalsOf = async (u: TestUser, at: Date) => {
  const { rows } = await db.query<{ id: string }>('select id from public.memberships where member_id = $1', [u.memberId]);
  return chargesFor(await claimDue(db, at), `renew-${rows[0]!.id}`);
};

describe('buying a plan', () => {
  it('saves the card, charges the first month and starts a calendar-month period now', async () => {
    const member = await createUser(db, 'buy-standard');
    await buyPlan(db, member, T0);
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'active',
      tier: 'standard',
      plan_slug: 'standard',
      price: 100,
      period_number: 1,
      renews: true,
      period_start: T0,
      period_end: T1,
      member_tier: 'standard',
      has_used_trial: true,
      plan_renews_at: T1,
    });
    expect(await paymentsOf(db, member)).toEqual([
      { billing_reason: 'start', period_number: 1, status: 'paid', amount: 100, needs_refund: false },
    ]);
    const mine = await asMember<{ status: string; has_card: boolean; period_end: string }>(member, 'public.my_membership()');
    expect(mine).toMatchObject({ status: 'active', has_card: true, period_end: '2027-02-15T10:00:00+00:00' });
  });

  it('refuses a second plan checkout while one runs', async () => {
    const member = await createUser(db, 'buy-twice');
    await buyPlan(db, member, T0);
    await expectSqlError(
      service('public.start_membership_checkout($1, $2, $3, $4, $5, $6)', [
        member.memberId,
        'platinum',
        165,
        'premium',
        'x',
        T0.toISOString(),
      ]),
      { hint: 'membership_running' },
    );
  });

  it('a declined card-saving checkout fails the first payment and grants nothing', async () => {
    const member = await createUser(db, 'buy-declined');
    const setup = await service<{ setup_reference: string; customer_id: string }>(
      'public.start_membership_checkout($1, $2, $3, $4, $5, $6)',
      [member.memberId, 'standard', 100, 'standard', 'Standard', T0.toISOString()],
    );
    const result = await service<{ outcome: string }>(`public.apply_card_setup($1, 'chk-d', 'FAILED', 100, 'GBP', $2, null, $3)`, [
      setup.setup_reference,
      setup.customer_id,
      T0.toISOString(),
    ]);
    expect(result.outcome).toBe('marked_failed');
    expect(await paymentsOf(db, member)).toMatchObject([{ billing_reason: 'start', status: 'failed' }]);
    expect((await membershipOf(db, member)).member_tier).toBe('payg');
  });

  it('refuses a card-saving result whose amount or customer does not match', async () => {
    const member = await createUser(db, 'buy-mismatch');
    const setup = await service<{ setup_reference: string; customer_id: string }>(
      'public.start_membership_checkout($1, $2, $3, $4, $5, $6)',
      [member.memberId, 'standard', 100, 'standard', 'Standard', T0.toISOString()],
    );
    const wrongAmount = await service<{ outcome: string }>(`public.apply_card_setup($1, 'chk-m', 'PAID', 1, 'GBP', $2, 'tok', $3)`, [
      setup.setup_reference,
      setup.customer_id,
      T0.toISOString(),
    ]);
    const wrongCustomer = await service<{ outcome: string }>(
      `public.apply_card_setup($1, 'chk-m', 'PAID', 100, 'GBP', 'member-x', 'tok', $2)`,
      [setup.setup_reference, T0.toISOString()],
    );
    expect([wrongAmount.outcome, wrongCustomer.outcome]).toEqual(['mismatch', 'mismatch']);
  });
});

describe('renewal', () => {
  it('charges once when the period ends, extends by one calendar month, and a second run does nothing', async () => {
    const member = await createUser(db, 'renew');
    await buyPlan(db, member, T0);
    expect(await renewalsOf(member, days(T1, -1))).toEqual([]);
    const [charge] = await renewalsOf(member, T1);
    expect(charge).toMatchObject({ amount: 100, billing_reason: 'renewal', card_token: 'tok-pays', attempt: 1 });
    // Claimed: a second run at the same time gets nothing to charge.
    expect(await renewalsOf(member, T1)).toEqual([]);
    expect(await applyPaid(db, charge!, 'chk-r1', T1)).toMatchObject({ outcome: 'applied', status: 'paid' });
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'active',
      period_number: 2,
      period_start: T1,
      period_end: T2,
      plan_renews_at: T2,
    });
    expect(await renewalsOf(member, T1)).toEqual([]);
    expect((await paymentsOf(db, member)).map((p) => [p.billing_reason, p.status])).toEqual([
      ['start', 'paid'],
      ['renewal', 'paid'],
    ]);
    // The first month's payment has its receipt; the renewal its own.
    expect((await emailsOf(db, member)).map((e) => e.kind)).toEqual(['payment_receipt', 'renewal_receipt']);
  });

  it('a replayed provider notification applies nothing twice (one charge, one extension)', async () => {
    const member = await createUser(db, 'replay');
    await buyPlan(db, member, T0);
    const [charge] = await renewalsOf(member, T1);
    await applyPaid(db, charge!, 'chk-replay', T1);
    // The webhook path (apply_checkout_result) and the job path both answer already_applied.
    const replay = await service<{ outcome: string }>(`public.apply_checkout_result($1, 'chk-replay', 'PAID', 100, 'GBP')`, [
      charge!.checkout_reference,
    ]);
    expect(replay.outcome).toBe('already_applied');
    expect((await applyPaid(db, charge!, 'chk-replay', T1)).outcome).toBe('already_applied');
    // A notification for another checkout id is not this payment's.
    expect((await applyPaid(db, charge!, 'chk-other', T1)).outcome).toBe('mismatch');
    expect(await membershipOf(db, member)).toMatchObject({ period_number: 2, period_end: T2 });
    expect((await paymentsOf(db, member)).filter((p) => p.billing_reason === 'renewal')).toHaveLength(1);
    expect((await emailsOf(db, member)).filter((e) => e.kind === 'renewal_receipt')).toHaveLength(1);
  });

  it('keeps the anchor day: 31 January renews on 28 February, then 31 March; London summer time kept', async () => {
    const member = await createUser(db, 'anchor');
    const jan31 = new Date('2027-01-31T09:00:00Z');
    await buyPlan(db, member, jan31);
    expect((await membershipOf(db, member)).period_end).toEqual(new Date('2027-02-28T09:00:00Z'));
    const [feb] = await renewalsOf(member, new Date('2027-02-28T09:00:00Z'));
    await applyPaid(db, feb!, 'chk-feb', new Date('2027-02-28T09:00:00Z'));
    // 31 March 09:00 London is 08:00 UTC (summer time).
    expect((await membershipOf(db, member)).period_end).toEqual(new Date('2027-03-31T08:00:00Z'));
  });

  it('a provider answer for the wrong amount changes nothing', async () => {
    const member = await createUser(db, 'renew-mismatch');
    await buyPlan(db, member, T0);
    const [charge] = await renewalsOf(member, T1);
    expect((await applyPaid(db, { ...charge!, amount: 1 }, 'chk-x', T1)).outcome).toBe('mismatch');
    expect((await membershipOf(db, member)).period_number).toBe(1);
  });
});

describe('failed renewals', () => {
  it('is past due after a decline, retried 1, 3 and 7 days after the due date, then lapses to payg', async () => {
    const member = await createUser(db, 'declines');
    await buyPlan(db, member, T0);
    const due = T1;
    const [first] = await renewalsOf(member, due);
    expect((await fail(db, first!, due)).outcome).toBe('marked_failed');
    // The same failure reported again does not count twice.
    expect((await fail(db, first!, due)).outcome).toBe('already_applied');
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'past_due',
      member_tier: 'standard',
      retry_count: 1,
      next_retry_at: days(due, 1),
    });
    expect(await renewalsOf(member, days(due, 0.5))).toEqual([]);
    for (const [at, next] of [
      [1, 3],
      [3, 7],
    ] as const) {
      const [retry] = await renewalsOf(member, days(due, at));
      expect(retry).toMatchObject({ checkout_reference: first!.checkout_reference, attempt: first!.attempt + (at === 1 ? 1 : 2) });
      await fail(db, retry!, days(due, at));
      expect(await membershipOf(db, member)).toMatchObject({ status: 'past_due', next_retry_at: days(due, next) });
    }
    const [last] = await renewalsOf(member, days(due, 7));
    await fail(db, last!, days(due, 7));
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'lapsed',
      renews: false,
      member_tier: 'payg',
      has_used_trial: true,
      plan_renews_at: null,
    });
    expect(await renewalsOf(member, days(due, 30))).toEqual([]);
    const emails = (await emailsOf(db, member)).filter((e) => e.kind !== 'payment_receipt');
    expect(emails.map((e) => e.kind)).toEqual(['payment_failed', 'payment_failed', 'payment_failed', 'membership_ended']);
    expect(emails[0]!.body_text).toContain('your card was declined');
    expect(emails[0]!.subject).toBe('Payment failed: please update your card');
  });

  it('a failure found only after the last retry day lapses at once (a missed run does not give extra days)', async () => {
    const member = await createUser(db, 'late-run');
    await buyPlan(db, member, T0);
    const [charge] = await renewalsOf(member, days(T1, 8));
    await fail(db, charge!, days(T1, 8));
    expect(await membershipOf(db, member)).toMatchObject({ status: 'lapsed', member_tier: 'payg' });
  });

  it('a new card pays what is due at once and keeps the billing day', async () => {
    const member = await createUser(db, 'update-card');
    await buyPlan(db, member, T0);
    const [charge] = await renewalsOf(member, T1);
    await fail(db, charge!, T1);
    const update = await service<{ payment_reference: string; setup_reference: string; customer_id: string; amount: number }>(
      'public.start_card_update($1, $2)',
      [member.memberId, days(T1, 2).toISOString()],
    );
    expect(update).toMatchObject({ payment_reference: charge!.checkout_reference, amount: 100 });
    const saved = await service<{ charge_reference: string }>(
      `public.apply_card_setup($1, 'chk-new-card', 'PAID', 100, 'GBP', $2, 'tok-new', $3)`,
      [update.setup_reference, update.customer_id, days(T1, 2).toISOString()],
    );
    const retry = (await claim(db, saved.charge_reference, days(T1, 2)))!;
    expect(retry.card_token).toBe('tok-new');
    await applyPaid(db, retry, 'chk-renew', days(T1, 2));
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'active',
      retry_count: 0,
      next_retry_at: null,
      period_start: T1,
      period_end: T2,
    });
  });

  it('a member who is not past due replaces the card with nothing charged; one without a plan has nothing to update', async () => {
    const member = await createUser(db, 'nothing-due');
    await buyPlan(db, member, T0);
    // Decision 0104: a card-saving checkout with no payment behind it.
    expect(await service('public.start_card_update($1, $2)', [member.memberId, T0.toISOString()])).toMatchObject({
      payment_reference: null,
      amount: 100,
    });
    const payg = await createUser(db, 'nothing-due-payg');
    await expectSqlError(service('public.start_card_update($1, $2)', [payg.memberId, T0.toISOString()]), { hint: 'nothing_due' });
  });
});

describe('cancel, resume, upgrade, downgrade', () => {
  it('cancel renewal keeps access until the period ends, then payg; nothing is charged', async () => {
    const member = await createUser(db, 'cancel');
    await buyPlan(db, member, T0);
    expect(await asMember(member, 'public.cancel_membership()')).toMatchObject({ status: 'cancelled', renews: false });
    expect(await asMember(member, 'public.cancel_membership()')).toMatchObject({ status: 'cancelled' });
    expect((await membershipOf(db, member)).member_tier).toBe('standard');
    expect(await renewalsOf(member, T1)).toEqual([]);
    expect(await service<number>('public.end_finished_memberships($1)', [days(T1, -1).toISOString()])).toBe(0);
    await service('public.end_finished_memberships($1)', [T1.toISOString()]);
    expect(await membershipOf(db, member)).toMatchObject({ status: 'cancelled', ended_at: T1, member_tier: 'payg', plan_renews_at: null });
    await service('public.end_finished_memberships($1)', [T1.toISOString()]);
    expect((await emailsOf(db, member)).map((e) => e.kind)).toEqual(['payment_receipt', 'membership_ended']);
    await expectSqlError(asMember(member, 'public.resume_membership()'), { hint: 'membership_ended' });
  });

  it('resume before the end renews as before', async () => {
    const member = await createUser(db, 'resume');
    await buyPlan(db, member, new Date(Date.now() - 86_400_000));
    await asMember(member, 'public.cancel_membership()');
    expect(await asMember(member, 'public.resume_membership()')).toMatchObject({ status: 'active', renews: true });
    const end = (await membershipOf(db, member)).period_end;
    expect(await renewalsOf(member, end)).toHaveLength(1);
  });

  it('upgrade charges Platinum now, less the unused days of Standard, and starts a new period now', async () => {
    const member = await createUser(db, 'upgrade');
    await buyPlan(db, member, T0);
    const at = days(T0, 10);
    const reference = await service<string>('public.start_membership_upgrade($1, $2, $3, $4, $5, $6)', [
      member.memberId,
      'platinum',
      165,
      'premium',
      'Platinum Premium (£165/month)',
      at.toISOString(),
    ]);
    const charge = (await claim(db, reference, at))!;
    // 15 Jan to 15 Feb is 31 days; on 25 Jan 21 are unused: £100 × 21 / 31 = £67.74 off £165.
    expect(charge).toMatchObject({ amount: 97.26, billing_reason: 'upgrade', card_token: 'tok-pays' });
    await applyPaid(db, charge, 'chk-up', at);
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'active',
      tier: 'premium',
      plan_slug: 'platinum',
      price: 165,
      period_number: 2,
      period_start: at,
      member_tier: 'premium',
    });
    await expectSqlError(
      service('public.start_membership_upgrade($1, $2, $3, $4, $5, $6)', [
        member.memberId,
        'platinum',
        165,
        'premium',
        'x',
        at.toISOString(),
      ]),
      { hint: 'same_plan' },
    );
  });

  it('a declined upgrade leaves the plan as it was', async () => {
    const member = await createUser(db, 'upgrade-declined');
    await buyPlan(db, member, T0);
    const reference = await service<string>('public.start_membership_upgrade($1, $2, $3, $4, $5, $6)', [
      member.memberId,
      'platinum',
      165,
      'premium',
      'Platinum',
      T0.toISOString(),
    ]);
    await fail(db, (await claim(db, reference, T0))!, T0);
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', tier: 'standard', period_number: 1, member_tier: 'standard' });
  });

  it('an upgrade paid after the period moved on is kept as paid and flagged for a refund, never applied', async () => {
    const member = await createUser(db, 'upgrade-stale');
    await buyPlan(db, member, T0);
    const reference = await service<string>('public.start_membership_upgrade($1, $2, $3, $4, $5, $6)', [
      member.memberId,
      'platinum',
      165,
      'premium',
      'Platinum',
      days(T1, -1).toISOString(),
    ]);
    const upgrade = (await claim(db, reference, days(T1, -1)))!;
    const [renewal] = await renewalsOf(member, T1);
    await applyPaid(db, renewal!, 'chk-renewal', T1);
    await applyPaid(db, upgrade, 'chk-upgrade-late', T1);
    expect(await membershipOf(db, member)).toMatchObject({ tier: 'standard', period_number: 2 });
    expect((await paymentsOf(db, member)).find((p) => p.billing_reason === 'upgrade')).toMatchObject({
      status: 'paid',
      needs_refund: true,
    });
  });

  it('downgrade takes effect at the period end: the renewal charges and grants Standard', async () => {
    const member = await createUser(db, 'downgrade');
    await buyPlan(db, member, T0, PLAN.platinum);
    await service('public.schedule_membership_downgrade($1, $2, $3, $4, $5)', [
      member.memberId,
      'standard',
      100,
      'standard',
      T0.toISOString(),
    ]);
    expect((await membershipOf(db, member)).member_tier).toBe('premium');
    const [charge] = await renewalsOf(member, T1);
    expect(charge).toMatchObject({ amount: 100 });
    await applyPaid(db, charge!, 'chk-down', T1);
    expect(await membershipOf(db, member)).toMatchObject({ tier: 'standard', plan_slug: 'standard', price: 100, member_tier: 'standard' });
    await expectSqlError(
      service('public.schedule_membership_downgrade($1, $2, $3, $4, $5)', [member.memberId, 'standard', 100, 'standard', T1.toISOString()]),
      { hint: 'not_a_downgrade' },
    );
  });

  it('a scheduled downgrade can be undone by the member: the renewal charges and keeps Platinum', async () => {
    const member = await createUser(db, 'downgrade-undone');
    await buyPlan(db, member, T0, PLAN.platinum);
    await service('public.schedule_membership_downgrade($1, $2, $3, $4, $5)', [
      member.memberId,
      'standard',
      100,
      'standard',
      T0.toISOString(),
    ]);
    expect(await asMember(member, 'public.keep_current_plan()')).toMatchObject({
      plan_slug: 'platinum',
      next_plan_slug: null,
      next_price: null,
    });
    // Twice is the same as once; another member cannot undo it for them (each acts on their own row).
    expect(await asMember(member, 'public.keep_current_plan()')).toMatchObject({ plan_slug: 'platinum', next_plan_slug: null });
    const [charge] = await renewalsOf(member, T1);
    expect(charge).toMatchObject({ amount: PLAN.platinum.amount });
    await applyPaid(db, charge!, 'chk-kept', T1);
    expect(await membershipOf(db, member)).toMatchObject({ tier: 'premium', plan_slug: 'platinum', member_tier: 'premium' });
    await expectSqlError(asMember(await createUser(db, 'no-plan-to-keep'), 'public.keep_current_plan()'), {
      hint: 'no_running_membership',
    });
  });
});

describe('trials', () => {
  it('a free-trial sign-up is trialing; 8 days later it is payg with the trial used', async () => {
    const trial = await createUser(db, 'trial', {}, { signup_source: 'free-trial' });
    const before = await membershipOf(db, trial);
    expect(before).toMatchObject({ status: 'trialing', member_tier: 'trial', has_used_trial: false });
    const now = new Date();
    expect(await service<number>('public.expire_trials($1)', [days(now, 6).toISOString()])).toBe(0);
    // The trial's last day: one "ends tomorrow" email, however often the job runs.
    await service('public.enqueue_membership_reminders($1)', [days(now, 6.5).toISOString()]);
    await service('public.enqueue_membership_reminders($1)', [days(now, 6.6).toISOString()]);
    expect((await emailsOf(db, trial)).map((e) => e.subject)).toEqual(['Your free trial ends tomorrow']);
    expect(await service<number>('public.expire_trials($1)', [days(now, 8).toISOString()])).toBe(1);
    expect(await service<number>('public.expire_trials($1)', [days(now, 8).toISOString()])).toBe(0);
    expect(await membershipOf(db, trial)).toMatchObject({
      status: 'lapsed',
      member_tier: 'payg',
      has_used_trial: true,
      ended_at: before.period_end,
    });
  });

  it('booking the free class ends the trialing membership with the trial', async () => {
    const trial = await createUser(db, 'trial-booked', {}, { signup_source: 'free-trial' });
    await db.query(`update public.members set membership_tier = 'payg', has_used_trial = true, trial_expires_at = null where id = $1`, [
      trial.memberId,
    ]);
    expect((await membershipOf(db, trial)).status).toBe('lapsed');
  });

  it('a trial member who buys a plan simply starts it', async () => {
    const trial = await createUser(db, 'trial-buys', {}, { signup_source: 'free-trial' });
    await buyPlan(db, trial, new Date());
    expect(await membershipOf(db, trial)).toMatchObject({ status: 'active', member_tier: 'standard', has_used_trial: true });
  });
});

describe('reminders and holds', () => {
  it('reminds 3 days before a renewal, once per period', async () => {
    const member = await createUser(db, 'reminder');
    await buyPlan(db, member, T0);
    expect(await service<number>('public.enqueue_membership_reminders($1)', [days(T1, -4).toISOString()])).toBe(0);
    await service('public.enqueue_membership_reminders($1)', [days(T1, -3).toISOString()]);
    await service('public.enqueue_membership_reminders($1)', [days(T1, -1).toISOString()]);
    const reminders = (await emailsOf(db, member)).filter((e) => e.kind === 'renewal_reminder');
    expect(reminders.map((e) => e.subject)).toEqual(['Your Standard membership renews on 15 February 2027']);
    expect(reminders[0]!.body_text).toContain('we will charge £100.00 to your saved card');
  });

  it('queues class reminders as of the given time, once per booking', async () => {
    const member = await createUser(db, 'class-reminder', { membership_tier: 'premium' });
    const classId = await createClass(db, { name: 'Reminded Later', startsIn: '30 hours' });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [member.memberId, classId]);
    const at = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();
    const remindersOf = async () => (await emailsOf(db, member)).filter((e) => e.kind === 'class_reminder');
    await service('public.enqueue_class_reminders_at($1)', [at(0)]);
    expect(await remindersOf()).toEqual([]);
    await service('public.enqueue_class_reminders_at($1)', [at(10)]);
    await service('public.enqueue_class_reminders_at($1)', [at(10)]);
    expect((await remindersOf()).map((e) => e.subject.split(',')[0])).toEqual(['Reminder: Reminded Later']);
    await expectSqlError(service('public.enqueue_class_reminders_at($1, 0)', [at(10)]), { hint: 'invalid_window' });
  });

  it('releases class holds whose time is up as of the given time', async () => {
    const member = await createUser(db, 'hold');
    const { rows } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity, price_payg) values ('Held', now() + interval '3 days', 'Coach', 'Group', 5, 10) returning id`,
    );
    await db.query(
      `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at) values ($1, $2, 'payg', 'pending', now() + interval '30 minutes')`,
      [member.memberId, rows[0]!.id],
    );
    expect(await service<number>('public.release_expired_holds_at($1)', [new Date(Date.now() + 10 * 60_000).toISOString()])).toBe(0);
    expect(await service<number>('public.release_expired_holds_at($1)', [new Date(Date.now() + 31 * 60_000).toISOString()])).toBe(1);
  });
});

describe('admin', () => {
  let admin: TestUser;
  beforeAll(async () => {
    admin = await createUser(db, 'plan-admin', { is_admin: true });
  });

  it('puts a member on a plan at a price: the first month is charged by the next run, and the tier comes with that payment', async () => {
    const student = await createUser(db, 'student');
    const now = new Date();
    expect(await asMember(admin, 'public.admin_put_on_plan($1, $2, $3)', [student.memberId, 'standard', 70])).toMatchObject({
      status: 'active',
      price: 70,
      has_card: false,
    });
    // Decision 0016: nothing is paid yet, so nothing is granted (no plan bookings, no premium classes).
    expect(await membershipOf(db, student)).toMatchObject({ member_tier: 'payg', price: 70, renews: true });
    const [charge] = await renewalsOf(student, new Date(now.getTime() + 1000));
    expect(charge).toMatchObject({ amount: 70, card_token: null });
    await fail(db, charge!, new Date(now.getTime() + 1000), 'no_card');
    expect(await membershipOf(db, student)).toMatchObject({ status: 'past_due', member_tier: 'payg' });
    // Their first notice is an invitation to add a card, not "Payment failed".
    const [invitation] = await emailsOf(db, student);
    expect(invitation!.subject).toBe('Add a card to start your Standard membership');
    expect(invitation!.body_text).toContain('The studio has set up a Standard membership for you at £70.00 a month.');
    expect(invitation!.body_text).toContain('To start it, add a card on your membership page: the first month is taken then.');
    expect(invitation!.body_text).not.toMatch(/failed|declined|no saved card/);
    expect(invitation!.links).toEqual([{ label: 'Add a card', path: '/membership' }]);
  });

  it('gives an admin-assigned plan its tier from its first successful payment', async () => {
    const member = await createUser(db, 'assigned-then-paid');
    await db.query(`insert into private.member_cards (member_id, customer_id, token, saved_at) values ($1, $2, 'tok-pays', now())`, [
      member.memberId,
      `member-${member.memberId}`,
    ]);
    const now = new Date();
    await asMember(admin, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'platinum', 120]);
    expect((await membershipOf(db, member)).member_tier).toBe('payg');
    const [charge] = await renewalsOf(member, new Date(now.getTime() + 1000));
    await applyPaid(db, charge!, `chk-${charge!.checkout_reference}`, new Date(now.getTime() + 2000));
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', member_tier: 'premium', period_number: 1 });
  });

  it('an admin-assigned plan cancelled before its first charge is never charged and never granted', async () => {
    const member = await createUser(db, 'assigned-then-cancelled');
    const now = new Date();
    await asMember(admin, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'platinum', 120]);
    await asMember(member, 'public.cancel_membership()');
    expect(await renewalsOf(member, new Date(now.getTime() + 1000))).toEqual([]);
    await service('public.end_finished_memberships($1)', [new Date(now.getTime() + 2000).toISOString()]);
    expect(await membershipOf(db, member)).toMatchObject({ member_tier: 'payg' });
    expect(await paymentsOf(db, member)).toEqual([]);
  });

  it('changes a running plan at its period end: the paid month is kept, the next renewal charges the new price', async () => {
    const member = await createUser(db, 'student-later');
    await buyPlan(db, member, T0);
    await asMember(member, 'public.cancel_membership()');
    expect(await asMember(admin, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'platinum', 115.5])).toMatchObject({
      status: 'active',
      renews: true,
      plan_slug: 'standard',
      price: 100,
      next_plan_slug: 'platinum',
      next_price: 115.5,
    });
    // Nothing is charged before the period ends, and the tier stays until then.
    expect(await renewalsOf(member, days(T1, -1))).toEqual([]);
    expect(await membershipOf(db, member)).toMatchObject({ member_tier: 'standard', period_end: T1 });
    const [renewal] = await renewalsOf(member, T1);
    expect(renewal).toMatchObject({ amount: 115.5 });
    await applyPaid(db, renewal!, 'chk-student-later', T1);
    expect(await membershipOf(db, member)).toMatchObject({
      status: 'active',
      plan_slug: 'platinum',
      price: 115.5,
      member_tier: 'premium',
      period_end: T2,
    });
    expect((await paymentsOf(db, member)).map((p) => p.amount)).toEqual([100, 115.5]);
  });

  it('refuses to change a past-due plan (its failed renewal is owed at the old price), changing nothing', async () => {
    const member = await createUser(db, 'student-past-due');
    await buyPlan(db, member, T0);
    const [renewal] = await renewalsOf(member, T1);
    await fail(db, renewal!, T1);
    const before = await membershipOf(db, member);
    await expectSqlError(asMember(admin, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'standard', 70]), {
      hint: 'membership_past_due',
    });
    expect(await membershipOf(db, member)).toEqual(before);
  });

  it('refuses non-admins and bad prices, changing nothing', async () => {
    const member = await createUser(db, 'not-admin');
    await expectSqlError(asMember(member, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'standard', 1]), { hint: 'not_admin' });
    await expectSqlError(asMember(admin, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'standard', -5]), {
      hint: 'invalid_price',
    });
    await expectSqlError(asMember(admin, 'public.admin_put_on_plan($1, $2, $3)', [member.memberId, 'gold', 50]), { hint: 'invalid_plan' });
    expect((await membershipOf(db, member)).status).toBeNull();
  });

  it('membership figures: active per plan, MRR, renewals and failed renewals this month', async () => {
    const at = new Date('2031-05-20T12:00:00Z');
    type Figures = {
      active_standard: number;
      active_premium: number;
      mrr: number;
      renewals_this_month: number;
      failed_renewals_this_month: number;
      past_due: number;
    };
    const before = await asMember<Figures>(admin, 'public.admin_membership_stats($1)', [at.toISOString()]);
    const a = await createUser(db, 'stats-a');
    const b = await createUser(db, 'stats-b');
    await buyPlan(db, a, new Date('2031-04-20T12:00:00Z'));
    await buyPlan(db, b, new Date('2031-04-20T12:00:00Z'), PLAN.platinum);
    const due = await claimDue(db, at);
    const idOf = async (u: TestUser) =>
      (await db.query<{ id: string }>('select id from public.memberships where member_id = $1', [u.memberId])).rows[0]!.id;
    const [ra] = chargesFor(due, `renew-${await idOf(a)}`);
    const [rb] = chargesFor(due, `renew-${await idOf(b)}`);
    await applyPaid(db, ra!, 'chk-sa', at);
    await fail(db, rb!, at);
    const after = await asMember<Figures>(admin, 'public.admin_membership_stats($1)', [at.toISOString()]);
    expect(after.active_standard - before.active_standard).toBe(1);
    expect(after.active_premium - before.active_premium).toBe(1);
    expect(Number(after.mrr) - Number(before.mrr)).toBe(265);
    expect(after.renewals_this_month - before.renewals_this_month).toBe(1);
    expect(after.failed_renewals_this_month - before.failed_renewals_this_month).toBe(1);
    expect(after.past_due - before.past_due).toBe(1);
    await expectSqlError(asMember(a, 'public.admin_membership_stats($1)', [at.toISOString()]), { hint: 'not_admin' });
  });
});

describe('access', () => {
  it('members read only their own membership; nobody reads saved cards through the API', async () => {
    const owner = await createUser(db, 'owner');
    const other = await createUser(db, 'other');
    await buyPlan(db, owner, T0);
    const read = (u: TestUser) => asUser(db, u.claims, async (tx) => (await tx.query('select member_id from public.memberships')).rows);
    expect(await read(owner)).toEqual([{ member_id: owner.memberId }]);
    expect(await read(other)).toEqual([]);
    await expectSqlError(
      asUser(db, owner.claims, (tx) => tx.query('select * from private.member_cards')),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, owner.claims, (tx) => tx.query(`select public.claim_due_renewals(now())`)),
      { code: '42501' },
    );
  });
});
