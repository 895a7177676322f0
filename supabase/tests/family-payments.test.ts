import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database, SqlDatabase } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { classCounts, createClass, expectSqlError, publishBookingDocuments, rpc, type TestUser } from './support/fixtures.ts';
import { addChild, bookFamily, kidsClass, parent } from './support/families.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// A family's places on a paid class are paid in one checkout (decision 0021). The
// places are held together while the parent pays, confirmed together by the provider's PAID (once,
// however often it is replayed), released together otherwise, and a paid place cancelled in time
// owes its own share.

type Hold = { payment_id: string; booking_id: string; checkout_reference: string; amount: string; description: string };
type Place = { id: string; dependant_id: string | null; type: string; payment_status: string };

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
  await publishBookingDocuments(db);
});
afterAll(async () => {
  await db.close();
});

/** What the create-family-checkout function asks, as the service role, for the signed-in parent. */
const hold = (database: SqlDatabase, p: TestUser, classId: string, self: boolean, children: string[], minutes = 15) =>
  asServiceRole(database, (tx) =>
    rpc<Hold>(tx, 'public.create_family_payment_hold($1, $2, $3, $4::uuid[], $5)', [p.memberId, classId, self, children, minutes]),
  );
/** What the webhook (or the return page) applies after the provider said `status`. */
const apply = (h: Hold, status: 'PAID' | 'FAILED' | 'EXPIRED' = 'PAID') =>
  asServiceRole(db, (tx) =>
    rpc<{ outcome: string }>(tx, `public.apply_checkout_result($1, $2, $3, $4, 'GBP')`, [
      h.checkout_reference,
      `chk-${h.checkout_reference}`,
      status,
      Number(h.amount),
    ]),
  );
const placesOf = async (p: TestUser, classId: string) =>
  (
    await db.query<Place>(
      `select id, dependant_id, type::text, payment_status::text from public.bookings
        where member_id = $1 and class_id = $2 order by dependant_id nulls first, id`,
      [p.memberId, classId],
    )
  ).rows;
const payment = async (id: string) =>
  (await db.query<{ status: string; needs_refund: boolean }>('select status::text, needs_refund from public.payments where id = $1', [id]))
    .rows[0]!;
const refundsOf = async (paymentId: string) =>
  (
    await db.query<{ amount: string; reason: string }>(
      'select amount::text, reason from public.refunds_owed where payment_id = $1 order by created_at, amount',
      [paymentId],
    )
  ).rows;
const confirmationsTo = async (p: TestUser) =>
  (
    await db.query<{ n: number }>(
      `select count(*)::int as n from public.notification_outbox where member_id = $1 and kind = 'booking_confirmed'`,
      [p.memberId],
    )
  ).rows[0]!.n;
const cancel = (p: TestUser, bookingId: string) => asUser(db, p.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId]));

async function familyOfThree(label: string, fields: Parameters<typeof parent>[2] = { membership_tier: 'standard' }, price = 6) {
  const p = await parent(db, label, fields);
  const children = [await addChild(db, p, `${label} Ada`, 6), await addChild(db, p, `${label} Ben`, 9)];
  const classId = await kidsClass(db, { price, capacity: 10 });
  return { p, children, classId };
}

describe('paying for a family in one checkout', () => {
  it("charges the children's places (the plan covers the parent's), holds all three, and PAID confirms them once", async () => {
    const { p, children, classId } = await familyOfThree('famPay-plan');
    const h = await hold(db, p, classId, true, children);
    expect(Number(h.amount)).toBe(12);
    // Three places, two of them paid: the plan covers the parent's (decision 0094).
    expect(h.description).toBe('Kids Club - 3 places (2 paid)');
    expect((await placesOf(p, classId)).map((b) => [b.type, b.payment_status])).toEqual([
      ['paid', 'pending'],
      ['payg', 'pending'],
      ['payg', 'pending'],
    ]);
    expect((await classCounts(db, classId)).spots_left).toBe(7);

    expect((await apply(h)).outcome).toBe('applied');
    expect((await placesOf(p, classId)).every((b) => b.payment_status === 'completed')).toBe(true);
    expect(await payment(h.payment_id)).toEqual({ status: 'paid', needs_refund: false });
    expect(await confirmationsTo(p)).toBe(1);

    // The provider's notification and the return page both apply it, any number of times.
    expect((await apply(h)).outcome).toBe('already_applied');
    expect(await confirmationsTo(p)).toBe(1);
    expect((await classCounts(db, classId)).spots_left).toBe(7);
  });

  it('the receipt lists each place: who, what covered it and its price; the confirmation names everyone', async () => {
    const { p, children, classId } = await familyOfThree('famPay-receipt', { membership_tier: 'standard' }, 10);
    await db.query(`update public.members set name = 'Rita Receipt' where id = $1`, [p.memberId]);
    const h = await hold(db, p, classId, true, children);
    expect(Number(h.amount)).toBe(20);
    const lines = () =>
      asUser(
        db,
        p.claims,
        async (tx) =>
          (
            await tx.query<{ name: string; covered_by: string; amount: string }>(
              'select name, covered_by, amount::text from public.family_payment_lines where payment_id = $1 order by position',
              [h.payment_id],
            )
          ).rows,
      );
    const expected = [
      { name: 'Rita Receipt', covered_by: 'plan', amount: '0.00' },
      { name: 'famPay-receipt Ada', covered_by: 'paid', amount: '10.00' },
      { name: 'famPay-receipt Ben', covered_by: 'paid', amount: '10.00' },
    ];
    expect(await lines()).toEqual(expected);
    // Nobody else reads them.
    const other = await parent(db, 'famPay-receipt-other');
    const seen = await asUser(db, other.claims, (tx) =>
      tx.query('select 1 from public.family_payment_lines where payment_id = $1', [h.payment_id]),
    );
    expect(seen.rows).toEqual([]);

    await apply(h);
    const { rows: emails } = await db.query<{ body: string }>(
      `select body_text as body from public.notification_outbox where member_id = $1 and kind = 'booking_confirmed'`,
      [p.memberId],
    );
    expect(emails).toHaveLength(1);
    expect(emails[0]!.body).toContain(`You have booked 3 places on Kids Club with`);
    expect(emails[0]!.body).toContain(': you, famPay-receipt Ada and famPay-receipt Ben.');

    // A place cancelled later leaves the receipt whole.
    const [, ada] = await placesOf(p, classId);
    await cancel(p, ada!.id);
    expect(await lines()).toEqual(expected);
  });

  it("charges a pay-as-you-go parent's own place too; a parent's free trial covers theirs and is used once paid", async () => {
    const payg = await familyOfThree('famPay-payg', { membership_tier: 'payg', has_used_trial: true }, 7.5);
    expect(Number((await hold(db, payg.p, payg.classId, true, payg.children)).amount)).toBe(22.5);

    const trial = await familyOfThree('famPay-trial', { membership_tier: 'payg' }, 7.5);
    const h = await hold(db, trial.p, trial.classId, true, trial.children);
    expect(Number(h.amount)).toBe(15);
    const usedTrial = async () =>
      (await db.query<{ used: boolean }>('select has_used_trial as used from public.members where id = $1', [trial.p.memberId])).rows[0]!
        .used;
    expect(await usedTrial()).toBe(false);
    await apply(h);
    expect((await placesOf(trial.p, trial.classId)).map((b) => [b.type, b.payment_status])[0]).toEqual(['trial', 'completed']);
    expect(await usedTrial()).toBe(true);
  });

  it('releases every held place when the payment fails, and when one held place is cancelled', async () => {
    const { p, children, classId } = await familyOfThree('famPay-fail');
    const failed = await hold(db, p, classId, true, children);
    expect((await apply(failed, 'FAILED')).outcome).toBe('marked_failed');
    expect(await placesOf(p, classId)).toEqual([]);
    expect((await classCounts(db, classId)).spots_left).toBe(10);

    const again = await hold(db, p, classId, true, children);
    const [, child] = await placesOf(p, classId);
    await cancel(p, child!.id);
    expect(await placesOf(p, classId)).toEqual([]);
    expect((await payment(again.payment_id)).status).toBe('expired');
  });

  it('a PAID that arrives after the hold lapsed books nobody and is owed back whole', async () => {
    const { p, children, classId } = await familyOfThree('famPay-late');
    const h = await hold(db, p, classId, false, children);
    await db.query(`update public.bookings set hold_expires_at = now() - interval '1 minute' where family_payment_id = $1`, [h.payment_id]);
    await asServiceRole(db, (tx) => rpc(tx, 'public.release_expired_holds()'));
    expect((await apply(h)).outcome).toBe('applied');
    expect(await placesOf(p, classId)).toEqual([]);
    expect(await payment(h.payment_id)).toEqual({ status: 'paid', needs_refund: true });
    expect(await refundsOf(h.payment_id)).toEqual([{ amount: '12.00', reason: 'class_filled' }]);
  });

  it("a paid place cancelled in time owes its own share, once per place; the plan's place owes nothing", async () => {
    const { p, children, classId } = await familyOfThree('famPay-cancel');
    const h = await hold(db, p, classId, true, children);
    await apply(h);
    const [own, ada, ben] = await placesOf(p, classId);
    await cancel(p, ada!.id);
    await cancel(p, own!.id);
    expect(await refundsOf(h.payment_id)).toEqual([{ amount: '6.00', reason: 'member_cancelled_in_time' }]);
    await cancel(p, ben!.id);
    expect(await refundsOf(h.payment_id)).toEqual([
      { amount: '6.00', reason: 'member_cancelled_in_time' },
      { amount: '6.00', reason: 'member_cancelled_in_time' },
    ]);
  });

  it('the class deleted owes what was not already owed back', async () => {
    const { p, children, classId } = await familyOfThree('famPay-deleted');
    const h = await hold(db, p, classId, true, children);
    await apply(h);
    const [, ada] = await placesOf(p, classId);
    await cancel(p, ada!.id);
    await db.query('delete from public.classes where id = $1', [classId]);
    expect(await refundsOf(h.payment_id)).toEqual([
      { amount: '6.00', reason: 'member_cancelled_in_time' },
      { amount: '6.00', reason: 'class_deleted' },
    ]);
  });

  it('refuses what book_family refuses, and a checkout with nothing to pay; nothing is held', async () => {
    const { p, children, classId } = await familyOfThree('famPay-refused');
    const tooYoung = await addChild(db, p, 'famPay Tiny', 2);
    await expectSqlError(hold(db, p, classId, true, [...children, tooYoung]), { hint: 'outside_age_range' });
    await expectSqlError(hold(db, p, classId, false, [children[0]!, children[0]!]), { hint: 'dependant_listed_twice' });
    const free = await kidsClass(db, { price: 0 });
    await expectSqlError(hold(db, p, free, true, children), { hint: 'payment_not_required' });
    expect(await placesOf(p, classId)).toEqual([]);
    // book_family itself sends paid places to the checkout.
    await expectSqlError(bookFamily(db, p, classId, true, children), { hint: 'family_payment_required' });
  });

  it('is for the service role only: a member cannot hold places for another member', async () => {
    const { p, children, classId } = await familyOfThree('famPay-direct');
    await expectSqlError(
      asUser(db, p.claims, (tx) =>
        rpc(tx, 'public.create_family_payment_hold($1, $2, true, $3::uuid[], 15)', [p.memberId, classId, children]),
      ),
      { code: '42501' },
    );
  });
});

// The free trial is taken from the moment a place is held with it (decision 0021): a parent's
// trial place held in a family checkout is their trial, so nothing else grants it meanwhile.
describe("a parent's free trial held in a family checkout", () => {
  const bookClass = (p: TestUser, classId: string, type: string | null = null) =>
    asUser(db, p.claims, (tx) => rpc<{ status: string; booking_type: string }>(tx, 'public.book_class($1, $2)', [classId, type]));
  const ownTrialPlaces = async (p: TestUser) =>
    (
      await db.query<{ type: string; payment_status: string }>(
        `select type::text, payment_status::text from public.bookings
          where member_id = $1 and dependant_id is null and type = 'trial' order by booked_at`,
        [p.memberId],
      )
    ).rows;

  it('is the trial taken: book_class refuses a second trial class while it is held, and PAID confirms the one', async () => {
    const { p, children, classId } = await familyOfThree('famTrial-held', { membership_tier: 'payg' }, 7.5);
    const h = await hold(db, p, classId, true, children);
    expect(Number(h.amount)).toBe(15);
    const other = await createClass(db, { name: 'Spin' });
    await expectSqlError(bookClass(p, other, 'trial'), {
      code: 'P0001',
      hint: 'trial_unavailable',
      message: 'Your free trial has already been used',
    });
    expect((await apply(h)).outcome).toBe('applied');
    expect(await ownTrialPlaces(p)).toEqual([{ type: 'trial', payment_status: 'completed' }]);
    await expectSqlError(bookClass(p, other, 'trial'), { hint: 'trial_unavailable' });
  });

  it('is not granted again by any other path while held: a booking, a family booking, a waitlist promotion', async () => {
    const { p, children, classId } = await familyOfThree('famTrial-paths', { membership_tier: 'payg' }, 7.5);
    // In line for a full class before the checkout, when the trial would have booked it.
    const full = await createClass(db, { name: 'Full Yoga', capacity: 1 });
    const holder = await parent(db, 'famTrial-holder');
    await bookClass(holder, full);
    await asUser(db, p.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [full]));

    const h = await hold(db, p, classId, true, children);
    // The server's own choice on a free class is pay-as-you-go, not the trial.
    const free = await createClass(db, { name: 'Free Stretch', price_payg: 0 });
    expect(await bookClass(p, free)).toMatchObject({ status: 'booked', booking_type: 'payg' });
    const freeKids = await kidsClass(db, { price: 0 });
    await bookFamily(db, p, freeKids, true, [children[0]!]);
    expect((await placesOf(p, freeKids))[0]!.type).toBe('payg');
    // A place opens: pay-as-you-go must pay, so the parent keeps their place in line.
    await cancel(holder, (await db.query<{ id: string }>('select id from public.bookings where class_id = $1', [full])).rows[0]!.id);
    expect(await placesOf(p, full)).toEqual([]);

    await apply(h);
    expect(await ownTrialPlaces(p)).toEqual([{ type: 'trial', payment_status: 'completed' }]);
  });

  it('a trial booked first leaves the family checkout to charge the parent their own place', async () => {
    const { p, children, classId } = await familyOfThree('famTrial-first', { membership_tier: 'payg' }, 7.5);
    expect(await bookClass(p, await createClass(db, { name: 'Pilates' }), 'trial')).toMatchObject({ booking_type: 'trial' });
    const h = await hold(db, p, classId, true, children);
    expect(Number(h.amount)).toBe(22.5);
    expect((await placesOf(p, classId))[0]!.type).toBe('payg');
    await apply(h);
    expect(await ownTrialPlaces(p)).toHaveLength(1);
  });

  it('comes back when the checkout is released: the hold lapsed or failed', async () => {
    const { p, children, classId } = await familyOfThree('famTrial-released', { membership_tier: 'payg' }, 7.5);
    const h = await hold(db, p, classId, true, children);
    await apply(h, 'FAILED');
    expect(await bookClass(p, await createClass(db, { name: 'Barre' }), 'trial')).toMatchObject({ booking_type: 'trial' });
  });
});

// The race: families holding the last places of one class at once, on a real PostgreSQL server.
const binDir = findPostgresBinDir();
const server = migratedClusterForFile('family payments race', binDir);

describe.skipIf(!binDir)('real PostgreSQL: family checkouts racing for the last places', () => {
  it('never hold more places than the class has, and each family holds all its places or none', async () => {
    const pg = pgClientDatabase(server.admin()!);
    await publishBookingDocuments(pg);
    const classId = await kidsClass(pg, { capacity: 7, price: 5 });
    const families: { p: TestUser; children: string[] }[] = [];
    for (let i = 0; i < 6; i += 1) {
      const p = await parent(pg, `race-famPay-${i}`);
      families.push({ p, children: [await addChild(pg, p, `Pay A${i}`, 6), await addChild(pg, p, `Pay B${i}`, 8)] });
    }
    // 6 families of 3 for 7 places: 2 families hold theirs.
    const results = await together<unknown>(
      server.cluster()!.connectionString,
      families.map((f) => ({
        sql: 'select * from public.create_family_payment_hold($1, $2, true, $3::uuid[], 15)',
        params: [f.p.memberId, classId, f.children],
      })),
    );
    const ok = results.filter((r) => !r.error).length;
    const hints = [...new Set(results.filter((r) => r.error).map((r) => r.error!.hint))];
    console.log(`[family checkout race PostgreSQL] 6 families of 3 for 7 places: ${ok} held, refused with ${hints.join(', ')}`);
    expect(ok).toBe(2);
    expect(hints).toEqual(['not_enough_places']);
    expect(await classCounts(pg, classId)).toMatchObject({ spots_left: 1, bookings: 6 });
    const { rows } = await pg.query<{ n: number }>(
      `select count(*)::int as n from public.payments where class_id = $1 and family_places = 3 and amount = 10`,
      [classId],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it("a parent's trial class and a family checkout at once: the trial is taken by one of them only", async () => {
    const pg = pgClientDatabase(server.admin()!);
    const firsts = { book_class: 0, checkout: 0 };
    for (let i = 0; i < 4; i += 1) {
      const p = await parent(pg, `race-famTrial-${i}`, { membership_tier: 'payg' });
      const children = [await addChild(pg, p, `Trial A${i}`, 6)];
      const kids = await kidsClass(pg, { capacity: 5, price: 5 });
      const spin = await createClass(pg, { name: 'Spin' });
      const [booked, held] = await together<{ booking_type: string; amount: string }>(server.cluster()!.connectionString, [
        { sql: `select * from public.book_class($1, 'trial')`, params: [spin], claims: p.claims },
        { sql: 'select * from public.create_family_payment_hold($1, $2, true, $3::uuid[], 15)', params: [p.memberId, kids, children] },
      ]);
      const { rows } = await pg.query<{ n: number }>(
        `select count(*)::int as n from public.bookings where member_id = $1 and dependant_id is null and type = 'trial'`,
        [p.memberId],
      );
      expect(rows[0]!.n).toBe(1);
      // Whichever came second was refused the trial (book_class) or charged the parent's place (the checkout).
      if (booked!.error) expect(booked!.error.hint).toBe('trial_unavailable');
      else expect(Number(held!.rows![0]!.amount)).toBe(10);
      firsts[booked!.error ? 'checkout' : 'book_class'] += 1;
    }
    console.log(`[family trial race PostgreSQL] the trial went to book_class ${firsts.book_class}x, to the checkout ${firsts.checkout}x`);
  });
});
