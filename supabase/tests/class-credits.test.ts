import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Class credits (decision 0102) through the API the app uses: a credit of the one ledger books a
// paid group class instead of paying for it (book_with_credit), is given back when cancelled in
// time and used by a late cancel or a no-show, is refused where the plan or the trial covers the
// class, is granted by admins and is the referral reward "a free class credit", once.

type Choice = { credit_id: string | null; refusal: string | null; message: string | null };

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'class-credit-admin', { is_admin: true });
});

afterAll(async () => {
  await db.close();
});

const as = <T>(m: TestUser, call: string, params: unknown[] = []) => asUser(db, m.claims, (tx) => rpc<T>(tx, call, params));

async function classCredits(m: TestUser) {
  const { rows } = await db.query<{ used: boolean; source: string; booking_id: string | null }>(
    `select used_at is not null as used, source, booking_id from public.credits where member_id = $1 and kind = 'class' order by created_at, seq`,
    [m.memberId],
  );
  return rows;
}

const grantOne = (m: TestUser, reason = 'Goodwill') =>
  as<number>(admin, 'public.admin_grant_credits($1, $2, 1, 30, $3)', [m.memberId, 'class', reason]);

describe('class credits', () => {
  it('an admin grants them; a pay-as-you-go member books a paid class with one instead of paying', async () => {
    const member = await createUser(db, 'cc-payg', { membership_tier: 'payg', has_used_trial: true });
    const cls = await createClass(db, { price_payg: 12, startsIn: '3 days' });
    expect(await as<Choice>(member, 'public.my_credit_for_class($1)', [cls])).toMatchObject({
      credit_id: null,
      refusal: 'no_credit',
      message: 'You have no class credit to use for this class: it is £12.00.',
    });
    await expectSqlError(as(member, 'public.book_with_credit($1)', [cls]), { hint: 'no_credit' });

    await expectSqlError(as(member, 'public.admin_grant_credits($1, $2, 1, 30, $3)', [member.memberId, 'class', 'me']), {
      code: '42501',
    });
    expect(await grantOne(member)).toBe(1);
    const choice = await as<Choice>(member, 'public.my_credit_for_class($1)', [cls]);
    expect(choice.credit_id).not.toBeNull();

    const booked = await as<{ status: string; booking_type: string; needs_payment: boolean; booking_id: string }>(
      member,
      'public.book_with_credit($1)',
      [cls],
    );
    expect(booked).toMatchObject({ status: 'booked', booking_type: 'credit', needs_payment: false });
    expect(await classCredits(member)).toEqual([{ used: true, source: 'admin_grant', booking_id: booked.booking_id }]);
    const { rows: paid } = await db.query('select 1 from public.payments where member_id = $1', [member.memberId]);
    expect(paid).toHaveLength(0);
    // A personal-training session never takes a class credit, nor a class a personal-training one.
    const pt = await createClass(db, { type: 'One-to-One', capacity: 1, price_payg: 40, startsIn: '4 days' });
    await expectSqlError(as(member, 'public.book_with_credit($1)', [pt]), { hint: 'no_credit' });
  });

  it('cancelling in time gives it back; a late cancellation and a no-show use it', async () => {
    const member = await createUser(db, 'cc-cancel', { membership_tier: 'payg', has_used_trial: true });
    await grantOne(member);
    const later = await createClass(db, { price_payg: 10, startsIn: '3 days' });
    const first = await as<{ booking_id: string }>(member, 'public.book_with_credit($1)', [later]);
    expect(await as(member, 'public.cancel_booking($1)', [first.booking_id])).toMatchObject({ late: false });
    expect(await classCredits(member)).toEqual([{ used: false, source: 'admin_grant', booking_id: null }]);

    const soon = await createClass(db, { price_payg: 10, startsIn: '2 hours' });
    const late = await as<{ booking_id: string }>(member, 'public.book_with_credit($1)', [soon]);
    expect(await as(member, 'public.cancel_booking($1)', [late.booking_id])).toMatchObject({ late: true });
    expect(await classCredits(member)).toEqual([{ used: true, source: 'admin_grant', booking_id: null }]);
    await expectSqlError(as(member, 'public.book_with_credit($1)', [later]), { hint: 'no_credit' });

    // A no-show: the class happens, nobody checks them in, the job marks it (twice: once).
    await grantOne(member);
    const missed = await createClass(db, { price_payg: 10, startsIn: '3 days' });
    const booking = await as<{ booking_id: string }>(member, 'public.book_with_credit($1)', [missed]);
    await db.query(`update public.classes set start_time = now() - interval '3 hours' where id = $1`, [missed]);
    for (let run = 0; run < 2; run += 1) await asServiceRole(db, (tx) => rpc(tx, 'public.mark_no_shows($1)', [new Date().toISOString()]));
    const { rows } = await db.query<{ attendance: string }>('select attendance from public.bookings where id = $1', [booking.booking_id]);
    expect(rows[0]!.attendance).toBe('no_show');
    expect((await classCredits(member)).filter((c) => c.used)).toHaveLength(2);
  });

  it('is for classes they would pay for: a plan with classes left or the free trial keep it, a free class takes none', async () => {
    const standard = await createUser(db, 'cc-standard', { membership_tier: 'standard' });
    await grantOne(standard);
    const cls = await createClass(db, { price_payg: 10, startsIn: '3 days' });
    await expectSqlError(as(standard, 'public.book_with_credit($1)', [cls]), { hint: 'credit_not_needed', message: /Your plan covers/ });
    const newcomer = await createUser(db, 'cc-newcomer');
    await grantOne(newcomer);
    await expectSqlError(as(newcomer, 'public.book_with_credit($1)', [cls]), { hint: 'credit_not_needed', message: /free trial/ });
    const free = await createClass(db, { price_payg: 0, startsIn: '3 days' });
    await expectSqlError(as(standard, 'public.book_with_credit($1)', [free]), { hint: 'credit_not_for_class' });
    await expectSqlError(as(standard, 'public.my_credit_for_class($1)', [free]), { hint: 'credit_not_for_class' });

    // The allowance used up (the month's plan bookings): the credit pays for the next one.
    const { rows } = await db.query<{ n: number }>(
      `select max(classes_per_month)::int as n from public.plans where category = 'membership' and grants_tier = 'standard'`,
    );
    for (let i = 0; i < rows[0]!.n; i += 1) {
      const used = await createClass(db, { price_payg: 10, startsIn: `${4 + i} days` });
      await as(standard, 'public.book_class($1, $2)', [used, 'paid']);
    }
    expect(await as(standard, 'public.book_with_credit($1)', [cls])).toMatchObject({ status: 'booked', booking_type: 'credit' });
    expect((await classCredits(standard))[0]!.used).toBe(true);
  });

  it('the expiry email counts class credits and says to book a class, once however often it runs', async () => {
    const member = await createUser(db, 'cc-expiring', { membership_tier: 'payg', has_used_trial: true });
    await as(admin, 'public.admin_grant_credits($1, $2, 2, 3, $3)', [member.memberId, 'class', 'Class moved']);
    for (let run = 0; run < 2; run += 1)
      await asServiceRole(db, (tx) => rpc(tx, 'public.enqueue_credit_expiry_reminders($1)', [new Date().toISOString()]));
    const { rows } = await db.query<{ body_text: string }>(
      `select body_text from public.notification_outbox where kind = 'credits_expiring' and member_id = $1`,
      [member.memberId],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.body_text).toContain('You have 2 class credits that expire on');
    expect(rows[0]!.body_text).toContain('Book a class before then so they are not lost.');
  });

  it('the referral reward "a free class credit" grants one class credit to each, once', async () => {
    await as(admin, 'public.admin_set_referral_settings($1, $2, $3, $4)', [true, 'class_credit', 10, 60]);
    try {
      const referrer = await createUser(db, 'cc-referrer');
      const friend = await createUser(db, 'cc-friend');
      const code = (await as<{ code: string }>(referrer, 'public.my_referral()')).code;
      await as(friend, 'public.claim_referral($1)', [code]);
      for (let i = 0; i < 2; i += 1) {
        const payment = await asServiceRole(db, (tx) =>
          rpc<{ checkout_reference: string; amount: number }>(tx, 'public.create_plan_payment($1, $2, null, null, null, null)', [
            friend.memberId,
            'dropin',
          ]),
        );
        const apply = () =>
          asServiceRole(db, (tx) =>
            rpc(tx, `public.apply_checkout_result($1, $2, 'PAID', $3, 'GBP')`, [
              payment.checkout_reference,
              `chk-${payment.checkout_reference}`,
              payment.amount,
            ]),
          );
        await apply();
        await apply(); // a replayed notification
      }
      for (const m of [friend, referrer]) {
        expect(await classCredits(m)).toEqual([{ used: false, source: 'referral', booking_id: null }]);
        const { rows } = await db.query<{ kind: string; pt: number }>(
          `select r.kind, (select count(*)::int from public.credits c where c.member_id = $1 and c.source = 'referral' and c.kind = 'personal_training') as pt
             from public.referral_rewards r where r.member_id = $1`,
          [m.memberId],
        );
        expect(rows).toEqual([{ kind: 'class_credit', pt: 0 }]);
      }
      const { rows: told } = await db.query<{ subject: string }>(
        `select subject from public.notification_outbox where kind = 'referral_reward' and member_id = $1`,
        [friend.memberId],
      );
      expect(told.map((t) => t.subject)).toEqual(['Your referral reward: a free class credit']);
      await expectSqlError(as(admin, 'public.admin_set_referral_settings($1, $2, $3, $4)', [true, 'free_lunch', 10, 60]), {
        hint: 'invalid_reward',
      });
    } finally {
      await as(admin, 'public.admin_set_referral_settings($1, $2, $3, $4)', [true, 'session_credit', 10, 90]);
    }
  });
});
