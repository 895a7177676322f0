import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { classCounts, createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

let db: Database;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

interface BookResult {
  status: 'booked' | 'payment_required';
  booking_id: string | null;
  class_id: string;
  booking_type: string | null;
  payment_status: string | null;
  needs_payment: boolean;
  price_payg: number | null;
  previous_tier: string;
  tier: string;
  trial_used: boolean;
  spots_left: number;
}

const book = (user: TestUser, classId: string, type: string | null = null) =>
  asUser(db, user.claims, (tx) => rpc<BookResult>(tx, 'public.book_class($1, $2)', [classId, type]));

async function memberRow(memberId: string) {
  const { rows } = await db.query<{ membership_tier: string; has_used_trial: boolean; trial_expires_at: Date | null }>(
    'select membership_tier, has_used_trial, trial_expires_at from public.members where id = $1',
    [memberId],
  );
  return rows[0]!;
}

async function bookingsOf(memberId: string) {
  const { rows } = await db.query<{ class_id: string; type: string; payment_status: string }>(
    'select class_id, type, payment_status from public.bookings where member_id = $1',
    [memberId],
  );
  return rows;
}

describe('book_class: who may call it', () => {
  it('refuses anon (no execute privilege)', async () => {
    const classId = await createClass(db);
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.book_class($1)', [classId])),
      {
        code: '42501',
        message: /permission denied for function book_class/,
      },
    );
  });

  it('refuses an authenticated request without a user id', async () => {
    const classId = await createClass(db);
    await expectSqlError(
      asUser(db, { role: 'authenticated' }, (tx) => rpc(tx, 'public.book_class($1)', [classId])),
      {
        code: '28000',
        hint: 'not_authenticated',
        message: 'Please sign in first.',
      },
    );
  });

  it('refuses a signed-in user without a member row', async () => {
    const classId = await createClass(db);
    const claims = { role: 'authenticated' as const, sub: crypto.randomUUID() };
    await expectSqlError(
      asUser(db, claims, (tx) => rpc(tx, 'public.book_class($1)', [classId])),
      {
        code: 'P0002',
        hint: 'member_not_found',
        message: 'Member not found. Please sign in again.',
      },
    );
  });
});

describe('book_class: tier transitions (spec section 4)', () => {
  it('trial member: trial booking, becomes payg with the trial used and no expiry', async () => {
    const user = await createUser(db, 'trial', {}, { full_name: 'Tia Trial', signup_source: 'free-trial' });
    expect((await memberRow(user.memberId)).membership_tier).toBe('trial');
    const classId = await createClass(db);

    const result = await book(user, classId);

    expect(result).toMatchObject({
      status: 'booked',
      class_id: classId,
      booking_type: 'trial',
      payment_status: 'completed',
      needs_payment: false,
      previous_tier: 'trial',
      tier: 'payg',
      trial_used: true,
      spots_left: 9,
    });
    expect(await memberRow(user.memberId)).toEqual({ membership_tier: 'payg', has_used_trial: true, trial_expires_at: null });
    expect(await bookingsOf(user.memberId)).toEqual([{ class_id: classId, type: 'trial', payment_status: 'completed' }]);
  });

  it('payg member with the trial unused: one free trial booking, stays payg', async () => {
    const user = await createUser(db, 'newpayg', { membership_tier: 'payg', has_used_trial: false });
    const classId = await createClass(db);

    const result = await book(user, classId);

    expect(result).toMatchObject({ status: 'booked', booking_type: 'trial', previous_tier: 'payg', tier: 'payg', trial_used: true });
    expect(await memberRow(user.memberId)).toMatchObject({ membership_tier: 'payg', has_used_trial: true });
  });

  it('payg member with the trial used: payment required, no booking created', async () => {
    const user = await createUser(db, 'payg', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { price_payg: 12.5 });

    const result = await book(user, classId);

    expect(result).toMatchObject({
      status: 'payment_required',
      booking_id: null,
      booking_type: 'payg',
      needs_payment: true,
      price_payg: 12.5,
      tier: 'payg',
      spots_left: 10,
    });
    expect(await bookingsOf(user.memberId)).toEqual([]);
    expect((await classCounts(db, classId)).spots_left).toBe(10);
  });

  it('payg member with the trial used books a free class (no price) directly as payg', async () => {
    const user = await createUser(db, 'payg-free', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { price_payg: null });
    const result = await book(user, classId);
    expect(result).toMatchObject({ status: 'booked', booking_type: 'payg', payment_status: 'completed' });
  });

  it('asking for the free trial once it is used is refused with the trial message', async () => {
    const user = await createUser(db, 'payg-trial', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db);
    await expectSqlError(book(user, classId, 'trial'), {
      code: 'P0001',
      hint: 'trial_unavailable',
      message: 'Your free trial has already been used',
    });
    expect(await bookingsOf(user.memberId)).toEqual([]);
  });

  it('an unknown booking type is refused', async () => {
    const user = await createUser(db, 'bad-type', { membership_tier: 'standard' });
    const classId = await createClass(db);
    await expectSqlError(book(user, classId, 'vip'), { code: '22023', hint: 'invalid_booking_type' });
  });

  it.each(['standard', 'premium'] as const)('%s member books as paid / completed, tier unchanged', async (tier) => {
    const user = await createUser(db, tier, { membership_tier: tier, has_used_trial: true });
    const classId = await createClass(db);

    const result = await book(user, classId, 'paid');

    expect(result).toMatchObject({ status: 'booked', booking_type: 'paid', payment_status: 'completed', previous_tier: tier, tier });
    expect((await memberRow(user.memberId)).membership_tier).toBe(tier);
  });

  it('a payg member cannot get a paid (plan) booking by asking for one', async () => {
    const user = await createUser(db, 'payg-paid', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db);
    await expectSqlError(book(user, classId, 'paid'), {
      code: 'P0001',
      hint: 'plan_required',
      message: 'Member bookings are for Standard and Platinum Premium members',
    });
    expect(await bookingsOf(user.memberId)).toEqual([]);
  });
});

describe('book_class: refusals', () => {
  it('refuses an unknown class', async () => {
    const user = await createUser(db, 'unknown-class', { membership_tier: 'standard' });
    await expectSqlError(book(user, crypto.randomUUID()), { code: 'P0002', hint: 'class_not_found', message: 'Class not found' });
  });

  it('refuses a class that has started', async () => {
    const user = await createUser(db, 'started', { membership_tier: 'premium' });
    const classId = await createClass(db, { startsIn: '-5 minutes' });
    await expectSqlError(book(user, classId), { code: 'P0001', hint: 'class_started', message: 'This class has already started' });
  });

  it('refuses a second booking of the same class and leaves the count alone', async () => {
    const user = await createUser(db, 'dup', { membership_tier: 'standard' });
    const classId = await createClass(db);
    await book(user, classId);
    await expectSqlError(book(user, classId), {
      code: '23505',
      hint: 'already_booked',
      message: 'You have already booked this class',
    });
    expect(await classCounts(db, classId)).toEqual({ capacity: 10, current_bookings: 1, spots_left: 9, bookings: 1 });
  });

  it('refuses a full class (its one place taken)', async () => {
    const first = await createUser(db, 'full-1', { membership_tier: 'premium' });
    const second = await createUser(db, 'full-2', { membership_tier: 'premium' });
    const classId = await createClass(db, { capacity: 1 });
    expect((await book(first, classId)).spots_left).toBe(0);
    await expectSqlError(book(second, classId), { code: 'P0001', hint: 'class_full', message: 'This class is fully booked' });
    expect(await classCounts(db, classId)).toEqual({ capacity: 1, current_bookings: 1, spots_left: 0, bookings: 1 });
  });
});

describe('book_class: premium lock window', () => {
  // Opens in 10 minutes: start is 3 days and 10 minutes away with the default '3 days' window.
  const lockedIn = '3 days 10 minutes';

  it.each(['standard', 'payg'] as const)('locks a premium class for a %s member until the window opens', async (tier) => {
    const user = await createUser(db, `locked-${tier}`, { membership_tier: tier, has_used_trial: false });
    const classId = await createClass(db, { is_premium: true, startsIn: lockedIn });
    await expectSqlError(book(user, classId), {
      code: 'P0001',
      hint: 'class_locked',
      message: /^This premium class opens for booking on [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/,
    });
    expect(await bookingsOf(user.memberId)).toEqual([]);
  });

  it('never locks a premium member, and does not lock a trial member', async () => {
    const premium = await createUser(db, 'lock-premium', { membership_tier: 'premium' });
    const trial = await createUser(db, 'lock-trial', {}, { signup_source: 'free-trial' });
    const classId = await createClass(db, { is_premium: true, startsIn: '30 days' });
    expect((await book(premium, classId)).status).toBe('booked');
    expect((await book(trial, classId)).booking_type).toBe('trial');
  });

  it('opens at start_time minus the window: a class starting exactly 3 days from its creation is open', async () => {
    const user = await createUser(db, 'lock-open', { membership_tier: 'standard' });
    // now() in the insert is earlier than now() in the booking call: the window has just opened.
    const classId = await createClass(db, { is_premium: true, startsIn: '3 days' });
    expect((await book(user, classId)).status).toBe('booked');
  });

  it('uses the class own window in hours and minutes', async () => {
    const user = await createUser(db, 'lock-hours', { membership_tier: 'standard' });
    const locked = await createClass(db, { is_premium: true, unlock_for_standard: '12 hours', startsIn: '13 hours' });
    const open = await createClass(db, { is_premium: true, unlock_for_standard: '12 hours', startsIn: '11 hours' });
    const minutes = await createClass(db, { is_premium: true, unlock_for_standard: '90 minutes', startsIn: '89 minutes' });
    await expectSqlError(book(user, locked), { hint: 'class_locked' });
    expect((await book(user, open)).status).toBe('booked');
    expect((await book(user, minutes)).status).toBe('booked');
  });

  it('does not lock a class that is not premium', async () => {
    const user = await createUser(db, 'lock-standard-class', { membership_tier: 'standard' });
    const classId = await createClass(db, { startsIn: '60 days' });
    expect((await book(user, classId)).status).toBe('booked');
  });

  it('names the opening time in London time (summer time included)', async () => {
    const user = await createUser(db, 'lock-message', { membership_tier: 'standard' });
    const { rows } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, is_premium)
       values ('Summer Premium', '2099-07-10 18:30:00+01', 'Coach Test', true) returning id`,
    );
    await expectSqlError(book(user, rows[0]!.id), {
      hint: 'class_locked',
      message: 'This premium class opens for booking on Jul 7, 2099, 6:30 PM',
    });
  });

  it('the minute it opens: locked one microsecond before start - window, open at it (pure rule)', async () => {
    const { rows } = await db.query<Record<string, boolean>>(
      `select
         private.is_class_locked('standard', true, t, '3 days', t - interval '3 days' - interval '1 microsecond') as standard_before,
         private.is_class_locked('standard', true, t, '3 days', t - interval '3 days') as standard_at,
         private.is_class_locked('payg', true, t, '3 days', t - interval '3 days 1 minute') as payg_before,
         private.is_class_locked('payg', true, t, '3 days', t - interval '2 days 23 hours 59 minutes') as payg_after,
         private.is_class_locked('trial', true, t, '3 days', t - interval '30 days') as trial_early,
         private.is_class_locked('premium', true, t, '3 days', t - interval '30 days') as premium_early,
         private.is_class_locked('standard', false, t, '3 days', t - interval '30 days') as not_premium
       from (select timestamptz '2030-03-30 06:00:00+00' as t) s`,
    );
    expect(rows[0]).toEqual({
      standard_before: true,
      standard_at: false,
      payg_before: true,
      payg_after: false,
      trial_early: false,
      premium_early: false,
      not_premium: false,
    });
  });
});

describe('cancel_booking', () => {
  async function bookedClass() {
    const owner = await createUser(db, 'cancel-owner', { membership_tier: 'standard' });
    const classId = await createClass(db, { capacity: 5 });
    const { booking_id } = await book(owner, classId);
    return { owner, classId, bookingId: booking_id! };
  }

  it('lets the owner cancel and frees the spot', async () => {
    const { owner, classId, bookingId } = await bookedClass();
    expect((await classCounts(db, classId)).spots_left).toBe(4);
    const result = await asUser(db, owner.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId]));
    expect(result).toEqual({ booking_id: bookingId, class_id: classId, spots_left: 5, late: false });
    expect(await classCounts(db, classId)).toEqual({ capacity: 5, current_bookings: 0, spots_left: 5, bookings: 0 });
  });

  it('refuses another member, with the spec text, and keeps the booking', async () => {
    const { classId, bookingId } = await bookedClass();
    const other = await createUser(db, 'cancel-other', { membership_tier: 'premium' });
    await expectSqlError(
      asUser(db, other.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId])),
      {
        code: '42501',
        hint: 'not_permitted',
        message: 'Could not cancel this booking (permission).',
      },
    );
    expect((await classCounts(db, classId)).bookings).toBe(1);
  });

  it('refuses an unknown booking the same way', async () => {
    const user = await createUser(db, 'cancel-unknown', { membership_tier: 'premium' });
    await expectSqlError(
      asUser(db, user.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [crypto.randomUUID()])),
      {
        hint: 'not_permitted',
      },
    );
  });

  it('lets an admin cancel any booking', async () => {
    const { classId, bookingId } = await bookedClass();
    const admin = await createUser(db, 'cancel-admin', { membership_tier: 'premium', is_admin: true });
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId]));
    expect((await classCounts(db, classId)).bookings).toBe(0);
  });

  it('refuses anon', async () => {
    const { bookingId } = await bookedClass();
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId])),
      { code: '42501' },
    );
  });
});
