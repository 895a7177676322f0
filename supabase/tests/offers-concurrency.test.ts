import { describe, expect, it } from 'vitest';
import { createUser, type TestUser } from './support/fixtures.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together, type RaceResult } from './support/real-postgres.ts';

// Decisions 0083 and 0084 on a real PostgreSQL server, one connection per request, sent at once:
// an intro offer bought twice by one person, a promo code used in two tabs (and its last use by
// five people), and a referral claimed twice and paid twice are each applied once.

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('offers concurrency', binDir);

type Checkout = { checkout_reference: string; amount: string };
const hints = (results: RaceResult<unknown>[]) => results.flatMap((r) => (r.error ? [(r.error as { hint?: string }).hint] : []));
const ok = <T>(results: RaceResult<T>[]) => results.flatMap((r) => (r.error ? [] : r.rows));

const checkout = (m: TestUser, slug: string, code: string | null, offerId: string | null) => ({
  sql: 'select * from public.create_plan_payment($1, $2, null, null, $3, $4)',
  params: [m.memberId, slug, code, offerId],
});
const paid = (c: Checkout) => ({
  sql: `select * from public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`,
  params: [c.checkout_reference, `chk-${c.checkout_reference}`, c.amount],
});

describe.skipIf(!binDir)('offers on PostgreSQL at once', () => {
  const url = () => server.cluster()!.connectionString;
  const db = () => pgClientDatabase(server.admin()!);
  const kept = async (m: TestUser, where: string) =>
    (
      await db().query<{ kept: number; owed: number }>(
        `select count(*) filter (where p.status = 'paid' and not p.needs_refund)::int as kept,
                count(*) filter (where p.needs_refund)::int as owed
           from public.offer_uses u join public.payments p on p.id = u.payment_id
          where u.member_id = $1 and ${where}`,
        [m.memberId],
      )
    ).rows[0]!;

  it('an intro offer bought in two tabs at once is sold once; the other payment is owed back', async () => {
    const { rows } = await db().query<{ id: string }>(
      `insert into public.intro_offers (name, plan_slug, price) values ('Race intro', 'dropin', 40) returning id`,
    );
    const offer = rows[0]!.id;
    const member = await createUser(db(), 'race-intro');
    const tabs = await together<Checkout>(url(), [checkout(member, 'dropin', null, offer), checkout(member, 'dropin', null, offer)]);
    const checkouts = ok(tabs);
    // Both tabs got a checkout (the later supersedes the earlier: one plan purchase in flight).
    expect(checkouts).toHaveLength(2);
    const results = await together(url(), checkouts.map(paid));
    expect(hints(results)).toEqual([]);
    expect(await kept(member, 'u.intro_offer_id is not null')).toEqual({ kept: 1, owed: 1 });

    const again = await together<Checkout>(url(), [checkout(member, 'dropin', null, offer), checkout(member, 'dropin', null, offer)]);
    expect(hints(again)).toEqual(['intro_offer_used', 'intro_offer_used']);
  });

  it('a promo code used in two tabs at once is applied once', async () => {
    await db().query(
      `insert into public.promo_codes (code, percent_off, plan_slugs, expires_at, max_uses) values ('TABS', 10, '{bronze}', now() + interval '1 day', 100)`,
    );
    const member = await createUser(db(), 'race-promo');
    const checkouts = ok(
      await together<Checkout>(url(), [checkout(member, 'bronze', 'tabs', null), checkout(member, 'bronze', 'TABS', null)]),
    );
    expect(checkouts.map((c) => Number(c.amount))).toEqual([675, 675]);
    await together(url(), checkouts.map(paid));
    expect(await kept(member, 'u.promo_code_id is not null')).toEqual({ kept: 1, owed: 1 });
    expect(hints(await together(url(), [checkout(member, 'bronze', 'TABS', null), checkout(member, 'bronze', 'TABS', null)]))).toEqual([
      'promo_used',
      'promo_used',
    ]);
  });

  it("a code's last use, tried by five people at once, goes to one of them", async () => {
    await db().query(
      `insert into public.promo_codes (code, amount_off, plan_slugs, expires_at, max_uses) values ('LASTONE', 25, '{dropin}', now() + interval '1 day', 1)`,
    );
    const people: TestUser[] = [];
    for (let i = 0; i < 5; i += 1) people.push(await createUser(db(), `race-last-${i}`));
    const results = await together<Checkout>(
      url(),
      people.map((p) => checkout(p, 'dropin', 'LASTONE', null)),
    );
    expect(ok(results)).toHaveLength(1);
    expect(hints(results)).toEqual(['promo_used_up', 'promo_used_up', 'promo_used_up', 'promo_used_up']);
  });

  it('a self-referral is refused; two claims at once make one referral; a PAID replayed at once rewards once', async () => {
    const referrer = await createUser(db(), 'race-referrer');
    const other = await createUser(db(), 'race-referrer-2');
    const friend = await createUser(db(), 'race-friend');
    const codeOf = async (m: TestUser) =>
      ok(await together<{ code: string }>(url(), [{ sql: 'select * from public.my_referral()', claims: m.claims }]))[0]!.code;
    const [code, otherCode] = [await codeOf(referrer), await codeOf(other)];

    const self = await together(url(), [
      { sql: 'select * from public.claim_referral($1)', params: [code], claims: referrer.claims },
      { sql: 'select * from public.claim_referral($1)', params: [code], claims: referrer.claims },
    ]);
    expect(hints(self)).toEqual(['self_referral', 'self_referral']);

    const claims = await together(url(), [
      { sql: 'select * from public.claim_referral($1)', params: [code], claims: friend.claims },
      { sql: 'select * from public.claim_referral($1)', params: [otherCode], claims: friend.claims },
    ]);
    expect(ok(claims)).toHaveLength(1);
    expect(hints(claims)).toEqual(['already_referred']);

    const [payment] = ok(await together<Checkout>(url(), [checkout(friend, 'dropin', null, null)]));
    const replays = await together(url(), [paid(payment!), paid(payment!), paid(payment!)]);
    expect(hints(replays)).toEqual([]);
    const { rows } = await db().query<{ member_id: string; n: number }>(
      `select member_id, count(*)::int as n from public.credits where source = 'referral' and member_id = any ($1) group by member_id`,
      [[referrer.memberId, other.memberId, friend.memberId]],
    );
    const referredBy = ok(claims)[0] as { referrer_member_id: string };
    expect(Object.fromEntries(rows.map((r) => [r.member_id, r.n]))).toEqual({ [friend.memberId]: 1, [referredBy.referrer_member_id]: 1 });
  });
});
