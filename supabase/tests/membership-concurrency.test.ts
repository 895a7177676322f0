import { describe, expect, it } from 'vitest';
import { createUser } from './support/fixtures.ts';
import { buyPlan, membershipOf, paymentsOf } from './support/membership-steps.ts';
import {
  findPostgresBinDir,
  migratedClusterForFile,
  pgClientDatabase,
  type RaceStatement,
  together as race,
} from './support/real-postgres.ts';

// Two renewal runs at once, and a provider notification delivered twice at once, on a real
// PostgreSQL server with one connection each: exactly one charge is claimed and one extension made.

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('membership concurrency', binDir);

/** Each statement as the service role on its own connection, all at once; any error fails the test. */
async function together<T>(statements: RaceStatement[]): Promise<T[][]> {
  return (await race<T>(server.cluster()!.connectionString, statements)).map((r) => {
    if (r.error) throw r.error;
    return r.rows;
  });
}

const T0 = new Date('2027-01-15T10:00:00Z');
const T1 = new Date('2027-02-15T10:00:00Z');

describe.skipIf(!binDir)('renewals on PostgreSQL with simultaneous runs', () => {
  it('two renewal runs at once claim the charge once; two deliveries of its PAID result extend once', async () => {
    const db = pgClientDatabase(server.admin()!);
    const members = [];
    for (let i = 0; i < 5; i += 1) {
      const m = await createUser(db, `race-renew-${i}`);
      await buyPlan(db, m, T0);
      members.push(m);
    }
    const claims = await together<{ checkout_reference: string; attempt: number; amount: string }>([
      { sql: 'select * from public.claim_due_renewals($1)', params: [T1.toISOString()] },
      { sql: 'select * from public.claim_due_renewals($1)', params: [T1.toISOString()] },
      { sql: 'select * from public.claim_due_renewals($1)', params: [T1.toISOString()] },
    ]);
    const claimed = claims.flat();
    const references = claimed.map((c) => c.checkout_reference);
    console.log(
      `[membership concurrency] 3 simultaneous runs claimed ${references.length} charges for ${members.length} due memberships (per run: ${claims.map((c) => c.length).join(', ')})`,
    );
    expect(new Set(references).size).toBe(references.length);
    expect(references.length).toBe(members.length);

    // The provider's PAID result for each charge delivered twice at once (job and webhook replay).
    const applied = await together<{ outcome: string }>(
      claimed.flatMap((c) =>
        [0, 1].map(() => ({
          sql: `select * from public.apply_membership_charge($1, $2, 'PAID', $3, 'GBP', $4)`,
          params: [c.checkout_reference, `chk-${c.checkout_reference}`, c.amount, T1.toISOString()],
        })),
      ),
    );
    const outcomes = applied
      .flat()
      .map((r) => r.outcome)
      .sort();
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(members.length);
    expect(outcomes.filter((o) => o === 'already_applied')).toHaveLength(members.length);
    for (const m of members) {
      expect(await membershipOf(db, m)).toMatchObject({ period_number: 2, period_end: new Date('2027-03-15T10:00:00Z') });
      expect((await paymentsOf(db, m)).map((p) => `${p.billing_reason}:${p.status}`)).toEqual(['start:paid', 'renewal:paid']);
    }
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.notification_outbox where kind = 'renewal_receipt' and member_id = any($1)`,
      [members.map((m) => m.memberId)],
    );
    expect(rows[0]!.n).toBe(members.length);
  });

  it('a card saved with nothing due, confirmed twice at once and from two tabs, saves one card and charges nothing', async () => {
    // Decision 0104: "Add a card" / "Replace card" start a card-saving checkout with no payment.
    const db = pgClientDatabase(server.admin()!);
    const member = await createUser(db, 'race-save-card');
    await buyPlan(db, member, T0);
    const start = async () =>
      (
        await db.query<{ setup_reference: string; customer_id: string; amount: string }>('select * from public.start_card_update($1, $2)', [
          member.memberId,
          T0.toISOString(),
        ])
      ).rows[0]!;
    const [tab1, tab2] = [await start(), await start()];
    const apply = (s: typeof tab1, token: string) => ({
      sql: `select * from public.apply_card_setup($1, $2, 'PAID', $3, 'GBP', $4, $5, $6)`,
      params: [s.setup_reference, `chk-${s.setup_reference}`, s.amount, s.customer_id, token, T0.toISOString()],
    });
    const results = await together<{ outcome: string; charge_reference: string | null }>([
      apply(tab1, 'tok-tab-1'),
      apply(tab1, 'tok-tab-1'),
      apply(tab2, 'tok-tab-2'),
    ]);
    expect(
      results
        .flat()
        .map((r) => r.outcome)
        .sort(),
    ).toEqual(['already_applied', 'applied', 'applied']);
    expect(results.flat().every((r) => r.charge_reference === null)).toBe(true);
    const { rows: cards } = await db.query<{ token: string }>('select token from private.member_cards where member_id = $1', [
      member.memberId,
    ]);
    expect(cards).toHaveLength(1);
    expect(['tok-tab-1', 'tok-tab-2']).toContain(cards[0]!.token);
    expect((await paymentsOf(db, member)).map((p) => `${p.billing_reason}:${p.status}`)).toEqual(['start:paid']);
  });
});
