import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claimDue, fail, type Charge } from './support/membership-steps.ts';

// Decision 0080: off until an admin sets it; a late cancellation or a no-show of a booking made
// under the policy is recorded once, its fee charged once to the saved card by the renewal job (or
// left owed), strikes block booking, and an admin waives with a reason (a paid fee is owed back).

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'attend-admin', { is_admin: true });
});
afterAll(async () => {
  await db.close();
});

type Incident = { id: string; kind: string; fee: number | null; fee_state: string; class_name: string; waive_reason: string | null };

const now = () => new Date();
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const service = <T>(call: string, params: unknown[] = []) => asServiceRole(db, (tx) => rpc<T>(tx, call, params));
const setPolicy = (lateFee: number | null, noShowFee: number | null, strikes: number | null, blockDays: number | null, from: string) =>
  asUser(db, admin.claims, (tx) =>
    rpc(tx, 'private.admin_set_attendance_policy($1, $2, $3, $4, $5)', [lateFee, noShowFee, strikes, blockDays, from]),
  );
const incidentsOf = (u: TestUser) => asUser(db, u.claims, (tx) => rpc<Incident[]>(tx, 'public.attendance_incidents_of()'));
const waive = (u: TestUser, id: string, reason: string) =>
  asUser(db, u.claims, (tx) => rpc<Incident>(tx, 'public.admin_waive_attendance($1, $2)', [id, reason]));
const feesOf = (charges: Charge[], member: TestUser) =>
  charges.filter((c) => c.checkout_reference.startsWith('fee-') && (c as Charge & { member_id: string }).member_id === member.memberId);

/** A confirmed booking of a class starting at `startsAt`, booked at `bookedAt` (as the owner). */
async function booked(member: TestUser, name: string, startsAt: string, bookedAt: string) {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer, type, capacity, price_payg) values ($1, $2, 'Coach Test', 'Group', 10, 10) returning id`,
    [name, startsAt],
  );
  const booking = await db.query<{ id: string }>(
    `insert into public.bookings (member_id, class_id, type, payment_status, booked_at) values ($1, $2, 'payg', 'completed', $3) returning id`,
    [member.memberId, rows[0]!.id, bookedAt],
  );
  return { classId: rows[0]!.id, bookingId: booking.rows[0]!.id };
}

async function paymentOfIncident(id: string) {
  const { rows } = await db.query<{ status: string; amount: number; needs_refund: boolean; refund_reason: string | null }>(
    `select p.status::text, p.amount::float8 as amount, p.needs_refund, p.refund_reason
       from public.attendance_incidents i join public.payments p on p.id = i.payment_id where i.id = $1`,
    [id],
  );
  return rows[0];
}

describe('off by default', () => {
  it('a no-show and a late cancellation before any policy record nothing', async () => {
    const member = await createUser(db, 'attend-off');
    await booked(member, 'Before the policy', hoursAgo(3), hoursAgo(100));
    await service('public.mark_no_shows($1)', [now().toISOString()]);
    expect(await incidentsOf(member)).toEqual([]);
    const standing = await asUser(db, member.claims, (tx) => rpc(tx, 'public.my_attendance_standing()'));
    expect(standing).toMatchObject({ late_cancel_fee: null, no_show_fee: null, strike_limit: null, strikes: 0, blocked_until: null });
  });
});

describe('with fees', () => {
  beforeAll(async () => {
    await setPolicy(5, 7.5, null, null, hoursAgo(48));
  });

  it('a no-show fee is charged once when the no-show job runs twice; waived, the money is owed back', async () => {
    const member = await createUser(db, 'attend-noshow');
    await buyPlan(db, member, new Date(hoursAgo(47)));
    await booked(member, 'Missed spin', hoursAgo(2), hoursAgo(24));

    const at = now();
    await service('public.mark_no_shows($1)', [at.toISOString()]);
    await service('public.mark_no_shows($1)', [at.toISOString()]);
    const [incident, ...others] = await incidentsOf(member);
    expect(others).toEqual([]);
    expect(incident).toMatchObject({ kind: 'no_show', fee: 7.5, fee_state: 'due', class_name: 'Missed spin' });
    // Told once, in the same transaction, whatever the number of runs.
    const { rows: told } = await db.query<{ subject: string; body_text: string }>(
      `select subject, body_text from public.notification_outbox where member_id = $1 and kind = 'attendance_incident'`,
      [member.memberId],
    );
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toMatch(/^No-show fee: Missed spin, /);
    expect(told[0]!.body_text).toContain(
      'a £7.50 no-show fee applies: we will charge it to your saved card, or record it as owed if we cannot.',
    );

    // The renewal job claims the fee once: a second run at once finds it claimed.
    const first = feesOf(await claimDue(db, at), member);
    const second = feesOf(await claimDue(db, at), member);
    expect(first).toHaveLength(1);
    expect(second).toEqual([]);
    expect(first[0]).toMatchObject({ amount: 7.5, billing_reason: 'attendance_fee', card_token: 'tok-pays' });
    await applyPaid(db, first[0]!, 'chk-fee-1', at);
    expect(await applyPaid(db, first[0]!, 'chk-fee-1', at)).toMatchObject({ outcome: 'already_applied' });
    expect((await incidentsOf(member))[0]).toMatchObject({ fee_state: 'charged' });
    // Later runs never charge it again.
    expect(feesOf(await claimDue(db, new Date(at.getTime() + 86_400_000)), member)).toEqual([]);
    const { rows: fees } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.payments where member_id = $1 and billing_reason = 'attendance_fee'`,
      [member.memberId],
    );
    expect(fees[0]!.n).toBe(1);

    // The admin waives it with a reason: the money is owed back, once.
    await expectSqlError(waive(member, incident!.id, 'I was ill'), { hint: 'not_admin' });
    await expectSqlError(waive(admin, incident!.id, ' '), { hint: 'invalid_reason' });
    expect((await incidentsOf(member))[0]).toMatchObject({ fee_state: 'charged', waive_reason: null });
    await waive(admin, incident!.id, 'Doctor’s note');
    await expectSqlError(waive(admin, incident!.id, 'Again'), { hint: 'already_waived' });
    expect((await incidentsOf(member))[0]).toMatchObject({ fee_state: 'refund_owed', waive_reason: 'Doctor’s note' });
    expect(await paymentOfIncident(incident!.id)).toMatchObject({ status: 'paid', needs_refund: true, refund_reason: 'fee_waived' });
    const { rows: owed } = await db.query<{ amount: number; reason: string }>(
      `select amount::float8 as amount, reason from public.refunds_owed where member_id = $1 and reason = 'fee_waived'`,
      [member.memberId],
    );
    expect(owed).toEqual([{ amount: 7.5, reason: 'fee_waived' }]);

    // The fee is its own line of revenue.
    const london = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(at);
    const revenue = await asUser(db, admin.claims, (tx) =>
      rpc<{ revenue: { month: string | null; line: string; gross: number }[] }>(tx, 'public.admin_reports($1, $2)', [london, london]),
    );
    expect(revenue.revenue.find((r) => r.month === null && r.line === 'attendance_fees')!.gross).toBe(7.5);
  });

  it('a late cancellation records its fee; without a saved card it is owed; waived it is never charged', async () => {
    const member = await createUser(db, 'attend-late');
    const { bookingId } = await booked(member, 'Late yoga', new Date(Date.now() + 2 * 3_600_000).toISOString(), hoursAgo(24));
    const result = await asUser(db, member.claims, (tx) => rpc<{ late: boolean }>(tx, 'public.cancel_booking($1)', [bookingId]));
    expect(result.late).toBe(true);
    const [incident] = await incidentsOf(member);
    expect(incident).toMatchObject({ kind: 'late_cancel', fee: 5, fee_state: 'due' });

    // No card: the job's one attempt fails and the fee is owed.
    const [charge] = feesOf(await claimDue(db, now()), member);
    expect(charge).toMatchObject({ card_token: null, amount: 5 });
    await fail(db, charge!, now(), 'no_card');
    expect((await incidentsOf(member))[0]).toMatchObject({ fee_state: 'owed' });
    expect(feesOf(await claimDue(db, new Date(Date.now() + 3 * 86_400_000)), member)).toEqual([]);
    const standing = await asUser(db, member.claims, (tx) => rpc<{ owed: number }>(tx, 'public.my_attendance_standing()'));
    expect(standing.owed).toBe(5);

    // Waived, it is no longer owed (nothing was paid, so nothing is owed back).
    await waive(admin, incident!.id, 'Traffic accident on the A3');
    expect((await incidentsOf(member))[0]).toMatchObject({ fee_state: 'waived' });
    expect((await asUser(db, member.claims, (tx) => rpc<{ owed: number }>(tx, 'public.my_attendance_standing()'))).owed).toBe(0);
  });

  it('a fee waived before the job charges it is never claimed', async () => {
    const member = await createUser(db, 'attend-waive-first');
    await buyPlan(db, member, new Date(hoursAgo(47)));
    await booked(member, 'Waived first', hoursAgo(2), hoursAgo(24));
    await service('public.mark_no_shows($1)', [now().toISOString()]);
    const [incident] = await incidentsOf(member);
    await waive(admin, incident!.id, 'Studio error');
    expect(feesOf(await claimDue(db, now()), member)).toEqual([]);
    expect(await paymentOfIncident(incident!.id)).toMatchObject({ status: 'expired', needs_refund: false });
  });

  it('a booking made before the policy was set is not charged; an admin cancelling is not a late cancellation', async () => {
    const member = await createUser(db, 'attend-before');
    await booked(member, 'Booked before', hoursAgo(2), hoursAgo(72));
    await service('public.mark_no_shows($1)', [now().toISOString()]);
    const { bookingId } = await booked(member, 'Admin cancels', new Date(Date.now() + 3_600_000).toISOString(), hoursAgo(24));
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [bookingId]));
    expect(await incidentsOf(member)).toEqual([]);
  });

  it('members see only their own incidents; admins see anyone’s', async () => {
    const member = await createUser(db, 'attend-privacy');
    const other = await createUser(db, 'attend-other');
    await booked(other, 'Not yours', hoursAgo(2), hoursAgo(24));
    await service('public.mark_no_shows($1)', [now().toISOString()]);
    const asked = await asUser(db, member.claims, (tx) => rpc<Incident[]>(tx, 'public.attendance_incidents_of($1)', [other.memberId]));
    expect(asked).toEqual([]);
    const forAdmin = await asUser(db, admin.claims, (tx) => rpc<Incident[]>(tx, 'public.attendance_incidents_of($1)', [other.memberId]));
    expect(forAdmin.map((i) => i.class_name)).toEqual(['Not yours']);
  });

  it('bad policy input is refused and changes nothing; members cannot set it', async () => {
    const before = await db.query('select count(*)::int as n from public.attendance_policies');
    await expectSqlError(setPolicy(0, null, null, null, hoursAgo(1)), { hint: 'invalid_fee', code: '22023' });
    await expectSqlError(setPolicy(5, 101, null, null, hoursAgo(1)), { hint: 'invalid_fee' });
    await expectSqlError(setPolicy(null, null, 3, null, hoursAgo(1)), { hint: 'invalid_strikes' });
    await expectSqlError(setPolicy(null, null, 3, 91, hoursAgo(1)), { hint: 'invalid_strikes' });
    const member = await createUser(db, 'attend-not-admin');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_set_attendance_policy($1, $2, $3, $4)', [1, 1, null, null])),
      { hint: 'not_admin' },
    );
    const after = await db.query('select count(*)::int as n from public.attendance_policies');
    expect(after.rows).toEqual(before.rows);
  });
});

describe('strikes', () => {
  it('two no-shows within 30 days block booking for 7 days with a clear message; a waiver lifts it', async () => {
    await setPolicy(null, null, 2, 7, hoursAgo(20));
    const member = await createUser(db, 'attend-strikes');
    await booked(member, 'Strike one', hoursAgo(15), hoursAgo(19));
    await booked(member, 'Strike two', hoursAgo(3), hoursAgo(18));
    await service('public.mark_no_shows($1)', [now().toISOString()]);
    const incidents = await incidentsOf(member);
    expect(incidents.map((i) => [i.kind, i.fee_state])).toEqual([
      ['no_show', 'strike'],
      ['no_show', 'strike'],
    ]);
    const { rows: told } = await db.query<{ body_text: string }>(
      `select body_text from public.notification_outbox where member_id = $1 and kind = 'attendance_incident' order by created_at`,
      [member.memberId],
    );
    expect(told.map((e) => /You have (\d) within 30 days/.exec(e.body_text)?.[1]).sort()).toEqual(['1', '2']);
    const { rows } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity, price_payg) values ('Next week', now() + interval '3 days', 'Coach Test', 'Group', 10, null) returning id`,
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.book_class($1)', [rows[0]!.id])),
      {
        hint: 'booking_blocked',
        code: 'P0001',
        message: /^You cannot book classes until \w+ \d+ \w+ \d{4}, \d+:\d\d [AP]M: 2 late cancellations or no-shows within 30 days$/,
      },
    );
    const standing = await asUser(db, member.claims, (tx) =>
      rpc<{ strikes: number; blocked_until: string }>(tx, 'public.my_attendance_standing()'),
    );
    expect(standing.strikes).toBe(2);
    // Blocked for 7 days from the second strike (the class's start).
    const secondStart = (
      await db.query<{ t: Date }>(`select max(class_start_time) as t from public.attendance_incidents where member_id = $1`, [
        member.memberId,
      ])
    ).rows[0]!.t;
    expect(new Date(standing.blocked_until).getTime()).toBe(secondStart.getTime() + 7 * 86_400_000);

    await waive(admin, incidents[0]!.id, 'Class moved without notice');
    const booked2 = await asUser(db, member.claims, (tx) => rpc<{ status: string }>(tx, 'public.book_class($1)', [rows[0]!.id]));
    expect(booked2.status).toBe('booked');
  });
});
