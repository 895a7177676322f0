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

  // One page and the number of matches (decision 0033), read as the app reads them.
  type Found = { total: number; rows: Row[] };
  const search = (claims: TestUser['claims'], term: string, offset?: number | null, limit?: number | null) =>
    asUser(db, claims, (tx) =>
      tx
        .query<{ found: Found }>(`select to_jsonb(public.admin_bookings_search($1, coalesce($2, 0), coalesce($3, 50))) as found`, [
          term,
          offset ?? null,
          limit ?? null,
        ])
        .then((r) => r.rows[0]!.found),
    );
  const emails = (found: Found) => found.rows.map((r) => r.member_email).sort();

  it('admin_bookings_search matches member name, email or class name once per booking, wildcards literal', async () => {
    // The class name matches both bookings; each is returned once, and counted once.
    const byClass = await search(admin.claims, 'kettlebells VIEW');
    expect(emails(byClass)).toEqual([member.email, other.email].sort());
    expect(byClass.total).toBe(2);
    expect(byClass.rows.every((r) => r.class_name === 'Kettlebells View')).toBe(true);
    // Member and class both match the same booking: still once.
    const both = await search(admin.claims, member.email.toUpperCase());
    expect([emails(both), both.total]).toEqual([[member.email], 1]);
    expect(await search(admin.claims, 'Kettlebells_View')).toEqual({ total: 0, rows: [] });
    expect(await search(admin.claims, '%')).toEqual({ total: 0, rows: [] });
    // Admins only (decision 0034): its count is made from every member's bookings.
    await expectSqlError(search(member.claims, 'Kettlebells'), { code: '42501', hint: 'not_admin' });
    await expectSqlError(
      asAnon(db, (tx) => q(tx, `select public.admin_bookings_search('x')`)),
      { code: '42501' },
    );
  });

  it('admin_bookings_search pages newest first, then by id, without overlap, and keeps the page size in bounds', async () => {
    // Five bookings made in one transaction share their booked_at, as a family's places do.
    const cls = await createClass(db, { capacity: 10, name: 'Paging Search Class' });
    const users = await Promise.all([1, 2, 3, 4, 5].map((i) => createUser(db, `pagingsearch${i}`)));
    await db.query(
      `insert into public.bookings (member_id, class_id, type, booked_at)
       select unnest($1::uuid[]), $2, 'paid', '2030-01-01T10:00:00Z'`,
      [users.map((u) => u.memberId), cls],
    );
    const pages = [
      await search(admin.claims, 'paging search', 0, 2),
      await search(admin.claims, 'paging search', 2, 2),
      await search(admin.claims, 'paging search', 4, 2),
    ];
    expect(pages.map((p) => [p.total, p.rows.length])).toEqual([
      [5, 2],
      [5, 2],
      [5, 1],
    ]);
    const ids = pages.flatMap((p) => p.rows.map((r) => r.id));
    expect(new Set(ids).size).toBe(5);
    expect(ids).toEqual([...ids].sort().reverse());
    // Past the end: no rows, the total still said.
    expect(await search(admin.claims, 'paging search', 50, 50)).toEqual({ total: 5, rows: [] });
    // Out-of-range paging reads as the nearest allowed: offset 0, at least 1 and at most 1,000 rows.
    expect((await search(admin.claims, 'paging search', -3, 0)).rows.map((r) => r.id)).toEqual([ids[0]]);
    expect((await search(admin.claims, 'paging search', null, 100000)).rows).toHaveLength(5);
  });

  // Decision 0034: the count reads the smaller side (the matching members' bookings, or the others'
  // with the class tallies) and the page walks the booked_at index or gathers the matches; every
  // way must give what one plain query over every booking gives.
  it('admin_bookings_search counts and pages exactly, whatever share of members and classes a term matches', async () => {
    const testDrive = await createClass(db, { capacity: 10, name: 'Test Drive Class' });
    const plain = await createClass(db, { capacity: 10, name: 'Plain Stretch' });
    // Two members whose name and email do not say "test ": one booked into a class whose name does.
    const others = [
      await createUser(db, 'elsewhere1', {}, { full_name: 'Other Person' }),
      await createUser(db, 'elsewhere2', {}, { full_name: 'Other Person' }),
    ];
    const matching = await Promise.all([1, 2, 3, 4].map((i) => createUser(db, `sharecount${i}`)));
    const book = (memberId: string, cls: string, at: string) =>
      db.query(`insert into public.bookings (member_id, class_id, type, booked_at) values ($1, $2, 'paid', $3)`, [memberId, cls, at]);
    await book(others[0]!.memberId, testDrive, '2031-01-01T09:00:00Z');
    await book(others[1]!.memberId, plain, '2031-01-01T09:00:00Z');
    for (const [i, m] of matching.entries()) {
      await book(m.memberId, plain, `2031-01-0${i + 2}T09:00:00Z`);
      await book(m.memberId, testDrive, '2031-01-01T09:00:00Z');
    }
    const reference = async (term: string) =>
      (
        await db.query<{ id: string }>(
          `select b.id from public.bookings b
             join public.members m on m.id = b.member_id join public.classes c on c.id = b.class_id
            where m.name ilike private.like_pattern($1) or m.email::text ilike private.like_pattern($1) or c.name ilike private.like_pattern($1)
            order by b.booked_at desc, b.id desc`,
          [term],
        )
      ).rows.map((r) => r.id);
    const { rows: share } = await db.query<{ matching: number; members: number }>(
      `select count(*) filter (where name ilike '%test %')::int as matching, count(*)::int as members from public.members`,
    );
    // "test " is in most members' names (the fixtures' "Test <label>"): the count goes the other way round.
    expect(share[0]!.matching * 2).toBeGreaterThan(share[0]!.members);
    for (const term of ['test ', 'Other Person', 'test drive', 'Plain Stretch', matching[0]!.email, 'nothing matches this']) {
      const expected = await reference(term);
      for (const size of [2, 3, 50]) {
        const ids: string[] = [];
        for (let offset = 0; offset < expected.length + size; offset += size) {
          const page = await search(admin.claims, term, offset, size);
          expect(page.total, `total for "${term}"`).toBe(expected.length);
          ids.push(...page.rows.map((r) => r.id));
        }
        expect(ids, `pages of ${size} for "${term}"`).toEqual(expected);
      }
    }
    expect((await reference('Other Person')).length).toBe(2);
  });

  it('keeps row-level security: a member sees only their own booking, anon nothing', async () => {
    const own = await asUser(db, member.claims, (tx) => q(tx, 'select * from public.admin_bookings where class_id = $1', [classId]));
    expect(own.map((r) => r.member_email)).toEqual([member.email]);
    await expectSqlError(
      asAnon(db, (tx) => q(tx, 'select * from public.admin_bookings')),
      { code: '42501' },
    );
  });

  it("lists every place in the room: a child's under the child's name, a guest's too, in the list, its total and its search", async () => {
    const parent = await createUser(db, 'viewparent', { membership_tier: 'standard' }, { full_name: 'Pat Viewparent' });
    const kids = await createClass(db, { capacity: 6, name: 'Kids View' });
    await db.query('update public.classes set min_age = 3, max_age = 12 where id = $1', [kids]);
    const { rows: child } = await db.query<{ id: string }>(
      `insert into public.dependants (parent_member_id, name, date_of_birth) values ($1, 'Mia Viewchild', current_date - interval '8 years') returning id`,
      [parent.memberId],
    );
    const { rows: childBooking } = await db.query<{ id: string }>(
      `insert into public.bookings (member_id, dependant_id, class_id, type) values ($1, $2, $3, 'paid') returning id`,
      [parent.memberId, child[0]!.id, kids],
    );
    const { rows: own } = await db.query<{ id: string }>(
      `insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid') returning id`,
      [other.memberId, kids],
    );
    const { rows: guest } = await db.query<{ id: string }>(
      `insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email)
       values ($1, $2, $3, 'Gina Viewguest', 'gina.viewguest@example.com') returning id`,
      [kids, own[0]!.id, other.memberId],
    );
    type Place = Row & { kind: string; person_name: string };
    const places = await asUser(db, admin.claims, (tx) =>
      tx.query<Place>('select * from public.admin_bookings where class_id = $1 order by person_name', [kids]).then((r) => r.rows),
    );
    expect(places.map((p) => [p.id, p.kind, p.person_name, p.member_email])).toEqual([
      [guest[0]!.id, 'guest', 'Gina Viewguest', other.email],
      [childBooking[0]!.id, 'child', 'Mia Viewchild', parent.email],
      [own[0]!.id, 'member', expect.any(String), other.email],
    ]);
    const total = await asUser(db, admin.claims, (tx) => tx.query<{ n: number }>('select public.admin_bookings_total() as n'));
    const { rows: counted } = await db.query<{ n: number }>(
      '(select count(*)::int as n from (select id from public.bookings union all select id from public.guest_places) p)',
    );
    expect(total.rows[0]!.n).toBe(counted[0]!.n);
    // The guest is found by their own name and by the class's; the host's name finds the guest too.
    const byGuest = await search(admin.claims, 'viewguest');
    expect([byGuest.total, byGuest.rows.map((r) => (r as Place).person_name)]).toEqual([1, ['Gina Viewguest']]);
    const byClass = await search(admin.claims, 'Kids View');
    expect(byClass.total).toBe(3);
    expect(byClass.rows.map((r) => (r as Place).kind).sort()).toEqual(['child', 'guest', 'member']);
    const byParent = await search(admin.claims, 'Viewparent');
    expect(byParent.rows.map((r) => [(r as Place).kind, (r as Place).person_name])).toEqual([['child', 'Mia Viewchild']]);
  });
});
