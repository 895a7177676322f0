import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { emailsTo } from './studio-ops/helpers.ts';
import { addChild, bookFamily, parent } from './support/families.ts';
import { createUser, expectSqlError, publishBookingDocuments, rpc, signCurrentDocuments, type TestUser } from './support/fixtures.ts';
import { KIDS_CLUB_ON_TUESDAYS, withTemplate } from './support/timetable.ts';

// Generate Classes replaces only the classes the recurring template made (classes.template_slot),
// and of those only the ones the template no longer makes; classes added by hand, premium classes,
// One-to-One sessions from trainers' availability and the template's own classes already there
// stay with their bookings. Everyone in a class it does replace is told once, guests included.

let db: Database;
let admin: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  await publishBookingDocuments(db);
  admin = await createUser(db, 'generate-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

type Generated = { deleted: number; created: number };

const regenerate = (start: string, end: string) =>
  asUser(db, admin.claims, (tx) => rpc<Generated>(tx, 'public.regenerate_timetable($1, $2)', [start, end]));
const asAdmin = <T>(sql: string, params: unknown[] = []) => asUser(db, admin.claims, (tx) => rpc<T>(tx, sql, params));

/** The Monday at least `days` days from today (London) and the Tuesday after it, 'YYYY-MM-DD'. */
async function mondayAndTuesday(days: number) {
  const { rows } = await db.query<{ monday: string; tuesday: string }>(
    `select to_char(d, 'YYYY-MM-DD') as monday, to_char(d::date + 1, 'YYYY-MM-DD') as tuesday
       from generate_series((now() at time zone 'Europe/London')::date + $1::int,
                            (now() at time zone 'Europe/London')::date + $1::int + 6, interval '1 day') d
      where extract(isodow from d) = 1`,
    [days],
  );
  return rows[0]!;
}

/** Every class of the London days [start, end]: id, name and London time, soonest first. */
async function classesOf(start: string, end: string) {
  const { rows } = await db.query<{ id: string; name: string; at: string; type: string; bookings: number }>(
    `select id, name, to_char(start_time at time zone 'Europe/London', 'Dy HH24:MI') as at, type, current_bookings as bookings
       from public.classes
      where start_time >= $1::date::timestamp at time zone 'Europe/London'
        and start_time < ($2::date + 1)::timestamp at time zone 'Europe/London'
      order by start_time, name`,
    [start, end],
  );
  return rows;
}

const classAt = async (start: string, end: string, name: string, at: string) =>
  (await classesOf(start, end)).find((c) => c.name === name && c.at === at)!.id;

/** A class an admin adds through the API (the class form), at a London time. */
const addByHand = async (name: string, day: string, time: string, fields: { is_premium?: boolean; price?: number } = {}) =>
  (
    await asUser(db, admin.claims, (tx) =>
      tx.query<{ id: string }>(
        `insert into public.classes (name, description, start_time, trainer, capacity, is_premium, price_payg)
         values ($1, 'Added by hand.', ($2::date + $3::time) at time zone 'Europe/London', 'Coach Jess', 8, $4, $5) returning id`,
        [name, day, time, fields.is_premium ?? false, fields.price ?? 12],
      ),
    )
  ).rows[0]!.id;

/** A member booked on a class (the booking rules and emails as in the app). */
async function bookedMember(label: string, classId: string, tier: 'premium' | 'standard' = 'premium') {
  const member = await createUser(db, label, { membership_tier: tier });
  await signCurrentDocuments(db, member.memberId);
  const booked = await asUser(db, member.claims, (tx) => rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [classId]));
  return { member, bookingId: booked.booking_id };
}

const guestEmails = async (email: string) =>
  (
    await db.query<{ kind: string; subject: string; body_text: string; links: { label: string; path: string }[] }>(
      'select kind, subject, body_text, links from public.notification_outbox where to_email = $1 order by created_at, kind',
      [email],
    )
  ).rows;

describe('generating the timetable', () => {
  it('replaces only the classes the template made: a class added by hand, a premium class and a booked One-to-One stay', async () => {
    const { monday, tuesday } = await mondayAndTuesday(8);
    await regenerate(monday, tuesday);

    // Added by hand: an extra Breakfast Club at noon and a premium class; a One-to-One session
    // generated from Coach Alex's one-off availability, booked with a member's credit.
    const extra = await addByHand('Breakfast Club', monday, '12:00');
    const premium = await addByHand('Premium Strength Lab', tuesday, '18:30', { is_premium: true, price: 15 });
    await db.query(
      `insert into public.trainer_one_off_slots (trainer_id, start_time)
       select id, ($1::date + time '13:00') at time zone 'Europe/London' from public.trainers where name = 'Coach Alex'`,
      [monday],
    );
    await db.query(`select private.generate_one_to_one_slots(now(), interval '28 days')`);
    const session = await classAt(monday, tuesday, 'Personal Training', 'Mon 13:00');
    const client = await createUser(db, 'generate-pt-client', { membership_tier: 'standard' });
    await signCurrentDocuments(db, client.memberId);
    await asAdmin('public.admin_grant_credits($1, $2, 1, 30, $3)', [client.memberId, 'personal_training', 'Test session']);
    await asAdmin('public.admin_book_one_to_one($1, $2)', [client.memberId, session]);
    // The template's Monday Kids Club, booked: the template about to be in force runs it on Tuesdays.
    const mondayKids = await classAt(monday, tuesday, 'Kids Club', 'Mon 16:45');
    await bookedMember('generate-kids-parent', mondayKids);
    const breakfastClubs = (await classesOf(monday, tuesday)).filter((c) => c.name === 'Breakfast Club' && c.id !== extra);
    expect(breakfastClubs).toHaveLength(8);

    const result = await withTemplate(db, KIDS_CLUB_ON_TUESDAYS, () => regenerate(monday, tuesday));

    expect(result).toEqual({ deleted: 1, created: 1 });
    const after = await classesOf(monday, tuesday);
    const ids = after.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([extra, premium, session, ...breakfastClubs.map((c) => c.id)]));
    expect(ids).not.toContain(mondayKids);
    expect(after.find((c) => c.id === session)).toMatchObject({ type: 'One-to-One', bookings: 1 });
    expect(after.filter((c) => c.name === 'Kids Club').map((c) => c.at)).toEqual(['Tue 16:45']);
    const { rows: sessionBooking } = await db.query('select 1 from public.bookings where class_id = $1 and member_id = $2', [
      session,
      client.memberId,
    ]);
    expect(sessionBooking).toHaveLength(1);
  });

  it('tells the members, the waitlist and the guests of a class it replaces, each once, without a cancel link for the class gone', async () => {
    const { monday, tuesday } = await mondayAndTuesday(15);
    await regenerate(monday, tuesday);
    const kids = await classAt(monday, tuesday, 'Kids Club', 'Mon 16:45');
    // As the demo studio runs Kids Club: children 4 to 12, free, so a parent books a child too.
    await db.query('update public.classes set min_age = 4, max_age = 12, price_payg = 0 where id = $1', [kids]);

    // A Premium host bringing a guest with a guest pass, and a parent with their child.
    const { member: host, bookingId: hostBooking } = await bookedMember('generate-host', kids);
    await asAdmin('public.admin_grant_credits($1, $2, 1, 30, $3)', [host.memberId, 'guest_pass', 'Test pass']);
    const guestEmail = `generate-guest-${Date.now()}@example.test`;
    await asUser(db, host.claims, (tx) => rpc(tx, 'public.add_guest($1, $2, $3)', [hostBooking, 'Gus Guest', guestEmail]));
    const { rows: token } = await db.query<{ cancel_token: string }>('select cancel_token from public.guest_places where class_id = $1', [
      kids,
    ]);
    const pat = await parent(db, 'generate-family');
    const child = await addChild(db, pat, 'Mia', 7);
    await bookFamily(db, pat, kids, true, [child]);
    // The class is full with those four places; a member waits for one.
    await db.query('update public.classes set capacity = 4 where id = $1', [kids]);
    const waiting = await createUser(db, 'generate-waiting', { membership_tier: 'premium' });
    await signCurrentDocuments(db, waiting.memberId);
    await asUser(db, waiting.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [kids]));

    // The template changes (Kids Club moves to Tuesdays); the same generation runs twice.
    await withTemplate(db, KIDS_CLUB_ON_TUESDAYS, async () => {
      expect(await regenerate(monday, tuesday)).toEqual({ deleted: 1, created: 1 });
      expect(await regenerate(monday, tuesday)).toEqual({ deleted: 0, created: 0 });
    });

    const cancelled = async (member: TestUser) => (await emailsTo(db, member.memberId)).filter((e) => e.kind === 'booking_cancelled');
    const [toHost, ...moreToHost] = await cancelled(host);
    expect(moreToHost).toEqual([]);
    expect(toHost!.body_text).toContain('has been cancelled: the timetable was changed.');
    // One email for the parent, whose own place and their child's both went.
    expect(await cancelled(pat)).toHaveLength(1);
    const toWaiting = (await emailsTo(db, waiting.memberId)).filter((e) => e.kind === 'waitlist_cancelled');
    expect(toWaiting).toHaveLength(1);
    expect(toWaiting[0]!.subject).toMatch(/^Class cancelled: Kids Club, /);
    expect(toWaiting[0]!.body_text).toContain(
      'The class you were on the waitlist for, Kids Club with Coach Alex, has been cancelled: the timetable was changed.',
    );
    expect(toWaiting[0]!.body_text).toContain('You are no longer on its waitlist.');
    expect(toWaiting[0]!.links).toEqual([{ label: 'Book another class', path: '/my-schedule' }]);

    const toGuest = await guestEmails(guestEmail);
    expect(toGuest.map((e) => e.kind)).toEqual(['guest_invited', 'guest_cancelled']);
    const gone = toGuest[1]!;
    expect(gone.subject).toMatch(/^Guest place cancelled: Kids Club, /);
    expect(gone.links).toEqual([]);
    expect(gone.body_text).not.toMatch(/cancel with the link/i);
    // The invitation's link now says the place is gone rather than offering the class.
    await expectSqlError(
      asUser(db, { role: 'anon' }, (tx) => rpc(tx, 'public.cancel_guest_place($1)', [token[0]!.cancel_token])),
      { hint: 'guest_not_found' },
    );
  });

  it('changes nothing when the same generation runs again: same classes, bookings kept, nobody emailed', async () => {
    const { monday, tuesday } = await mondayAndTuesday(22);
    const first = await regenerate(monday, tuesday);
    expect(first).toEqual({ deleted: 0, created: 2 * 4 + 1 });
    const { member } = await bookedMember('generate-again', await classAt(monday, tuesday, 'Breakfast Club', 'Tue 07:15'));
    const before = await classesOf(monday, tuesday);
    const { rows: mark } = await db.query<{ n: number }>('select count(*)::int as n from public.notification_outbox');

    expect(await regenerate(monday, tuesday)).toEqual({ deleted: 0, created: 0 });

    expect(await classesOf(monday, tuesday)).toEqual(before);
    const { rows: now } = await db.query<{ n: number }>('select count(*)::int as n from public.notification_outbox');
    expect(now[0]!.n).toBe(mark[0]!.n);
    expect((await emailsTo(db, member.memberId)).map((e) => e.kind)).toEqual(['booking_confirmed']);
  });

  it('says before generating how many classes it creates and replaces, and the places booked on them', async () => {
    const { monday, tuesday } = await mondayAndTuesday(29);
    await regenerate(monday, tuesday);
    const kids = await classAt(monday, tuesday, 'Kids Club', 'Mon 16:45');
    await bookedMember('generate-preview-a', kids);
    await bookedMember('generate-preview-b', kids, 'standard');
    // A pay-as-you-go member who paid £10 by card (the provider's paid result).
    const payg = await createUser(db, 'generate-preview-payg', { membership_tier: 'payg', has_used_trial: true });
    await signCurrentDocuments(db, payg.memberId);
    const hold = await asUser(db, { role: 'service_role' }, (tx) =>
      rpc<{ booking_id: string; checkout_reference: string }>(tx, 'public.create_class_payment_hold($1, $2, 15)', [payg.memberId, kids]),
    );
    await db.query(`update public.bookings set payment_status = 'completed', hold_expires_at = null where id = $1`, [hold.booking_id]);
    await db.query(`update public.payments set status = 'paid', paid_at = now() where checkout_reference = $1`, [hold.checkout_reference]);
    await addByHand('Premium Strength Lab', monday, '18:30', { is_premium: true });
    const preview = () =>
      asAdmin<{ created: number; replaced: number; replaced_bookings: number; paid_bookings: number }>('public.timetable_preview($1, $2)', [
        monday,
        tuesday,
      ]);

    expect(await preview()).toEqual({ created: 0, replaced: 0, replaced_bookings: 0, paid_bookings: 0 });
    await withTemplate(db, KIDS_CLUB_ON_TUESDAYS, async () => {
      expect(await preview()).toEqual({ created: 1, replaced: 1, replaced_bookings: 3, paid_bookings: 1 });
    });
    const member = await createUser(db, 'generate-preview-member', { membership_tier: 'premium' });
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.timetable_preview($1, $2)', [monday, tuesday])),
      { hint: 'not_admin' },
    );
  });
});
