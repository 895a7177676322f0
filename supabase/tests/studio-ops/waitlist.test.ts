import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../../local/db/as-user.ts';
import type { Database } from '../../local/db/open-database.ts';
import { createTestDatabase } from '../../local/db/snapshot.ts';
import { classCounts, createClass, createUser, expectSqlError, rpc, type TestUser } from '../support/fixtures.ts';
import { bookingIdOf, call, emailsTo, fillWith, waitlistOf } from './helpers.ts';

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'wl-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

interface JoinResult {
  class_id: string;
  position: number;
  waitlist_size: number;
  closes_at: string;
}
interface MyWaitlistRow {
  class_id: string;
  position: number;
  waitlist_size: number;
  joined_at: string;
  closes_at: string;
  is_closed: boolean;
}

const join = (u: TestUser, classId: string) => call<JoinResult>(db, u, 'public.join_waitlist($1)', [classId]);
const leave = (u: TestUser, classId: string) => call(db, u, 'public.leave_waitlist($1)', [classId]);
const myWaitlist = (u: TestUser) => call<MyWaitlistRow[]>(db, u, 'public.my_waitlist()');
const premium = (label: string) => createUser(db, label, { membership_tier: 'premium' });

/** A class of `capacity` spots, all taken; returns the class and the members holding the spots. */
async function fullClass(capacity = 2, fields: Parameters<typeof createClass>[1] = {}) {
  const classId = await createClass(db, { capacity, ...fields });
  const holders = await fillWith(db, classId, capacity);
  return { classId, holders };
}

async function cancelOwn(u: TestUser, classId: string) {
  const bookingId = await bookingIdOf(db, u.memberId, classId);
  return call<{ booking_id: string; class_id: string; spots_left: number; late: boolean }>(db, u, 'public.cancel_booking($1)', [bookingId]);
}

describe('join_waitlist', () => {
  it('puts members in line in the order they join, with the closing time', async () => {
    const { classId } = await fullClass();
    const [a, b] = [await premium('wl-a'), await premium('wl-b')];
    const first = await join(a, classId);
    expect(first).toMatchObject({ class_id: classId, position: 1, waitlist_size: 1 });
    const { rows } = await db.query<{ closes: Date }>(
      `select start_time - interval '2 hours' as closes from public.classes where id = $1`,
      [classId],
    );
    expect(new Date(first.closes_at).getTime()).toBe(rows[0]!.closes.getTime());
    expect(await join(b, classId)).toMatchObject({ position: 2, waitlist_size: 2 });
    expect(await waitlistOf(db, classId)).toEqual([a.memberId, b.memberId]);
  });

  it('refuses a class that still has spots: book it instead', async () => {
    const classId = await createClass(db, { capacity: 3 });
    await expectSqlError(join(await premium('wl-notfull'), classId), {
      code: 'P0001',
      hint: 'class_not_full',
      message: 'This class still has spots. Book it instead.',
    });
  });

  it('refuses a member already waiting or already booked', async () => {
    const { classId, holders } = await fullClass();
    const a = await premium('wl-twice');
    await join(a, classId);
    await expectSqlError(join(a, classId), {
      code: '23505',
      hint: 'already_waitlisted',
      message: 'You are already on the waitlist for this class',
    });
    await expectSqlError(join(holders[0]!, classId), {
      code: '23505',
      hint: 'already_booked',
      message: 'You have already booked this class',
    });
  });

  it('refuses once the waitlist has closed (2 hours before by default) and once the class started', async () => {
    const soon = await fullClass(1, { startsIn: '90 minutes' });
    await expectSqlError(join(await premium('wl-closed'), soon.classId), {
      code: 'P0001',
      hint: 'waitlist_closed',
      message: 'The waitlist for this class has closed',
    });
    const started = await fullClass(1, { startsIn: '-10 minutes' });
    await expectSqlError(join(await premium('wl-started'), started.classId), {
      hint: 'class_started',
      message: 'This class has already started',
    });
  });

  it('uses the class own cut-off when the admin changed it', async () => {
    const { classId } = await fullClass(1, { startsIn: '90 minutes' });
    await db.query(`update public.classes set waitlist_closes_before = '30 minutes' where id = $1`, [classId]);
    expect(await join(await premium('wl-cutoff-30'), classId)).toMatchObject({ position: 1 });
  });

  it('refuses a member locked out of a premium class, with book_class message', async () => {
    const { classId } = await fullClass(1, { is_premium: true, startsIn: '5 days', unlock_for_standard: '3 days' });
    const standard = await createUser(db, 'wl-locked', { membership_tier: 'standard' });
    await expectSqlError(join(standard, classId), {
      code: 'P0001',
      hint: 'class_locked',
      message: /^This premium class opens for booking on /,
    });
  });

  it('refuses a pay-as-you-go member who would have to pay for the class', async () => {
    const { classId } = await fullClass(1, { price_payg: 10 });
    const payg = await createUser(db, 'wl-payg', { membership_tier: 'payg', has_used_trial: true });
    await expectSqlError(join(payg, classId), {
      code: 'P0001',
      hint: 'waitlist_payment_required',
      message: 'Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.',
    });
    // A free class needs no payment: they may wait for it.
    const free = await fullClass(1, { price_payg: null });
    expect(await join(payg, free.classId)).toMatchObject({ position: 1 });
  });

  it('refuses unknown classes, signed-out callers and anon', async () => {
    await expectSqlError(join(await premium('wl-unknown'), crypto.randomUUID()), {
      code: 'P0002',
      hint: 'class_not_found',
      message: 'Class not found',
    });
    const { classId } = await fullClass(1);
    await expectSqlError(
      asUser(db, { role: 'authenticated' }, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId])),
      {
        code: '28000',
        hint: 'not_authenticated',
      },
    );
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId])),
      {
        code: '42501',
        message: /permission denied for function join_waitlist/,
      },
    );
  });
});

describe('my_waitlist and leave_waitlist', () => {
  it('shows the caller their places, which move up when someone ahead leaves', async () => {
    const { classId } = await fullClass();
    const [a, b] = [await premium('wl-pos-a'), await premium('wl-pos-b')];
    await join(a, classId);
    const joined = await join(b, classId);
    expect(await myWaitlist(b)).toEqual([
      { class_id: classId, position: 2, waitlist_size: 2, joined_at: expect.any(String), closes_at: joined.closes_at, is_closed: false },
    ]);
    expect(await leave(a, classId)).toEqual({ class_id: classId, left: true });
    expect(await myWaitlist(b)).toMatchObject([{ position: 1, waitlist_size: 1 }]);
    expect(await myWaitlist(a)).toEqual([]);
  });

  it('refuses leaving a waitlist the member is not on', async () => {
    const { classId } = await fullClass(1);
    await expectSqlError(leave(await premium('wl-not-on'), classId), {
      code: 'P0002',
      hint: 'not_on_waitlist',
      message: 'You are not on the waitlist for this class',
    });
  });
});

describe('class_waitlist rows (RLS)', () => {
  it('lets a member read only their own rows, admins all, and only admins delete', async () => {
    const { classId } = await fullClass(1);
    const [a, b] = [await premium('wl-rls-a'), await premium('wl-rls-b')];
    await join(a, classId);
    await join(b, classId);
    const visible = (u: TestUser) =>
      asUser(
        db,
        u.claims,
        async (tx) =>
          (await tx.query<{ member_id: string }>('select member_id from public.class_waitlist where class_id = $1', [classId])).rows,
      );
    expect(await visible(a)).toEqual([{ member_id: a.memberId }]);
    expect(await visible(admin)).toHaveLength(2);

    await expectSqlError(
      asUser(db, a.claims, (tx) =>
        tx.query('insert into public.class_waitlist (class_id, member_id) values ($1, $2)', [classId, a.memberId]),
      ),
      { code: '42501' },
    );
    // A member's delete matches no row (the policy is admins only); an admin's removes it.
    await asUser(db, b.claims, (tx) => tx.query('delete from public.class_waitlist where class_id = $1', [classId]));
    expect(await waitlistOf(db, classId)).toEqual([a.memberId, b.memberId]);
    await asUser(db, admin.claims, (tx) => tx.query('delete from public.class_waitlist where member_id = $1', [b.memberId]));
    expect(await waitlistOf(db, classId)).toEqual([a.memberId]);
  });
});

describe('promotion when a spot frees', () => {
  it('books the first in line in the cancelling transaction, emails them, and moves the line up', async () => {
    const { classId, holders } = await fullClass(2, { name: 'Promotion Order' });
    const [w1, w2, w3] = [await premium('wl-w1'), await premium('wl-w2'), await premium('wl-w3')];
    for (const w of [w1, w2, w3]) await join(w, classId);

    const result = await cancelOwn(holders[0]!, classId);
    expect(result.spots_left).toBe(0);
    expect(await bookingIdOf(db, w1.memberId, classId)).not.toBeNull();
    expect(await waitlistOf(db, classId)).toEqual([w2.memberId, w3.memberId]);
    expect(await myWaitlist(w2)).toMatchObject([{ position: 1, waitlist_size: 2 }]);
    expect(await classCounts(db, classId)).toEqual({ capacity: 2, current_bookings: 2, spots_left: 0, bookings: 2 });

    const [email] = await emailsTo(db, w1.memberId);
    expect(email).toMatchObject({
      kind: 'waitlist_promoted',
      to_email: w1.email,
      class_id: classId,
      booking_id: await bookingIdOf(db, w1.memberId, classId),
      links: [{ label: 'Manage or cancel your booking', path: '/mybookings' }],
    });
    expect(email!.subject).toMatch(/^A spot opened: you are booked on Promotion Order, \w+day \d{1,2} \w+ \d{4}, \d{1,2}:\d\d [AP]M$/);
    expect(email!.body_text).toContain('Where: Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom');

    await cancelOwn(holders[1]!, classId);
    expect(await waitlistOf(db, classId)).toEqual([w3.memberId]);
    expect(await bookingIdOf(db, w2.memberId, classId)).not.toBeNull();
  });

  it('also promotes when an admin cancels', async () => {
    const { classId, holders } = await fullClass(1);
    const w = await premium('wl-admin-cancel');
    await join(w, classId);
    const bookingId = await bookingIdOf(db, holders[0]!.memberId, classId);
    const result = await call(db, admin, 'public.cancel_booking($1)', [bookingId]);
    expect(result).toMatchObject({ spots_left: 0, late: false });
    expect(await bookingIdOf(db, w.memberId, classId)).not.toBeNull();
  });

  it('skips a member the premium lock now refuses (they keep their place) and books the next', async () => {
    const { classId, holders } = await fullClass(1, { is_premium: true, startsIn: '5 days', unlock_for_standard: '3 days' });
    const lapsed = await premium('wl-lapsed');
    const next = await premium('wl-next');
    await join(lapsed, classId);
    await join(next, classId);
    // Their premium plan lapsed while waiting: standard members are locked out until 3 days before.
    await db.query(`update public.members set membership_tier = 'standard' where id = $1`, [lapsed.memberId]);
    await cancelOwn(holders[0]!, classId);
    expect(await bookingIdOf(db, lapsed.memberId, classId)).toBeNull();
    expect(await bookingIdOf(db, next.memberId, classId)).not.toBeNull();
    expect(await waitlistOf(db, classId)).toEqual([lapsed.memberId]);
  });

  it('skips a pay-as-you-go member who would now have to pay, and books the next', async () => {
    const { classId, holders } = await fullClass(1, { price_payg: 10 });
    const payg = await createUser(db, 'wl-payg-trial', { membership_tier: 'payg', has_used_trial: false });
    const next = await premium('wl-after-payg');
    await join(payg, classId); // still has the free trial, so no payment needed then
    await join(next, classId);
    await db.query('update public.members set has_used_trial = true where id = $1', [payg.memberId]);
    await cancelOwn(holders[0]!, classId);
    expect(await bookingIdOf(db, payg.memberId, classId)).toBeNull();
    expect(await bookingIdOf(db, next.memberId, classId)).not.toBeNull();
  });

  it('gives a promoted trial member the same transition as book_class', async () => {
    const { classId, holders } = await fullClass(1);
    const trial = await createUser(db, 'wl-trial', {}, { signup_source: 'free-trial' });
    await join(trial, classId);
    await cancelOwn(holders[0]!, classId);
    const { rows } = await db.query<{ type: string; payment_status: string; tier: string; used: boolean; expires: Date | null }>(
      `select b.type, b.payment_status, m.membership_tier as tier, m.has_used_trial as used, m.trial_expires_at as expires
         from public.bookings b join public.members m on m.id = b.member_id where b.member_id = $1 and b.class_id = $2`,
      [trial.memberId, classId],
    );
    expect(rows).toEqual([{ type: 'trial', payment_status: 'completed', tier: 'payg', used: true, expires: null }]);
  });

  it('removes a waiting member who meanwhile got the spot another way, without booking twice', async () => {
    const { classId, holders } = await fullClass(2);
    const w = await premium('wl-got-in');
    const next = await premium('wl-got-in-next');
    await join(w, classId);
    await join(next, classId);
    // The admin gave w a spot by raising capacity: the first in line is promoted by that, not twice.
    await asUser(db, admin.claims, (tx) => tx.query('update public.classes set capacity = 3 where id = $1', [classId]));
    expect(await bookingIdOf(db, w.memberId, classId)).not.toBeNull();
    expect(await waitlistOf(db, classId)).toEqual([next.memberId]);
    await cancelOwn(holders[0]!, classId);
    expect(await bookingIdOf(db, next.memberId, classId)).not.toBeNull();
    expect(await waitlistOf(db, classId)).toEqual([]);
  });

  it('promotes nobody after the waitlist closes: the spot goes back on the timetable', async () => {
    const { classId, holders } = await fullClass(1, { startsIn: '3 hours' });
    const w = await premium('wl-too-late');
    await join(w, classId);
    await db.query(`update public.classes set waitlist_closes_before = '4 hours' where id = $1`, [classId]);
    const result = await cancelOwn(holders[0]!, classId);
    expect(result.spots_left).toBe(1);
    expect(await bookingIdOf(db, w.memberId, classId)).toBeNull();
    expect(await myWaitlist(w)).toMatchObject([{ class_id: classId, position: 1, is_closed: true }]);
  });

  it('promotes when a lapsed payment hold is released', async () => {
    const classId = await createClass(db, { capacity: 1 });
    const payer = await createUser(db, 'wl-hold', { membership_tier: 'payg', has_used_trial: true });
    await db.query(
      `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at) values ($1, $2, 'payg', 'pending', now() + interval '10 minutes')`,
      [payer.memberId, classId],
    );
    const w = await premium('wl-after-hold');
    await join(w, classId);
    await db.query(`update public.bookings set hold_expires_at = now() - interval '1 minute' where member_id = $1`, [payer.memberId]);
    expect(await asServiceRole(db, (tx) => rpc<number>(tx, 'public.release_expired_holds()'))).toBe(1);
    expect(await bookingIdOf(db, w.memberId, classId)).not.toBeNull();
  });

  it('promotes as many as a larger capacity opens, in order', async () => {
    const { classId } = await fullClass(1);
    const line = [await premium('wl-cap-1'), await premium('wl-cap-2'), await premium('wl-cap-3')];
    for (const w of line) await join(w, classId);
    await asUser(db, admin.claims, (tx) => tx.query('update public.classes set capacity = 3 where id = $1', [classId]));
    expect(await waitlistOf(db, classId)).toEqual([line[2]!.memberId]);
    expect(await classCounts(db, classId)).toEqual({ capacity: 3, current_bookings: 3, spots_left: 0, bookings: 3 });
  });

  it('leaves the waitlist and bookings consistent when a waiting member is deleted', async () => {
    const { classId, holders } = await fullClass(1);
    const gone = await premium('wl-gone');
    const stays = await premium('wl-stays');
    await join(gone, classId);
    await join(stays, classId);
    await asUser(db, admin.claims, (tx) => tx.query('select * from public.admin_delete_member($1)', [gone.memberId]));
    await cancelOwn(holders[0]!, classId);
    expect(await bookingIdOf(db, stays.memberId, classId)).not.toBeNull();
  });
});
