import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database, SqlExecutor } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { classCounts, createClass, createUser, expectSqlError, type TestUser } from './support/fixtures.ts';

// Row-level security and column privileges, per table and role: each verb allowed and refused.
// A `using` clause hides rows silently, so the assertions look at what came back.

let db: Database;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let classId: string;
let memberBookingId: string;
let otherBookingId: string;

async function insertBooking(memberId: string, cls: string): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid') returning id`,
    [memberId, cls],
  );
  return rows[0]!.id;
}

const ids = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

beforeAll(async () => {
  db = await createTestDatabase();
  member = await createUser(db, 'member', { membership_tier: 'standard' });
  other = await createUser(db, 'other', { membership_tier: 'premium' });
  admin = await createUser(db, 'admin', { membership_tier: 'premium', is_admin: true });
  classId = await createClass(db, { capacity: 5 });
  memberBookingId = await insertBooking(member.memberId, classId);
  otherBookingId = await insertBooking(other.memberId, classId);
});
afterAll(async () => {
  await db.close();
});

const q = <T>(tx: SqlExecutor, sql: string, params: unknown[] = []) => tx.query<T>(sql, params).then((r) => r.rows);

describe('members', () => {
  it('anon reads nothing and cannot write', async () => {
    await expectSqlError(
      asAnon(db, (tx) => q(tx, 'select * from public.members')),
      { code: '42501' },
    );
    await expectSqlError(
      asAnon(db, (tx) => q(tx, `insert into public.members (email) values ('x@example.test')`)),
      {
        code: '42501',
      },
    );
  });

  it('a member reads only their own row; an admin reads all', async () => {
    const own = await asUser(db, member.claims, (tx) => q<{ id: string }>(tx, 'select id from public.members'));
    expect(ids(own)).toEqual([member.memberId]);
    const all = await asUser(db, admin.claims, (tx) => q<{ id: string }>(tx, 'select id from public.members'));
    expect(ids(all)).toEqual(expect.arrayContaining([member.memberId, other.memberId, admin.memberId]));
  });

  it('a member updates their own name, phone and photo', async () => {
    const rows = await asUser(db, member.claims, (tx) =>
      q<{ name: string }>(
        tx,
        `update public.members set name = 'New Name', phone = '07700 900123', profile_image_url = 'https://x.test/a.png'
          where id = $1 returning name`,
        [member.memberId],
      ),
    );
    expect(rows).toEqual([{ name: 'New Name' }]);
  });

  it("a member's update of another member's row changes nothing", async () => {
    const rows = await asUser(db, member.claims, (tx) =>
      q(tx, `update public.members set name = 'Hacked' where id = $1 returning id`, [other.memberId]),
    );
    expect(rows).toEqual([]);
    const { rows: check } = await db.query<{ name: string }>('select name from public.members where id = $1', [other.memberId]);
    expect(check[0]!.name).not.toBe('Hacked');
  });

  it.each([
    ['membership_tier', `'premium'`],
    ['is_admin', 'true'],
    ['has_used_trial', 'false'],
    ['trial_expires_at', `now() + interval '1 year'`],
    ['plan_renews_at', `now() + interval '1 year'`],
    ['email', `'someone@else.test'`],
    ['user_id', 'gen_random_uuid()'],
    ['status', `'inactive'`],
  ])('a member cannot set their own %s', async (column, value) => {
    await expectSqlError(
      asUser(db, member.claims, (tx) => q(tx, `update public.members set ${column} = ${value} where id = $1`, [member.memberId])),
      { code: '42501', message: /permission denied/ },
    );
  });

  it('a member cannot raise their tier or admin flag by inserting or upserting a row', async () => {
    await expectSqlError(
      asUser(db, member.claims, (tx) =>
        q(
          tx,
          `insert into public.members (id, email, membership_tier, is_admin, user_id) values ($1, $2, 'premium', true, $3)
           on conflict (id) do update set membership_tier = 'premium', is_admin = true`,
          [member.memberId, member.email, member.userId],
        ),
      ),
      { code: '42501' },
    );
    const { rows } = await db.query('select membership_tier, is_admin from public.members where id = $1', [member.memberId]);
    expect(rows[0]).toEqual({ membership_tier: 'standard', is_admin: false });
  });

  it('nobody deletes members through the table: an admin uses admin_delete_member, which applies the removal rules', async () => {
    const victim = await createUser(db, 'victim');
    for (const who of [member, admin]) {
      await expectSqlError(
        asUser(db, who.claims, (tx) => q(tx, 'delete from public.members where id = $1 returning id', [victim.memberId])),
        { code: '42501' },
      );
    }
    expect(await q(db, 'select id from public.members where id = $1', [victim.memberId])).toHaveLength(1);
    await asUser(db, admin.claims, (tx) => q(tx, 'select * from public.admin_delete_member($1)', [victim.memberId]));
    expect(await q(db, 'select id from public.members where id = $1', [victim.memberId])).toHaveLength(0);
    // The removal rules ran: the email's free trial is remembered.
    const remembered = await q<{ n: number }>(
      db,
      'select count(*)::int as n from private.trial_emails where email_hash = private.email_hash($1)',
      [victim.email],
    );
    expect(remembered).toEqual([{ n: 1 }]);
  });
});

describe('classes', () => {
  it('anyone, anon included, reads classes', async () => {
    const rows = await asAnon(db, (tx) => q<{ id: string }>(tx, 'select id from public.classes where id = $1', [classId]));
    expect(rows).toHaveLength(1);
  });

  it('anon and members cannot create, edit or delete classes', async () => {
    await expectSqlError(
      asAnon(db, (tx) => q(tx, `insert into public.classes (name, start_time, trainer) values ('X', now(), 'T')`)),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => q(tx, `insert into public.classes (name, start_time, trainer) values ('X', now(), 'T')`)),
      { code: '42501', message: /row-level security/ },
    );
    const updated = await asUser(db, member.claims, (tx) =>
      q(tx, `update public.classes set name = 'Mine' where id = $1 returning id`, [classId]),
    );
    expect(updated).toEqual([]);
    const deleted = await asUser(db, member.claims, (tx) => q(tx, 'delete from public.classes where id = $1 returning id', [classId]));
    expect(deleted).toEqual([]);
  });

  it('an admin creates, edits and deletes classes', async () => {
    const created = await asUser(db, admin.claims, (tx) =>
      q<{ id: string; spots_left: number; current_bookings: number }>(
        tx,
        `insert into public.classes (name, start_time, trainer, capacity) values ('Admin Class', now() + interval '1 day', 'Coach', 8)
         returning id, spots_left, current_bookings`,
      ),
    );
    expect(created[0]).toMatchObject({ spots_left: 8, current_bookings: 0 });
    const id = created[0]!.id;
    const edited = await asUser(db, admin.claims, (tx) =>
      q(tx, 'update public.classes set capacity = 6 where id = $1 returning spots_left', [id]),
    );
    expect(edited).toEqual([{ spots_left: 6 }]);
    const deleted = await asUser(db, admin.claims, (tx) => q(tx, 'delete from public.classes where id = $1 returning id', [id]));
    expect(deleted).toEqual([{ id }]);
  });

  it('nobody writes current_bookings or spots_left through the API, admins included', async () => {
    for (const column of ['spots_left', 'current_bookings']) {
      await expectSqlError(
        asUser(db, admin.claims, (tx) => q(tx, `update public.classes set ${column} = 0 where id = $1`, [classId])),
        { code: '42501' },
      );
      await expectSqlError(
        asUser(db, admin.claims, (tx) =>
          q(tx, `insert into public.classes (name, start_time, trainer, ${column}) values ('X', now(), 'T', 3)`),
        ),
        { code: '42501' },
      );
    }
  });

  it('an admin cannot shrink capacity below the bookings already made', async () => {
    await expectSqlError(
      asUser(db, admin.claims, (tx) => q(tx, 'update public.classes set capacity = 1 where id = $1', [classId])),
      { code: '23514' },
    );
  });

  it('refuses form-rule violations (duration, capacity, One-to-One, price, window)', async () => {
    const insert = (cols: string, values: string) =>
      asUser(db, admin.claims, (tx) =>
        q(tx, `insert into public.classes (name, start_time, trainer, ${cols}) values ('X', now() + interval '1 day', 'T', ${values})`),
      );
    await expectSqlError(insert('duration', '14'), { code: '23514' });
    await expectSqlError(insert('duration', '181'), { code: '23514' });
    await expectSqlError(insert('capacity', '51'), { code: '23514' });
    await expectSqlError(insert('capacity', '0'), { code: '23514' });
    await expectSqlError(insert('type, capacity', `'One-to-One', 2`), { code: '23514' });
    await expectSqlError(insert('price_payg', '-0.01'), { code: '23514' });
    await expectSqlError(insert('unlock_for_standard', `'3 weeks'`), { code: '23514' });
    await expectSqlError(insert('type', `'Yoga'`), { code: '23514' });
  });
});

describe('bookings', () => {
  it('anon sees no bookings', async () => {
    await expectSqlError(
      asAnon(db, (tx) => q(tx, 'select * from public.bookings')),
      { code: '42501' },
    );
  });

  it('a member sees only their own bookings; an admin sees all', async () => {
    const own = await asUser(db, member.claims, (tx) => q<{ id: string }>(tx, 'select id from public.bookings'));
    expect(ids(own)).toEqual([memberBookingId]);
    const all = await asUser(db, admin.claims, (tx) => q<{ id: string }>(tx, 'select id from public.bookings'));
    expect(ids(all)).toEqual(expect.arrayContaining([memberBookingId, otherBookingId]));
  });

  it('a member cannot insert or update bookings directly (only through book_class)', async () => {
    const cls = await createClass(db);
    await expectSqlError(
      asUser(db, member.claims, (tx) =>
        q(tx, `insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [member.memberId, cls]),
      ),
      { code: '42501' },
    );
    await expectSqlError(
      asUser(db, member.claims, (tx) => q(tx, `update public.bookings set payment_status = 'completed' where id = $1`, [memberBookingId])),
      { code: '42501' },
    );
  });

  it("a member's direct delete removes nothing (cancel_booking is the way); an admin's delete works", async () => {
    const byMember = await asUser(db, member.claims, (tx) =>
      q(tx, 'delete from public.bookings where id in ($1, $2) returning id', [memberBookingId, otherBookingId]),
    );
    expect(byMember).toEqual([]);
    const cls = await createClass(db, { capacity: 3 });
    const bookingId = await insertBooking(other.memberId, cls);
    expect((await classCounts(db, cls)).spots_left).toBe(2);
    const byAdmin = await asUser(db, admin.claims, (tx) => q(tx, 'delete from public.bookings where id = $1 returning id', [bookingId]));
    expect(byAdmin).toEqual([{ id: bookingId }]);
    expect(await classCounts(db, cls)).toEqual({ capacity: 3, current_bookings: 0, spots_left: 3, bookings: 0 });
  });

  it('deleting a class or a member removes their bookings', async () => {
    const cls = await createClass(db);
    const temp = await createUser(db, 'cascade');
    await insertBooking(temp.memberId, cls);
    await insertBooking(member.memberId, cls);
    await db.query('delete from public.members where id = $1', [temp.memberId]);
    expect(await classCounts(db, cls)).toMatchObject({ current_bookings: 1, spots_left: 9, bookings: 1 });
    await db.query('delete from public.classes where id = $1', [cls]);
    const { rows } = await db.query('select 1 from public.bookings where class_id = $1', [cls]);
    expect(rows).toEqual([]);
  });

  it('even the service role cannot overbook: the class constraint refuses it', async () => {
    const cls = await createClass(db, { type: 'One-to-One', capacity: 1 });
    await insertBooking(member.memberId, cls);
    await expectSqlError(
      asServiceRole(db, (tx) =>
        q(tx, `insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [other.memberId, cls]),
      ),
      { code: '23514' },
    );
  });
});

describe('storage: avatars bucket', () => {
  const upload = (user: TestUser | null, name: string) => {
    const sql = `insert into storage.objects (bucket_id, name, owner, metadata) values ('avatars', $1, $2, '{}') returning name`;
    return user ? asUser(db, user.claims, (tx) => q(tx, sql, [name, user.userId])) : asAnon(db, (tx) => q(tx, sql, [name, null]));
  };

  it('is public, 5 MB, JPEG/PNG/GIF', async () => {
    const { rows } = await db.query(
      `select public, file_size_limit::int as file_size_limit, allowed_mime_types from storage.buckets where id = 'avatars'`,
    );
    expect(rows[0]).toEqual({
      public: true,
      file_size_limit: 5 * 1024 * 1024,
      allowed_mime_types: ['image/jpeg', 'image/png', 'image/gif'],
    });
  });

  it('a member uploads, replaces and deletes only <their member id>.<ext>', async () => {
    expect(await upload(member, `${member.memberId}.png`)).toEqual([{ name: `${member.memberId}.png` }]);
    const replaced = await asUser(db, member.claims, (tx) =>
      q(tx, `update storage.objects set metadata = '{"size":1}' where bucket_id = 'avatars' and name = $1 returning name`, [
        `${member.memberId}.png`,
      ]),
    );
    expect(replaced).toHaveLength(1);
    const deleted = await asUser(db, member.claims, (tx) =>
      q(tx, `delete from storage.objects where bucket_id = 'avatars' and name = $1 returning name`, [`${member.memberId}.png`]),
    );
    expect(deleted).toHaveLength(1);
  });

  it.each([
    ['another member id', () => `${other.memberId}.png`],
    ['a folder', () => `x/${member.memberId}.png`],
    ['a non-image extension', () => `${member.memberId}.svg`],
    ['a suffix after the id', () => `${member.memberId}-2.png`],
  ])('a member cannot upload to %s', async (_label, name) => {
    await expectSqlError(upload(member, name()), { code: '42501', message: /row-level security/ });
  });

  it("a member cannot replace or delete another member's avatar", async () => {
    await upload(other, `${other.memberId}.jpg`);
    const touched = await asUser(db, member.claims, (tx) =>
      q(tx, `update storage.objects set metadata = '{}' where name = $1 returning name`, [`${other.memberId}.jpg`]),
    );
    expect(touched).toEqual([]);
    const deleted = await asUser(db, member.claims, (tx) =>
      q(tx, `delete from storage.objects where name = $1 returning name`, [`${other.memberId}.jpg`]),
    );
    expect(deleted).toEqual([]);
  });

  it('nobody lists the bucket: anon and other members read no avatar row, the owner reads their own', async () => {
    // Photos are served by their public URL (stack.test.ts); the API must not list every member's.
    const list = `select name from storage.objects where bucket_id = 'avatars' and name = $1`;
    expect(await asAnon(db, (tx) => q(tx, list, [`${other.memberId}.jpg`]))).toEqual([]);
    expect(await asUser(db, member.claims, (tx) => q(tx, list, [`${other.memberId}.jpg`]))).toEqual([]);
    expect(await asUser(db, other.claims, (tx) => q(tx, list, [`${other.memberId}.jpg`]))).toEqual([{ name: `${other.memberId}.jpg` }]);
  });

  it('anon cannot upload', async () => {
    await expectSqlError(upload(null, 'anything.png'), { code: '42501' });
  });
});
