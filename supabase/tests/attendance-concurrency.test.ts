import { describe, expect, it } from 'vitest';
import { createUser } from './support/fixtures.ts';
import { buyPlan } from './support/membership-steps.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// Decision 0080 on a real PostgreSQL server, one connection each: two no-show jobs at once record
// one incident and one fee; two renewal runs at once claim the fee once; an admin's waiver and the
// fee's charge arriving at once leave it paid and owed back exactly once, without a deadlock.
// Decision 0081: a place given from the waitlist is claimed once by two runs at once, and its charge
// arriving paid while the member cancels the held place is honoured or owed back, once.

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('attendance concurrency', binDir);

describe.skipIf(!binDir)('attendance fees on PostgreSQL at once', () => {
  it('two job runs record and claim one fee; a waiver racing the charge owes it back once', async () => {
    const db = pgClientDatabase(server.admin()!);
    const url = server.cluster()!.connectionString;
    await db.query(`insert into public.attendance_policies (valid_from, no_show_fee) values (now() - interval '2 days', 4)`);
    const admin = await createUser(db, 'race-attend-admin', { is_admin: true });
    const member = await createUser(db, 'race-attend');
    await buyPlan(db, member, new Date(Date.now() - 86_400_000));
    const { rows: cls } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity, price_payg)
       values ('Race spin', now() - interval '2 hours', 'Coach Test', 'Group', 10, 10) returning id`,
    );
    await db.query(
      `insert into public.bookings (member_id, class_id, type, payment_status, booked_at)
       values ($1, $2, 'paid', 'completed', now() - interval '1 day')`,
      [member.memberId, cls[0]!.id],
    );

    const at = new Date().toISOString();
    const mark = { sql: 'select public.mark_no_shows($1) as n', params: [at] };
    const marked = await together<{ n: number }>(url, [mark, mark]);
    expect(marked.every((r) => !r.error)).toBe(true);
    const { rows: incidents } = await db.query<{ id: string; checkout_reference: string }>(
      `select i.id, p.checkout_reference from public.attendance_incidents i join public.payments p on p.id = i.payment_id
        where i.member_id = $1`,
      [member.memberId],
    );
    expect(incidents).toHaveLength(1);

    const run = { sql: 'select * from public.claim_due_renewals($1)', params: [at] };
    const claims = await together<{ checkout_reference: string; attempt: number }>(url, [run, run]);
    const fees = claims.flatMap((r) => r.rows ?? []).filter((c) => c.checkout_reference === incidents[0]!.checkout_reference);
    expect(fees).toHaveLength(1);

    // The charge comes back paid while the admin waives it.
    const results = await together(url, [
      {
        sql: `select * from public.apply_membership_charge($1, 'chk-race-fee', 'PAID', 4, 'GBP', $2)`,
        params: [incidents[0]!.checkout_reference, at],
      },
      { sql: `select * from public.admin_waive_attendance($1, 'Waived at the desk')`, params: [incidents[0]!.id], claims: admin.claims },
    ]);
    expect(results.map((r) => r.error?.message ?? null)).toEqual([null, null]);
    const { rows: payment } = await db.query<{ status: string; needs_refund: boolean }>(
      'select status::text, needs_refund from public.payments where checkout_reference = $1',
      [incidents[0]!.checkout_reference],
    );
    expect(payment).toEqual([{ status: 'paid', needs_refund: true }]);
    const { rows: owed } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.refunds_owed where member_id = $1 and reason = 'fee_waived'`,
      [member.memberId],
    );
    expect(owed[0]!.n).toBe(1);
  });

  it('two runs claim a waitlist place once; its charge racing the member’s cancellation owes at most once', async () => {
    const db = pgClientDatabase(server.admin()!);
    const url = server.cluster()!.connectionString;
    const holder = await createUser(db, 'race-wait-holder', { membership_tier: 'standard' });
    const member = await createUser(db, 'race-wait', { membership_tier: 'payg', has_used_trial: true });
    await db.query(
      `insert into private.member_cards (member_id, customer_id, token, saved_at) values ($1, 'cus-race', 'tok-pays', now())`,
      [member.memberId],
    );
    const { rows: cls } = await db.query<{ id: string }>(
      `insert into public.classes (name, start_time, trainer, type, capacity, price_payg)
       values ('Race wait', now() + interval '2 days', 'Coach Test', 'Group', 1, 12) returning id`,
    );
    const { rows: held } = await db.query<{ id: string }>(
      `insert into public.bookings (member_id, class_id, type, payment_status) values ($1, $2, 'paid', 'completed') returning id`,
      [holder.memberId, cls[0]!.id],
    );
    const joined = await together(url, [{ sql: 'select * from public.join_waitlist($1)', params: [cls[0]!.id], claims: member.claims }]);
    expect(joined[0]!.error).toBeUndefined();
    await db.query('delete from public.bookings where id = $1', [held[0]!.id]);

    const at = new Date().toISOString();
    const run = { sql: 'select * from public.claim_due_renewals($1)', params: [at] };
    const claims = await together<{ checkout_reference: string }>(url, [run, run]);
    const places = claims.flatMap((r) => r.rows ?? []).filter((c) => c.checkout_reference.startsWith('wait-'));
    expect(places).toHaveLength(1);
    const { rows: booking } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1', [member.memberId]);

    const results = await together(url, [
      {
        sql: `select * from public.apply_membership_charge($1, 'chk-race-wait', 'PAID', 12, 'GBP', $2)`,
        params: [places[0]!.checkout_reference, at],
      },
      { sql: 'select * from public.cancel_booking($1)', params: [booking[0]!.id], claims: member.claims },
    ]);
    expect(results.map((r) => r.error?.message ?? null)).toEqual([null, null]);
    const { rows: left } = await db.query('select 1 from public.bookings where member_id = $1', [member.memberId]);
    expect(left).toEqual([]);
    const { rows: owed } = await db.query<{ amount: number }>(
      'select amount::float8 as amount from public.refunds_owed where member_id = $1',
      [member.memberId],
    );
    expect(owed).toEqual([{ amount: 12 }]);
  });
});
