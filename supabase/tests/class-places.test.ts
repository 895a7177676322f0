import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import {
  classCounts,
  createClass,
  createUser,
  expectSqlError,
  publishBookingDocuments,
  rpc,
  signCurrentDocuments,
  uniqueEmail,
  type TestUser,
} from './support/fixtures.ts';
import { addChild, bookFamily, CHILD_QUESTIONS, kidsClass, parent, publishChildQuestionnaire } from './support/families.ts';

// The place model (decision 0035): every roster reads one list of who is in the room, each place
// showing the person in it with their own documents and health answers; a provider's PAID never
// fails on a booking rule, whatever kind of checkout it pays; the documents rule lets through only
// the place of the payment being applied.

type Place = {
  place_id: string;
  kind: 'member' | 'child' | 'guest';
  booking_id: string;
  name: string;
  contact_name: string | null;
  email: string | null;
  health_flag: boolean;
  health_yes: string[];
  health_details: string | null;
  medical_notes: string | null;
  collected_by: string | null;
  documents_current: boolean;
  attendance: string | null;
};
type Hold = { payment_id: string; booking_id: string; checkout_reference: string; amount: string };

let db: Database;
let admin: TestUser;
let coach: TestUser;
let trainerId: string;

beforeAll(async () => {
  db = await createTestDatabase();
  await publishBookingDocuments(db, 'Places');
  // Children answer the children's questionnaire, never the adult PAR-Q (decision 0093).
  await publishChildQuestionnaire(db);
  admin = await createUser(db, 'places-admin', { is_admin: true, membership_tier: 'premium' });
  coach = await createUser(db, 'places-coach');
  trainerId = (await db.query<{ id: string }>(`insert into public.trainers (name) values ($1) returning id`, [uniqueEmail('Coach')]))
    .rows[0]!.id;
  await asUser(db, admin.claims, (tx) => rpc(tx, 'public.link_trainer_account($1, $2)', [trainerId, coach.email]));
});
afterAll(async () => {
  await db.close();
});

const adminPlaces = (classId: string) =>
  asUser(db, admin.claims, (tx) => rpc<Place[]>(tx, 'public.admin_class_places($1::uuid[])', [[classId]]));
const coachRoster = (classId: string) => asUser(db, coach.claims, (tx) => rpc<Place[]>(tx, 'public.coach_class_roster($1)', [classId]));
const book = async (u: TestUser, classId: string) =>
  (await asUser(db, u.claims, (tx) => rpc<{ booking_id: string }>(tx, 'public.book_class($1)', [classId]))).booking_id;
/** A guest place as the database owner (the add-guest paths are tested in guest-places.test.ts). */
const guestOf = (host: TestUser, hostBooking: string, classId: string, name: string) =>
  db.query(
    `insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email) values ($1, $2, $3, $4, $5)`,
    [classId, hostBooking, host.memberId, name, uniqueEmail('guest')],
  );
/** What the webhook applies after the provider said `status` (the checkout's own id and amount). */
const apply = (h: Hold, status: 'PAID' | 'EXPIRED') =>
  asServiceRole(db, (tx) =>
    rpc<{ outcome: string }>(tx, `public.apply_checkout_result($1, $2, $3, $4, 'GBP')`, [
      h.checkout_reference,
      `chk-${h.checkout_reference}`,
      status,
      Number(h.amount),
    ]),
  );
const refundsOf = async (paymentId: string) =>
  (await db.query<{ reason: string }>('select reason from public.refunds_owed where payment_id = $1', [paymentId])).rows.map(
    (r) => r.reason,
  );
const paymentOf = async (id: string) =>
  (await db.query<{ status: string; needs_refund: boolean }>('select status::text, needs_refund from public.payments where id = $1', [id]))
    .rows[0]!;
/** Fills every place left in a class with a booked member and their guests. */
async function fillWithGuests(classId: string) {
  const host = await parent(db, 'places-filler');
  const hostBooking = await book(host, classId);
  const { spots_left } = await classCounts(db, classId);
  for (let i = 0; i < spots_left; i += 1) await guestOf(host, hostBooking, classId, `Filler Guest ${i}`);
  expect((await classCounts(db, classId)).spots_left).toBe(0);
}

describe('who is in the room', () => {
  it('lists a member, a child and a guest the same way on every roster, each with their own health answers', async () => {
    const classId = await kidsClass(db, { capacity: 10 });
    await db.query(`update public.classes set trainer_id = $2, start_time = now() + interval '30 minutes' where id = $1`, [
      classId,
      trainerId,
    ]);
    // A parent with a knee injury books only their child (asthma) into Kids Club.
    const pat = await parent(db, 'places-parent');
    await db.query(`update public.members set name = 'Pat Parent', date_of_birth = '1985-03-01' where id = $1`, [pat.memberId]);
    await db.query(`update public.health_answers set answers = '[false, true]', details = 'Knee injury' where member_id = $1`, [
      pat.memberId,
    ]);
    const eve = await addChild(db, pat, 'Eve', 8);
    await bookFamily(db, pat, classId, false, [eve]);
    // A member who brings a guest.
    const hana = await parent(db, 'places-host');
    await db.query(`update public.members set name = 'Hana Host' where id = $1`, [hana.memberId]);
    const hanaBooking = await book(hana, classId);
    await guestOf(hana, hanaBooking, classId, 'Gus Guest');

    const places = await adminPlaces(classId);
    expect(places.map((p) => [p.kind, p.name, p.contact_name])).toEqual([
      ['member', 'Hana Host', null],
      ['guest', 'Gus Guest', 'Hana Host'],
      ['child', 'Eve', 'Pat Parent'],
    ]);
    const child = places.find((p) => p.kind === 'child')!;
    expect(child).toMatchObject({
      health_flag: true,
      health_yes: [CHILD_QUESTIONS[0]],
      health_details: 'Asthma: inhaler in bag',
      medical_notes: 'Nut allergy',
      collected_by: 'Grandma Sue',
      documents_current: true,
    });
    expect(places.find((p) => p.kind === 'guest')).toMatchObject({ health_flag: false, health_yes: [], documents_current: false });

    // The coach sees the same three people, the child's own answers, and never the parent's.
    const roster = await coachRoster(classId);
    expect(roster.map((p) => [p.kind, p.name, p.contact_name, p.health_details])).toEqual([
      ['member', 'Hana Host', null, null],
      ['guest', 'Gus Guest', 'Hana Host', null],
      ['child', 'Eve', 'Pat Parent', 'Asthma: inhaler in bag'],
    ]);
    expect(JSON.stringify(roster)).not.toContain('Knee injury');
    expect(JSON.stringify(roster)).not.toContain('1985-03-01');
    expect(roster.every((p) => p.email === null)).toBe(true);

    // The count every booking rule reads agrees with the list.
    expect(await classCounts(db, classId)).toMatchObject({ capacity: 10, current_bookings: 3, spots_left: 7 });

    // Each of them is checked in at the door the same way, the guest included.
    const guest = places.find((p) => p.kind === 'guest')!;
    expect(
      await asUser(db, coach.claims, (tx) =>
        rpc<{ attendance: string }>(tx, 'public.coach_mark_attendance($1, $2)', [guest.place_id, 'attended']),
      ),
    ).toMatchObject({ booking_id: guest.place_id, attendance: 'attended' });
    // The class runs; the no-show job marks everyone nobody checked in, once.
    await db.query(`update public.classes set start_time = now() - interval '2 hours' where id = $1`, [classId]);
    const noShows = () => asServiceRole(db, (tx) => rpc<number>(tx, 'public.mark_no_shows(now())'));
    expect(await noShows()).toBe(2);
    expect(await noShows()).toBe(0);
    expect((await adminPlaces(classId)).map((p) => [p.name, p.attendance])).toEqual([
      ['Hana Host', 'no_show'],
      ['Gus Guest', 'attended'],
      ['Eve', 'no_show'],
    ]);
  });

  it('is refused to members and to the coach of another class', async () => {
    const classId = await createClass(db, { name: 'Not Yours' });
    const member = await createUser(db, 'places-nosy');
    await expectSqlError(
      asUser(db, member.claims, (tx) => rpc(tx, 'public.admin_class_places($1::uuid[])', [[classId]])),
      { hint: 'not_admin' },
    );
    await expectSqlError(coachRoster(classId), { hint: 'not_your_class' });
  });
});

describe("a provider's PAID against a class that filled meanwhile", () => {
  it('a class checkout whose hold lapsed: owed back once, never an error, replays change nothing', async () => {
    const classId = await createClass(db, { name: 'Late Paid Spin', capacity: 3, price_payg: 10 });
    const payg = await parent(db, 'places-late-payg', { membership_tier: 'payg', has_used_trial: true });
    const h = await asServiceRole(db, (tx) =>
      rpc<Hold>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [payg.memberId, classId]),
    );
    // The member walks away: the provider says EXPIRED, the hold goes; guests fill the class.
    expect(await apply(h, 'EXPIRED')).toMatchObject({ outcome: 'marked_failed' });
    await fillWithGuests(classId);

    // The old tab is paid after all.
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'applied' });
    expect(await paymentOf(h.payment_id)).toEqual({ status: 'paid', needs_refund: true });
    expect(await refundsOf(h.payment_id)).toEqual(['class_filled']);
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'already_applied' });
    expect(await refundsOf(h.payment_id)).toEqual(['class_filled']);
    const { rows } = await db.query('select 1 from public.bookings where member_id = $1 and class_id = $2', [payg.memberId, classId]);
    expect(rows).toEqual([]);
  });

  it("a guest's checkout whose hold lapsed: owed back once", async () => {
    const classId = await createClass(db, { name: 'Late Paid Guest', capacity: 3, price_payg: 12 });
    const host = await parent(db, 'places-late-host');
    const hostBooking = await book(host, classId);
    const h = await asServiceRole(db, (tx) =>
      rpc<Hold>(tx, 'public.create_guest_payment_hold($1, $2, $3, $4, 15)', [host.memberId, hostBooking, 'Lou Late', uniqueEmail('lou')]),
    );
    expect(await apply(h, 'EXPIRED')).toMatchObject({ outcome: 'marked_failed' });
    await fillWithGuests(classId);
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'applied' });
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'already_applied' });
    expect(await refundsOf(h.payment_id)).toEqual(['class_filled']);
  });

  it("a family's checkout whose places lapsed (a child's among them): owed back once", async () => {
    const classId = await kidsClass(db, { capacity: 4, price: 8 });
    const pat = await parent(db, 'places-late-family', { membership_tier: 'payg', has_used_trial: true });
    const kid = await addChild(db, pat, 'Kit', 9);
    const h = await asServiceRole(db, (tx) =>
      rpc<Hold>(tx, 'public.create_family_payment_hold($1, $2, true, $3::uuid[], 15)', [pat.memberId, classId, [kid]]),
    );
    expect(await apply(h, 'EXPIRED')).toMatchObject({ outcome: 'marked_failed' });
    await fillWithGuests(classId);
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'applied' });
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'already_applied' });
    expect(await refundsOf(h.payment_id)).toEqual(['class_filled']);
  });

  it('a package paid late is never taken for a class place: its sessions are granted once, nothing owed back', async () => {
    const member = await parent(db, 'places-late-package', { membership_tier: 'payg', has_used_trial: true });
    const pkg = await asServiceRole(db, (tx) =>
      rpc<{ payment_id: string; checkout_reference: string; amount: string }>(tx, 'public.create_plan_payment($1, $2)', [
        member.memberId,
        'bronze',
      ]),
    );
    const h: Hold = { ...pkg, booking_id: '' };
    expect(await apply(h, 'EXPIRED')).toMatchObject({ outcome: 'marked_failed' });
    // Every class the member might have looked at fills up meanwhile; it changes nothing here.
    await fillWithGuests(await createClass(db, { name: 'Full While Paying', capacity: 2 }));
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'applied' });
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'already_applied' });
    const paymentId = (
      await db.query<{ id: string }>('select id from public.payments where checkout_reference = $1', [h.checkout_reference])
    ).rows[0]!.id;
    expect(await paymentOf(paymentId)).toEqual({ status: 'paid', needs_refund: false });
    expect(await refundsOf(paymentId)).toEqual([]);
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from public.credits where member_id = $1 and payment_id = $2`,
      [member.memberId, paymentId],
    );
    expect(rows[0]!.n).toBe(10);
  });

  it('any booking rule that refuses the place when the money arrives becomes a refund owed, not an error', async () => {
    const classId = await createClass(db, { name: 'Refused Late', capacity: 5, price_payg: 10 });
    const payg = await parent(db, 'places-refused', { membership_tier: 'payg', has_used_trial: true });
    const h = await asServiceRole(db, (tx) =>
      rpc<Hold>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [payg.memberId, classId]),
    );
    expect(await apply(h, 'EXPIRED')).toMatchObject({ outcome: 'marked_failed' });
    // A rule added after the hold was made, that this place does not meet.
    await db.query(`create function public.test_refuse_booking() returns trigger language plpgsql as $$
      begin raise exception 'Not today' using errcode = 'P0001', hint = 'test_refused'; end $$`);
    await db.query(`create trigger test_refuse_booking before insert on public.bookings for each row
      when (new.class_id = '${classId}') execute function public.test_refuse_booking()`);
    try {
      expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'applied' });
      expect(await refundsOf(h.payment_id)).toEqual(['booking_refused']);
      expect(await paymentOf(h.payment_id)).toEqual({ status: 'paid', needs_refund: true });
    } finally {
      await db.query('drop trigger test_refuse_booking on public.bookings');
      await db.query('drop function public.test_refuse_booking()');
    }
  });
});

describe('the documents rule', () => {
  it('lets through only the place of the payment being applied, not a member who once had a checkout', async () => {
    const classId = await createClass(db, { name: 'Abandoned Tab', capacity: 5, price_payg: 10 });
    const member = await parent(db, 'places-docs', { membership_tier: 'payg', has_used_trial: true });
    const h = await asServiceRole(db, (tx) =>
      rpc<Hold>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [member.memberId, classId]),
    );
    expect(await apply(h, 'EXPIRED')).toMatchObject({ outcome: 'marked_failed' });
    // Now on a plan, with the PAR-Q withdrawn: booking that class needs the documents again.
    await db.query(`update public.members set membership_tier = 'standard' where id = $1`, [member.memberId]);
    expect(await asUser(db, member.claims, (tx) => rpc<boolean>(tx, 'public.withdraw_health_answers()'))).toBe(true);
    await expectSqlError(book(member, classId), { hint: 'documents_required' });

    // The late PAID of that checkout still gets its place: the hold was admitted with them.
    await signCurrentDocuments(db, member.memberId);
    await db.query(`update public.members set membership_tier = 'payg' where id = $1`, [member.memberId]);
    expect(await asUser(db, member.claims, (tx) => rpc<boolean>(tx, 'public.withdraw_health_answers()'))).toBe(true);
    expect(await apply(h, 'PAID')).toMatchObject({ outcome: 'applied' });
    expect(await paymentOf(h.payment_id)).toEqual({ status: 'paid', needs_refund: false });
    const { rows } = await db.query<{ payment_status: string }>(
      'select payment_status::text from public.bookings where member_id = $1 and class_id = $2',
      [member.memberId, classId],
    );
    expect(rows).toEqual([{ payment_status: 'completed' }]);
  });

  it("does not let a member on a class's waitlist book it directly without their documents", async () => {
    const classId = await createClass(db, { name: 'Waited For', capacity: 1, price_payg: 0 });
    const first = await parent(db, 'places-wl-first');
    const waiting = await parent(db, 'places-wl-waiting');
    await book(first, classId);
    await asUser(db, waiting.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId]));
    // They withdraw their health answers while waiting; the place that opens passes them over.
    expect(await asUser(db, waiting.claims, (tx) => rpc<boolean>(tx, 'public.withdraw_health_answers()'))).toBe(true);
    const { rows } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1 and class_id = $2', [
      first.memberId,
      classId,
    ]);
    await asUser(db, first.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [rows[0]!.id]));
    expect((await classCounts(db, classId)).spots_left).toBe(1);
    await expectSqlError(book(waiting, classId), { hint: 'documents_required' });
    // Answered again, they book it.
    await signCurrentDocuments(db, waiting.memberId);
    expect(await book(waiting, classId)).toBeTruthy();
  });
});
