import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import {
  classCounts,
  createClass,
  createUser,
  expectSqlError,
  rpc,
  signCurrentDocuments,
  uniqueEmail,
  type TestUser,
} from './support/fixtures.ts';

// The seeded database: admin_stats is compared with the seed's own rows, and the demo accounts
// are part of what the local stack promises (design.md section 4).
let db: Database;
let admin: TestUser;
let member: TestUser;

beforeAll(async () => {
  db = await createTestDatabase({ seed: true });
  admin = await createUser(db, 'stats-admin', { membership_tier: 'premium', is_admin: true });
  member = await createUser(db, 'stats-member', { membership_tier: 'standard' });
});
afterAll(async () => {
  await db.close();
});

describe('demo seed', () => {
  it('has the seven demo accounts with their tiers, confirmed, with bcrypt hashes of studio123', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select u.email, m.membership_tier, m.has_used_trial, m.is_admin,
              u.email_confirmed_at is not null as confirmed,
              u.encrypted_password = extensions.crypt('studio123', u.encrypted_password) as password_ok,
              u.encrypted_password like '$2a$%' as bcrypt,
              m.trial_expires_at between now() + interval '6 days 23 hours' and now() + interval '7 days 1 hour' as trial_7_days
         from auth.users u join public.members m on m.user_id = u.id
        where u.email like '%@studio.test' order by u.email`,
    );
    const base = { confirmed: true, password_ok: true, bcrypt: true };
    expect(rows).toEqual([
      { email: 'admin@studio.test', membership_tier: 'premium', has_used_trial: true, is_admin: true, trial_7_days: null, ...base },
      // The coach (decision 0027): an ordinary account linked to Coach Alex.
      { email: 'coach@studio.test', membership_tier: 'payg', has_used_trial: true, is_admin: false, trial_7_days: null, ...base },
      { email: 'newpayg@studio.test', membership_tier: 'payg', has_used_trial: false, is_admin: false, trial_7_days: null, ...base },
      { email: 'payg@studio.test', membership_tier: 'payg', has_used_trial: true, is_admin: false, trial_7_days: null, ...base },
      { email: 'premium@studio.test', membership_tier: 'premium', has_used_trial: true, is_admin: false, trial_7_days: null, ...base },
      { email: 'standard@studio.test', membership_tier: 'standard', has_used_trial: true, is_admin: false, trial_7_days: null, ...base },
      { email: 'trial@studio.test', membership_tier: 'trial', has_used_trial: false, is_admin: false, trial_7_days: true, ...base },
    ]);
  });

  it('has the timetable ahead, premium classes in and out of their window, a One-to-One, 2 spots left, a full class and past and upcoming bookings', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select
         (select count(*)::int from public.classes where name = 'Breakfast Club' and start_time > now()) > 40 as timetable,
         exists (select 1 from public.classes where is_premium and now() >= start_time - unlock_for_standard::interval and start_time > now()) as premium_open,
         exists (select 1 from public.classes where is_premium and now() < start_time - unlock_for_standard::interval) as premium_locked,
         exists (select 1 from public.classes where type = 'One-to-One' and capacity = 1) as one_to_one,
         exists (select 1 from public.classes where spots_left = 2 and start_time > now()) as two_left,
         exists (select 1 from public.classes where spots_left = 0 and start_time > now()) as full_class,
         exists (select 1 from public.bookings b join public.classes c on c.id = b.class_id where c.start_time < now()) as past,
         exists (select 1 from public.bookings b join public.classes c on c.id = b.class_id where c.start_time > now()) as upcoming,
         not exists (select 1 from public.classes where spots_left <> capacity - (select count(*) from public.bookings b where b.class_id = classes.id)) as counts_consistent`,
    );
    expect(rows[0]).toEqual({
      timetable: true,
      premium_open: true,
      premium_locked: true,
      one_to_one: true,
      two_left: true,
      full_class: true,
      past: true,
      upcoming: true,
      counts_consistent: true,
    });
  });
});

describe('admin_stats', () => {
  it('gives an admin every Analytics number in one call', async () => {
    const stats = await asUser(db, admin.claims, (tx) => rpc<Record<string, number>>(tx, 'public.admin_stats()'));
    const { rows } = await db.query<Record<string, number>>(
      `select
         (select count(*)::int from public.members) as total_members,
         (select count(*)::int from public.classes) as total_classes,
         (select count(*)::int from public.bookings) as total_bookings,
         (select count(*)::int from public.classes where start_time >= now()) as upcoming_classes,
         (select count(*)::int from public.members where membership_tier = 'premium') as premium_members,
         (select count(*)::int from public.members where membership_tier = 'standard') as standard_members,
         (select count(*)::int from public.members where membership_tier in ('payg', 'trial')) as payg_members,
         (select count(*)::int from public.bookings
           where booked_at >= date_trunc('month', now() at time zone 'Europe/London') at time zone 'Europe/London') as bookings_this_month`,
    );
    // `weekly` (attendance and fill rates) is tested in studio-ops/attendance.test.ts.
    expect(stats).toEqual({ ...rows[0], weekly: expect.any(Array) });
    expect(stats.total_members).toBeGreaterThanOrEqual(8);
    expect(stats.premium_members).toBeGreaterThanOrEqual(3);
  });

  it('refuses a member with the spec text, and anon outright', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_stats()')),
      {
        code: '42501',
        hint: 'not_admin',
        message: 'Access denied',
      },
    );
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.admin_stats()')),
      { code: '42501', message: /permission denied/ },
    );
  });
});

describe('ensure_member and the auth.users trigger', () => {
  async function signUp(metadata: Record<string, unknown>) {
    const email = uniqueEmail('signup');
    const { rows } = await db.query<{ id: string }>(
      `insert into auth.users (id, aud, role, email, raw_user_meta_data, created_at, updated_at)
       values (gen_random_uuid(), 'authenticated', 'authenticated', $1, $2, now(), now()) returning id`,
      [email, JSON.stringify(metadata)],
    );
    return { userId: rows[0]!.id, email };
  }

  it('a plain sign-up gets a payg member row named from full_name', async () => {
    const { userId, email } = await signUp({ full_name: 'Pat Plain' });
    const { rows } = await db.query(
      'select email, name, membership_tier, has_used_trial, trial_expires_at from public.members where user_id = $1',
      [userId],
    );
    expect(rows).toEqual([{ email, name: 'Pat Plain', membership_tier: 'payg', has_used_trial: false, trial_expires_at: null }]);
  });

  it('a free-trial sign-up gets a trial row expiring in 7 days', async () => {
    const { userId } = await signUp({ full_name: 'Tess Trial', signup_source: 'free-trial' });
    const { rows } = await db.query<{ membership_tier: string; days: number }>(
      `select membership_tier, round(extract(epoch from trial_expires_at - now()) / 86400)::int as days
         from public.members where user_id = $1`,
      [userId],
    );
    expect(rows).toEqual([{ membership_tier: 'trial', days: 7 }]);
  });

  it('ensure_member recreates a missing row once and is idempotent', async () => {
    const { userId, email } = await signUp({ signup_source: 'free-trial' });
    await db.query('delete from public.members where user_id = $1', [userId]);
    const claims = { role: 'authenticated' as const, sub: userId, email };
    const first = await asUser(db, claims, (tx) =>
      tx.query<{ id: string; membership_tier: string; email: string }>('select * from public.ensure_member()'),
    );
    const second = await asUser(db, claims, (tx) => tx.query<{ id: string }>('select * from public.ensure_member()'));
    expect(first.rows[0]).toMatchObject({ membership_tier: 'trial', email });
    expect(second.rows[0]!.id).toBe(first.rows[0]!.id);
    const { rows } = await db.query('select count(*)::int as n from public.members where user_id = $1', [userId]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('ensure_member returns the existing row unchanged (no tier reset)', async () => {
    const row = await asUser(db, member.claims, (tx) =>
      tx.query<{ id: string; membership_tier: string }>('select * from public.ensure_member()'),
    );
    expect(row.rows[0]).toMatchObject({ id: member.memberId, membership_tier: 'standard' });
  });

  it('links an existing unlinked row with the same email instead of duplicating it', async () => {
    const email = uniqueEmail('prelinked');
    await db.query(`insert into public.members (email, membership_tier) values ($1, 'standard')`, [email.toUpperCase()]);
    const { rows } = await db.query<{ id: string }>(
      `insert into auth.users (id, email, raw_user_meta_data) values (gen_random_uuid(), $1, '{}') returning id`,
      [email],
    );
    const linked = await db.query('select membership_tier from public.members where user_id = $1', [rows[0]!.id]);
    expect(linked.rows).toEqual([{ membership_tier: 'standard' }]);
  });

  it('refuses anon, and a token without a user', async () => {
    await expectSqlError(
      asAnon(db, (tx) => tx.query('select public.ensure_member()')),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, { role: 'authenticated' }, (tx) => tx.query('select public.ensure_member()')),
      {
        hint: 'not_authenticated',
      },
    );
  });
});

describe('release_expired_holds', () => {
  it('frees spots held by lapsed pending bookings only (service role)', async () => {
    const cls = await createClass(db, { capacity: 4 });
    const holder = await createUser(db, 'holder', { membership_tier: 'payg', has_used_trial: true });
    const fresh = await createUser(db, 'fresh-holder', { membership_tier: 'payg', has_used_trial: true });
    // The seeded database publishes the booking documents: these members signed them (decision 0021).
    await signCurrentDocuments(db, holder.memberId);
    await signCurrentDocuments(db, fresh.memberId);
    await db.query(
      `insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at)
       values ($1, $3, 'payg', 'pending', now() - interval '1 minute'), ($2, $3, 'payg', 'pending', now() + interval '10 minutes')`,
      [holder.memberId, fresh.memberId, cls],
    );
    expect((await classCounts(db, cls)).spots_left).toBe(2);
    const released = await asServiceRole(db, (tx) => rpc<number>(tx, 'public.release_expired_holds()'));
    expect(released).toBe(1);
    expect(await classCounts(db, cls)).toEqual({ capacity: 4, current_bookings: 1, spots_left: 3, bookings: 1 });
  });

  it('is not callable by members or anon', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.release_expired_holds()')),
      { code: '42501' },
    );
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.release_expired_holds()')),
      { code: '42501' },
    );
  });
});

// Last: regeneration creates the template's classes of its period.
describe('regenerate_timetable', () => {
  it('refuses members (spec text) and anon, and bad periods', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, `public.regenerate_timetable('2027-10-25', '2027-12-29')`)),
      {
        hint: 'not_admin',
        message: 'Access denied',
      },
    );
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, `public.regenerate_timetable('2027-10-25', '2027-12-29')`)),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, `public.regenerate_timetable('2027-12-29', '2027-10-25')`)),
      {
        code: '22023',
        hint: 'invalid_period',
      },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, `public.regenerate_timetable('2027-01-01', '2028-01-03')`)),
      {
        hint: 'invalid_period',
      },
    );
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, `public.regenerate_timetable('2025-10-27', '2025-12-31')`)),
      {
        hint: 'invalid_period',
        message: 'The period has already ended',
      },
    );
  });

  it("creates the spec's template for the period, in London time, and nothing outside it", async () => {
    const outside = await createClass(db, { startsIn: '3 days' });
    const result = await asUser(db, admin.claims, (tx) =>
      rpc<{ deleted: number; created: number }>(tx, `public.regenerate_timetable('2027-10-25', '2027-12-29')`),
    );
    // 25 Oct (Mon) to 29 Dec (Wed): 48 weekdays x 4 Breakfast Club + 10 Mondays x 1 Kids Club.
    expect(result).toEqual({ deleted: 0, created: 48 * 4 + 10 });
    const { rows } = await db.query<Record<string, unknown>>(
      `select name, to_char(start_time at time zone 'Europe/London', 'Dy HH24:MI') as at, duration, capacity, spots_left,
              price_payg::text as price, trainer, type, is_premium, unlock_for_standard
         from public.classes where start_time >= '2027-10-25 00:00 Europe/London' order by start_time limit 5`,
    );
    const common = {
      duration: 45,
      capacity: 12,
      spots_left: 12,
      price: '10.00',
      trainer: 'Coach Alex',
      type: 'Group',
      is_premium: false,
      unlock_for_standard: '3 days',
    };
    expect(rows).toEqual([
      { name: 'Breakfast Club', at: 'Mon 06:00', ...common },
      { name: 'Breakfast Club', at: 'Mon 07:15', ...common },
      { name: 'Breakfast Club', at: 'Mon 08:30', ...common },
      { name: 'Breakfast Club', at: 'Mon 10:00', ...common },
      { name: 'Kids Club', at: 'Mon 16:45', ...common },
    ]);
    const { rows: kept } = await db.query('select id from public.classes where id = $1', [outside]);
    expect(kept).toHaveLength(1);
  });

  it('keeps classes that started, classes added by hand and the template classes already there, with their bookings', async () => {
    const booker = await createUser(db, 'regen-booker', { membership_tier: 'payg', has_used_trial: true });
    await signCurrentDocuments(db, booker.memberId);
    const today = new Date();
    const day = today.toISOString().slice(0, 10);
    const end = new Date(today.getTime() + 14 * 86_400_000).toISOString().slice(0, 10);
    // A class that started an hour ago with its booking and attendance, and one later in the period.
    const started = await createClass(db, { startsIn: '-1 hour', price_payg: null });
    const later = await createClass(db, { startsIn: '5 days', price_payg: null });
    const pastBooking = await db.query<{ id: string }>(
      `insert into public.bookings (member_id, class_id, type, payment_status, attendance) values ($1, $2, 'payg', 'completed', 'attended') returning id`,
      [booker.memberId, started],
    );
    await asUser(db, booker.claims, (tx) => rpc(tx, 'public.book_class($1)', [later]));
    // The demo's period: its timetable, premium classes and One-to-One sessions (the seed's).
    const inPeriod = `select id from public.classes where start_time > now() and start_time < $1::date + 1 order by id`;
    const { rows: demo } = await db.query<{ id: string }>(inPeriod, [end]);
    expect(demo.length).toBeGreaterThan(20);
    const before = (await db.query<{ at: Date }>('select clock_timestamp() as at')).rows[0]!.at;

    const result = await asUser(db, admin.claims, (tx) =>
      rpc<{ deleted: number; created: number }>(tx, 'public.regenerate_timetable($1, $2)', [day, end]),
    );

    expect(result.deleted).toBe(0);
    const { rows: kept } = await db.query<{ id: string }>('select id from public.classes where id = any($1)', [demo.map((c) => c.id)]);
    expect(kept).toHaveLength(demo.length);
    const { rows } = await db.query<{ id: string }>('select id from public.bookings where id = $1', [pastBooking.rows[0]!.id]);
    expect(rows).toHaveLength(1);
    const { rows: classes } = await db.query<{ id: string }>('select id from public.classes where id = any($1) order by start_time', [
      [started, later],
    ]);
    expect(classes.map((c) => c.id)).toEqual([started, later]);
    const { rows: emails } = await db.query(
      `select 1 from public.notification_outbox where member_id = $1 and kind = 'booking_cancelled'`,
      [booker.memberId],
    );
    expect(emails).toEqual([]);
    // Nothing that had already started was created again.
    const { rows: early } = await db.query('select name from public.classes where created_at >= $1 and start_time <= $1', [before]);
    expect(early).toEqual([]);
  });

  it('keeps 06:00 London in summer (05:00 UTC)', async () => {
    await asUser(db, admin.claims, (tx) => rpc(tx, `public.regenerate_timetable('2027-06-07', '2027-06-11')`));
    const { rows } = await db.query<{ utc: string }>(
      `select to_char(start_time at time zone 'UTC', 'YYYY-MM-DD HH24:MI') as utc from public.classes
        where start_time >= '2027-06-07 00:00 Europe/London' order by start_time limit 1`,
    );
    expect(rows).toEqual([{ utc: '2027-06-07 05:00' }]);
  });
});
