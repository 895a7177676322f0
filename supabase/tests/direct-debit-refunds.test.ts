import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
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
    // GoCardless's own refund events are acknowledged and change nothing (the refund is recorded).
    const { rows: told } = await db.query<{ outcome: string }>(
      `select (public.apply_direct_debit_event('EV-refund-created', 'refunds', 'created', $1, '{}', $2)).outcome`,
      [JSON.stringify({ refund: 'RF-ref1', payment: 'PM-ref1-1' }), '2027-01-24T09:00:00Z'],
    );
    expect(told).toEqual([{ outcome: 'ignored' }]);
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
});
