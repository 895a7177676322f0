import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_SLUGS, PLANS } from '../../src/config/plans.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';

// Issue 26: the catalogue lives in public.plans (what a plan costs and grants, read by the
// database's grants); src/config/plans.ts keeps the marketing words. What both state must agree.

let db: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

type Row = {
  slug: string;
  name: string;
  category: string;
  price: string;
  billing_interval: string | null;
  grants_tier: string | null;
  classes_per_month: number | null;
  package_sessions: number;
  requires_proof: boolean;
};

describe('plan catalogue', () => {
  it('has the same plans, names, prices, intervals, tiers, classes and proof as src/config/plans.ts', async () => {
    const { rows } = await db.query<Row>('select * from public.plans order by slug');
    expect(rows.map((r) => r.slug)).toEqual([...PLAN_SLUGS].sort());
    for (const row of rows) {
      const plan = PLANS[row.slug as keyof typeof PLANS];
      expect({
        name: row.name,
        category: row.category,
        pence: Math.round(Number(row.price) * 100),
        interval: row.billing_interval,
        tier: row.grants_tier,
        classes: row.classes_per_month,
        proof: row.requires_proof,
      }).toEqual({
        name: plan.name,
        category: plan.category,
        pence: plan.pricePence,
        interval: plan.interval,
        tier: plan.grantsTier,
        classes: plan.classesPerMonth,
        proof: plan.requiresProof,
      });
    }
  });

  it('a package sells as many sessions as its card says', async () => {
    const { rows } = await db.query<Row>(`select * from public.plans where category = 'training'`);
    for (const row of rows) {
      const plan = PLANS[row.slug as keyof typeof PLANS];
      const words = plan.benefits.join(' ');
      expect(words).toMatch(row.package_sessions === 1 ? /One session/ : new RegExp(`${row.package_sessions} sessions`));
    }
  });
});
