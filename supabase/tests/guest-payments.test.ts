import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../local/db/as-user.ts';
import type { SqlDatabase } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// A member without a guest pass pays the class's pay-as-you-go price for their guest.
// The guest's place is held as pending while the host pays (it lapses like any hold), the
// provider's PAID confirms it once and emails the guest, and cancelling in time owes it back.

type Hold = { payment_id: string; booking_id: string; checkout_reference: string; amount: string; description: string };
type Place = { id: string; payment_status: string; payment_id: string | null; cancel_token: string };

let db: SqlDatabase & { close(): Promise<void> };
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'guest-pay-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

const as = <T>(database: SqlDatabase, user: TestUser, sql: string, params: unknown[] = []) =>
  asUser(database, user.claims, (tx) => rpc<T>(tx, sql, params));
const bookingOf = async (database: SqlDatabase, user: TestUser, classId: string) =>
  (await as<{ booking_id: string }>(database, user, 'public.book_class($1)', [classId])).booking_id;
/** What the create-guest-checkout function asks, as the service role, for the signed-in host. */
const hold = (database: SqlDatabase, host: TestUser, bookingId: string, name: string, email: string, minutes = 15) =>
  asServiceRole(database, (tx) =>
    rpc<Hold>(tx, 'public.create_guest_payment_hold($1, $2, $3, $4, $5)', [host.memberId, bookingId, name, email, minutes]),
  );
/** What the webhook (or the return page) applies after the provider said `status`. */
const apply = (database: SqlDatabase, h: Hold, status: 'PAID' | 'FAILED' = 'PAID') =>
  asServiceRole(database, (tx) =>
    rpc<{ outcome: string }>(tx, `public.apply_checkout_result($1, $2, $3, $4, 'GBP')`, [
      h.checkout_reference,
      `chk-${h.checkout_reference}`,
      status,
      Number(h.amount),
    ]),
  );
const placesOf = async (database: SqlDatabase, classId: string) =>
  (
    await database.query<Place>(
      'select id, payment_status, payment_id, cancel_token from public.guest_places where class_id = $1 order by created_at',
      [classId],
    )
  ).rows;
const paymentStatus = async (database: SqlDatabase, id: string) =>
  (
    await database.query<{ status: string; needs_refund: boolean }>(
      'select status::text, needs_refund from public.payments where id = $1',
      [id],
    )
  ).rows[0];
const spotsLeft = async (classId: string) =>
  (await db.query<{ n: number }>('select spots_left as n from public.classes where id = $1', [classId])).rows[0]!.n;
const emailsTo = async (email: string) =>
  (
    await db.query<{ kind: string }>('select kind from public.notification_outbox where to_email = $1 order by created_at', [email])
  ).rows.map((r) => r.kind);
const refundsOf = async (paymentId: string) =>
  (
    await db.query<{ amount: string; reason: string }>('select amount::text, reason from public.refunds_owed where payment_id = $1', [
      paymentId,
    ])
  ).rows;

describe('paying for a guest', () => {
  it('holds the place while the host pays, confirms it once on PAID (a replay changes nothing) and emails the guest', async () => {
    const host = await createUser(db, 'guest-payer', { membership_tier: 'standard' });
    const classId = await createClass(db, { name: 'Paid Guest Spin', capacity: 5, price_payg: 12.5 });
    const booking = await bookingOf(db, host, classId);

    const h = await hold(db, host, booking, ' Pat Payer ', 'PAT@example.test');
    expect(h).toMatchObject({ booking_id: booking, description: 'Paid Guest Spin - Guest place (Pat Payer)' });
    expect(Number(h.amount)).toBe(12.5);
    expect(h.checkout_reference).toMatch(/^guest-/);
    expect(await placesOf(db, classId)).toMatchObject([{ payment_status: 'pending', payment_id: h.payment_id }]);
    expect(await spotsLeft(classId)).toBe(3);
    expect(await emailsTo('pat@example.test')).toEqual([]);

    expect(await apply(db, h)).toMatchObject({ outcome: 'applied' });
    expect(await apply(db, h)).toMatchObject({ outcome: 'already_applied' });
    expect(await placesOf(db, classId)).toMatchObject([{ payment_status: 'completed' }]);
    expect(await paymentStatus(db, h.payment_id)).toEqual({ status: 'paid', needs_refund: false });
    expect(await emailsTo('pat@example.test')).toEqual(['guest_invited']);
    expect(await spotsLeft(classId)).toBe(3);
    // The host's own booking is untouched: one booking, still theirs.
    expect((await db.query('select 1 from public.bookings where member_id = $1', [host.memberId])).rows).toHaveLength(1);
  });

  it('refuses, nothing changed: no pay-as-you-go price, a full class, yourself, not your booking', async () => {
    const host = await createUser(db, 'guest-pay-refused', { membership_tier: 'standard' });
    const free = await createClass(db, { name: 'No Price', price_payg: null });
    await expectSqlError(hold(db, host, await bookingOf(db, host, free), 'Al', 'al@example.test'), { hint: 'no_guest_price' });
    const full = await createClass(db, { name: 'Full For Guests', capacity: 1 });
    await expectSqlError(hold(db, host, await bookingOf(db, host, full), 'Al', 'al@example.test'), { hint: 'class_full' });
    const open = await createClass(db, { name: 'Open For Guests' });
    const booking = await bookingOf(db, host, open);
    await expectSqlError(hold(db, host, booking, 'Me', host.email), { hint: 'guest_is_you' });
    const other = await createUser(db, 'guest-pay-other', { membership_tier: 'standard' });
    await expectSqlError(hold(db, other, booking, 'Al', 'al@example.test'), { hint: 'not_your_booking' });
    expect(await placesOf(db, open)).toEqual([]);
    expect(
      (await db.query("select 1 from public.payments where member_id = $1 and checkout_reference like 'guest-%'", [host.memberId])).rows,
    ).toEqual([]);
  });

  it('a lapsed hold frees the place and a PAID arriving after it is owed back; a new hold replaces the last', async () => {
    const host = await createUser(db, 'guest-pay-lapse', { membership_tier: 'standard' });
    const classId = await createClass(db, { name: 'Lapsing Guest', capacity: 3 });
    const booking = await bookingOf(db, host, classId);

    // Trying again (the host left the card page) releases the first hold: one unpaid guest place.
    const first = await hold(db, host, booking, 'Liv', 'liv@example.test');
    const second = await hold(db, host, booking, 'Liv', 'liv@example.test');
    expect((await paymentStatus(db, first.payment_id))?.status).toBe('expired');
    expect(await placesOf(db, classId)).toMatchObject([{ payment_id: second.payment_id, payment_status: 'pending' }]);

    await db.query(`update public.guest_places set hold_expires_at = now() - interval '1 second' where payment_id = $1`, [
      second.payment_id,
    ]);
    await asServiceRole(db, (tx) => rpc(tx, 'public.release_expired_holds()'));
    expect(await placesOf(db, classId)).toEqual([]);
    expect(await spotsLeft(classId)).toBe(2);
    expect((await paymentStatus(db, second.payment_id))?.status).toBe('expired');

    expect(await apply(db, second)).toMatchObject({ outcome: 'applied' });
    expect(await paymentStatus(db, second.payment_id)).toEqual({ status: 'paid', needs_refund: true });
    expect(await refundsOf(second.payment_id)).toEqual([{ amount: '10.00', reason: 'class_filled' }]);
    expect(await placesOf(db, classId)).toEqual([]);
    expect(await emailsTo('liv@example.test')).toEqual([]);
    expect((await db.query('select 1 from public.bookings where member_id = $1', [host.memberId])).rows).toHaveLength(1);
  });

  it('a declined card releases the place at once', async () => {
    const host = await createUser(db, 'guest-pay-declined', { membership_tier: 'standard' });
    const classId = await createClass(db, { name: 'Declined Guest', capacity: 3 });
    const h = await hold(db, host, await bookingOf(db, host, classId), 'Dee', 'dee@example.test');
    expect(await apply(db, h, 'FAILED')).toMatchObject({ outcome: 'marked_failed' });
    expect(await placesOf(db, classId)).toEqual([]);
    expect(await spotsLeft(classId)).toBe(2);
  });

  it('cancelled in time (guest link, host) is owed back, late is not; the studio removing it always is', async () => {
    const host = await createUser(db, 'guest-pay-cancel', { membership_tier: 'standard' });
    const classId = await createClass(db, { name: 'Refund Guest', capacity: 6 });
    const booking = await bookingOf(db, host, classId);
    const viaLink = await hold(db, host, booking, 'Kim', 'kim@example.test');
    await apply(db, viaLink);
    const byHost = await hold(db, host, booking, 'Ben', 'ben@example.test');
    await apply(db, byHost);
    const byAdmin = await hold(db, host, booking, 'Ada', 'ada@example.test');
    await apply(db, byAdmin);
    const [kim, ben, ada] = await placesOf(db, classId);

    await asAnon(db, (tx) => rpc(tx, 'public.cancel_guest_place($1)', [kim!.cancel_token]));
    expect(await refundsOf(viaLink.payment_id)).toEqual([{ amount: '10.00', reason: 'member_cancelled_in_time' }]);
    await as(db, host, 'public.remove_guest($1)', [ben!.id]);
    expect(await refundsOf(byHost.payment_id)).toEqual([{ amount: '10.00', reason: 'member_cancelled_in_time' }]);
    await as(db, admin, 'public.remove_guest($1)', [ada!.id]);
    expect(await refundsOf(byAdmin.payment_id)).toEqual([{ amount: '10.00', reason: 'admin_cancelled' }]);
    expect(await emailsTo('kim@example.test')).toEqual(['guest_invited', 'guest_cancelled']);
    // The host is told their guest cancelled, and that the price comes back (only for the guest's own link).
    const told = await db.query<{ body_text: string }>(
      `select body_text from public.notification_outbox where to_email = $1 and kind = 'host_guest_cancelled'`,
      [host.email],
    );
    expect(told.rows).toHaveLength(1);
    expect(told.rows[0]!.body_text).toContain(
      'The £10.00 you paid for their place will be refunded to your card; you will get a receipt when it is.',
    );

    const soon = await createClass(db, { name: 'Late Guest', startsIn: '2 hours' });
    const late = await hold(db, host, await bookingOf(db, host, soon), 'Lee', 'lee@example.test');
    await apply(db, late);
    await as(db, host, 'public.remove_guest($1)', [(await placesOf(db, soon))[0]!.id]);
    expect(await refundsOf(late.payment_id)).toEqual([]);
  });

  it('the host cancelling their booking in time takes the paid guest with it and owes the guest place back once', async () => {
    const host = await createUser(db, 'guest-pay-host-cancels', { membership_tier: 'standard' });
    const classId = await createClass(db, { name: 'Host Cancels', capacity: 6 });
    const booking = await bookingOf(db, host, classId);
    const h = await hold(db, host, booking, 'Cy', 'cy@example.test');
    await apply(db, h);
    await as(db, host, 'public.cancel_booking($1)', [booking]);
    expect(await placesOf(db, classId)).toEqual([]);
    expect(await refundsOf(h.payment_id)).toEqual([{ amount: '10.00', reason: 'member_cancelled_in_time' }]);
    expect(await spotsLeft(classId)).toBe(6);
  });

  it('the host cancelling their booking late takes the paid guest with it and owes nothing', async () => {
    const host = await createUser(db, 'guest-pay-host-late', { membership_tier: 'standard' });
    const soon = await createClass(db, { name: 'Host Cancels Late', capacity: 6, startsIn: '2 hours' });
    const booking = await bookingOf(db, host, soon);
    const h = await hold(db, host, booking, 'Lu', 'lu@example.test');
    await apply(db, h);

    const cancelled = await as<{ late: boolean }>(db, host, 'public.cancel_booking($1)', [booking]);
    expect(cancelled).toMatchObject({ booking_id: booking, late: true });
    expect(await placesOf(db, soon)).toEqual([]);
    expect(await refundsOf(h.payment_id)).toEqual([]);
    expect(await spotsLeft(soon)).toBe(6);
    expect(await emailsTo('lu@example.test')).toEqual(['guest_invited', 'guest_cancelled']);
  });
});

describe('what bringing a guest would use', () => {
  it('lists each upcoming group booking with the pass it would use and the price to pay instead', async () => {
    const host = await createUser(db, 'guest-options', { membership_tier: 'premium' });
    await as(db, admin, 'public.admin_grant_credits($1, $2, 1, 30, $3)', [host.memberId, 'guest_pass', 'Test pass']);
    const priced = await createClass(db, { name: 'Priced', price_payg: 9 });
    const unpriced = await createClass(db, { name: 'Unpriced', price_payg: null });
    const [pricedBooking, unpricedBooking] = [await bookingOf(db, host, priced), await bookingOf(db, host, unpriced)];
    type Option = { booking_id: string; pass_expires_at: Date | null; price: string | null };
    const options = async () => (await asUser(db, host.claims, (tx) => tx.query<Option>('select * from public.my_guest_options()'))).rows;
    const withPass = await options();
    expect(withPass.map((o) => [o.booking_id, o.pass_expires_at !== null, o.price === null ? null : Number(o.price)])).toEqual(
      expect.arrayContaining([
        [pricedBooking, true, 9],
        [unpricedBooking, true, null],
      ]),
    );
    await as(db, host, 'public.add_guest($1, $2, $3)', [pricedBooking, 'Opt', 'opt@example.test']);
    // Without a pass, only the class with a price is offered.
    expect((await options()).map((o) => [o.booking_id, o.pass_expires_at, Number(o.price)])).toEqual([[pricedBooking, null, 9]]);
  });

  it("a PAID arriving after the host's booking went is owed back; the host is not booked with the guest's money", async () => {
    const host = await createUser(db, 'guest-pay-host-gone', { membership_tier: 'standard' });
    const classId = await createClass(db, { name: 'Host Gone', capacity: 6 });
    const booking = await bookingOf(db, host, classId);
    const h = await hold(db, host, booking, 'Vi', 'vi@example.test');
    await as(db, host, 'public.cancel_booking($1)', [booking]);
    expect(await placesOf(db, classId)).toEqual([]);
    expect(await apply(db, h)).toMatchObject({ outcome: 'applied' });
    expect(await paymentStatus(db, h.payment_id)).toEqual({ status: 'paid', needs_refund: true });
    expect(await refundsOf(h.payment_id)).toEqual([{ amount: '10.00', reason: 'class_filled' }]);
    expect((await db.query('select 1 from public.bookings where member_id = $1', [host.memberId])).rows).toEqual([]);
  });
});

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('guest payments race', binDir);

describe.skipIf(!binDir)('paying for a guest on PostgreSQL', () => {
  it('two hosts paying for a guest on the last place at once: one hold; five replayed PAIDs confirm once', async () => {
    const pgdb = pgClientDatabase(server.admin()!);
    const [a, b] = [
      await createUser(pgdb, 'guest-pay-race-a', { membership_tier: 'standard' }),
      await createUser(pgdb, 'guest-pay-race-b', { membership_tier: 'standard' }),
    ];
    const classId = await createClass(pgdb, { capacity: 3 });
    const [bookingA, bookingB] = [await bookingOf(pgdb, a, classId), await bookingOf(pgdb, b, classId)];
    const call = 'select * from public.create_guest_payment_hold($1, $2, $3, $4, 15)';
    const results = await together<Hold>(server.cluster()!.connectionString, [
      { sql: call, params: [a.memberId, bookingA, 'Ray', 'ray-paid@example.test'] },
      { sql: call, params: [b.memberId, bookingB, 'Kay', 'kay-paid@example.test'] },
    ]);
    console.log(`[guest payments] two paid guests for the last place: ${results.filter((r) => !r.error).length} held`);
    expect(results.filter((r) => !r.error)).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => r.error!.hint)).toEqual(['class_full']);

    const held = results.find((r) => !r.error)!.rows[0]!;
    const paid = await together<{ outcome: string }>(
      server.cluster()!.connectionString,
      Array.from({ length: 5 }, () => ({
        sql: `select * from public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`,
        params: [held.checkout_reference, `chk-${held.checkout_reference}`, Number(held.amount)],
      })),
    );
    expect(paid.map((r) => r.rows?.[0]?.outcome).sort()).toEqual([
      'already_applied',
      'already_applied',
      'already_applied',
      'already_applied',
      'applied',
    ]);
    const { rows } = await pgdb.query<{ n: number }>(
      `select count(*)::int as n from public.notification_outbox where kind = 'guest_invited' and to_email in ('ray-paid@example.test', 'kay-paid@example.test')`,
    );
    expect(rows[0]!.n).toBe(1);
    expect(await placesOf(pgdb, classId)).toMatchObject([{ payment_status: 'completed' }]);
  });
});
