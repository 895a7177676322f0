import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, publishBookingDocuments, rpc, type TestUser } from './support/fixtures.ts';
import { addChild, kidsClass, parent } from './support/families.ts';
import { claimDue, fail } from './support/membership-steps.ts';

// Decision 0108 through the API the functions use: a family's places, a guest's place and a place
// given from the waitlist, paid by the member, take the member's balance first as a pay-as-you-go
// place does (decision 0101): the card is charged the rest, one the balance covers is booked at
// once, and one that fails gives the balance part back once.

type Hold = { payment_id: string; booking_id: string; checkout_reference: string; amount: string; description: string };

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await publishBookingDocuments(db);
});
afterAll(async () => {
  await db.close();
});

const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
const balance = async (m: TestUser) => Number(await asUser(db, m.claims, (tx) => rpc<number>(tx, 'public.my_balance()')));
const apply = (h: Hold, status = 'PAID', amount = Number(h.amount)) =>
  service<{ outcome: string }>(`public.apply_checkout_result($1, $2, $3, $4, 'GBP')`, [
    h.checkout_reference,
    `chk-${h.checkout_reference}`,
    status,
    amount,
  ]);
const paymentOf = async (h: Hold) =>
  (
    await db.query<{ status: string; amount: string; balance_used: string | null }>(
      'select status::text, amount, balance_used from public.payments where id = $1',
      [h.payment_id],
    )
  ).rows[0]!;
const returnedFor = async (h: Hold) =>
  (await db.query(`select 1 from public.balance_entries where payment_id = $1 and kind = 'returned'`, [h.payment_id])).rowCount;

/** Adds `amount` to the member's balance the way members get one: a paid voucher, redeemed. */
async function giveBalance(member: TestUser, amount: number) {
  const checkout = await service<{ checkout_reference: string }>(
    `public.create_gift_voucher_payment(null, 'Sam Giver', 'sam@example.test', 'Robin', 'robin@example.test', '', (now() at time zone 'Europe/London')::date, $1, null, now())`,
    [amount],
  );
  await service(`public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`, [
    checkout.checkout_reference,
    `chk-${checkout.checkout_reference}`,
    amount,
  ]);
  const { rows } = await db.query<{ code: string }>(
    'select v.code from public.gift_vouchers v join public.payments p on p.id = v.payment_id where p.checkout_reference = $1',
    [checkout.checkout_reference],
  );
  await asUser(db, member.claims, (tx) => rpc(tx, 'public.redeem_gift_voucher($1)', [rows[0]!.code]));
  expect(await balance(member)).toBe(amount);
}

describe("a family's places", () => {
  async function family(label: string, amount: number) {
    const p = await parent(db, label, { membership_tier: 'standard' });
    const children = [await addChild(db, p, `${label} Ada`, 6), await addChild(db, p, `${label} Ben`, 9)];
    const classId = await kidsClass(db, { price: 10, capacity: 10 });
    await giveBalance(p, amount);
    const hold = () =>
      service<Hold>('public.create_family_payment_hold($1, $2, $3, $4::uuid[], $5)', [p.memberId, classId, true, children, 15]);
    const places = async () =>
      (
        await db.query<{ payment_status: string }>(
          'select payment_status::text from public.bookings where member_id = $1 and class_id = $2',
          [p.memberId, classId],
        )
      ).rows.map((b) => b.payment_status);
    return { p, hold, places };
  }

  it('the balance pays part: the card is charged the rest', async () => {
    const { p, hold, places } = await family('bal-fam-part', 15);
    // The screen's preview says what the checkout then does.
    const preview = await asUser(db, p.claims, (tx) =>
      rpc<{ balance_used: number; to_charge: number }>(tx, 'public.my_balance_cover($1)', [20]),
    );
    expect([Number(preview.balance_used), Number(preview.to_charge)]).toEqual([15, 5]);
    const h = await hold();
    expect(Number(h.amount)).toBe(5);
    expect(h.description).toBe('Kids Club - 3 places (2 paid), £15.00 from your balance');
    expect(await balance(p)).toBe(0);
    expect((await apply(h, 'PAID', 20)).outcome).toBe('mismatch');
    expect((await apply(h)).outcome).toBe('applied');
    expect(await paymentOf(h)).toEqual({ status: 'paid', amount: '20.00', balance_used: '15.00' });
    expect(await places()).toEqual(['completed', 'completed', 'completed']);
  });

  it('the balance pays all: every place is booked now, without the card', async () => {
    const { p, hold, places } = await family('bal-fam-full', 30);
    const h = await hold();
    expect(Number(h.amount)).toBe(0);
    expect(await paymentOf(h)).toEqual({ status: 'paid', amount: '20.00', balance_used: '20.00' });
    expect(await places()).toEqual(['completed', 'completed', 'completed']);
    expect(await balance(p)).toBe(10);
  });

  it('a failed checkout gives the balance part back once, and a new checkout takes it again', async () => {
    const { p, hold } = await family('bal-fam-failed', 15);
    const first = await hold();
    expect((await apply(first, 'FAILED')).outcome).toBe('marked_failed');
    await apply(first, 'FAILED');
    expect(await balance(p)).toBe(15);
    expect(await returnedFor(first)).toBe(1);
    // An open checkout replaced by a new one gives its part back, and the new one spends it.
    const open = await hold();
    const again = await hold();
    expect(Number(again.amount)).toBe(5);
    expect(await returnedFor(open)).toBe(1);
    expect(await balance(p)).toBe(0);
  });
});

describe("a guest's place", () => {
  async function host(label: string, amount: number) {
    const m = await parent(db, label, { membership_tier: 'standard' });
    const classId = await createClass(db, { name: `Guest Spin ${label}`, capacity: 5, price_payg: 12.5 });
    const booking = (await asUser(db, m.claims, (tx) => rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [classId]))).booking_id;
    await giveBalance(m, amount);
    const hold = (name = 'Pat Payer', email = `${label}@example.test`) =>
      service<Hold>('public.create_guest_payment_hold($1, $2, $3, $4, $5)', [m.memberId, booking, name, email, 15]);
    const place = async () =>
      (
        await db.query<{ payment_status: string }>('select payment_status::text from public.guest_places where class_id = $1', [classId])
      ).rows.map((g) => g.payment_status);
    return { m, hold, place };
  }

  it('the balance pays part: the card is charged the rest', async () => {
    const { m, hold, place } = await host('bal-guest-part', 10);
    const h = await hold();
    expect(Number(h.amount)).toBe(2.5);
    expect(h.description).toBe(`Guest Spin bal-guest-part - Guest place (Pat Payer), £10.00 from your balance`);
    expect(await balance(m)).toBe(0);
    expect((await apply(h)).outcome).toBe('applied');
    expect(await paymentOf(h)).toEqual({ status: 'paid', amount: '12.50', balance_used: '10.00' });
    expect(await place()).toEqual(['completed']);
  });

  it("the balance pays all: the guest's place is confirmed now and the guest is emailed", async () => {
    const { m, hold, place } = await host('bal-guest-full', 30);
    const h = await hold();
    expect(Number(h.amount)).toBe(0);
    expect(await paymentOf(h)).toEqual({ status: 'paid', amount: '12.50', balance_used: '12.50' });
    expect(await place()).toEqual(['completed']);
    expect(await balance(m)).toBe(17.5);
    const emails = await db.query(
      `select 1 from public.notification_outbox where to_email = 'bal-guest-full@example.test' and kind = 'guest_invited'`,
    );
    expect(emails.rowCount).toBe(1);
  });

  it('a failed checkout, or one replaced by a new guest, gives the balance part back once', async () => {
    const { m, hold } = await host('bal-guest-failed', 10);
    const first = await hold();
    expect((await apply(first, 'FAILED')).outcome).toBe('marked_failed');
    await apply(first, 'FAILED');
    expect(await balance(m)).toBe(10);
    expect(await returnedFor(first)).toBe(1);
    const open = await hold('Pat Payer', 'other@example.test');
    expect(await balance(m)).toBe(0);
    const again = await hold('Sam Second', 'second@example.test');
    expect(Number(again.amount)).toBe(2.5);
    expect(await returnedFor(open)).toBe(1);
    expect(await balance(m)).toBe(0);
  });
});

describe('a place given from the waitlist (decision 0081)', () => {
  async function waitingMember(label: string, amount: number) {
    const { rows } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity, price_payg)
       values ($1, now() + interval '3 days', 'Coach Test', 'Group', 1, 12) returning id`,
      [`Wait ${label}`],
    );
    const classId = rows[0]!.id;
    const holder = await parent(db, `${label}-holder`, { membership_tier: 'standard' });
    const { rows: b } = await db.query<{ id: string }>(
      `insert into public.bookings (member_id, class_id, type, payment_status) values ($1, $2, 'paid', 'completed') returning id`,
      [holder.memberId, classId],
    );
    const m = await parent(db, label, { membership_tier: 'payg', has_used_trial: true });
    await db.query(`insert into private.member_cards (member_id, customer_id, token, saved_at) values ($1, $2, 'tok-pays', now())`, [
      m.memberId,
      `member-${m.memberId}`,
    ]);
    await giveBalance(m, amount);
    await asUser(db, m.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId]));
    const freePlace = () => db.query('delete from public.bookings where id = $1', [b[0]!.id]);
    const place = async () =>
      (
        await db.query<{ payment_status: string }>(
          'select payment_status::text from public.bookings where member_id = $1 and class_id = $2',
          [m.memberId, classId],
        )
      ).rows.map((r) => r.payment_status);
    const waiting = async (at: Date) =>
      (await claimDue(db, at)).filter((c) => c.checkout_reference.startsWith('wait-') && c.customer_id === `member-${m.memberId}`);
    return { m, freePlace, place, waiting };
  }

  it('the balance pays part: the card is charged the rest, once however often the job runs', async () => {
    const { m, freePlace, place, waiting } = await waitingMember('bal-wait-part', 10);
    await freePlace();
    expect(await place()).toEqual(['pending']);
    expect(await balance(m)).toBe(0);
    const now = new Date();
    const [charge, ...more] = await waiting(now);
    expect(more).toEqual([]);
    expect(Number(charge!.amount)).toBe(2);
    expect(await waiting(now)).toEqual([]);
    expect(await balance(m)).toBe(0);
  });

  it('the balance pays all: the place is confirmed at once, never charged', async () => {
    const { m, freePlace, place, waiting } = await waitingMember('bal-wait-full', 20);
    await freePlace();
    expect(await place()).toEqual(['completed']);
    expect(await balance(m)).toBe(8);
    expect(await waiting(new Date())).toEqual([]);
  });

  it('a declined card part gives the balance part back once, and the place goes on', async () => {
    const { m, freePlace, place, waiting } = await waitingMember('bal-wait-failed', 10);
    await freePlace();
    const now = new Date();
    const [charge] = await waiting(now);
    await fail(db, charge!, now, 'declined');
    await fail(db, charge!, now, 'declined');
    expect(await place()).toEqual([]);
    expect(await balance(m)).toBe(10);
    const returned = await db.query(`select 1 from public.balance_entries where member_id = $1 and kind = 'returned'`, [m.memberId]);
    expect(returned.rowCount).toBe(1);
  });
});
