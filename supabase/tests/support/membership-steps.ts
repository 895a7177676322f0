import { asServiceRole } from '../../local/db/as-user.ts';
import type { SqlDatabase, SqlExecutor } from '../../local/db/open-database.ts';
import { rpc, type TestUser } from './fixtures.ts';

/**
 * The steps the checkout functions and the renewal job take, as service-role RPC calls, for the
 * membership tests: the provider's part is played by the test (checkout ids, PAID / declined).
 */
export type Charge = {
  checkout_reference: string;
  amount: number;
  billing_reason: string;
  customer_id: string;
  card_token: string | null;
  provider_checkout_id: string | null;
  attempt: number;
};
export type Outcome = { outcome: string; payment_id: string | null; status: string | null };

export const PLAN = {
  standard: { slug: 'standard', amount: 100, tier: 'standard', description: 'Standard (£100/month)' },
  platinum: { slug: 'platinum', amount: 165, tier: 'premium', description: 'Platinum Premium (£165/month)' },
} as const;

const service = <T>(db: SqlDatabase, call: string, params: unknown[]) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));

export const claimDue = (db: SqlDatabase, at: Date) => service<Charge[]>(db, 'public.claim_due_renewals($1)', [at.toISOString()]);
export const claim = (db: SqlDatabase, reference: string, at: Date) =>
  service<Charge | null>(db, 'public.claim_membership_charge($1, $2)', [reference, at.toISOString()]);
export const applyPaid = (db: SqlDatabase, charge: Pick<Charge, 'checkout_reference' | 'amount'>, checkoutId: string, at: Date) =>
  service<Outcome>(db, `public.apply_membership_charge($1, $2, 'PAID', $3, 'GBP', $4)`, [
    charge.checkout_reference,
    checkoutId,
    charge.amount,
    at.toISOString(),
  ]);
export const fail = (db: SqlDatabase, charge: Charge, at: Date, reason = 'declined') =>
  service<Outcome>(db, 'public.fail_membership_charge($1, $2, $3, $4)', [
    charge.checkout_reference,
    charge.attempt,
    reason,
    at.toISOString(),
  ]);

/** Buys a plan as the first checkout does: card saved with `token`, first month charged and paid. */
export async function buyPlan(
  db: SqlDatabase,
  member: TestUser,
  at: Date,
  plan: (typeof PLAN)[keyof typeof PLAN] = PLAN.standard,
  token = 'tok-pays',
) {
  const setup = await service<{ payment_reference: string; setup_reference: string; customer_id: string; amount: number }>(
    db,
    'public.start_membership_checkout($1, $2, $3, $4, $5, $6)',
    [member.memberId, plan.slug, plan.amount, plan.tier, plan.description, at.toISOString()],
  );
  const saved = await service<{ outcome: string; charge_reference: string }>(
    db,
    `public.apply_card_setup($1, $2, 'PAID', $3, 'GBP', $4, $5, $6)`,
    [setup.setup_reference, `chk-${setup.setup_reference}`, setup.amount, setup.customer_id, token, at.toISOString()],
  );
  const charge = (await claim(db, saved.charge_reference, at))!;
  await applyPaid(db, charge, `chk-${charge.checkout_reference}`, at);
  return { setup, charge };
}

export type MembershipRow = {
  status: string;
  tier: string;
  plan_slug: string | null;
  price: number | null;
  period_number: number;
  period_start: Date;
  period_end: Date;
  renews: boolean;
  ended_at: Date | null;
  next_retry_at: Date | null;
  retry_count: number;
  member_tier: string;
  has_used_trial: boolean;
  plan_renews_at: Date | null;
};

export async function membershipOf(db: SqlExecutor, member: TestUser): Promise<MembershipRow> {
  const { rows } = await db.query<MembershipRow>(
    `select ms.status, ms.tier, ms.plan_slug, ms.price::float8 as price, ms.period_number, ms.period_start, ms.period_end,
            ms.renews, ms.ended_at, ms.next_retry_at, ms.retry_count, m.membership_tier as member_tier, m.has_used_trial,
            m.plan_renews_at
       from public.members m left join public.memberships ms on ms.member_id = m.id where m.id = $1`,
    [member.memberId],
  );
  return rows[0]!;
}

export async function paymentsOf(db: SqlExecutor, member: TestUser) {
  const { rows } = await db.query<{ billing_reason: string; period_number: number; status: string; amount: number; needs_refund: boolean }>(
    `select billing_reason, period_number, status::text, amount::float8 as amount, needs_refund
       from public.payments where member_id = $1 order by created_at, period_number`,
    [member.memberId],
  );
  return rows;
}

export async function emailsOf(db: SqlExecutor, member: TestUser) {
  const { rows } = await db.query<{ kind: string; subject: string; body_text: string; links: { label: string; path: string }[] }>(
    'select kind, subject, body_text, links from public.notification_outbox where member_id = $1 order by created_at, kind',
    [member.memberId],
  );
  return rows;
}

export const days = (at: Date, n: number) => new Date(at.getTime() + n * 86_400_000);
