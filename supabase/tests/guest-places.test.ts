import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asUser } from '../local/db/as-user.ts';
import type { SqlDatabase } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { findPostgresBinDir, migratedClusterForFile, pgClientDatabase, together } from './support/real-postgres.ts';

// A member booked into a group class brings a named guest with a guest pass. The guest
// takes a place, is emailed with a link to cancel, comes at most 3 times a year; cancelling in time
// gives the pass back.

let db: SqlDatabase & { close(): Promise<void> };
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'guest-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

type GuestPlace = { id: string; class_id: string; guest_name: string; guest_email: string; credit_id: string };

const as = <T>(database: SqlDatabase, user: TestUser, sql: string, params: unknown[] = []) =>
  asUser(database, user.claims, (tx) => rpc<T>(tx, sql, params));

/** A Premium member holding `passes` guest passes (an admin's grant, valid 30 days). */
async function hostWithPasses(database: SqlDatabase, label: string, passes: number): Promise<TestUser> {
  const host = await createUser(database, label, { membership_tier: 'premium' });
  if (passes > 0)
    await as(database, admin, 'public.admin_grant_credits($1, $2, $3, 30, $4)', [host.memberId, 'guest_pass', passes, 'Test passes']);
  return host;
}
const bookingOf = async (database: SqlDatabase, user: TestUser, classId: string) =>
  (await as<{ booking_id: string }>(database, user, 'public.book_class($1)', [classId])).booking_id;
const addGuest = (database: SqlDatabase, user: TestUser, bookingId: string, name: string, email: string) =>
  as<GuestPlace>(database, user, 'public.add_guest($1, $2, $3)', [bookingId, name, email]);
const unusedPasses = async (database: SqlDatabase, user: TestUser) =>
  (
    await database.query<{ n: number }>(
      `select count(*)::int as n from public.credits where member_id = $1 and kind = 'guest_pass' and used_at is null and revoked_at is null`,
      [user.memberId],
    )
  ).rows[0]!.n;
const spotsLeft = async (classId: string) =>
  (await db.query<{ n: number }>('select spots_left as n from public.classes where id = $1', [classId])).rows[0]!.n;
const guestEmails = async (email: string) =>
  (
    await db.query<{ kind: string; subject: string; body_text: string; links: { label: string; path: string }[] }>(
      'select kind, subject, body_text, links from public.notification_outbox where to_email = $1 order by created_at, kind',
      [email],
    )
  ).rows;

describe('add_guest', () => {
  it('books the guest a place with the pass that expires first, and emails them a cancel link', async () => {
    const host = await hostWithPasses(db, 'guest-host', 2);
    await db.query(`update public.members set name = 'Hana Host' where id = $1`, [host.memberId]);
    const classId = await createClass(db, { name: 'Guest Spin', capacity: 5 });
    const booking = await bookingOf(db, host, classId);
    expect(await spotsLeft(classId)).toBe(4);

    const place = await addGuest(db, host, booking, ' Gus Guest ', 'gus@example.test');
    expect(place).toMatchObject({ class_id: classId, guest_name: 'Gus Guest', guest_email: 'gus@example.test' });
    expect(await spotsLeft(classId)).toBe(3);
    expect(await unusedPasses(db, host)).toBe(1);

    const [invite] = await guestEmails('gus@example.test');
    expect(invite).toMatchObject({ kind: 'guest_invited' });
    expect(invite!.subject).toMatch(/^You are booked on Guest Spin as Hana Host's guest, /);
    expect(invite!.body_text).toContain('Hana Host has booked you a place on Guest Spin with Coach Test as their guest.');
    expect(invite!.links[0]!.label).toBe('Cancel my guest place');
    expect(invite!.links[0]!.path).toMatch(/^\/guest\/cancel\?token=[0-9a-f]{48}$/);

    // The host reads their guest; another member does not; the cancel token is nobody's to read.
    const mine = await asUser(db, host.claims, (tx) => tx.query('select guest_name from public.guest_places'));
    expect(mine.rows).toEqual([{ guest_name: 'Gus Guest' }]);
    const other = await createUser(db, 'guest-nosy', { membership_tier: 'premium' });
    expect((await asUser(db, other.claims, (tx) => tx.query('select guest_name from public.guest_places'))).rows).toEqual([]);
    await expectSqlError(
      asUser(db, host.claims, (tx) => tx.query('select cancel_token from public.guest_places')),
      { code: '42501' },
    );
  });

  it("never hands the host the guest's token: only the guest's inbox gets the link", async () => {
    const host = await hostWithPasses(db, 'guest-token-host', 2);
    const classId = await createClass(db, { name: 'Guest Token' });
    const booking = await bookingOf(db, host, classId);
    const added = await addGuest(db, host, booking, 'Tia', 'tia@example.test');
    const token = (await db.query<{ cancel_token: string }>('select cancel_token from public.guest_places where id = $1', [added.id]))
      .rows[0]!.cancel_token;
    expect(added).toMatchObject({
      id: expect.any(String) as unknown,
      class_id: classId,
      guest_name: 'Tia',
      guest_email: 'tia@example.test',
    });
    expect(added).not.toHaveProperty('cancel_token');
    expect(JSON.stringify(added)).not.toContain(token);

    // Nor what the host can read or what removing the guest answers.
    const readable = await asUser(db, host.claims, (tx) =>
      tx.query('select id, class_id, host_booking_id, guest_name, guest_email, payment_status from public.guest_places'),
    );
    expect(JSON.stringify(readable.rows)).not.toContain(token);
    const removed = await as<Record<string, unknown>>(db, host, 'public.remove_guest($1)', [added.id]);
    expect(removed).toMatchObject({ id: added.id, guest_name: 'Tia' });
    expect(removed).not.toHaveProperty('cancel_token');
    expect(JSON.stringify(removed)).not.toContain(token);
  });

  it('refuses, with a clear message and nothing changed: bad input, yourself, twice, a One-to-One, no pass, a full class, not your booking', async () => {
    const host = await hostWithPasses(db, 'guest-refusals', 1);
    const classId = await createClass(db, { name: 'Guest Refusals', capacity: 2 });
    const booking = await bookingOf(db, host, classId);
    await expectSqlError(addGuest(db, host, booking, '', 'a@example.test'), {
      hint: 'invalid_guest',
      message: "Enter your guest's name (at most 100 characters)",
    });
    await expectSqlError(addGuest(db, host, booking, 'Ann', 'not-an-email'), {
      hint: 'invalid_guest',
      message: "Enter your guest's email address",
    });
    await expectSqlError(addGuest(db, host, booking, 'Me Again', host.email.toUpperCase()), {
      hint: 'guest_is_you',
      message: 'Your guest needs their own email address, not yours',
    });
    const stranger = await hostWithPasses(db, 'guest-stranger', 1);
    await expectSqlError(addGuest(db, stranger, booking, 'Ann', 'ann@example.test'), { hint: 'not_your_booking' });

    const oneToOne = await createClass(db, { type: 'One-to-One', capacity: 1, price_payg: 60 });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [host.memberId, oneToOne]);
    const ptBooking = (
      await db.query<{ id: string }>('select id from public.bookings where member_id = $1 and class_id = $2', [host.memberId, oneToOne])
    ).rows[0]!.id;
    await expectSqlError(addGuest(db, host, ptBooking, 'Ann', 'ann@example.test'), {
      hint: 'guest_not_for_class',
      message: 'Guests come to group classes only',
    });

    await addGuest(db, host, booking, 'Ann', 'ann@example.test');
    await expectSqlError(addGuest(db, host, booking, 'Ann', 'ANN@example.test'), {
      hint: 'guest_already_booked',
      message: 'Ann is already a guest on this class',
    });
    // The class (capacity 2) is full now: host + Ann.
    await expectSqlError(addGuest(db, host, booking, 'Bea', 'bea@example.test'), { hint: 'class_full' });

    const noPass = await hostWithPasses(db, 'guest-no-pass', 0);
    const roomy = await createClass(db, { name: 'Guest Roomy' });
    await expectSqlError(addGuest(db, noPass, await bookingOf(db, noPass, roomy), 'Cy', 'cy@example.test'), {
      hint: 'no_guest_pass',
      message: 'You have no guest pass valid on that day',
    });
    expect(
      (await db.query('select guest_name from public.guest_places where host_member_id = any ($1)', [[host.memberId, noPass.memberId]]))
        .rows,
    ).toEqual([{ guest_name: 'Ann' }]);
  });

  it('a fourth visit within a year is refused: they are asked to join', async () => {
    const host = await hostWithPasses(db, 'guest-regular-host', 4);
    for (let week = 1; week <= 3; week += 1) {
      const classId = await createClass(db, { startsIn: `${week * 7} days` });
      await addGuest(db, host, await bookingOf(db, host, classId), 'Reggie', 'reggie@example.test');
    }
    const fourth = await createClass(db, { startsIn: '28 days' });
    await expectSqlError(addGuest(db, host, await bookingOf(db, host, fourth), 'Reggie', 'reggie@example.test'), {
      hint: 'guest_visits_used',
      message: 'Reggie has been a guest 3 times this year: they are welcome to join the studio',
    });
    expect(await unusedPasses(db, host)).toBe(1);
  });

  it('counts a sub-address or another case as the same guest (gina+x@ is gina@), and keeps the address as typed', async () => {
    const host = await hostWithPasses(db, 'guest-subaddress-host', 5);
    const emails = ['gina@example.test', 'Gina+Spin@example.test', 'GINA+yoga+2@EXAMPLE.test'];
    const classes: string[] = [];
    const bookings: string[] = [];
    for (const [week, email] of emails.entries()) {
      const classId = await createClass(db, { startsIn: `${(week + 1) * 7} days` });
      classes.push(classId);
      bookings.push(await bookingOf(db, host, classId));
      await addGuest(db, host, bookings.at(-1)!, 'Gina', email);
    }
    const { rows } = await db.query<{ guest_email: string }>(
      `select guest_email from public.guest_places where class_id = any ($1) order by created_at`,
      [classes],
    );
    expect(rows.map((r) => r.guest_email)).toEqual(['gina@example.test', 'gina+spin@example.test', 'gina+yoga+2@example.test']);

    // The same person on a class they already have a place on, under another sub-address.
    await expectSqlError(addGuest(db, host, bookings[0]!, 'Gina', 'gina+again@example.test'), { hint: 'guest_already_booked' });
    const fourth = await bookingOf(db, host, await createClass(db, { startsIn: '28 days' }));
    await expectSqlError(addGuest(db, host, fourth, 'Gina', 'gina+x@example.test'), {
      hint: 'guest_visits_used',
      message: 'Gina has been a guest 3 times this year: they are welcome to join the studio',
    });
    // The host's own mailbox under a sub-address is still the host.
    const [local, domain] = host.email.split('@');
    await expectSqlError(addGuest(db, host, fourth, 'Me', `${local}+guest@${domain}`), { hint: 'guest_is_you' });
    expect(await unusedPasses(db, host)).toBe(2);
  });
});

describe('my_guest_options', () => {
  it('says when the class has no place left for a guest, so My Bookings offers no form add_guest would refuse', async () => {
    const host = await hostWithPasses(db, 'guest-options-full', 2);
    const classId = await createClass(db, { name: 'Guest Options Full', capacity: 2 });
    const booking = await bookingOf(db, host, classId);
    const optionOf = async () =>
      (
        await asUser(db, host.claims, (tx) =>
          tx.query<{ booking_id: string; has_room: boolean }>('select booking_id, has_room from public.my_guest_options()'),
        )
      ).rows.find((o) => o.booking_id === booking);
    expect(await optionOf()).toEqual({ booking_id: booking, has_room: true });

    // The host and their guest fill the class's two places.
    const ann = await addGuest(db, host, booking, 'Ann', 'ann-full@example.test');
    expect(await optionOf()).toEqual({ booking_id: booking, has_room: false });
    // The database stays the judge.
    await expectSqlError(addGuest(db, host, booking, 'Bea', 'bea-full@example.test'), { hint: 'class_full' });

    await as(db, host, 'public.remove_guest($1)', [ann.id]);
    expect(await optionOf()).toEqual({ booking_id: booking, has_room: true });
  });
});

describe('cancelling a guest place', () => {
  it('in time (by the host, or by the guest with the emailed link) gives the pass back and frees the place', async () => {
    const host = await hostWithPasses(db, 'guest-cancel-host', 2);
    const classId = await createClass(db, { name: 'Guest Cancel', capacity: 4 });
    const booking = await bookingOf(db, host, classId);
    const first = await addGuest(db, host, booking, 'Flo', 'flo@example.test');
    await addGuest(db, host, booking, 'Sam', 'sam@example.test');
    expect(await unusedPasses(db, host)).toBe(0);

    await as(db, host, 'public.remove_guest($1)', [first.id]);
    expect(await unusedPasses(db, host)).toBe(1);
    expect((await guestEmails('flo@example.test')).map((e) => e.kind)).toEqual(['guest_invited', 'guest_cancelled']);

    const link = (await guestEmails('sam@example.test'))[0]!.links[0]!.path;
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const view = await asAnon(db, (tx) =>
      rpc<{ guest_name: string; class_name: string; cancelled: boolean }>(tx, 'public.cancel_guest_place($1)', [token]),
    );
    expect(view).toMatchObject({ guest_name: 'Sam', class_name: 'Guest Cancel', cancelled: true });
    expect(await unusedPasses(db, host)).toBe(2);
    expect(await spotsLeft(classId)).toBe(3);
    // The link works once; a wrong token says so.
    await expectSqlError(
      asAnon(db, (tx) => rpc(tx, 'public.cancel_guest_place($1)', [token])),
      { hint: 'guest_not_found' },
    );
  });

  it('tells the host by email when their guest cancels with their own link, and whether the pass came back', async () => {
    const host = await hostWithPasses(db, 'guest-told-host', 3);
    await db.query(`update public.members set name = 'Hana Host' where id = $1`, [host.memberId]);
    const hostEmails = async () =>
      (
        await db.query<{ kind: string; subject: string; body_text: string; member_id: string; class_id: string }>(
          `select kind, subject, body_text, member_id, class_id from public.notification_outbox
            where to_email = $1 and kind not in ('booking_confirmed') order by created_at`,
          [host.email],
        )
      ).rows;
    const tokenOf = async (email: string) =>
      new URL((await guestEmails(email))[0]!.links.find((l) => l.label === 'Cancel my guest place')!.path, 'http://x').searchParams.get(
        'token',
      )!;

    const classId = await createClass(db, { name: 'Guest Told' });
    const booking = await bookingOf(db, host, classId);
    // The host removing their own guest knows already: no email to them.
    const removed = await addGuest(db, host, booking, 'Flo', 'flo-told@example.test');
    await as(db, host, 'public.remove_guest($1)', [removed.id]);
    expect(await hostEmails()).toEqual([]);

    await addGuest(db, host, booking, 'Gus Guest', 'gus-told@example.test');
    const gusToken = await tokenOf('gus-told@example.test');
    await asAnon(db, (tx) => rpc(tx, 'public.cancel_guest_place($1)', [gusToken]));
    const [told] = await hostEmails();
    expect(told).toMatchObject({ kind: 'host_guest_cancelled', member_id: host.memberId, class_id: classId });
    expect(told!.subject).toMatch(/^Your guest Gus Guest cancelled: Guest Told, /);
    expect(told!.body_text).toContain('Hi Hana Host,');
    expect(told!.body_text).toContain(
      'Gus Guest has cancelled their guest place on Guest Told with Coach Test with the link in their email. Your own booking is unchanged.',
    );
    expect(told!.body_text).toContain('Your guest pass is back: you can bring someone else.');

    // Late: the pass stays used, and the email says why.
    const soon = await createClass(db, { name: 'Guest Told Soon', startsIn: '2 hours' });
    await addGuest(db, host, await bookingOf(db, host, soon), 'Lou', 'lou-told@example.test');
    const louToken = await tokenOf('lou-told@example.test');
    await asAnon(db, (tx) => rpc(tx, 'public.cancel_guest_place($1)', [louToken]));
    const late = (await hostEmails()).find((e) => e.class_id === soon)!;
    expect(late.body_text).toContain('They cancelled less than 12 hours before the start, so the guest pass stays used.');
  });

  it("the guest's link reads their place (class, time, host) without cancelling it; a used or bad link is refused", async () => {
    const host = await hostWithPasses(db, 'guest-preview-host', 1);
    await db.query(`update public.members set name = 'Hana Host' where id = $1`, [host.memberId]);
    const classId = await createClass(db, { name: 'Guest Preview', startsIn: '3 days' });
    await addGuest(db, host, await bookingOf(db, host, classId), 'Pia', 'pia-preview@example.test');
    const token = new URL((await guestEmails('pia-preview@example.test'))[0]!.links[0]!.path, 'http://x').searchParams.get('token')!;
    const read = (t: string | null) => asAnon(db, (tx) => rpc<Record<string, unknown>>(tx, 'public.guest_place_by_token($1)', [t]));
    const { rows: start } = await db.query<{ start_time: Date }>('select start_time from public.classes where id = $1', [classId]);

    const view = await read(token);
    expect(view).toEqual({
      guest_name: 'Pia',
      class_name: 'Guest Preview',
      start_time: expect.any(String) as unknown,
      host_name: 'Hana Host',
      cancelled: false,
    });
    expect(new Date(view.start_time as string).getTime()).toBe(start[0]!.start_time.getTime());
    // Reading changes nothing: the place and the pass stay.
    expect(await spotsLeft(classId)).toBe(8);
    expect(await unusedPasses(db, host)).toBe(0);

    for (const bad of ['0'.repeat(48), '', null]) {
      await expectSqlError(read(bad), {
        hint: 'guest_not_found',
        message: 'This guest place has already been cancelled, or the link is not complete',
      });
    }
    await asAnon(db, (tx) => rpc(tx, 'public.cancel_guest_place($1)', [token]));
    await expectSqlError(read(token), { hint: 'guest_not_found' });

    const started = await createClass(db, { name: 'Guest Preview Started' });
    const other = await hostWithPasses(db, 'guest-preview-started', 1);
    await addGuest(db, other, await bookingOf(db, other, started), 'Sol', 'sol-preview@example.test');
    const solToken = new URL((await guestEmails('sol-preview@example.test'))[0]!.links[0]!.path, 'http://x').searchParams.get('token')!;
    await db.query(`update public.classes set start_time = now() - interval '1 minute' where id = $1`, [started]);
    await expectSqlError(read(solToken), { hint: 'class_started', message: 'This class has already started' });
  });

  it('late keeps the pass used; the host cancelling their own booking takes the guest with it', async () => {
    const host = await hostWithPasses(db, 'guest-late-host', 2);
    const soon = await createClass(db, { name: 'Guest Soon', startsIn: '2 hours' });
    const late = await addGuest(db, host, await bookingOf(db, host, soon), 'Lou', 'lou@example.test');
    await as(db, host, 'public.remove_guest($1)', [late.id]);
    expect(await unusedPasses(db, host)).toBe(1);

    const later = await createClass(db, { name: 'Guest Later' });
    const booking = await bookingOf(db, host, later);
    await addGuest(db, host, booking, 'Max', 'max@example.test');
    await as(db, host, 'public.cancel_booking($1)', [booking]);
    expect((await db.query('select 1 from public.guest_places where class_id = $1', [later])).rows).toEqual([]);
    expect(await unusedPasses(db, host)).toBe(1);
    expect(await spotsLeft(later)).toBe(10);
  });

  it("a guest's freed place goes to the first on the waitlist", async () => {
    const host = await hostWithPasses(db, 'guest-waitlist-host', 1);
    const classId = await createClass(db, { name: 'Guest Waitlist', capacity: 2 });
    const place = await addGuest(db, host, await bookingOf(db, host, classId), 'Wes', 'wes@example.test');
    const waiting = await createUser(db, 'guest-waiting', { membership_tier: 'premium' });
    await as(db, waiting, 'public.join_waitlist($1)', [classId]);
    await as(db, admin, 'public.remove_guest($1)', [place.id]);
    expect(
      (await db.query('select 1 from public.bookings where member_id = $1 and class_id = $2', [waiting.memberId, classId])).rows,
    ).toHaveLength(1);
  });
});

const binDir = findPostgresBinDir();
const server = migratedClusterForFile('guest places race', binDir);

describe.skipIf(!binDir)('guest places on PostgreSQL', () => {
  it('two hosts adding a guest for the last place at once: one place, one pass used', async () => {
    const pgdb = pgClientDatabase(server.admin()!);
    admin = await createUser(pgdb, 'guest-race-admin', { is_admin: true, membership_tier: 'premium' });
    const [a, b] = [await hostWithPasses(pgdb, 'guest-race-a', 1), await hostWithPasses(pgdb, 'guest-race-b', 1)];
    const classId = await createClass(pgdb, { capacity: 3 });
    const [bookingA, bookingB] = [await bookingOf(pgdb, a, classId), await bookingOf(pgdb, b, classId)];
    const results = await together(server.cluster()!.connectionString, [
      { sql: 'select * from public.add_guest($1, $2, $3)', params: [bookingA, 'Ray', 'ray@example.test'], claims: a.claims },
      { sql: 'select * from public.add_guest($1, $2, $3)', params: [bookingB, 'Kay', 'kay@example.test'], claims: b.claims },
    ]);
    console.log(`[guest places] two guests for the last place: ${results.filter((r) => !r.error).length} added`);
    expect(results.filter((r) => !r.error)).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => r.error!.hint)).toEqual(['class_full']);
    expect((await unusedPasses(pgdb, a)) + (await unusedPasses(pgdb, b))).toBe(1);
  });

  it('two hosts adding the same guest to two classes at once: the third visit of the year is one of them, never a fourth', async () => {
    const pgdb = pgClientDatabase(server.admin()!);
    admin = await createUser(pgdb, 'guest-visits-race-admin', { is_admin: true, membership_tier: 'premium' });
    // Vic has been a guest twice already this year (another member brought them).
    const earlier = await hostWithPasses(pgdb, 'guest-visits-earlier', 2);
    for (const week of [1, 2]) {
      const classId = await createClass(pgdb, { startsIn: `${week * 7} days` });
      await addGuest(pgdb, earlier, await bookingOf(pgdb, earlier, classId), 'Vic', 'vic@example.test');
    }
    const [a, b] = [await hostWithPasses(pgdb, 'guest-visits-race-a', 1), await hostWithPasses(pgdb, 'guest-visits-race-b', 1)];
    const [classA, classB] = [await createClass(pgdb, { startsIn: '21 days' }), await createClass(pgdb, { startsIn: '22 days' })];
    const [bookingA, bookingB] = [await bookingOf(pgdb, a, classA), await bookingOf(pgdb, b, classB)];
    // The same mailbox as each host typed it (case, a sub-address): one guest, counted one host after the other.
    const results = await together(server.cluster()!.connectionString, [
      { sql: 'select * from public.add_guest($1, $2, $3)', params: [bookingA, 'Vic', ' Vic+Spin@Example.test'], claims: a.claims },
      { sql: 'select * from public.add_guest($1, $2, $3)', params: [bookingB, 'Vic', 'vic+yoga@example.test '], claims: b.claims },
    ]);
    console.log(`[guest places] one guest's third visit from two hosts at once: ${results.filter((r) => !r.error).length} added`);
    expect(results.filter((r) => !r.error)).toHaveLength(1);
    expect(results.filter((r) => r.error).map((r) => r.error!.hint)).toEqual(['guest_visits_used']);
    const { rows } = await pgdb.query<{ n: number }>(
      `select count(*)::int as n from public.guest_places where guest_email in ('vic@example.test', 'vic+spin@example.test', 'vic+yoga@example.test')`,
    );
    expect(rows[0]!.n).toBe(3);
    expect((await unusedPasses(pgdb, a)) + (await unusedPasses(pgdb, b))).toBe(1);
  });
});
