import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Decision 0010: a refund owed refunded through the card provider. begin_provider_refund claims the
// record once (a double click sends one refund), finish_provider_refund records what the provider
// said; marking by hand waits for a refund that is out. The function around them is
// netlify/functions/refund-provider.test.ts.

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'provider-refund-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

type Claim = {
  refund_id: string;
  already_refunded: boolean;
  amount: number | null;
  currency: string | null;
  provider_checkout_id: string | null;
};
type Refund = {
  id: string;
  refunded_at: string | null;
  refunded_by: string | null;
  provider_refund_id: string | null;
  provider_refund_state: string | null;
  provider_refund_error: string | null;
};

const asAdmin = <T>(sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => rpc<T>(tx, sql, params));
const begin = (id: string, now = new Date()) => asAdmin<Claim>('private.begin_provider_refund($1, $2)', [id, now.toISOString()]);
const finish = (id: string, outcome: string, ref: string | null, error: string | null, now = new Date()) =>
  asAdmin<Refund>('private.finish_provider_refund($1, $2, $3, $4, $5)', [id, outcome, ref, error, now.toISOString()]);
const record = async (id: string) => (await db.query<Refund>('select * from public.refunds_owed where id = $1', [id])).rows[0]!;

/** A paid £12 class booking through the provider (checkout chk-<label>), then cancelled by the admin. */
async function refundOwed(label: string, checkoutId: string | null = `chk-${label}`) {
  const member = await createUser(db, label, { membership_tier: 'payg', has_used_trial: true });
  const classId = await createClass(db, { price_payg: 12 });
  const hold = await asServiceRole(db, (tx) =>
    rpc<{ booking_id: string; checkout_reference: string }>(tx, 'public.create_class_payment_hold($1, $2, 15)', [member.memberId, classId]),
  );
  await db.query(`update public.bookings set payment_status = 'completed', hold_expires_at = null where id = $1`, [hold.booking_id]);
  await db.query(`update public.payments set status = 'paid', paid_at = now(), provider_checkout_id = $2 where checkout_reference = $1`, [
    hold.checkout_reference,
    checkoutId,
  ]);
  await asAdmin('public.cancel_booking($1)', [hold.booking_id]);
  const { rows } = await db.query<{ id: string }>('select id from public.refunds_owed where member_email = $1', [member.email]);
  return { member, refundId: rows[0]!.id };
}

describe('begin_provider_refund', () => {
  it("claims the record once and hands the function the provider's checkout and the amount", async () => {
    const { refundId } = await refundOwed('provider-claim');
    expect(await begin(refundId)).toEqual({
      refund_id: refundId,
      already_refunded: false,
      amount: 12,
      currency: 'GBP',
      provider_checkout_id: 'chk-provider-claim',
      collected_by: 'card',
      direct_debit_payment_id: null,
      total_refunded: null,
      direct_debit_idempotency_key: null,
    });
    // The double click: refused while the first is out, nothing handed over to send again.
    await expectSqlError(begin(refundId), { hint: 'refund_in_progress' });
    await expectSqlError(asAdmin('public.mark_refund_refunded($1)', [refundId]), { hint: 'refund_in_progress' });
    expect(await record(refundId)).toMatchObject({ provider_refund_state: 'in_progress', refunded_at: null });
  });

  it('marks the record refunded with the provider reference once the provider confirms; a repeat sends nothing', async () => {
    const { refundId } = await refundOwed('provider-confirmed');
    await begin(refundId);
    const done = await finish(refundId, 'refunded', 'txn-123', null);
    expect(done).toMatchObject({ provider_refund_id: 'txn-123', refunded_by: admin.memberId, provider_refund_state: null });
    expect(done.refunded_at).not.toBeNull();
    expect(await begin(refundId)).toEqual({
      refund_id: refundId,
      already_refunded: true,
      amount: null,
      currency: null,
      provider_checkout_id: null,
      collected_by: null,
      direct_debit_payment_id: null,
      total_refunded: null,
      direct_debit_idempotency_key: null,
    });
    await expectSqlError(finish(refundId, 'refunded', 'txn-again', null), { hint: 'refund_not_found' });
    expect((await record(refundId)).provider_refund_id).toBe('txn-123');
  });

  it('releases the claim when the provider refuses, keeping the reason, so the admin may try again', async () => {
    const { refundId } = await refundOwed('provider-refused');
    await begin(refundId);
    await finish(refundId, 'refused', null, 'SumUp refused the refund (400)');
    expect(await record(refundId)).toMatchObject({
      refunded_at: null,
      provider_refund_state: null,
      provider_refund_error: 'SumUp refused the refund (400)',
    });
    expect((await begin(refundId)).already_refunded).toBe(false);
  });

  it('keeps an unconfirmed attempt claimed: only a person marks it refunded, after looking at the provider', async () => {
    const { refundId } = await refundOwed('provider-unconfirmed');
    await begin(refundId);
    await finish(refundId, 'unconfirmed', null, 'SumUp did not answer');
    await expectSqlError(begin(refundId), { hint: 'refund_unconfirmed' });
    const marked = await asAdmin<Refund>('public.mark_refund_refunded($1)', [refundId]);
    expect(marked).toMatchObject({ provider_refund_state: null, provider_refund_id: null });
    expect(marked.refunded_at).not.toBeNull();
  });

  it('treats a claim whose function never finished as unconfirmed after two minutes', async () => {
    const { refundId } = await refundOwed('provider-stale');
    const t0 = new Date('2030-01-01T10:00:00Z');
    await begin(refundId, t0);
    await expectSqlError(begin(refundId, new Date(t0.getTime() + 60_000)), { hint: 'refund_in_progress' });
    await expectSqlError(begin(refundId, new Date(t0.getTime() + 3 * 60_000)), { hint: 'refund_unconfirmed' });
  });

  it('refuses payments that did not go through the provider, members, and unknown records, changing nothing', async () => {
    const manual = await refundOwed('provider-none', null);
    await expectSqlError(begin(manual.refundId), { hint: 'not_refundable_by_provider' });
    expect(await record(manual.refundId)).toMatchObject({ provider_refund_state: null });

    const { member, refundId } = await refundOwed('provider-member');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.begin_provider_refund($1)', [refundId])),
      { hint: 'not_admin' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, "public.finish_provider_refund($1, 'refunded', 'x')", [refundId])),
      {
        hint: 'not_admin',
      },
    );
    await expectSqlError(begin('00000000-0000-4000-8000-000000000000'), { hint: 'refund_not_found' });
    await expectSqlError(finish(refundId, 'refused', null, 'late'), { hint: 'refund_not_found' }); // not claimed
    await begin(refundId);
    await expectSqlError(finish(refundId, 'paid', 'x', null), { hint: 'invalid_request' });
    await expectSqlError(finish(refundId, 'refunded', '', null), { hint: 'invalid_request' });
    expect(await record(refundId)).toMatchObject({ refunded_at: null, provider_refund_state: 'in_progress' });
  });

  it("takes the server's clock, never the admin's: a claim dated a year ahead cannot be made through the API", async () => {
    const { refundId } = await refundOwed('provider-clock');
    const yearAhead = new Date(Date.now() + 365 * 86_400_000).toISOString();
    await expectSqlError(asAdmin('public.begin_provider_refund($1, $2)', [refundId, yearAhead]), { code: '42883' });
    await expectSqlError(asAdmin("public.finish_provider_refund($1, 'refused', null, 'x', $2)", [refundId, yearAhead]), { code: '42883' });
    const claim = await asAdmin<Claim>('public.begin_provider_refund($1)', [refundId]);
    expect(claim).toMatchObject({ refund_id: refundId, already_refunded: false });
    const startedAt = await db.query<{ at: Date }>('select provider_refund_started_at as at from public.refunds_owed where id = $1', [
      refundId,
    ]);
    expect(startedAt.rows[0]!.at.getTime()).toBeLessThanOrEqual(Date.now());
  });
});
