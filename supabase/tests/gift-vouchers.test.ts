import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Decisions 0100 and 0101 through the API the app uses: a voucher is bought through the card
// checkout and issued only once paid (however often the provider's PAID is applied), emailed on
// its delivery date once, redeemed once into the member's balance (a ledger), refused once expired
// until an admin extends it, and guessing codes is limited.

type PlanPayment = { checkout_reference: string; amount: number; description: string };
type Redemption = { outcome: string; amount: number | null; balance: number; message: string };

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'vouchers-admin', { is_admin: true });
});

afterAll(async () => {
  await db.close();
});

const londonToday = () => new Date().toLocaleDateString('en-CA', { timeZone: 'Europe/London' });
const daysAhead = (n: number) => new Date(Date.now() + n * 86_400_000).toLocaleDateString('en-CA', { timeZone: 'Europe/London' });

type Purchase = {
  buyer?: TestUser | null;
  amount?: number | null;
  planSlug?: string | null;
  deliverOn?: string;
  message?: string;
  recipientEmail?: string;
};

function buy(p: Purchase = {}) {
  return asServiceRole(db, (tx) =>
    rpc<PlanPayment>(tx, 'public.create_gift_voucher_payment($1, $2, $3, $4, $5, $6, $7, $8, $9, now())', [
      p.buyer?.memberId ?? null,
      'Sam Giver',
      'sam.giver@example.test',
      'Robin Friend',
      p.recipientEmail ?? `robin-${Math.random().toString(36).slice(2)}@example.test`,
      p.message ?? 'Happy birthday!',
      p.deliverOn ?? londonToday(),
      p.planSlug ? null : (p.amount ?? 50),
      p.planSlug ?? null,
    ]),
  );
}

const paid = (c: PlanPayment, status = 'PAID') =>
  asServiceRole(db, (tx) =>
    rpc<{ outcome: string }>(tx, `public.apply_checkout_result($1, $2, $3, $4, 'GBP')`, [
      c.checkout_reference,
      `chk-${c.checkout_reference}`,
      status,
      c.amount,
    ]),
  );

async function voucherOf(c: PlanPayment) {
  const { rows } = await db.query<{
    id: string;
    code: string | null;
    delivered_at: string | null;
    expires_at: string | null;
    issued_at: string | null;
  }>(`select v.* from public.gift_vouchers v join public.payments p on p.id = v.payment_id where p.checkout_reference = $1`, [
    c.checkout_reference,
  ]);
  return rows[0]!;
}

const emailsTo = async (to: string, kind: string) =>
  (
    await db.query<{ subject: string; body_text: string }>(
      `select d.subject, d.body_text from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where d.to_email = $1 and e.type = $2`,
      [to, kind],
    )
  ).rows;

const redeem = (m: TestUser, code: string) => asUser(db, m.claims, (tx) => rpc<Redemption>(tx, 'public.redeem_gift_voucher($1)', [code]));
const balance = (m: TestUser) => asUser(db, m.claims, (tx) => rpc<number>(tx, 'public.my_balance()'));
const dashed = (code: string) => code.match(/.{4}/g)!.join('-');

describe('buying a gift voucher', () => {
  it('issues nothing until the provider says paid, then issues it once however often PAID is applied', async () => {
    const recipient = 'robin.once@example.test';
    const checkout = await buy({ amount: 40, recipientEmail: recipient, deliverOn: daysAhead(3) });
    expect(Number(checkout.amount)).toBe(40);
    expect(checkout.description).toBe('Gift voucher for Robin Friend (£40.00)');
    expect((await voucherOf(checkout)).code).toBeNull();

    expect((await paid(checkout)).outcome).toBe('applied');
    const issued = await voucherOf(checkout);
    expect(issued.code).toMatch(/^[A-HJ-NP-Z2-9]{16}$/);
    expect((await paid(checkout)).outcome).toBe('already_applied');
    expect((await voucherOf(checkout)).code).toBe(issued.code);

    // The visitor's receipt, once; the recipient hears nothing before the delivery date.
    expect(await emailsTo('sam.giver@example.test', 'payment_receipt')).toEqual(
      expect.arrayContaining([expect.objectContaining({ subject: 'Receipt: Gift voucher for Robin Friend (£40.00)' })]),
    );
    expect(await emailsTo(recipient, 'gift_voucher')).toEqual([]);
    // Twelve months from purchase by default.
    const months = (new Date(issued.expires_at!).getTime() - new Date(issued.issued_at!).getTime()) / 86_400_000;
    expect(months).toBeGreaterThanOrEqual(364);
    expect(months).toBeLessThanOrEqual(366);
  });

  it('a member buyer gets one receipt, stating the delivery date and the expiry', async () => {
    const buyer = await createUser(db, 'voucher-member-buyer');
    const checkout = await buy({ buyer, amount: 25, deliverOn: daysAhead(5) });
    await paid(checkout);
    const receipts = await emailsTo(buyer.email, 'payment_receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.body_text).toMatch(
      /We will email Robin Friend their code on \w+ \d+ \w+ \d{4}\. The voucher can be redeemed until \d+ \w+ \d{4}\./,
    );
  });

  it('a failed checkout issues nothing', async () => {
    const checkout = await buy();
    expect((await paid(checkout, 'FAILED')).outcome).toBe('marked_failed');
    expect((await voucherOf(checkout)).code).toBeNull();
  });

  it('a named package costs its catalogue price', async () => {
    const { rows } = await db.query<{ slug: string; price: string; name: string }>(
      `select slug, price, name from public.plans where category = 'training' order by price limit 1`,
    );
    const checkout = await buy({ planSlug: rows[0]!.slug });
    expect(Number(checkout.amount)).toBe(Number(rows[0]!.price));
    expect(checkout.description).toContain(rows[0]!.name);
  });

  it('refuses bad input with a clear message and records nothing', async () => {
    const before = (await db.query<{ n: number }>('select count(*)::int as n from public.gift_vouchers')).rows[0]!.n;
    await expectSqlError(buy({ amount: 5 }), {
      hint: 'invalid_amount',
      message: 'A gift voucher is a whole number of pounds from £10.00 to £500.00.',
    });
    await expectSqlError(buy({ amount: 20.5 }), { hint: 'invalid_amount' });
    await expectSqlError(buy({ deliverOn: daysAhead(-1) }), { hint: 'invalid_delivery_date' });
    await expectSqlError(buy({ deliverOn: daysAhead(400) }), { hint: 'invalid_delivery_date' });
    await expectSqlError(buy({ message: 'x'.repeat(501) }), { hint: 'invalid_message' });
    await expectSqlError(buy({ recipientEmail: 'not-an-email' }), { hint: 'invalid_recipient' });
    await expectSqlError(buy({ planSlug: 'standard' }), { hint: 'invalid_package' });
    expect((await db.query<{ n: number }>('select count(*)::int as n from public.gift_vouchers')).rows[0]!.n).toBe(before);
  });

  it('shows visitors the studio limits and the packages', async () => {
    const options = await asAnon(db, (tx) =>
      rpc<{ min_amount: number; max_amount: number; expiry_months: number; packages: { slug: string }[] }>(
        tx,
        'public.gift_voucher_options()',
      ),
    );
    expect(options).toMatchObject({ min_amount: 10, max_amount: 500, expiry_months: 12 });
    expect(options.packages.length).toBeGreaterThan(0);
  });
});

describe('delivering a gift voucher', () => {
  it('emails the recipient on the delivery date, once however often the job runs', async () => {
    const recipient = 'robin.later@example.test';
    const checkout = await buy({ recipientEmail: recipient, deliverOn: daysAhead(2), message: 'See you at yoga' });
    await paid(checkout);
    const send = (at: Date) => asServiceRole(db, (tx) => rpc<number>(tx, 'public.send_gift_vouchers_at($1)', [at.toISOString()]));

    await send(new Date());
    expect(await emailsTo(recipient, 'gift_voucher')).toEqual([]);
    const onTheDay = new Date(Date.now() + 2 * 86_400_000 + 3_600_000);
    expect(await send(onTheDay)).toBeGreaterThanOrEqual(1);
    expect(await send(onTheDay)).toBe(0);
    const emails = await emailsTo(recipient, 'gift_voucher');
    expect(emails).toHaveLength(1);
    const voucher = await voucherOf(checkout);
    expect(emails[0]!.subject).toBe('Sam Giver has sent you a gift voucher for £50.00');
    expect(emails[0]!.body_text).toContain(`Your code: ${dashed(voucher.code!)}`);
    expect(emails[0]!.body_text).toContain('Their message: See you at yoga');
    expect(voucher.delivered_at).not.toBeNull();
  });

  it('a voucher due today is emailed when it is paid', async () => {
    const recipient = 'robin.today@example.test';
    await paid(await buy({ recipientEmail: recipient }));
    expect(await emailsTo(recipient, 'gift_voucher')).toHaveLength(1);
  });
});

describe('redeeming a gift voucher', () => {
  it('credits the balance once, by a code typed any way', async () => {
    const member = await createUser(db, 'voucher-redeemer');
    const checkout = await buy({ amount: 30 });
    await paid(checkout);
    const { code } = await voucherOf(checkout);

    const first = await redeem(member, dashed(code!).toLowerCase());
    expect(first).toMatchObject({ outcome: 'redeemed', message: '£30.00 has been added to your balance.' });
    expect(Number(first.balance)).toBe(30);
    expect((await redeem(member, code!)).outcome).toBe('already_redeemed');
    const other = await createUser(db, 'voucher-late');
    expect(await redeem(other, code!)).toMatchObject({
      outcome: 'already_redeemed',
      message: 'This gift voucher has already been redeemed.',
    });
    expect(Number(await balance(member))).toBe(30);
    expect(Number(await balance(other))).toBe(0);
    const history = await asUser(db, member.claims, (tx) =>
      rpc<{ amount: number; kind: string; description: string }[]>(tx, 'public.my_balance_history()'),
    );
    expect(history).toEqual([expect.objectContaining({ kind: 'voucher', description: 'Gift voucher from Sam Giver' })]);
  });

  it('refuses an expired voucher until an admin extends it', async () => {
    const member = await createUser(db, 'voucher-expired');
    const checkout = await buy();
    await paid(checkout);
    const voucher = await voucherOf(checkout);
    await db.query(`update public.gift_vouchers set expires_at = now() - interval '1 day' where id = $1`, [voucher.id]);

    expect((await redeem(member, voucher.code!)).outcome).toBe('expired');
    const listed = await asUser(db, admin.claims, (tx) => rpc<{ status: string }[]>(tx, 'public.admin_gift_vouchers($1)', [voucher.code]));
    expect(listed).toEqual([expect.objectContaining({ status: 'expired' })]);

    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_extend_gift_voucher($1, $2)', [voucher.id, daysAhead(30)])),
      { code: '42501' },
    );
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_extend_gift_voucher($1, $2)', [voucher.id, `${daysAhead(30)}T12:00:00Z`]));
    expect((await redeem(member, voucher.code!)).outcome).toBe('redeemed');
    // The admin's change is in the audit trail; the member's redeeming is not an admin's.
    const audited = await db.query<{ actor_role: string; action: string }>(
      `select actor_role, action from public.audit_events where table_name = 'gift_vouchers' and row_id = $1`,
      [voucher.id],
    );
    expect(audited.rows).toEqual([{ actor_role: 'admin', action: 'update' }]);
  });

  it('limits wrong codes to ten a day', async () => {
    const member = await createUser(db, 'voucher-guesser');
    for (let i = 0; i < 10; i += 1)
      expect((await redeem(member, `AAAA-BBBB-CCCC-${String(2222 + i).slice(0, 4)}`)).outcome).toBe('unknown_code');
    const checkout = await buy();
    await paid(checkout);
    const { code } = await voucherOf(checkout);
    expect((await redeem(member, code!)).outcome).toBe('too_many_tries');
    expect(Number(await balance(member))).toBe(0);
  });

  it('admins find vouchers by code or email', async () => {
    const checkout = await buy({ recipientEmail: 'findme.robin@example.test' });
    await paid(checkout);
    const byEmail = await asUser(db, admin.claims, (tx) =>
      rpc<{ recipient_email: string }[]>(tx, 'public.admin_gift_vouchers($1)', ['findme.robin']),
    );
    expect(byEmail.map((r) => r.recipient_email)).toEqual(['findme.robin@example.test']);
  });
});

describe('paying from the balance', () => {
  /** A member whose balance is `amount`, from a voucher they redeemed. */
  async function memberWithBalance(label: string, amount: number) {
    const member = await createUser(db, label, { membership_tier: 'payg', has_used_trial: true });
    const checkout = await buy({ amount });
    await paid(checkout);
    expect((await redeem(member, (await voucherOf(checkout)).code!)).outcome).toBe('redeemed');
    return member;
  }
  const packageCheckout = (m: TestUser, slug = 'dropin') =>
    asServiceRole(db, (tx) => rpc<PlanPayment>(tx, 'public.create_plan_payment($1, $2)', [m.memberId, slug]));
  const paymentRow = async (reference: string) =>
    (
      await db.query<{ status: string; amount: string; balance_used: string | null; description: string }>(
        'select status, amount, balance_used, description from public.payments where checkout_reference = $1',
        [reference],
      )
    ).rows[0]!;

  it('shows before paying how much the balance covers, then charges the card only the rest', async () => {
    const member = await memberWithBalance('balance-part', 40);
    const preview = await asUser(db, member.claims, (tx) =>
      rpc<{ price: number; balance_used: number; to_charge: number }>(tx, "public.my_offer_price('dropin')"),
    );
    expect([preview.price, preview.balance_used, preview.to_charge].map(Number)).toEqual([115, 40, 75]);

    const checkout = await packageCheckout(member);
    expect(Number(checkout.amount)).toBe(75);
    expect(checkout.description).toBe('Drop-In Session (£115), £40.00 from your balance');
    expect(Number(await balance(member))).toBe(0);
    // The provider is asked for the card's part only: the full price is a mismatch.
    expect((await paid({ ...checkout, amount: 115 })).outcome).toBe('mismatch');
    expect((await paid(checkout)).outcome).toBe('applied');
    expect(await paymentRow(checkout.checkout_reference)).toMatchObject({ status: 'paid', amount: '115.00', balance_used: '40.00' });
    expect(Number(await balance(member))).toBe(0);
  });

  it('completes a purchase the balance covers in full without the card provider', async () => {
    const member = await memberWithBalance('balance-full', 150);
    const checkout = await packageCheckout(member);
    expect(Number(checkout.amount)).toBe(0);
    expect(await paymentRow(checkout.checkout_reference)).toMatchObject({ status: 'paid', amount: '115.00', balance_used: '115.00' });
    expect(Number(await balance(member))).toBe(35);
    const credits = await db.query('select 1 from public.credits where member_id = $1', [member.memberId]);
    expect(credits.rowCount).toBe(1);
  });

  it('gives the balance back when the checkout fails, and when a new checkout replaces an open one', async () => {
    const member = await memberWithBalance('balance-failed', 30);
    const first = await packageCheckout(member);
    expect(Number(await balance(member))).toBe(0);
    expect((await paid(first, 'FAILED')).outcome).toBe('marked_failed');
    expect(Number(await balance(member))).toBe(30);

    // An open checkout left at the card page: the next one takes the balance it held.
    const open = await packageCheckout(member);
    const again = await packageCheckout(member);
    expect(Number(again.amount)).toBe(85);
    expect(Number(await balance(member))).toBe(0);
    // The abandoned one paid late is owed back: the card's part only; its balance came back already.
    await paid(open);
    const owed = await db.query<{ amount: string }>(
      'select r.amount from public.refunds_owed r join public.payments p on p.id = r.payment_id where p.checkout_reference = $1',
      [open.checkout_reference],
    );
    expect(owed.rows.map((r) => r.amount)).toEqual(['85.00']);
    expect(Number(await balance(member))).toBe(0);
    const history = await asUser(db, member.claims, (tx) => rpc<{ kind: string; amount: number }[]>(tx, 'public.my_balance_history()'));
    expect(history.map((h) => [h.kind, Number(h.amount)])).toEqual([
      ['spent', -30],
      ['returned', 30],
      ['spent', -30],
      ['returned', 30],
      ['spent', -30],
      ['voucher', 30],
    ]);
  });

  it('pays a pay-as-you-go class from the balance, and its refund goes back to the balance', async () => {
    const member = await memberWithBalance('balance-class', 25);
    const { rows } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity, price_payg) values ('Balance Class', now() + interval '3 days', 'Coach Test', 'Group', 10, 12) returning id`,
    );
    const hold = await asServiceRole(db, (tx) =>
      rpc<{ checkout_reference: string; booking_id: string; amount: number }>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [
        member.memberId,
        rows[0]!.id,
      ]),
    );
    expect(Number(hold.amount)).toBe(0);
    const booking = await db.query<{ payment_status: string }>('select payment_status from public.bookings where id = $1', [
      hold.booking_id,
    ]);
    expect(booking.rows[0]!.payment_status).toBe('completed');
    expect(Number(await balance(member))).toBe(13);

    // The studio cancels it: the whole price was the balance's, so it all goes back there and no card refund is listed.
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [hold.booking_id]));
    expect(Number(await balance(member))).toBe(25);
    const owed = await db.query('select 1 from public.refunds_owed where member_id = $1', [member.memberId]);
    expect(owed.rowCount).toBe(0);
  });

  it('splits a refund of a part-balance payment between the balance and the card', async () => {
    const member = await memberWithBalance('balance-split', 15);
    const checkout = await packageCheckout(member);
    await paid(checkout);
    const { rows } = await db.query<{ id: string }>('select id from public.payments where checkout_reference = $1', [
      checkout.checkout_reference,
    ]);
    await db.query(`select private.owe_payment_back($1, 'duplicate_payment', now())`, [rows[0]!.id]);
    const owed = await db.query<{ amount: string }>('select amount from public.refunds_owed where payment_id = $1', [rows[0]!.id]);
    expect(owed.rows.map((r) => r.amount)).toEqual(['100.00']);
    expect(Number(await balance(member))).toBe(15);
    // Recorded again (a replayed notification): nothing more comes back.
    await db.query(`select private.owe_payment_back($1, 'duplicate_payment', now())`, [rows[0]!.id]);
    expect(Number(await balance(member))).toBe(15);
  });
});

describe('reports', () => {
  type Line = { month: string | null; line: string; payments: number; gross: number; refunded: number };
  const monthRange = () => {
    const today = londonToday();
    return [`${today.slice(0, 8)}01`, today];
  };
  const sumOf = async (sql: string) => Number((await db.query<{ s: string | null }>(sql)).rows[0]!.s ?? 0);
  const thisMonth = `p.status = 'paid' and p.paid_at >= date_trunc('month', now() at time zone 'Europe/London') at time zone 'Europe/London'`;

  it('counts vouchers sold, the balance spent and discounts beside revenue, never in it', async () => {
    const [from, to] = monthRange();
    const reports = await asUser(db, admin.claims, (tx) => rpc<{ revenue: Line[] }>(tx, 'public.admin_reports($1, $2)', [from, to]));
    const total = (line: string) => reports.revenue.find((r) => r.month === null && r.line === line)!;
    const revenueLines = reports.revenue.filter(
      (r) => r.month === null && !['vouchers_sold', 'balance_spent', 'discounts'].includes(r.line),
    );

    expect(Number(total('vouchers_sold').gross)).toBe(
      await sumOf(`select sum(p.amount) as s from public.payments p where p.kind = 'gift_voucher' and ${thisMonth}`),
    );
    expect(Number(total('vouchers_sold').gross)).toBeGreaterThan(0);
    expect(revenueLines.reduce((s, r) => s + Number(r.gross), 0)).toBe(
      await sumOf(`select sum(p.amount) as s from public.payments p where p.kind <> 'gift_voucher' and ${thisMonth}`),
    );
    expect(Number(total('balance_spent').gross)).toBe(
      await sumOf(`select sum(p.balance_used) as s from public.payments p where ${thisMonth}`),
    );
    expect(Number(total('balance_spent').gross)).toBeGreaterThan(0);
    expect(Number(total('discounts').gross)).toBe(await sumOf(`select sum(p.discount) as s from public.payments p where ${thisMonth}`));
    // The refund split earlier gave £15 back to a balance: it leaves the balance spent and the packages' revenue.
    expect(Number(total('balance_spent').refunded)).toBeGreaterThanOrEqual(15);
  });

  it('shows the money held for members: unredeemed vouchers not past expiry, and unspent balances', async () => {
    const held = await asUser(db, admin.claims, (tx) =>
      rpc<{ vouchers: number; balances: number; total: number }>(tx, 'public.admin_money_held()'),
    );
    expect(Number(held.vouchers)).toBe(
      await sumOf(
        'select sum(amount) as s from public.gift_vouchers where issued_at is not null and redeemed_at is null and expires_at > now()',
      ),
    );
    expect(Number(held.balances)).toBe(await sumOf('select sum(amount) as s from public.balance_entries'));
    expect(Number(held.total)).toBe(Number(held.vouchers) + Number(held.balances));
    const member = await createUser(db, 'not-admin-held');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_money_held()')),
      { code: '42501' },
    );
  });
});

describe('the data download', () => {
  it('gives the buyer their voucher without its code, and the recipient their balance and what they redeemed', async () => {
    const buyer = await createUser(db, 'voucher-export-buyer');
    const recipient = await createUser(db, 'voucher-export-recipient');
    const checkout = await buy({ buyer, amount: 30, recipientEmail: recipient.email, message: 'Enjoy the classes' });
    await paid(checkout);
    const { code } = await voucherOf(checkout);
    expect((await redeem(recipient, code!)).outcome).toBe('redeemed');

    type Export = { balance: { total: number; entries: { kind: string; amount: number }[] }; gift_vouchers: Record<string, unknown[]> };
    const exportOf = (m: TestUser) => asUser(db, m.claims, (tx) => rpc<Export>(tx, 'public.my_data_export()'));
    const bought = await exportOf(buyer);
    expect(bought.gift_vouchers.bought).toEqual([
      expect.objectContaining({ amount: 30, recipient_email: recipient.email, message: 'Enjoy the classes' }),
    ]);
    expect(bought.gift_vouchers.redeemed).toEqual([]);
    expect(bought.balance).toEqual({ total: 0, entries: [] });
    expect(JSON.stringify(bought)).not.toContain(code!);

    const received = await exportOf(recipient);
    expect(received.gift_vouchers.redeemed).toEqual([expect.objectContaining({ amount: 30, message: 'Enjoy the classes' })]);
    expect(received.gift_vouchers.bought).toEqual([]);
    expect(received.balance.total).toBe(30);
    expect(received.balance.entries).toEqual([expect.objectContaining({ kind: 'voucher', amount: 30 })]);
    expect(JSON.stringify(received)).not.toContain(buyer.memberId);
  });
});
