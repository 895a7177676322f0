import { describe, expect, it } from 'vitest';
import { createUser } from './support/fixtures.ts';
import { claim, membershipOf, paymentsOf } from './support/membership-steps.ts';
import { collectionFor, recordSubmission, setFlow, startDirectDebit } from './support/direct-debit-steps.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Decision 0076 on a real PostgreSQL server, one connection each: two tabs set up one mandate and
// one first payment; a webhook event delivered twice at once, or two events for one Billing Request,
// make one mandate; confirmed and paid_out arriving together pay the membership once; two runs
// asking how to collect one payment share one collection (one idempotency key at GoCardless).

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('direct debit concurrency', binDir);
const T0 = new Date('2027-01-15T10:00:00Z');

const eventSql = {
  sql: 'select * from public.apply_direct_debit_event($1, $2, $3, $4, $5, $6)',
};
const ev = (id: string, resource: string, action: string, links: Record<string, string>, at = T0) => ({
  ...eventSql,
  params: [id, resource, action, JSON.stringify(links), '{}', at.toISOString()],
});

describe.skipIf(!binDir)('Direct Debit on PostgreSQL at once', () => {
  it('two tabs, replayed and doubled events: one setup, one mandate, one payment, paid once', async () => {
    const db = pgClientDatabase(server.admin()!);
    const connection = server.cluster()!.connectionString;
    const member = await createUser(db, 'race-dd');

    const start = { sql: 'select * from public.start_direct_debit($1, $2, $3)', params: [member.memberId, 'standard', T0.toISOString()] };
    const tabs = await together<{ setup_reference: string; payment_reference: string }>(connection, [start, start]);
    expect(tabs.every((t) => !t.error)).toBe(true);
    expect(new Set(tabs.map((t) => t.rows![0]!.setup_reference)).size).toBe(1);
    expect(new Set(tabs.map((t) => t.rows![0]!.payment_reference)).size).toBe(1);
    expect(await paymentsOf(db, member)).toHaveLength(1);
    const setup = await startDirectDebit(db, member, 'standard', T0);
    await setFlow(db, setup, 'BRQ-race');

    // The same event twice at once, and a second event for the same Billing Request.
    const fulfilled = ev('EV-race-f1', 'billing_requests', 'fulfilled', {
      billing_request: 'BRQ-race',
      mandate_request_mandate: 'MD-race',
    });
    const again = ev('EV-race-f2', 'billing_requests', 'fulfilled', { billing_request: 'BRQ-race', mandate_request_mandate: 'MD-race' });
    const applied = await together<{ outcome: string; charge_reference: string | null }>(connection, [fulfilled, fulfilled, again]);
    expect(applied.map((r) => r.error?.message ?? null)).toEqual([null, null, null]);
    const outcomes = applied.map((r) => r.rows![0]!);
    expect(outcomes.filter((o) => o.outcome === 'applied')).toEqual([{ outcome: 'applied', charge_reference: setup.payment_reference }]);
    const { rows: mandates } = await db.query<{ n: number }>(
      'select count(*)::int as n from private.direct_debit_mandates where member_id = $1',
      [member.memberId],
    );
    expect(mandates[0]!.n).toBe(1);

    // Two runs asking how to collect the claimed payment: one collection.
    const charge = (await claim(db, setup.payment_reference!, T0))!;
    const ask = {
      sql: 'select * from public.direct_debit_collection_for($1, $2, $3)',
      params: [charge.checkout_reference, charge.attempt, T0.toISOString()],
    };
    const asked = await together<{ collection_id: string }>(connection, [ask, ask]);
    expect(new Set(asked.map((r) => r.rows![0]!.collection_id)).size).toBe(1);
    await recordSubmission(db, await collectionFor(db, charge, T0), 'PM-race-1', T0);

    // confirmed, its replay and paid_out together.
    const later = new Date('2027-01-23T09:00:00Z');
    const confirmed = ev('EV-race-c', 'payments', 'confirmed', { payment: 'PM-race-1' }, later);
    const paidOut = ev('EV-race-p', 'payments', 'paid_out', { payment: 'PM-race-1' }, later);
    const settled = await together<{ outcome: string }>(connection, [confirmed, confirmed, paidOut]);
    expect(settled.map((r) => r.error?.message ?? null)).toEqual([null, null, null]);
    expect(await paymentsOf(db, member)).toEqual([
      { billing_reason: 'start', period_number: 1, status: 'paid', amount: 100, needs_refund: false },
    ]);
    expect(await membershipOf(db, member)).toMatchObject({ status: 'active', period_number: 1 });
    const { rows: receipts } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.notification_outbox where member_id = $1 and kind = 'payment_receipt'`,
      [member.memberId],
    );
    expect(receipts[0]!.n).toBeLessThanOrEqual(1);
  });
});
