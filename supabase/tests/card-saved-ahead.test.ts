import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claimDue, days } from './support/membership-steps.ts';

// Decision 0104: a member with a running plan saves a card with nothing due ("Add a card",
// "Replace card"): a card-saving checkout with no payment behind it, applied once, and the saved
// card pays the next renewal as usual. An imported plan (decision 0095) is the case that needs it.

type Setup = { payment_reference: string | null; setup_reference: string; amount: number; customer_id: string; description: string };

const NOW = new Date('2026-12-01T12:00:00Z');
const RENEWAL = new Date('2027-01-05T00:00:00Z');

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'card-ahead-admin', { is_admin: true });
});
afterAll(async () => {
  await db.close();
});

const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
const startCard = (member: TestUser, at = NOW) => service<Setup>('public.start_card_update($1, $2)', [member.memberId, at.toISOString()]);
const applySetup = (setup: Setup, checkoutId: string, status: string, token: string | null, at = NOW) =>
  service<{ outcome: string; charge_reference: string | null }>(`public.apply_card_setup($1, $2, $3, $4, 'GBP', $5, $6, $7)`, [
    setup.setup_reference,
    checkoutId,
    status,
    setup.amount,
    setup.customer_id,
    token,
    at.toISOString(),
  ]);
const cardsOf = async (member: TestUser) =>
  (await db.query<{ token: string }>('select token from private.member_cards where member_id = $1', [member.memberId])).rows;
const paymentsOf = async (member: TestUser) =>
  (
    await db.query<{ billing_reason: string; status: string; amount: string }>(
      'select billing_reason, status, amount::text from public.payments where member_id = $1 order by created_at',
      [member.memberId],
    )
  ).rows;

/** A member the import put on Standard at £70, paid up to 5 January (no card, no payment here). */
async function importedMember(name: string): Promise<TestUser> {
  const member = await createUser(db, name);
  const { rows } = await db.query<{ email: string }>('select email::text from public.members where id = $1', [member.memberId]);
  const row = { line: 2, name, email: rows[0]!.email, plan: 'Standard', plan_price: '70', next_payment_date: '2027-01-05' };
  const result = await asUser(db, admin.claims, (tx) =>
    rpc<{ updated: number }>(tx, 'private.admin_import_members($1::jsonb, true, $2::timestamptz)', [
      JSON.stringify([row]),
      NOW.toISOString(),
    ]),
  );
  expect(result.updated).toBe(1);
  return member;
}

describe('saving a card with nothing due', () => {
  it('saves the card once, charges nothing, and a replayed notification changes nothing', async () => {
    const member = await importedMember('ahead-once');
    const setup = await startCard(member);
    expect(setup).toMatchObject({
      payment_reference: null,
      amount: 70,
      description: 'Card for your Standard membership (nothing charged now)',
    });
    expect(setup.setup_reference).toMatch(/^setup-/);

    // The membership page asks after it on the way back: its own member only.
    const state = (who: TestUser) =>
      service<{ status: string; provider_checkout_id: string | null }[]>('public.card_setup_state($1, $2)', [
        setup.setup_reference,
        who.memberId,
      ]);
    expect(await state(member)).toEqual([{ status: 'pending', provider_checkout_id: null }]);
    expect(await state(admin)).toEqual([]);

    // The provider says PENDING first (the member has not finished), then PAID with the token.
    expect((await applySetup(setup, 'chk-ahead', 'PENDING', null)).outcome).toBe('still_pending');
    expect(await state(member)).toEqual([{ status: 'pending', provider_checkout_id: 'chk-ahead' }]);
    expect(await applySetup(setup, 'chk-ahead', 'PAID', 'tok-ahead')).toEqual({ outcome: 'applied', charge_reference: null });
    const { rows: saved } = await db.query('select saved_at from private.member_cards where member_id = $1', [member.memberId]);
    expect(await applySetup(setup, 'chk-ahead', 'PAID', 'tok-ahead', days(NOW, 1))).toEqual({
      outcome: 'already_applied',
      charge_reference: null,
    });
    expect(await cardsOf(member)).toEqual([{ token: 'tok-ahead' }]);
    expect(await state(member)).toEqual([{ status: 'paid', provider_checkout_id: 'chk-ahead' }]);
    expect((await db.query('select saved_at from private.member_cards where member_id = $1', [member.memberId])).rows).toEqual(saved);
    expect(await paymentsOf(member)).toEqual([]);
    // Another checkout id for the same setup is not believed.
    expect((await applySetup(setup, 'chk-other', 'PAID', 'tok-other')).outcome).toBe('mismatch');

    // With a card saved, the week-ahead card request is not sent.
    await db.query('update public.imported_members set invited_at = $2 where member_id = $1', [member.memberId, NOW]);
    await service('private.enqueue_import_card_requests($1)', [days(RENEWAL, -6).toISOString()]);
    const { rows: asked } = await db.query(
      `select count(*)::int as n from public.notification_outbox o join public.members m on m.email = o.to_email
        where o.kind = 'import_card_request' and m.id = $1`,
      [member.memberId],
    );
    expect(asked).toEqual([{ n: 0 }]);
  });

  it('the saved card pays the first renewal, once', async () => {
    const member = await importedMember('ahead-renews');
    const setup = await startCard(member);
    await applySetup(setup, 'chk-renews', 'PAID', 'tok-renews');
    expect((await claimDue(db, days(RENEWAL, -1))).filter((c) => c.customer_id === setup.customer_id)).toEqual([]);
    const charges = (await claimDue(db, RENEWAL)).filter((c) => c.customer_id === setup.customer_id);
    expect(charges).toMatchObject([{ amount: 70, billing_reason: 'renewal', card_token: 'tok-renews' }]);
    expect((await claimDue(db, RENEWAL)).filter((c) => c.customer_id === setup.customer_id)).toEqual([]);
    await applyPaid(db, charges[0]!, 'chk-renewal', RENEWAL);
    expect(await paymentsOf(member)).toEqual([{ billing_reason: 'renewal', status: 'paid', amount: '70.00' }]);
    const { rows } = await db.query<{ status: string; period_end: Date }>(
      'select status::text, period_end from public.memberships where member_id = $1',
      [member.memberId],
    );
    expect(rows).toEqual([{ status: 'active', period_end: new Date('2027-02-05T00:00:00Z') }]);
  });

  it('two tabs save one card (the last one confirmed), and a declined card saves nothing', async () => {
    const member = await importedMember('ahead-tabs');
    const [first, second, declined] = [await startCard(member), await startCard(member), await startCard(member)];
    await Promise.all([applySetup(first, 'chk-tab-1', 'PAID', 'tok-1'), applySetup(second, 'chk-tab-2', 'PAID', 'tok-2')]);
    expect(await cardsOf(member)).toHaveLength(1);
    expect(['tok-1', 'tok-2']).toContain((await cardsOf(member))[0]!.token);
    expect((await applySetup(declined, 'chk-tab-3', 'FAILED', null)).outcome).toBe('marked_failed');
    expect(await cardsOf(member)).toHaveLength(1);
    expect(await paymentsOf(member)).toEqual([]);
  });

  it('a member with a card replaces it the same way; nobody without a running plan starts one', async () => {
    const member = await createUser(db, 'ahead-replace');
    await buyPlan(db, member, NOW);
    const setup = await startCard(member, days(NOW, 3));
    expect(setup).toMatchObject({ payment_reference: null, amount: 100 });
    await applySetup(setup, 'chk-replace', 'PAID', 'tok-replaced');
    expect(await cardsOf(member)).toEqual([{ token: 'tok-replaced' }]);

    const payg = await createUser(db, 'ahead-payg');
    await expectSqlError(startCard(payg), { hint: 'nothing_due' });
    const cancelled = await createUser(db, 'ahead-cancelled');
    await buyPlan(db, cancelled, NOW);
    await asUser(db, cancelled.claims, (tx) => rpc(tx, 'public.cancel_membership()'));
    await expectSqlError(startCard(cancelled), { hint: 'nothing_due' });
  });
});
