import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { SqlDatabase } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { event, setUpDirectDebit } from './support/direct-debit-steps.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { emailsOf } from './support/membership-steps.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Decision 0103: a refund owed of a Direct Debit payment is refunded from Refunds owed through
// GoCardless, like a card one through SumUp: begin_provider_refund claims it once and says what to
// send (GoCardless's payment, the total refunded for total_amount_confirmation); only a collection
// confirmed or paid out, never more than it collected; the member's receipt says where the money goes.

type Claim = {
  refund_id: string;
  already_refunded: boolean;
  amount: number | null;
  collected_by: string | null;
  direct_debit_payment_id: string | null;
  total_refunded: number | null;
  provider_checkout_id: string | null;
  direct_debit_idempotency_key: string | null;
};

const T0 = new Date('2027-01-15T10:00:00Z');

/** A Standard plan's first month by Direct Debit (`PM-<n>-1`), taken to `status` by webhook events. */
async function directDebitPayment(db: SqlDatabase, member: TestUser, n: string, status: 'submitted' | 'confirmed' | 'paid_out') {
  await setUpDirectDebit(db, member, T0, n);
  const steps = ['submitted', 'confirmed', 'paid_out'] as const;
  for (const step of steps.slice(0, steps.indexOf(status) + 1)) {
    await event(db, 'payments', step, { payment: `PM-${n}-1` }, new Date('2027-01-23T09:00:00Z'));
  }
  const { rows } = await db.query<{ id: string }>(`select id from public.payments where member_id = $1`, [member.memberId]);
  return rows[0]!.id;
}

/** The studio owes the payment back (the path a duplicate or a superseded payment takes). */
async function oweBack(db: SqlDatabase, paymentId: string) {
  await db.query(`select private.owe_payment_back($1, 'duplicate_payment', now())`, [paymentId]);
  const { rows } = await db.query<{ id: string }>(`select id from public.refunds_owed where payment_id = $1`, [paymentId]);
  return rows[0]!.id;
}

/** A refund owed of a collected Direct Debit payment, refunded through GoCardless as `RF-<n>`. */
async function refundedThroughGoCardless(db: SqlDatabase, admin: TestUser, member: TestUser, n: string) {
  const paymentId = await directDebitPayment(db, member, n, 'confirmed');
  const refundId = await oweBack(db, paymentId);
  await asUser(db, admin.claims, (tx) => rpc(tx, 'public.begin_provider_refund($1)', [refundId]));
  await asUser(db, admin.claims, (tx) => rpc(tx, 'public.finish_provider_refund($1, $2, $3)', [refundId, 'refunded', `RF-${n}`]));
  return { paymentId, refundId };
}

type Owed = {
  refunded_at: string | null;
  provider_refund_id: string | null;
  provider_refund_state: string | null;
  provider_refund_error: string | null;
};
async function owed(db: SqlDatabase, refundId: string): Promise<Owed> {
  const { rows } = await db.query<Owed>(
    'select refunded_at, provider_refund_id, provider_refund_state, provider_refund_error from public.refunds_owed where id = $1',
    [refundId],
  );
  return rows[0]!;
}
async function goCardlessRefund(db: SqlDatabase, providerRefundId: string) {
  const { rows } = await db.query<{ status: string; failure_cause: string | null; confirmed_at: Date | null }>(
    'select status, failure_cause, confirmed_at from private.direct_debit_refunds where provider_refund_id = $1',
    [providerRefundId],
  );
  return rows[0] ?? null;
}
const refundEvent = (
  db: SqlDatabase,
  action: string,
  n: string,
  at: string,
  options: { id?: string; details?: Record<string, string> } = {},
) => event(db, 'refunds', action, { refund: `RF-${n}`, payment: `PM-${n}-1` }, new Date(at), options);

const FAILED = { cause: 'refund_failed', description: "The refund could not be paid to the customer's bank account." };

describe('refunding a Direct Debit payment', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'dd-refund-admin', { is_admin: true });
  });
  afterAll(async () => {
    await db.close();
  });
  const asAdmin = <T>(sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => rpc<T>(tx, sql, params));

  it('claims a confirmed collection once, names GoCardless payment and total, and emails the receipt once', async () => {
    const member = await createUser(db, 'dd-refund');
    const refundId = await oweBack(db, await directDebitPayment(db, member, 'ref1', 'confirmed'));
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.begin_provider_refund($1)', [refundId])),
      { code: '42501' },
    );
    const claim = await asAdmin<Claim>('public.begin_provider_refund($1)', [refundId]);
    expect(claim).toMatchObject({
      already_refunded: false,
      amount: 100,
      collected_by: 'direct_debit',
      direct_debit_payment_id: 'PM-ref1-1',
      total_refunded: 100,
      provider_checkout_id: null,
      direct_debit_idempotency_key: refundId,
    });
    // A second tab while the first is out: refused, nothing sent.
    await expectSqlError(asAdmin('public.begin_provider_refund($1)', [refundId]), {
      hint: 'refund_in_progress',
      message: 'A refund through GoCardless is already under way for this payment',
    });
    await asAdmin('public.finish_provider_refund($1, $2, $3)', [refundId, 'refunded', 'RF-ref1']);
    // A replay after success answers already refunded and records nothing more.
    expect(await asAdmin<Claim>('public.begin_provider_refund($1)', [refundId])).toMatchObject({ already_refunded: true });
    await expectSqlError(asAdmin('public.finish_provider_refund($1, $2, $3)', [refundId, 'refunded', 'RF-ref1-again']), {
      hint: 'refund_not_found',
    });
    const { rows } = await db.query<{ provider_refund_id: string }>('select provider_refund_id from public.refunds_owed where id = $1', [
      refundId,
    ]);
    expect(rows).toEqual([{ provider_refund_id: 'RF-ref1' }]);
    // GoCardless's created event of the refund recorded: known, and it changes nothing on the refund owed.
    const { rows: told } = await db.query<{ outcome: string }>(
      `select (public.apply_direct_debit_event('EV-refund-created', 'refunds', 'created', $1, '{}', $2)).outcome`,
      [JSON.stringify({ refund: 'RF-ref1', payment: 'PM-ref1-1' }), '2027-01-24T09:00:00Z'],
    );
    expect(told).toEqual([{ outcome: 'applied' }]);
    const receipts = (await emailsOf(db, member)).filter((e) => e.kind === 'refund_receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.body_text).toContain('We have refunded £100.00');
    expect(receipts[0]!.body_text).toContain('paid back to the bank account your Direct Debit is taken from');
  });

  it('refuses a collection still on its way or charged back, and more than was collected', async () => {
    const waiting = await createUser(db, 'dd-refund-waiting');
    const waitingRefund = await oweBack(db, await directDebitPayment(db, waiting, 'ref2', 'submitted'));
    await expectSqlError(asAdmin('public.begin_provider_refund($1)', [waitingRefund]), { hint: 'direct_debit_not_collected' });

    const back = await createUser(db, 'dd-refund-back');
    const backRefund = await oweBack(db, await directDebitPayment(db, back, 'ref3', 'paid_out'));
    await event(db, 'payments', 'charged_back', { payment: 'PM-ref3-1' }, new Date('2027-02-10T09:00:00Z'));
    await expectSqlError(asAdmin('public.begin_provider_refund($1)', [backRefund]), { hint: 'direct_debit_not_collected' });

    // £100 collected: £100 owed back and refunded, then another £10 owed is refused.
    const member = await createUser(db, 'dd-refund-over');
    const paymentId = await directDebitPayment(db, member, 'ref4', 'paid_out');
    const first = await oweBack(db, paymentId);
    await asAdmin('public.begin_provider_refund($1)', [first]);
    await asAdmin('public.finish_provider_refund($1, $2, $3)', [first, 'refunded', 'RF-ref4']);
    const { rows } = await db.query<{ id: string }>(
      `insert into public.refunds_owed (payment_id, member_id, member_email, description, amount, reason)
       values ($1, $2, $3, 'Standard (£100/month)', 10, 'admin_cancelled') returning id`,
      [paymentId, member.memberId, member.email],
    );
    await expectSqlError(asAdmin('public.begin_provider_refund($1)', [rows[0]!.id]), {
      hint: 'refund_exceeds_payment',
      message: 'Refunding £10.00 would give back more than the £100.00 collected by Direct Debit (£100.00 refunded or under way already)',
    });
    const { rows: state } = await db.query<{ provider_refund_state: string | null }>(
      'select provider_refund_state from public.refunds_owed where id = $1',
      [rows[0]!.id],
    );
    expect(state).toEqual([{ provider_refund_state: null }]);
  });
});

// GoCardless's refund events (decision 0103): applied once by event id, only forward; a failed or
// returned refund is owed again (Refunds owed shows what GoCardless said, the watchdog alerts until
// it is refunded again, the member is not emailed twice); paid or settled records it confirmed; a
// refund the studio did not make is a payment notification that could not be applied (decision 0046).
describe("GoCardless's refund events", () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let admin: TestUser;
  beforeAll(async () => {
    db = await createTestDatabase();
    admin = await createUser(db, 'dd-refund-events-admin', { is_admin: true });
  });
  afterAll(async () => {
    await db.close();
  });
  const asAdmin = <T>(sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => rpc<T>(tx, sql, params));
  const watchdog = async (at: string) => {
    await asServiceRole(db, (tx) => rpc(tx, 'public.check_system_health($1)', [at]));
    const { rows } = await db.query<{ cause: string; message: string }>(
      'select cause, message from public.system_alerts where cleared_at is null order by cause',
    );
    return rows;
  };

  it('a failed refund is owed again once: replays and late events change nothing, the receipt is not sent twice', async () => {
    const member = await createUser(db, 'dd-refund-fails');
    const { refundId } = await refundedThroughGoCardless(db, admin, member, 'f1');
    expect((await refundEvent(db, 'created', 'f1', '2027-01-24T09:00:00Z')).outcome).toBe('applied');
    const failed = await refundEvent(db, 'failed', 'f1', '2027-01-27T09:00:00Z', { id: 'EV-f1-failed', details: FAILED });
    expect(failed.outcome).toBe('applied');
    const open = await owed(db, refundId);
    expect(open).toMatchObject({ refunded_at: null, provider_refund_id: null, provider_refund_state: null });
    expect(open.provider_refund_error).toBe(
      "GoCardless could not pay this refund: The refund could not be paid to the customer's bank account. (refund_failed, RF-f1). It is still owed.",
    );
    expect(await goCardlessRefund(db, 'RF-f1')).toMatchObject({ status: 'failed', failure_cause: 'refund_failed', confirmed_at: null });

    // The same event again, another failed event, and a paid arriving late: nothing more.
    expect((await refundEvent(db, 'failed', 'f1', '2027-01-27T09:05:00Z', { id: 'EV-f1-failed', details: FAILED })).outcome).toBe(
      'already_applied',
    );
    expect((await refundEvent(db, 'failed', 'f1', '2027-01-27T09:06:00Z', { details: FAILED })).outcome).toBe('ignored');
    expect((await refundEvent(db, 'paid', 'f1', '2027-01-27T09:07:00Z')).outcome).toBe('ignored');
    expect(await owed(db, refundId)).toEqual(open);
    expect(await goCardlessRefund(db, 'RF-f1')).toMatchObject({ status: 'failed', confirmed_at: null });

    // The watchdog alerts until the money is refunded again.
    const alerts = await watchdog('2027-01-27T10:00:00Z');
    expect(alerts.filter((a) => a.cause === 'refunds_failed')).toEqual([
      {
        cause: 'refunds_failed',
        message: '1 Direct Debit refund failed at GoCardless (refund RF-f1): the money is still owed, see Refunds owed.',
      },
    ]);

    // Refunded again through GoCardless: the failed refund no longer counts in the total confirmed,
    // and the key is numbered again, so GoCardless makes a new refund rather than naming the failed one.
    expect(await asAdmin('public.begin_provider_refund($1)', [refundId])).toMatchObject({
      total_refunded: 100,
      direct_debit_payment_id: 'PM-f1-1',
      direct_debit_idempotency_key: `${refundId}:1`,
    });
    await asAdmin('public.finish_provider_refund($1, $2, $3)', [refundId, 'refunded', 'RF-f1-again']);
    expect((await watchdog('2027-01-28T10:00:00Z')).map((a) => a.cause)).not.toContain('refunds_failed');
    // One receipt: the member was told once that the money is on its way.
    expect((await emailsOf(db, member)).filter((e) => e.kind === 'refund_receipt')).toHaveLength(1);
    // A late event of the failed refund does not touch the new one.
    expect((await refundEvent(db, 'funds_returned', 'f1', '2027-01-29T09:00:00Z')).outcome).toBe('ignored');
    expect(await owed(db, refundId)).toMatchObject({ provider_refund_id: 'RF-f1-again', provider_refund_error: null });
  });

  it('paid or settled records the refund confirmed once, in any order; money returned after it is owed again', async () => {
    const member = await createUser(db, 'dd-refund-paid');
    const { refundId } = await refundedThroughGoCardless(db, admin, member, 'p1');
    // Settled before paid (out of order): confirmed at the first, the late paid changes nothing.
    expect((await refundEvent(db, 'refund_settled', 'p1', '2027-01-28T09:00:00Z')).outcome).toBe('applied');
    expect((await refundEvent(db, 'paid', 'p1', '2027-01-28T09:01:00Z')).outcome).toBe('ignored');
    expect((await refundEvent(db, 'created', 'p1', '2027-01-28T09:02:00Z')).outcome).toBe('ignored');
    expect(await goCardlessRefund(db, 'RF-p1')).toMatchObject({
      status: 'refund_settled',
      confirmed_at: new Date('2027-01-28T09:00:00Z'),
    });
    const refunded = await owed(db, refundId);
    expect(refunded.refunded_at).not.toBeNull();
    expect(refunded.provider_refund_id).toBe('RF-p1');

    const returned = await refundEvent(db, 'funds_returned', 'p1', '2027-02-03T09:00:00Z', {
      details: { cause: 'funds_returned', description: "The customer's bank returned the refund." },
    });
    expect(returned.outcome).toBe('applied');
    expect(await owed(db, refundId)).toMatchObject({
      refunded_at: null,
      provider_refund_id: null,
      provider_refund_error:
        "GoCardless paid this refund but the member's bank returned it: The customer's bank returned the refund. (funds_returned, RF-p1). It is still owed.",
    });
    expect((await emailsOf(db, member)).filter((e) => e.kind === 'refund_receipt')).toHaveLength(1);
  });

  it('an unknown refund is recorded once as a notification not applied; one still being claimed is asked for again', async () => {
    const unknown = await event(db, 'refunds', 'failed', { refund: 'RF-nobody', payment: 'PM-nobody' }, new Date('2027-01-25T09:00:00Z'), {
      id: 'EV-nobody',
    });
    expect(unknown.outcome).toBe('unknown_refund');
    expect(
      (
        await event(db, 'refunds', 'failed', { refund: 'RF-nobody', payment: 'PM-nobody' }, new Date('2027-01-25T09:00:00Z'), {
          id: 'EV-nobody',
        })
      ).outcome,
    ).toBe('already_applied');
    const { rows } = await db.query<{ reason: string; detail: string; resolved_at: Date | null }>(
      `select reason, detail, resolved_at from public.payment_notification_failures where checkout_id = 'RF-nobody'`,
    );
    expect(rows).toEqual([
      {
        reason: 'unknown_refund',
        detail: 'GoCardless refund RF-nobody (failed, payment PM-nobody) matches no refund the studio made: check it in GoCardless.',
        resolved_at: null,
      },
    ]);
    expect((await watchdog('2027-01-25T10:00:00Z')).map((a) => a.cause)).toContain('payments_unapplied');
    expect(await goCardlessRefund(db, 'RF-nobody')).toBeNull();

    // The refund owed is claimed and GoCardless answers, but the answer is not recorded yet when its
    // event arrives: not kept (409), applied when sent again after it is recorded.
    const member = await createUser(db, 'dd-refund-claiming');
    const refundId = await oweBack(db, await directDebitPayment(db, member, 'c1', 'confirmed'));
    await asAdmin('public.begin_provider_refund($1)', [refundId]);
    const early = { id: 'EV-c1-created' };
    expect((await refundEvent(db, 'created', 'c1', '2027-01-25T09:00:00Z', early)).outcome).toBe('unknown_reference');
    await asAdmin('public.finish_provider_refund($1, $2, $3)', [refundId, 'refunded', 'RF-c1']);
    expect((await refundEvent(db, 'created', 'c1', '2027-01-25T09:01:00Z', early)).outcome).toBe('applied');
    expect(await goCardlessRefund(db, 'RF-c1')).toMatchObject({ status: 'created' });
    const { rows: none } = await db.query(`select 1 from public.payment_notification_failures where checkout_id = 'RF-c1'`);
    expect(none).toEqual([]);
  });
});

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('direct debit refunds', binDir);

describe.skipIf(!binDir)('refunding a Direct Debit payment on PostgreSQL at once', () => {
  it('two admin tabs, and two refunds of one payment: one claim each time, never more than collected', async () => {
    const db = pgClientDatabase(server.admin()!);
    const connection = server.cluster()!.connectionString;
    const admin = await createUser(db, 'dd-race-admin', { is_admin: true });
    const member = await createUser(db, 'dd-race-refund');
    const paymentId = await directDebitPayment(db, member, 'race', 'confirmed');
    const refundId = await oweBack(db, paymentId);

    const tab = { sql: 'select * from public.begin_provider_refund($1)', params: [refundId], claims: admin.claims };
    const tabs = await together<Claim>(connection, [tab, tab, tab]);
    expect(tabs.filter((t) => !t.error)).toHaveLength(1);
    expect(tabs.filter((t) => t.error).map((t) => t.error!.hint)).toEqual(['refund_in_progress', 'refund_in_progress']);

    // Two different refunds owed of the same £100 collected (£100 and £60) claimed at once: the
    // payment's lock lets one through; the first is still out, so the second is refused.
    const other = await createUser(db, 'dd-race-refund-2');
    const otherPayment = await directDebitPayment(db, other, 'race2', 'paid_out');
    const whole = await oweBack(db, otherPayment);
    const { rows } = await db.query<{ id: string }>(
      `insert into public.refunds_owed (payment_id, member_id, member_email, description, amount, reason)
       values ($1, $2, $3, 'Standard (£100/month)', 60, 'admin_cancelled') returning id`,
      [otherPayment, other.memberId, other.email],
    );
    const both = await together<Claim>(connection, [
      { sql: 'select * from public.begin_provider_refund($1)', params: [whole], claims: admin.claims },
      { sql: 'select * from public.begin_provider_refund($1)', params: [rows[0]!.id], claims: admin.claims },
    ]);
    expect(both.filter((t) => !t.error)).toHaveLength(1);
    expect(both.filter((t) => t.error).map((t) => t.error!.hint)).toEqual(['refund_exceeds_payment']);
  });

  it('the same refund-failed event delivered twice at once is applied once', async () => {
    const db = pgClientDatabase(server.admin()!);
    const connection = server.cluster()!.connectionString;
    const admin = await createUser(db, 'dd-race-fail-admin', { is_admin: true });
    const member = await createUser(db, 'dd-race-refund-fails');
    const { refundId } = await refundedThroughGoCardless(db, admin, member, 'racefail');
    const delivery = {
      sql: `select * from public.apply_direct_debit_event('EV-racefail', 'refunds', 'failed', $1, $2, '2027-01-27T09:00:00Z')`,
      params: [JSON.stringify({ refund: 'RF-racefail', payment: 'PM-racefail-1' }), JSON.stringify(FAILED)],
    };
    // And a second failed event (its own id) of the same refund in the same moment.
    const other = { ...delivery, sql: delivery.sql.replace('EV-racefail', 'EV-racefail-2') };
    const results = await together<{ outcome: string }>(connection, [delivery, delivery, other]);
    expect(results.map((r) => r.error?.message ?? null)).toEqual([null, null, null]);
    expect(results.map((r) => r.rows![0]!.outcome).sort()).toEqual(['already_applied', 'applied', 'ignored']);
    const { rows } = await db.query<{ refunded_at: Date | null; provider_refund_error: string | null }>(
      'select refunded_at, provider_refund_error from public.refunds_owed where id = $1',
      [refundId],
    );
    expect(rows).toEqual([{ refunded_at: null, provider_refund_error: expect.stringContaining('GoCardless could not pay this refund') }]);
    const { rows: events } = await db.query(`select id from private.direct_debit_events where id like 'EV-racefail%' order by id`);
    expect(events).toEqual([{ id: 'EV-racefail' }, { id: 'EV-racefail-2' }]);
    expect((await emailsOf(db, member)).filter((e) => e.kind === 'refund_receipt')).toHaveLength(1);
  });
});
