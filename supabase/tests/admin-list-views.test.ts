import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asUser } from '../local/db/as-user.ts';
import type { Database, SqlExecutor } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, type TestUser } from './support/fixtures.ts';

// admin_bookings (Bookings Management's paged, searched list) runs with the caller's rights.

let db: Database;
let member: TestUser;
let other: TestUser;
let admin: TestUser;
let classId: string;

type Row = { id: string; member_name: string | null; member_email: string; class_name: string };
const q = (tx: SqlExecutor, sql: string, params: unknown[] = []) => tx.query<Row>(sql, params).then((r) => r.rows);

beforeAll(async () => {
  db = await createTestDatabase();
  member = await createUser(db, 'viewmember', { membership_tier: 'standard' });
  other = await createUser(db, 'viewother', { membership_tier: 'premium' });
  admin = await createUser(db, 'viewadmin', { membership_tier: 'premium', is_admin: true });
  classId = await createClass(db, { capacity: 5, name: 'Kettlebells View' });
  for (const m of [member, other]) {
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [m.memberId, classId]);
  }
});
afterAll(async () => {
  await db.close();
});

describe('admin_bookings', () => {
  it('gives an admin every booking with its member and class, searchable by their columns', async () => {
    const rows = await asUser(db, admin.claims, (tx) =>
      q(tx, 'select * from public.admin_bookings where class_id = $1 order by member_email', [classId]),
    );
    expect(rows.map((r) => r.member_email).sort()).toEqual([member.email, other.email].sort());
    expect(rows.every((r) => r.class_name === 'Kettlebells View')).toBe(true);
    const found = await asUser(db, admin.claims, (tx) =>
      q(
        tx,
        `select * from public.admin_bookings where class_id = $1 and (member_name ilike $2 or member_email ilike $2 or class_name ilike $2)`,
        [classId, `%${member.email.slice(0, 12)}%`],
      ),
    );
    expect(found.map((r) => r.member_email)).toEqual([member.email]);
  });

  it('admin_bookings_search matches member name, email or class name once per booking, wildcards literal', async () => {
    const search = (claims: TestUser['claims'], term: string) =>
      asUser(db, claims, (tx) => q(tx, 'select * from public.admin_bookings_search($1) where class_id = $2', [term, classId]));
    // The class name matches both bookings; the union returns each once.
    expect((await search(admin.claims, 'kettlebells VIEW')).map((r) => r.member_email).sort()).toEqual([member.email, other.email].sort());
    expect((await search(admin.claims, member.email.toUpperCase())).map((r) => r.member_email)).toEqual([member.email]);
    expect(await search(admin.claims, 'Kettlebells_View')).toEqual([]);
    expect(await search(admin.claims, '%')).toEqual([]);
    // A member searching sees only their own booking.
    expect((await search(member.claims, 'Kettlebells')).map((r) => r.member_email)).toEqual([member.email]);
    await expectSqlError(
      asAnon(db, (tx) => q(tx, `select * from public.admin_bookings_search('x')`)),
      { code: '42501' },
    );
  });

  it('keeps row-level security: a member sees only their own booking, anon nothing', async () => {
    const own = await asUser(db, member.claims, (tx) => q(tx, 'select * from public.admin_bookings where class_id = $1', [classId]));
    expect(own.map((r) => r.member_email)).toEqual([member.email]);
    await expectSqlError(
      asAnon(db, (tx) => q(tx, 'select * from public.admin_bookings')),
      { code: '42501' },
    );
  });
});
