import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLAN_SLUGS, PLANS, SINGLE_SESSION_PENCE } from '../../src/config/plans.ts';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc } from './support/fixtures.ts';

// The catalogue lives in public.plans (what a plan costs and grants, read by the
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
  package_valid_days: number | null;
  package_weekly_cap: number | null;
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
        package: row.package_sessions
          ? { sessions: row.package_sessions, validDays: row.package_valid_days, weeklyCap: row.package_weekly_cap }
          : null,
        proof: row.requires_proof,
      }).toEqual({
        name: plan.name,
        category: plan.category,
        pence: plan.pricePence,
        interval: plan.interval,
        tier: plan.grantsTier,
        classes: plan.classesPerMonth,
        package: plan.package,
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

  it('no package is dearer per session than a One-to-One paid for on its own, whose price the card states', async () => {
    const single = Number((await db.query<{ price: string }>('select private.personal_training_price()::text as price')).rows[0]!.price);
    expect(Math.round(single * 100)).toBe(SINGLE_SESSION_PENCE);
    const { rows } = await db.query<Row>(`select * from public.plans where category = 'training'`);
    for (const row of rows) expect(Number(row.price) / row.package_sessions).toBeLessThanOrEqual(single);
    // A One-to-One added without a price takes it.
    const { rows: made } = await db.query<{ price_payg: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity)
       values ('Catalogue PT', now() + interval '9 days', 'Coach Alex', 'One-to-One', 1) returning price_payg::text`,
    );
    expect(made[0]!.price_payg).toBe(single.toFixed(2));
  });
});

describe('the catalogue decides what a checkout charges', () => {
  const service = <T>(sql: string, params: unknown[]) => asServiceRole(db, (tx) => rpc<T>(tx, sql, params));
  const paymentOf = async (reference: string) =>
    (
      await db.query<{ amount: string; grants_tier: string | null; description: string }>(
        'select amount::text, grants_tier::text, description from public.payments where checkout_reference = $1',
        [reference],
      )
    ).rows[0];

  it('a membership and a package are charged at the catalogue price, from the slug alone', async () => {
    const member = await createUser(db, 'catalogue-buyer');
    const setup = await service<{ payment_reference: string }>('public.start_membership_checkout($1, $2)', [member.memberId, 'platinum']);
    expect(await paymentOf(setup.payment_reference)).toEqual({
      amount: '165.00',
      grants_tier: 'premium',
      description: 'Platinum Premium (£165/month)',
    });
    const other = await createUser(db, 'catalogue-package');
    const pkg = await service<{ checkout_reference: string }>('public.create_plan_payment($1, $2)', [other.memberId, 'bronze']);
    expect(await paymentOf(pkg.checkout_reference)).toEqual({ amount: '750.00', grants_tier: null, description: 'Bronze Package (£750)' });
  });

  it('refuses a stale amount or tier, an unknown plan and a plan that needs proof, recording nothing', async () => {
    const member = await createUser(db, 'catalogue-refused');
    await expectSqlError(service('public.start_membership_checkout($1, $2, $3)', [member.memberId, 'platinum', 100]), {
      hint: 'price_mismatch',
      message: 'Platinum Premium costs £165.00 and grants premium: the checkout asked for something else',
    });
    await expectSqlError(service('public.start_membership_checkout($1, $2, $3, $4)', [member.memberId, 'standard', 100, 'premium']), {
      hint: 'price_mismatch',
    });
    await expectSqlError(service('public.create_plan_payment($1, $2, $3)', [member.memberId, 'dropin', 1]), { hint: 'price_mismatch' });
    await expectSqlError(service('public.create_plan_payment($1, $2)', [member.memberId, 'gold']), { hint: 'unknown_plan' });
    await expectSqlError(service('public.start_membership_checkout($1, $2)', [member.memberId, 'student']), {
      hint: 'plan_requires_proof',
    });
    await expectSqlError(service('public.start_membership_checkout($1, $2)', [member.memberId, 'bronze']), { hint: 'not_a_membership' });
    expect((await db.query('select 1 from public.payments where member_id = $1', [member.memberId])).rows).toEqual([]);
  });

  it('a price the studio changes in the catalogue is what the next checkout charges', async () => {
    await db.query(`update public.plans set price = 120 where slug = 'dropin'`);
    try {
      const member = await createUser(db, 'catalogue-new-price');
      const pkg = await service<{ checkout_reference: string }>('public.create_plan_payment($1, $2)', [member.memberId, 'dropin']);
      expect(await paymentOf(pkg.checkout_reference)).toMatchObject({ amount: '120.00', description: 'Drop-In Session (£120)' });
    } finally {
      await db.query(`update public.plans set price = 115 where slug = 'dropin'`);
    }
  });
});

describe('the catalogue is the one place a plan is written (decision 0035)', () => {
  it("a plan's allowance and name are read from the catalogue, and a membership names a plan it has", async () => {
    const member = await createUser(db, 'catalogue-allowance', { membership_tier: 'standard' });
    const usage = () => asUser(db, member.claims, (tx) => rpc<{ allowance: number }>(tx, 'public.my_plan_usage()'));
    expect((await usage()).allowance).toBe(12);
    await db.query(`update public.plans set classes_per_month = 15, name = 'Standard Plus' where slug in ('standard', 'student')`);
    try {
      expect((await usage()).allowance).toBe(15);
      expect((await db.query<{ n: string }>(`select private.plan_name('standard') as n`)).rows[0]!.n).toBe('Standard Plus');
    } finally {
      await db.query(`update public.plans set classes_per_month = 12 where slug in ('standard', 'student')`);
      await db.query(`update public.plans set name = 'Standard' where slug = 'standard'`);
      await db.query(`update public.plans set name = 'Student / Hackney Worker' where slug = 'student'`);
    }
    await expectSqlError(
      db.query(
        `insert into public.memberships (member_id, plan_slug, tier, status, price, period_start, period_end, anchor_at, renews)
         values ($1, 'gold', 'standard', 'active', 10, now(), now() + interval '1 month', now(), true)`,
        [member.memberId],
      ),
      { code: '23503' },
    );
  });

  it('no schema file writes a plan slug outside the catalogue', () => {
    const dir = fileURLToPath(new URL('../schemas/', import.meta.url));
    const offenders: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.sql'))) {
      readFileSync(`${dir}${file}`, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.replace(/--.*$/, '');
          // The catalogue's own rows are the one place.
          if (/^\s*\('(standard|platinum|student|dropin|bronze)', '/.test(code)) return;
          if (/'(platinum|student|dropin|bronze)'/.test(code)) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
