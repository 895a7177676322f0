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
});
