import { describe, expect, it } from 'vitest';
import { createUser } from './support/fixtures.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Decisions 0100 and 0101 on a real PostgreSQL server, one connection per request, sent at once:
// one voucher redeemed in two tabs (and by two people) credits once; a voucher's PAID applied
// twice at once issues one code; two checkouts at once spend the balance once, a membership's
// first month beside a package included, and two renewal runs at once take a renewal's balance
// part once (decision 0108).

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('gift vouchers concurrency', binDir);

type Checkout = { checkout_reference: string; amount: string };

describe.skipIf(!binDir)('gift vouchers on PostgreSQL at once', () => {
  const url = () => server.cluster()!.connectionString;
  const db = () => pgClientDatabase(server.admin()!);

  async function paidVoucher(amount: number) {
    const { rows } = await db().query<Checkout>(
      `select * from public.create_gift_voucher_payment(null, 'Sam', 'sam@example.test', 'Robin', 'robin@example.test', '', (now() at time zone 'Europe/London')::date, $1, null, now())`,
      [amount],
    );
    const checkout = rows[0]!;
    const apply = {
      sql: `select * from public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`,
      params: [checkout.checkout_reference, `chk-${checkout.checkout_reference}`, amount],
    };
    const results = await together<{ outcome: string }>(url(), [apply, apply]);
    expect(results.map((r) => r.rows?.[0]?.outcome).sort()).toEqual(['already_applied', 'applied']);
    const voucher = await db().query<{ id: string; code: string }>(
      'select v.id, v.code from public.gift_vouchers v join public.payments p on p.id = v.payment_id where p.checkout_reference = $1',
      [checkout.checkout_reference],
    );
    return voucher.rows[0]!;
  }
  const balanceOf = async (memberId: string) =>
    Number((await db().query<{ b: string }>('select private.member_balance($1) as b', [memberId])).rows[0]!.b);

  it('a voucher redeemed in two tabs at once, and by two people at once, credits once', async () => {
    const voucher = await paidVoucher(60);
    const member = await createUser(db(), 'race-redeem');
    const redeem = { sql: 'select * from public.redeem_gift_voucher($1)', params: [voucher.code], claims: member.claims };
    const tabs = await together<{ outcome: string }>(url(), [redeem, redeem]);
    expect(tabs.map((r) => r.rows?.[0]?.outcome).sort()).toEqual(['already_redeemed', 'redeemed']);
    expect(await balanceOf(member.memberId)).toBe(60);

    const other = await paidVoucher(20);
    const a = await createUser(db(), 'race-redeem-a');
    const b = await createUser(db(), 'race-redeem-b');
    const two = await together<{ outcome: string }>(url(), [
      { sql: 'select * from public.redeem_gift_voucher($1)', params: [other.code], claims: a.claims },
      { sql: 'select * from public.redeem_gift_voucher($1)', params: [other.code], claims: b.claims },
    ]);
    expect(two.map((r) => r.rows?.[0]?.outcome).sort()).toEqual(['already_redeemed', 'redeemed']);
    expect((await balanceOf(a.memberId)) + (await balanceOf(b.memberId))).toBe(20);
    const entries = await db().query('select 1 from public.balance_entries where gift_voucher_id = $1', [other.id]);
    expect(entries.rows).toHaveLength(1);
  });

  it('two job runs at once email a voucher due on its day once', async () => {
    const { rows } = await db().query<Checkout>(
      `select * from public.create_gift_voucher_payment(null, 'Sam', 'sam@example.test', 'Robin', 'robin.race@example.test', '', (now() at time zone 'Europe/London')::date + 3, 30, null, now())`,
    );
    await db().query(`select public.apply_checkout_result($1, $2, 'PAID', 30, 'GBP')`, [
      rows[0]!.checkout_reference,
      `chk-${rows[0]!.checkout_reference}`,
    ]);
    const run = { sql: `select public.send_gift_vouchers_at(now() + interval '4 days') as sent` };
    const runs = await together<{ sent: number }>(url(), [run, run]);
    expect(runs.reduce((n, r) => n + (r.rows?.[0]?.sent ?? 0), 0)).toBe(1);
    const emails = await db().query(
      `select 1 from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where d.to_email = 'robin.race@example.test' and e.type = 'gift_voucher'`,
    );
    expect(emails.rows).toHaveLength(1);
  });

  async function memberWithBalance(label: string, amount: number) {
    const voucher = await paidVoucher(amount);
    const member = await createUser(db(), label, { membership_tier: 'payg', has_used_trial: true });
    await db().query(`select set_config('request.jwt.claims', $1, false)`, [JSON.stringify(member.claims)]);
    await db().query(`select private.redeem_gift_voucher($1, now())`, [voucher.code]);
    await db().query(`select set_config('request.jwt.claims', '', false)`);
    expect(await balanceOf(member.memberId)).toBe(amount);
    return member;
  }

  it('a membership start and a package checkout at once spend the balance once', async () => {
    const member = await memberWithBalance('race-plan-package', 150);
    const results = await together(url(), [
      { sql: `select * from public.start_membership_checkout($1, 'standard')`, params: [member.memberId] },
      { sql: `select * from public.create_plan_payment($1, 'dropin')`, params: [member.memberId] },
    ]);
    expect(results.map((r) => r.error ?? null)).toEqual([null, null]);
    // Whichever came first was paid from the balance in full, the other took what was left:
    // £150 spent once in all, never more.
    expect(await balanceOf(member.memberId)).toBe(0);
    const spent = await db().query<{ net: string }>(
      `select sum(e.amount) as net from public.balance_entries e where e.member_id = $1 and e.kind <> 'voucher'`,
      [member.memberId],
    );
    expect(Number(spent.rows[0]!.net)).toBe(-150);
  });

  it('two renewal runs at once take a renewal from the balance once', async () => {
    const member = await memberWithBalance('race-renewal', 250);
    // A first month the balance paid, 32 days ago: its renewal is due now.
    await db().query(`select * from public.start_membership_checkout($1, 'standard', p_now => now() - interval '32 days')`, [
      member.memberId,
    ]);
    expect(await balanceOf(member.memberId)).toBe(150);
    const run = { sql: `select * from public.claim_due_renewals(now())` };
    const runs = await together(url(), [run, run]);
    expect(runs.map((r) => r.error ?? null)).toEqual([null, null]);
    expect(await balanceOf(member.memberId)).toBe(50);
    const renewals = await db().query<{ status: string; balance_used: string }>(
      `select status::text, balance_used from public.payments where member_id = $1 and billing_reason = 'renewal'`,
      [member.memberId],
    );
    expect(renewals.rows).toEqual([{ status: 'paid', balance_used: '100.00' }]);
  });

  it('two class checkouts at once spend the balance once', async () => {
    const voucher = await paidVoucher(12);
    const member = await createUser(db(), 'race-spend', { membership_tier: 'payg', has_used_trial: true });
    await db().query(`select set_config('request.jwt.claims', $1, false)`, [JSON.stringify(member.claims)]);
    await db().query(`select private.redeem_gift_voucher($1, now())`, [voucher.code]);
    await db().query(`select set_config('request.jwt.claims', '', false)`);
    expect(await balanceOf(member.memberId)).toBe(12);
    const classes = await db().query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity, price_payg)
       select 'Race ' || i, now() + make_interval(days => 3, hours => i), 'Coach Test', 'Group', 10, 12 from generate_series(1, 2) i returning id`,
    );
    const holds = await together<Checkout>(
      url(),
      classes.rows.map((c) => ({
        sql: 'select * from public.create_class_payment_hold($1, $2, 15, null)',
        params: [member.memberId, c.id],
      })),
    );
    expect(holds.every((h) => !h.error)).toBe(true);
    // One paid by the balance (nothing for the card), the other charged to the card in full.
    expect(holds.map((h) => Number(h.rows![0]!.amount)).sort()).toEqual([0, 12]);
    expect(await balanceOf(member.memberId)).toBe(0);
  });
});
