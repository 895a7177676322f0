import { describe, expect, it } from 'vitest';
import { createUser } from './support/fixtures.ts';
import { buyPlan, membershipOf } from './support/membership-steps.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Decision 0050 on a real PostgreSQL server, one connection each: two tabs confirming a pause at
// once make one pause and move the renewal once; two renewal runs at once claim its hold fee once.

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('pause concurrency', binDir);
const T0 = new Date('2027-01-15T10:00:00Z');

describe.skipIf(!binDir)('pauses on PostgreSQL at once', () => {
  it('two confirmations make one pause; two job runs claim its hold fee once', async () => {
    const db = pgClientDatabase(server.admin()!);
    await db.query('update public.pause_rules set hold_fee = 9.99 where id');
    const member = await createUser(db, 'race-pause');
    await buyPlan(db, member, T0);
    const confirm = {
      sql: `select * from private.confirm_pause(null, '2027-01-25', '2027-02-14', $1)`,
      params: [T0.toISOString()],
      claims: member.claims,
    };
    const results = await together(server.cluster()!.connectionString, [confirm, confirm]);
    expect(results.filter((r) => !r.error)).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => (r.error as { hint?: string }).hint)).toEqual(['pause_exists']);
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.membership_pauses where member_id = $1', [
      member.memberId,
    ]);
    expect(rows[0]!.n).toBe(1);
    expect((await membershipOf(db, member)).period_end).toEqual(new Date('2027-03-08T10:00:00Z'));

    const run = { sql: 'select * from public.claim_due_renewals($1)', params: ['2027-01-25T01:00:00Z'] };
    const claims = await together<{ checkout_reference: string }>(server.cluster()!.connectionString, [run, run]);
    const fees = claims.flatMap((r) => r.rows).filter((c) => c?.checkout_reference.startsWith('hold-'));
    expect(fees).toHaveLength(1);
    const { rows: payments } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.payments where member_id = $1 and billing_reason = 'hold_fee'`,
      [member.memberId],
    );
    expect(payments[0]!.n).toBe(1);
  });
});
