import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { collectionFor, event, recordSubmission, setFlow, setUpDirectDebit, startDirectDebit } from './support/direct-debit-steps.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { buyPlan, claim, claimDue, emailsOf, fail, membershipOf, paymentsOf } from './support/membership-steps.ts';

// Decision 0076: a plan paid by Direct Debit. The mandate comes from a Billing Request; each payment
// due is submitted once per attempt with a charge date that respects the Bacs lead times; webhook
// events move a collection only forward, each applied once, in any order; confirmed pays the
// membership the card's way; a failure is retried on the Direct Debit days; a charge-back makes the
// plan past due and is owed back to the studio; an ended mandate asks for a new one.

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

// Friday 15 January 2027, London on GMT.
const T0 = new Date('2027-01-15T10:00:00Z');
const at = (iso: string) => new Date(iso);
const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));

const ofMember = (charge: object, member: TestUser) => (charge as { member_id?: string }).member_id === member.memberId;

async function collectionsOf(member: TestUser) {
  const { rows } = await db.query<{ provider_payment_id: string; status: string; attempt: number; charge_date: string }>(
    `select c.provider_payment_id, c.status, c.attempt, to_char(c.charge_date, 'YYYY-MM-DD') as charge_date
       from private.direct_debit_collections c join public.payments p on p.id = c.payment_id
      where p.member_id = $1 order by c.created_at`,
    [member.memberId],
  );
  return rows;
}

describe('Bacs lead times', () => {
  it('skip weekends and bank holidays: 3 working days under an active mandate, 5 for a new one', async () => {
    const value = async (sql: string, params: unknown[]) => (await db.query<{ v: string }>(`select ${sql} as v`, params)).rows[0]!.v;
    const after = (from: string, days: number) =>
      value(`to_char(private.bacs_working_days_after($1::date, $2), 'YYYY-MM-DD')`, [from, days]);
    expect(await after('2027-01-15', 3)).toBe('2027-01-20');
    // Good Friday and Easter Monday 2027.
    expect(await after('2027-03-25', 3)).toBe('2027-04-01');
    const date = (status: string, created: string, now: string) =>
      value(`to_char(private.direct_debit_charge_date($1, $2::timestamptz, $3::timestamptz), 'YYYY-MM-DD')`, [status, created, now]);
    expect(await date('pending', '2027-01-15T10:00:00Z', '2027-01-15T10:00:00Z')).toBe('2027-01-22');
    expect(await date('active', '2027-01-15T10:00:00Z', '2027-01-15T10:00:00Z')).toBe('2027-01-20');
    // Late on a London evening is the next day in no case: the London date counts.
    expect(await date('active', '2027-01-01T10:00:00Z', '2027-01-15T23:30:00Z')).toBe('2027-01-20');
  });
});

describe('a plan paid by Direct Debit', () => {
  it('first month: pending while it is on its way, the plan starts when it is confirmed, events once', async () => {
    const member = await createUser(db, 'dd-first');
    const { setup, fulfilled, charge, collection } = await setUpDirectDebit(db, member, T0, 'first');
    expect(setup.payment_reference).toMatch(/^plan-/);
    expect(fulfilled).toEqual({ outcome: 'applied', charge_reference: setup.payment_reference });
    expect(charge.attempt).toBe(1);
    expect(collection).toMatchObject({ method: 'direct_debit', provider_mandate_id: 'MD-first', charge_date: '2027-01-22' });

    expect(await paymentsOf(db, member)).toEqual([
      { billing_reason: 'start', period_number: null, status: 'pending', amount: 100, needs_refund: false },
    ]);
    expect((await membershipOf(db, member)).member_tier).toBe('payg');
    const notice = (await emailsOf(db, member)).find((e) => e.kind === 'direct_debit_notice')!;
    expect(notice.subject).toBe('Direct Debit: £100.00 will be collected on 22 January 2027');
    expect(notice.body_text).toContain('You can keep booking classes while the payment is on its way.');

    // A second run cannot submit it again while it is on its way.
    expect((await claim(db, charge.checkout_reference, at('2027-01-16T10:00:00Z')))?.checkout_reference ?? null).toBeNull();

    await event(db, 'mandates', 'active', { mandate: 'MD-first' }, at('2027-01-19T10:00:00Z'));
    expect((await event(db, 'payments', 'submitted', { payment: 'PM-first-1' }, at('2027-01-20T10:00:00Z'))).outcome).toBe('applied');
    const confirmed = await event(db, 'payments', 'confirmed', { payment: 'PM-first-1' }, at('2027-01-23T09:00:00Z'), {
      id: 'EV-first-confirmed',
    });
    expect(confirmed.outcome).toBe('applied');
    const m = await membershipOf(db, member);
    expect(m).toMatchObject({ status: 'active', tier: 'standard', member_tier: 'standard', period_number: 1 });
    expect(m.period_end).toEqual(at('2027-02-23T09:00:00Z'));

    // A replay, a later status and an older one arriving late change nothing more.
    expect(
      (await event(db, 'payments', 'confirmed', { payment: 'PM-first-1' }, at('2027-01-24T09:00:00Z'), { id: 'EV-first-confirmed' }))
        .outcome,
    ).toBe('already_applied');
    expect((await event(db, 'payments', 'paid_out', { payment: 'PM-first-1' }, at('2027-01-25T09:00:00Z'))).outcome).toBe('applied');
    expect((await event(db, 'payments', 'submitted', { payment: 'PM-first-1' }, at('2027-01-25T10:00:00Z'))).outcome).toBe('ignored');
    expect((await event(db, 'payments', 'confirmed', { payment: 'PM-first-1' }, at('2027-01-25T11:00:00Z'))).outcome).toBe('ignored');
    expect(await paymentsOf(db, member)).toEqual([
      { billing_reason: 'start', period_number: 1, status: 'paid', amount: 100, needs_refund: false },
    ]);
    expect((await membershipOf(db, member)).period_end).toEqual(at('2027-02-23T09:00:00Z'));
    expect(await collectionsOf(member)).toEqual([
      { provider_payment_id: 'PM-first-1', status: 'paid_out', attempt: 1, charge_date: '2027-01-22' },
    ]);
    const { rows } = await db.query<{ collected_by: string }>('select collected_by from public.payments where member_id = $1', [
      member.memberId,
    ]);
    expect(rows).toEqual([{ collected_by: 'direct_debit' }]);
  });

  it('paid_out before confirmed still pays once; an event for a payment not recorded yet is not kept', async () => {
    const member = await createUser(db, 'dd-order');
    const setup = await startDirectDebit(db, member, 'standard', T0);
    await setFlow(db, setup, 'BRQ-order');
    // The mandate's own event before the Billing Request's: not ours yet, so GoCardless retries it.
    expect((await event(db, 'mandates', 'active', { mandate: 'MD-order' }, T0, { id: 'EV-order-md' })).outcome).toBe('unknown_reference');
    const fulfilled = await event(
      db,
      'billing_requests',
      'fulfilled',
      { billing_request: 'BRQ-order', mandate_request_mandate: 'MD-order' },
      T0,
    );
    expect((await event(db, 'mandates', 'active', { mandate: 'MD-order' }, T0, { id: 'EV-order-md' })).outcome).toBe('applied');
    const charge = (await claim(db, fulfilled.charge_reference!, T0))!;
    const collection = await collectionFor(db, charge, T0);
    // Once GoCardless says the mandate is active, the active mandate's lead time.
    expect(collection.charge_date).toBe('2027-01-20');
    expect((await event(db, 'payments', 'paid_out', { payment: 'PM-order-1' }, T0)).outcome).toBe('unknown_reference');
    await recordSubmission(db, collection, 'PM-order-1', T0);
    expect(await recordSubmission(db, collection, 'PM-order-1', T0)).toBe('already_applied');
    expect(await recordSubmission(db, collection, 'PM-other', T0)).toBe('mismatch');
    expect((await event(db, 'payments', 'paid_out', { payment: 'PM-order-1' }, at('2027-01-25T09:00:00Z'))).outcome).toBe('applied');
    expect((await event(db, 'payments', 'confirmed', { payment: 'PM-order-1' }, at('2027-01-25T10:00:00Z'))).outcome).toBe('ignored');
    expect((await membershipOf(db, member)).period_number).toBe(1);
    expect((await paymentsOf(db, member)).map((p) => p.status)).toEqual(['paid']);
    // One advance notice, whatever was replayed.
    expect((await emailsOf(db, member)).filter((e) => e.kind === 'direct_debit_notice')).toHaveLength(1);
  });

  it('a failed renewal is retried on the Direct Debit days, the member booking meanwhile, then paid', async () => {
    const member = await createUser(db, 'dd-retry');
    await setUpDirectDebit(db, member, T0, 'retry');
    await event(db, 'mandates', 'active', { mandate: 'MD-retry' }, at('2027-01-19T10:00:00Z'));
    await event(db, 'payments', 'confirmed', { payment: 'PM-retry-1' }, at('2027-01-23T09:00:00Z'));

    // The reminder before it says how it is taken.
    await service('public.enqueue_membership_reminders($1)', [at('2027-02-21T10:00:00Z').toISOString()]);
    const reminder = (await emailsOf(db, member)).find((e) => e.kind === 'renewal_reminder')!;
    expect(reminder.body_text).toContain('renews on 23 February 2027: we will collect £100.00 by Direct Debit.');

    // The renewal on 23 February (a Tuesday): charged on Friday 26th at the earliest.
    const due = (await claimDue(db, at('2027-02-23T10:00:00Z'))).find(
      (c) => c.checkout_reference.startsWith('renew-') && ofMember(c, member),
    )!;
    expect(due).toBeDefined();
    const first = await collectionFor(db, due, at('2027-02-23T10:00:00Z'));
    expect(first).toMatchObject({ method: 'direct_debit', charge_date: '2027-02-26' });
    await recordSubmission(db, first, 'PM-retry-r1', at('2027-02-23T10:00:00Z'));
    // On its way: not claimed again, and the plan still books (active, its tier kept).
    expect((await claimDue(db, at('2027-02-24T10:00:00Z'))).map((c) => c.checkout_reference)).not.toContain(due.checkout_reference);
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', member_tier: 'standard' });

    await event(db, 'payments', 'failed', { payment: 'PM-retry-r1' }, at('2027-03-01T10:00:00Z'), {
      details: { cause: 'insufficient_funds', description: 'The customer did not have enough money.' },
    });
    const pastDue = await membershipOf(db, member);
    expect(pastDue).toMatchObject({ status: 'past_due', member_tier: 'standard', retry_count: 1 });
    expect(pastDue.next_retry_at).toEqual(at('2027-03-02T09:00:00Z'));
    const failed = (await emailsOf(db, member)).find((e) => e.kind === 'payment_failed')!;
    expect(failed.subject).toBe('Your Direct Debit payment failed');
    expect(failed.body_text).toContain('by Direct Debit (insufficient funds).');
    expect(failed.body_text).toContain('try again on 2 March 2027');

    // Not before the retry day; then a second submission, its own collection.
    expect((await claimDue(db, at('2027-03-02T08:00:00Z'))).map((c) => c.checkout_reference)).not.toContain(due.checkout_reference);
    const retry = (await claimDue(db, at('2027-03-02T10:00:00Z'))).find((c) => c.checkout_reference === due.checkout_reference)!;
    expect(retry.attempt).toBe(2);
    const second = await collectionFor(db, retry, at('2027-03-02T10:00:00Z'));
    expect(second.collection_id).not.toBe(first.collection_id);
    await recordSubmission(db, second, 'PM-retry-r2', at('2027-03-02T10:00:00Z'));
    // The first one's late news changes nothing.
    expect((await event(db, 'payments', 'confirmed', { payment: 'PM-retry-r1' }, at('2027-03-03T10:00:00Z'))).outcome).toBe('ignored');
    await event(db, 'payments', 'confirmed', { payment: 'PM-retry-r2' }, at('2027-03-06T10:00:00Z'));
    const renewed = await membershipOf(db, member);
    expect(renewed).toMatchObject({ status: 'active', period_number: 2, retry_count: 0 });
    expect(renewed.period_end).toEqual(at('2027-03-23T09:00:00Z'));
    const receipt = (await emailsOf(db, member)).find((e) => e.kind === 'renewal_receipt')!;
    expect(receipt.body_text).toContain('we collected £100.00 by Direct Debit for');
    expect((await collectionsOf(member)).map((c) => `${c.provider_payment_id} ${c.status} ${c.attempt}`)).toEqual([
      'PM-retry-1 confirmed 1',
      'PM-retry-r1 failed 1',
      'PM-retry-r2 confirmed 2',
    ]);
  });

  it('the third failure lapses the plan: two retries, not more', async () => {
    const member = await createUser(db, 'dd-lapse');
    await setUpDirectDebit(db, member, T0, 'lapse');
    await event(db, 'payments', 'confirmed', { payment: 'PM-lapse-1' }, at('2027-01-23T09:00:00Z'));
    const times = ['2027-02-23T10:00:00Z', '2027-03-02T10:00:00Z', '2027-03-09T10:00:00Z'];
    for (const [i, time] of times.entries()) {
      const charge = (await claimDue(db, at(time))).find((c) => c.checkout_reference.startsWith('renew-') && ofMember(c, member))!;
      const collection = await collectionFor(db, charge, at(time));
      await recordSubmission(db, collection, `PM-lapse-r${i}`, at(time));
      await event(db, 'payments', 'failed', { payment: `PM-lapse-r${i}` }, new Date(at(time).getTime() + 4 * 86_400_000), {
        details: { cause: 'refer_to_payer' },
      });
    }
    expect(await membershipOf(db, member)).toMatchObject({ status: 'lapsed', member_tier: 'payg' });
    expect((await emailsOf(db, member)).map((e) => e.kind)).toContain('membership_ended');
  });

  it('a charge-back makes the plan past due, owes the money to the studio once, and shows in the revenue', async () => {
    const member = await createUser(db, 'dd-chargeback');
    await setUpDirectDebit(db, member, T0, 'cb');
    await event(db, 'payments', 'confirmed', { payment: 'PM-cb-1' }, at('2027-01-23T09:00:00Z'));
    const back = () => event(db, 'payments', 'charged_back', { payment: 'PM-cb-1' }, at('2027-02-05T10:00:00Z'), { id: 'EV-cb-back' });
    expect((await back()).outcome).toBe('applied');
    expect((await back()).outcome).toBe('already_applied');
    expect((await event(db, 'payments', 'paid_out', { payment: 'PM-cb-1' }, at('2027-02-06T10:00:00Z'))).outcome).toBe('ignored');
    const m = await membershipOf(db, member);
    expect(m).toMatchObject({ status: 'past_due', renews: true, member_tier: 'standard' });
    expect(m.next_retry_at).toEqual(m.period_end);
    const { rows } = await db.query<{ amount: number; settled_at: Date | null }>(
      'select amount::float8 as amount, settled_at from private.direct_debit_chargebacks where member_id = $1',
      [member.memberId],
    );
    expect(rows).toEqual([{ amount: 100, settled_at: null }]);
    expect((await emailsOf(db, member)).filter((e) => e.kind === 'direct_debit_charged_back')).toHaveLength(1);

    const admin = await createUser(db, 'dd-admin', { is_admin: true });
    const reports = await asUser(db, admin.claims, (tx) =>
      rpc<{ revenue: { month: string | null; line: string; gross: number; refunds: number }[] }>(
        tx,
        "public.admin_reports('2027-01-01', '2027-02-28')",
      ),
    );
    const revenue = reports.revenue.filter((r) => r.month === null);
    const line = (name: string) => revenue.find((r) => r.line === name)!;
    expect(Number(line('memberships_direct_debit').gross)).toBeGreaterThanOrEqual(100);
    expect(line('memberships_direct_debit').refunds).toBeGreaterThanOrEqual(1);

    // An admin records the money received, once.
    const list = await asUser(db, admin.claims, (tx) =>
      tx.query<{ id: string; member_id: string }>('select * from public.admin_direct_debit_chargebacks()'),
    );
    const mine = list.rows.find((r) => r.member_id === member.memberId)!;
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_settle_chargeback($1, $2)', [mine.id, 'Paid at the desk']));
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_settle_chargeback($1, $2)', [mine.id, 'Again'])),
      { hint: 'chargeback_not_found' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_settle_chargeback($1, $2)', [mine.id, 'Me'])),
      { hint: 'not_admin' },
    );
  });

  it('a cancelled mandate asks for a new one; the next renewal without one fails with that reason', async () => {
    const member = await createUser(db, 'dd-cancelled');
    await setUpDirectDebit(db, member, T0, 'cx');
    await event(db, 'payments', 'confirmed', { payment: 'PM-cx-1' }, at('2027-01-23T09:00:00Z'));
    await event(db, 'mandates', 'cancelled', { mandate: 'MD-cx' }, at('2027-02-01T10:00:00Z'), {
      details: { description: 'The mandate was cancelled at your bank.' },
    });
    await event(db, 'mandates', 'cancelled', { mandate: 'MD-cx' }, at('2027-02-01T11:00:00Z'));
    const asked = (await emailsOf(db, member)).filter((e) => e.kind === 'direct_debit_mandate_cancelled');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.body_text).toContain('set up a new Direct Debit or pay by card on your membership page before 23 February 2027');
    // An old "active" arriving late does not bring it back.
    expect((await event(db, 'mandates', 'active', { mandate: 'MD-cx' }, at('2027-02-01T12:00:00Z'))).outcome).toBe('ignored');

    const charge = (await claimDue(db, at('2027-02-23T10:00:00Z'))).find(
      (c) => c.checkout_reference.startsWith('renew-') && ofMember(c, member),
    )!;
    const collection = await collectionFor(db, charge, at('2027-02-23T10:00:00Z'));
    expect(collection).toMatchObject({ method: 'direct_debit', collection_id: null, provider_mandate_id: null });
    await fail(db, charge, at('2027-02-23T10:00:00Z'), 'direct_debit:no_mandate');
    expect((await emailsOf(db, member)).find((e) => e.kind === 'payment_failed')!.body_text).toContain('there is no Direct Debit set up.');

    // A new mandate for the running plan collects what is due.
    const setup = await startDirectDebit(db, member, null, at('2027-02-24T10:00:00Z'));
    expect(setup.payment_reference).toBeNull();
    await setFlow(db, setup, 'BRQ-cx2');
    const fulfilled = await event(
      db,
      'billing_requests',
      'fulfilled',
      { billing_request: 'BRQ-cx2', mandate_request_mandate: 'MD-cx2' },
      at('2027-02-24T10:00:00Z'),
    );
    expect(fulfilled.charge_reference).toBe(charge.checkout_reference);
  });

  it('two tabs are sent to one setup; a card checkout supersedes it; switching method follows the mandate', async () => {
    const member = await createUser(db, 'dd-tabs');
    const one = await startDirectDebit(db, member, 'standard', T0);
    const two = await startDirectDebit(db, member, 'standard', T0);
    expect(two.setup_reference).toBe(one.setup_reference);
    expect(two.payment_reference).toBe(one.payment_reference);
    expect(await setFlow(db, one, 'BRQ-tabs')).toBe('https://pay.example.test/flow/BRQ-tabs');
    // The second tab's own Billing Request is refused: the first one recorded is the flow.
    await expectSqlError(setFlow(db, two, 'BRQ-tabs-2'), { hint: 'setup_mismatch' });
    expect((await startDirectDebit(db, member, 'standard', T0)).flow_url).toBe('https://pay.example.test/flow/BRQ-tabs');
    // Another plan replaces it.
    const platinum = await startDirectDebit(db, member, 'platinum', T0);
    expect(platinum.setup_reference).not.toBe(one.setup_reference);
    expect(platinum.amount).toBe(165);
    const fulfilledLate = await event(
      db,
      'billing_requests',
      'fulfilled',
      { billing_request: 'BRQ-tabs', mandate_request_mandate: 'MD-tabs' },
      T0,
    );
    // The old setup's mandate is kept, but its superseded first month is never collected.
    expect(fulfilledLate.charge_reference).toBeNull();

    await expectSqlError(startDirectDebit(db, member, 'dropin', T0), { hint: 'not_a_membership' });

    const switcher = await createUser(db, 'dd-switch');
    await buyPlan(db, switcher, T0);
    const set = (method: string) => asUser(db, switcher.claims, (tx) => rpc<string>(tx, 'public.set_billing_method($1)', [method]));
    await expectSqlError(set('direct_debit'), { hint: 'mandate_needed' });
    await expectSqlError(set('cheque'), { hint: 'invalid_method' });
    const setup = await startDirectDebit(db, switcher, null, T0);
    await setFlow(db, setup, 'BRQ-switch');
    expect(
      (await event(db, 'billing_requests', 'fulfilled', { billing_request: 'BRQ-switch', mandate_request_mandate: 'MD-switch' }, T0))
        .charge_reference,
    ).toBeNull();
    const billing = () =>
      asUser(db, switcher.claims, (tx) => rpc<{ method: string; mandate_status: string; has_card: boolean }>(tx, 'public.my_billing()'));
    expect(await billing()).toMatchObject({ method: 'direct_debit', mandate_status: 'pending', has_card: true });
    expect(await set('card')).toBe('card');
    expect(await set('direct_debit')).toBe('direct_debit');
    // The renewal goes by Direct Debit now.
    const charge = (await claimDue(db, at('2027-02-15T10:30:00Z'))).find((c) => ofMember(c, switcher))!;
    expect((await collectionFor(db, charge, at('2027-02-15T10:30:00Z'))).method).toBe('direct_debit');
    // A card saved ("Update card") makes the card the method again.
    await db.query(`update private.member_cards set token = 'tok-new' where member_id = $1`, [switcher.memberId]);
    expect((await billing()).method).toBe('card');
  });

  it('refuses events without an id and keeps members to their own billing', async () => {
    await expectSqlError(
      service('public.apply_direct_debit_event($1, $2, $3, $4, $5, $6)', ['', 'payments', 'confirmed', '{}', '{}', T0.toISOString()]),
      { hint: 'invalid_event' },
    );
    const other = await createUser(db, 'dd-other');
    const { rows } = await asUser(db, other.claims, (tx) => tx.query('select * from public.billing_methods'));
    expect(rows).toEqual([]);
  });
});
