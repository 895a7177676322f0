import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, claim, claimDue } from './support/membership-steps.ts';

// Decisions 0083 and 0084 through the API the app uses: the database prices a checkout with a
// promo code or an intro offer, shows the same price beforehand, keeps a plan's renewal at its
// full price, and gives a referral's reward when the referred person's first payment clears.

type Price = { plan_slug: string; list_price: number; discount: number; price: number; label: string | null };
type PlanPayment = { checkout_reference: string; amount: number; description: string };

const T0 = new Date('2027-03-01T10:00:00Z');
const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString();
const NEXT_YEAR_END = '2027-12-31T23:59:59Z';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'offers-admin', { is_admin: true });
});

afterAll(async () => {
  await db.close();
});

const asAdmin = <T>(call: string, params: unknown[]) => asUser(db, admin.claims, (tx) => rpc<T>(tx, call, params));
const asMember = <T>(m: TestUser, call: string, params: unknown[] = []) => asUser(db, m.claims, (tx) => rpc<T>(tx, call, params));

async function createCode(
  code: string,
  slugs: string[],
  fields: { percent?: number; amount?: number; maxUses?: number; expiresAt?: string } = {},
) {
  return asAdmin<{ id: string; code: string }>('public.admin_create_promo_code($1, $2, $3, $4, $5, $6)', [
    code,
    slugs,
    fields.expiresAt ?? inAMonth(),
    fields.maxUses ?? 10,
    fields.percent ?? null,
    fields.amount ?? null,
  ]);
}

/** A package checkout as create-checkout records it, then the provider's PAID applied. */
async function buyPackage(m: TestUser, slug: string, offer: { code?: string; introOfferId?: string } = {}) {
  const payment = await asServiceRole(db, (tx) =>
    rpc<PlanPayment>(tx, 'public.create_plan_payment($1, $2, null, null, $3, $4)', [
      m.memberId,
      slug,
      offer.code ?? null,
      offer.introOfferId ?? null,
    ]),
  );
  await asServiceRole(db, (tx) =>
    rpc(tx, `public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`, [
      payment.checkout_reference,
      `chk-${payment.checkout_reference}`,
      payment.amount,
    ]),
  );
  return payment;
}

/** A membership bought as the first checkout does (card saved, first month charged), with a code. */
async function buyMembership(m: TestUser, code: string | null, at = T0, token = `tok-${m.memberId}`) {
  const setup = await asServiceRole(db, (tx) =>
    rpc<{ payment_reference: string; setup_reference: string; customer_id: string; amount: number; description: string }>(
      tx,
      'public.start_membership_checkout($1, $2, null, null, null, $3, $4)',
      [m.memberId, 'standard', at.toISOString(), code],
    ),
  );
  const saved = await asServiceRole(db, (tx) =>
    rpc<{ charge_reference: string }>(tx, `public.apply_card_setup($1, $2, 'PAID', $3, 'GBP', $4, $5, $6)`, [
      setup.setup_reference,
      `chk-${setup.setup_reference}`,
      setup.amount,
      setup.customer_id,
      token,
      at.toISOString(),
    ]),
  );
  const charge = (await claim(db, saved.charge_reference, at))!;
  await applyPaid(db, charge, `chk-${charge.checkout_reference}`, at);
  return setup;
}

describe('promo codes', () => {
  it('the member sees the price the checkout charges, and the receipt names the discount', async () => {
    await createCode('spring 10', ['dropin'], { percent: 10 });
    const member = await createUser(db, 'promo-buyer');
    const preview = await asMember<Price>(member, 'public.my_offer_price($1, $2)', ['dropin', ' Spring10 ']);
    expect(preview).toMatchObject({ list_price: 115, discount: 11.5, price: 103.5 });

    const payment = await buyPackage(member, 'dropin', { code: 'spring10' });
    expect(Number(payment.amount)).toBe(103.5);
    expect(payment.description).toBe('Drop-In Session (£115), promo code SPRING10: £11.50 off');
    const { rows } = await db.query<{ status: string; discount: string; unit_price: string }>(
      `select p.status, p.discount, c.unit_price from public.payments p join public.credits c on c.payment_id = p.id
        where p.checkout_reference = $1`,
      [payment.checkout_reference],
    );
    expect(rows[0]).toMatchObject({ status: 'paid', discount: '11.50', unit_price: '103.50' });
    const { rows: receipt } = await db.query<{ subject: string }>(
      `select subject from public.notification_outbox where member_id = $1 and kind = 'payment_receipt'`,
      [member.memberId],
    );
    expect(receipt.map((r) => r.subject)).toEqual(['Receipt: Drop-In Session (£115), promo code SPRING10: £11.50 off']);

    // One use per person: the second checkout is refused and records nothing.
    await expectSqlError(buyPackage(member, 'dropin', { code: 'SPRING10' }), { hint: 'promo_used' });
    await expectSqlError(asMember(member, 'public.my_offer_price($1, $2)', ['dropin', 'SPRING10']), { hint: 'promo_used' });
  });

  it('refuses a code for another plan, an unknown one, an expired one, and one used up', async () => {
    const code = await createCode('BRONZE50', ['bronze'], { amount: 50, maxUses: 1 });
    const a = await createUser(db, 'promo-a');
    const b = await createUser(db, 'promo-b');
    await expectSqlError(asMember(a, 'public.my_offer_price($1, $2)', ['dropin', 'BRONZE50']), {
      hint: 'promo_not_for_plan',
      message: 'The promo code BRONZE50 is not for Drop-In Session: it is for Bronze Package.',
    });
    await expectSqlError(asMember(a, 'public.my_offer_price($1, $2)', ['dropin', 'NOPE']), { hint: 'promo_unknown' });
    await buyPackage(a, 'bronze', { code: 'BRONZE50' });
    await expectSqlError(buyPackage(b, 'bronze', { code: 'BRONZE50' }), { hint: 'promo_used_up' });

    const autumn = await createCode('AUTUMN', ['bronze'], { percent: 20 });
    await asAdmin('public.admin_end_offer($1, null)', [autumn.id]);
    await expectSqlError(buyPackage(b, 'bronze', { code: 'AUTUMN' }), { hint: 'promo_expired' });
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.payments where member_id = $1', [b.memberId]);
    expect(rows[0]!.n).toBe(0);
    expect(code.code).toBe('BRONZE50');
  });

  it('only admins create codes, with a clear message for bad input', async () => {
    const member = await createUser(db, 'promo-not-admin');
    await expectSqlError(asMember(member, 'public.admin_create_promo_code($1, $2, $3, $4, $5)', ['HACK', ['dropin'], inAMonth(), 5, 50]), {
      hint: 'not_admin',
    });
    await expectSqlError(createCode('BOTH', ['dropin'], { percent: 10, amount: 5 }), { hint: 'invalid_discount' });
    await expectSqlError(createCode('x', ['dropin'], { percent: 10 }), { hint: 'invalid_code' });
    await expectSqlError(createCode('NOPLAN', ['gold'], { percent: 10 }), { hint: 'invalid_plans' });
    await createCode('TWICE', ['dropin'], { percent: 10 });
    await expectSqlError(createCode('twice', ['dropin'], { percent: 10 }), { hint: 'code_exists' });
  });

  it('takes money off the first month of a membership only: it renews at the full price', async () => {
    // The membership is bought at T0 (the checkout's clock), so the code runs past it.
    await createCode('JOIN20', ['standard'], { amount: 20, expiresAt: NEXT_YEAR_END });
    const member = await createUser(db, 'promo-member');
    const setup = await buyMembership(member, 'JOIN20');
    expect(Number(setup.amount)).toBe(80);
    expect(setup.description).toBe('Standard (£100/month), promo code JOIN20: £20.00 off');
    const { rows } = await db.query<{ price: string }>('select price from public.memberships where member_id = $1', [member.memberId]);
    expect(rows[0]!.price).toBe('100.00');
    await claimDue(db, new Date('2027-04-01T10:00:01Z'));
    const { rows: renewal } = await db.query<{ amount: string }>(
      `select amount from public.payments where member_id = $1 and billing_reason = 'renewal'`,
      [member.memberId],
    );
    expect(renewal.map((r) => r.amount)).toEqual(['100.00']);
  });
});

describe('intro offers', () => {
  it('a new member buys one once at its price; someone who has bought before cannot', async () => {
    const offer = await asAdmin<{ id: string }>('public.admin_create_intro_offer($1, $2, $3, $4)', ['First session', 'dropin', 45, 14]);
    const member = await createUser(db, 'intro-new');
    const choices = await asMember<{ id: string; price: number; refusal: string | null }[]>(member, 'public.my_intro_offers()');
    expect(choices.find((c) => c.id === offer.id)).toMatchObject({ price: 45, refusal: null });

    const payment = await buyPackage(member, 'dropin', { introOfferId: offer.id });
    expect(Number(payment.amount)).toBe(45);
    expect(payment.description).toBe('Drop-In Session (£115), intro offer First session');
    await expectSqlError(buyPackage(member, 'dropin', { introOfferId: offer.id }), { hint: 'intro_offer_used' });
    const after = await asMember<{ id: string; refusal: string | null }[]>(member, 'public.my_intro_offers()');
    expect(after.find((c) => c.id === offer.id)?.refusal).toBe('intro_offer_used');

    const regular = await createUser(db, 'intro-regular');
    await buyPackage(regular, 'dropin');
    await expectSqlError(buyPackage(regular, 'dropin', { introOfferId: offer.id }), { hint: 'not_new_member' });
    await expectSqlError(buyPackage(regular, 'bronze', { introOfferId: offer.id }), { hint: 'offer_not_for_plan' });
    await expectSqlError(buyPackage(regular, 'dropin', { introOfferId: offer.id, code: 'SPRING10' }), { hint: 'offer_not_combinable' });
  });

  it('is only for the first days after joining, and an ended offer sells no more', async () => {
    const offer = await asAdmin<{ id: string }>('public.admin_create_intro_offer($1, $2, $3, $4)', ['Welcome week', 'dropin', 60, 7]);
    const late = await createUser(db, 'intro-late');
    await db.query(`update public.members set created_at = now() - interval '8 days' where id = $1`, [late.memberId]);
    await expectSqlError(buyPackage(late, 'dropin', { introOfferId: offer.id }), { hint: 'offer_window_passed' });
    await asAdmin('public.admin_end_offer(null, $1)', [offer.id]);
    const fresh = await createUser(db, 'intro-fresh');
    await expectSqlError(buyPackage(fresh, 'dropin', { introOfferId: offer.id }), { hint: 'offer_ended' });
    await expectSqlError(asAdmin('public.admin_create_intro_offer($1, $2, $3)', ['Too dear', 'dropin', 115]), { hint: 'invalid_price' });
    await expectSqlError(asAdmin('public.admin_create_intro_offer($1, $2, $3)', ['A plan', 'standard', 50]), { hint: 'invalid_plans' });
  });
});

describe('referrals', () => {
  async function referralCode(m: TestUser) {
    return (await asMember<{ code: string }>(m, 'public.my_referral()')).code;
  }
  const rewardsOf = async (m: TestUser) =>
    (
      await db.query<{ kind: string; amount: string | null }>(
        'select kind, amount from public.referral_rewards where member_id = $1 order by created_at',
        [m.memberId],
      )
    ).rows;
  const referralCredits = async (m: TestUser) =>
    (
      await db.query<{ n: number }>(`select count(*)::int as n from public.credits where member_id = $1 and source = 'referral'`, [
        m.memberId,
      ])
    ).rows[0]!.n;

  it('refuses a self-referral and a second account of the same mailbox', async () => {
    const referrer = await createUser(db, 'ref-self');
    const code = await referralCode(referrer);
    expect(code).toMatch(/^[A-Z0-9]{8}$/);
    expect(await referralCode(referrer)).toBe(code);
    await expectSqlError(asMember(referrer, 'public.claim_referral($1)', [code]), { hint: 'self_referral' });

    const jo = await createUser(db, 'ref-jo');
    await db.query(`update public.members set email = $2 where id = $1`, [jo.memberId, `jo.bloggs.${jo.memberId}@gmail.com`]);
    const joAgain = await createUser(db, 'ref-jo-again');
    await db.query(`update public.members set email = $2 where id = $1`, [joAgain.memberId, `JoBloggs.${jo.memberId}+2@googlemail.com`]);
    await expectSqlError(asMember(joAgain, 'public.claim_referral($1)', [await referralCode(jo)]), { hint: 'same_person' });
    await expectSqlError(asMember(joAgain, 'public.claim_referral($1)', ['NOTACODE']), { hint: 'referral_unknown' });
    const { rows } = await db.query<{ n: number }>('select count(*)::int as n from public.referrals where referred_member_id = $1', [
      joAgain.memberId,
    ]);
    expect(rows[0]!.n).toBe(0);
  });

  it('rewards both once, when the first payment clears (not at sign-up)', async () => {
    const referrer = await createUser(db, 'ref-giver');
    const friend = await createUser(db, 'ref-friend');
    await asMember(friend, 'public.claim_referral($1)', [(await referralCode(referrer)).toLowerCase()]);
    await expectSqlError(asMember(friend, 'public.claim_referral($1)', [await referralCode(referrer)]), { hint: 'already_referred' });
    expect(await rewardsOf(friend)).toEqual([]);
    expect(await referralCredits(referrer)).toBe(0);

    await buyPackage(friend, 'dropin');
    await buyPackage(friend, 'dropin');
    expect(await rewardsOf(friend)).toEqual([{ kind: 'session_credit', amount: null }]);
    expect(await rewardsOf(referrer)).toEqual([{ kind: 'session_credit', amount: null }]);
    expect(await referralCredits(friend)).toBe(1);
    expect(await referralCredits(referrer)).toBe(1);
    const { rows: told } = await db.query<{ member_id: string; subject: string }>(
      `select member_id, subject from public.notification_outbox where kind = 'referral_reward' and member_id = any ($1)`,
      [[friend.memberId, referrer.memberId]],
    );
    expect(told.map((t) => t.subject)).toEqual([
      'Your referral reward: a free personal-training session',
      'Your referral reward: a free personal-training session',
    ]);
    const mine = await asMember<{ referred: number; rewarded: number }>(referrer, 'public.my_referral()');
    expect(mine).toMatchObject({ referred: 1, rewarded: 1 });

    // Someone who has paid already is not new: no referral.
    await expectSqlError(asMember(friend, 'public.claim_referral($1)', [await referralCode(await createUser(db, 'ref-other'))]), {
      hint: 'not_new_member',
    });
  });

  it('money off the next renewal is taken once, and the plan renews at its full price after', async () => {
    await asAdmin('public.admin_set_referral_settings($1, $2, $3, $4)', [true, 'renewal_discount', 15, 90]);
    try {
      const referrer = await createUser(db, 'ref-renewer');
      await buyMembership(referrer, null, T0);
      const friend = await createUser(db, 'ref-renew-friend');
      await asMember(friend, 'public.claim_referral($1)', [await referralCode(referrer)]);
      await buyPackage(friend, 'dropin');
      expect(await rewardsOf(referrer)).toEqual([{ kind: 'renewal_discount', amount: '15.00' }]);

      const at = new Date('2027-04-01T10:00:01Z');
      await claimDue(db, at);
      await claimDue(db, at); // a second run changes nothing
      const renewal = await db.query<{ checkout_reference: string; amount: string; discount: string; description: string }>(
        `select checkout_reference, amount, discount, description from public.payments where member_id = $1 and billing_reason = 'renewal'`,
        [referrer.memberId],
      );
      expect(renewal.rows).toHaveLength(1);
      expect(renewal.rows[0]).toMatchObject({ amount: '85.00', discount: '15.00' });
      expect(renewal.rows[0]!.description).toMatch(/, referral reward: £15\.00 off$/);
      await applyPaid(db, { checkout_reference: renewal.rows[0]!.checkout_reference, amount: 85 }, 'chk-renew-ref', at);
      const { rows } = await db.query<{ price: string }>('select price from public.memberships where member_id = $1', [referrer.memberId]);
      expect(rows[0]!.price).toBe('100.00');

      const report = await asAdmin<{ kind: string; discount_total: number }[]>('public.admin_offer_report()', []);
      expect(report.find((r) => r.kind === 'referrals')!.discount_total).toBeGreaterThanOrEqual(15);
      expect(report.find((r) => r.kind === 'promo_code')).toBeDefined();
    } finally {
      await asAdmin('public.admin_set_referral_settings($1, $2, $3, $4)', [true, 'session_credit', 10, 90]);
    }
  });

  it('refuses the reward when both accounts saved the same card', async () => {
    const referrer = await createUser(db, 'ref-card');
    await buyMembership(referrer, null, T0, 'tok-shared-card');
    const second = await createUser(db, 'ref-card-second');
    await asMember(second, 'public.claim_referral($1)', [await referralCode(referrer)]);
    await buyMembership(second, null, T0, 'tok-shared-card');
    const { rows } = await db.query<{ status: string; refused_reason: string }>(
      'select status, refused_reason from public.referrals where referred_member_id = $1',
      [second.memberId],
    );
    expect(rows[0]).toEqual({ status: 'refused', refused_reason: 'same_card' });
    expect(await rewardsOf(second)).toEqual([]);
  });
});
