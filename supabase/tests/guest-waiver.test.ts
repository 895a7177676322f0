import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asUser } from '../local/db/as-user.ts';
import type { SqlDatabase } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import {
  createClass,
  createUser,
  expectSqlError,
  publishBookingDocuments,
  rpc,
  signCurrentDocuments,
  uniqueEmail,
  type TestUser,
} from './support/fixtures.ts';

// Guests: a guest signs the studio's current waiver through the link in their guest email
// (the place's token), signed in or not; the register and the coach's roster show who has not.

let db: SqlDatabase & { close(): Promise<void> };
let admin: TestUser;
let waiverId: string;

type GuestWaiver = {
  guest_name: string;
  class_name: string;
  start_time: string;
  host_name: string;
  document_id: string | null;
  version: number | null;
  title: string | null;
  body: string | null;
  signed_name: string | null;
  signed_at: string | null;
};
type Place = { id: string; token: string; email: string };

beforeAll(async () => {
  db = await createTestDatabase();
  waiverId = (await publishBookingDocuments(db, 'Guest')).waiver;
  admin = await createUser(db, 'gw-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

const as = <T>(user: TestUser, sql: string, params: unknown[] = []) => asUser(db, user.claims, (tx) => rpc<T>(tx, sql, params));
const anon = <T>(sql: string, params: unknown[] = []) => asAnon(db, (tx) => rpc<T>(tx, sql, params));
const view = (token: string) => anon<GuestWaiver>('public.guest_waiver($1)', [token]);
const sign = (token: string, name: string | null, documentId: string | null = waiverId) =>
  anon<GuestWaiver>('public.sign_guest_waiver($1, $2, $3)', [token, name, documentId]);

/** A signed-up host named `hostName` with a guest pass, booked on a new class, bringing a guest. */
async function guestOnNewClass(label: string, hostName: string, guestName = 'Gus Guest', email = uniqueEmail(`${label}-guest`)) {
  const host = await createUser(db, label, { membership_tier: 'premium' });
  await signCurrentDocuments(db, host.memberId);
  await db.query('update public.members set name = $2 where id = $1', [host.memberId, hostName]);
  await as(admin, 'public.admin_grant_credits($1, $2, $3, 30, $4)', [host.memberId, 'guest_pass', 1, 'Test pass']);
  const classId = await createClass(db, { name: `Guest Waiver ${label}` });
  const booking = await as<{ booking_id: string }>(host, 'public.book_class($1)', [classId]);
  const place = await as<{ id: string }>(host, 'public.add_guest($1, $2, $3)', [booking.booking_id, guestName, email]);
  const token = (await db.query<{ t: string }>('select cancel_token as t from public.guest_places where id = $1', [place.id])).rows[0]!.t;
  return { host, classId, place: { id: place.id, token, email: email.toLowerCase() } satisfies Place };
}

const signatures = async (email: string) =>
  (
    await db.query<{ document_id: string; signed_name: string }>(
      'select document_id, signed_name from public.guest_waiver_signatures where guest_email = $1 order by signed_at',
      [email],
    )
  ).rows;

describe('the guest email', () => {
  it('links the waiver page (same token) before the cancel link, and says to sign before the class', async () => {
    const { place } = await guestOnNewClass('gw-email', 'Hana Host');
    const { rows } = await db.query<{ body_text: string; links: { label: string; path: string }[] }>(
      `select body_text, links from public.notification_outbox where to_email = $1 and kind = 'guest_invited'`,
      [place.email],
    );
    expect(rows[0]!.body_text).toContain(
      "Before the class, please read and sign the studio's waiver with the link below: you cannot take part until you have signed it.",
    );
    expect(rows[0]!.links).toEqual([
      { label: 'Sign the waiver', path: `/guest/waiver?token=${place.token}` },
      { label: 'Cancel my guest place', path: `/guest/cancel?token=${place.token}` },
    ]);
  });
});

describe('guest_waiver and sign_guest_waiver (anon, with the token)', () => {
  it('show the class, the host and the current waiver, sign it once with the typed name, and the register shows it', async () => {
    const { classId, place } = await guestOnNewClass('gw-sign', 'Hana Host');
    const before = await view(place.token);
    expect(before).toMatchObject({
      guest_name: 'Gus Guest',
      class_name: 'Guest Waiver gw-sign',
      host_name: 'Hana Host',
      document_id: waiverId,
      version: 1,
      title: 'Guest waiver',
      body: 'The waiver text.',
      signed_name: null,
      signed_at: null,
    });

    const register = () =>
      as<{ name: string; guest_place_id: string | null; contact_name: string | null; documents_current: boolean; email: string }[]>(
        admin,
        'public.admin_class_places($1::uuid[])',
        [[classId]],
      );
    // The register lists the guest after their host, unsigned.
    expect((await register()).map((r) => [r.name, r.contact_name, r.documents_current])).toEqual([
      ['Hana Host', null, true],
      ['Gus Guest', 'Hana Host', false],
    ]);
    expect((await register())[1]).toMatchObject({ guest_place_id: place.id, email: place.email });

    const signed = await sign(place.token, '  Gus Guest  ');
    expect(signed).toMatchObject({ document_id: waiverId, signed_name: 'Gus Guest' });
    expect(signed.signed_at).not.toBeNull();
    // Signing twice keeps the first signature.
    const again = await sign(place.token, 'Gus G. Guest');
    expect(again).toMatchObject({ signed_name: 'Gus Guest', signed_at: signed.signed_at });
    expect(await signatures(place.email)).toEqual([{ document_id: waiverId, signed_name: 'Gus Guest' }]);
    expect(await view(place.token)).toMatchObject({ signed_name: 'Gus Guest' });
    expect((await register())[1]).toMatchObject({ documents_current: true });
  });

  it('refuse, with a clear hint and nothing signed: a bad token, a cancelled place, no name, an old version, a started class', async () => {
    const { classId, place } = await guestOnNewClass('gw-refuse', 'Hana Host');
    await expectSqlError(view('0'.repeat(48)), {
      hint: 'guest_not_found',
      message: 'This guest place has been cancelled, or the link is not complete',
    });
    await expectSqlError(sign('', 'Gus Guest'), { hint: 'guest_not_found' });
    await expectSqlError(sign(place.token, ' '), { hint: 'signature_required', message: 'Type your full name to sign' });
    await expectSqlError(sign(place.token, null), { hint: 'signature_required' });
    await expectSqlError(sign(place.token, 'Gus Guest', null), { hint: 'document_not_current' });
    await expectSqlError(sign(place.token, 'Gus Guest', '00000000-0000-4000-a000-000000000000'), { hint: 'document_not_current' });
    expect(await signatures(place.email)).toEqual([]);

    await db.query(`update public.classes set start_time = now() - interval '1 minute' where id = $1`, [classId]);
    await expectSqlError(view(place.token), { hint: 'class_started', message: 'This class has already started' });
    await expectSqlError(sign(place.token, 'Gus Guest'), { hint: 'class_started' });

    // The cancel link used: the waiver link goes with the place.
    const other = await guestOnNewClass('gw-cancelled', 'Hana Host');
    await anon('public.cancel_guest_place($1)', [other.place.token]);
    await expectSqlError(view(other.place.token), { hint: 'guest_not_found' });
    await expectSqlError(sign(other.place.token, 'Gus Guest'), { hint: 'guest_not_found' });
    expect(await signatures(place.email)).toEqual([]);
  });

  it('a new waiver version makes the guest unsigned again; they sign the new one, the old signature kept', async () => {
    const { place } = await guestOnNewClass('gw-version', 'Hana Host');
    await sign(place.token, 'Gus Guest');
    const { rows } = await db.query<{ id: string }>(
      `insert into public.document_versions (kind, version, title, body)
       values ('waiver', (select max(version) + 1 from public.document_versions where kind = 'waiver'), 'Guest waiver v2', 'New text.')
       returning id`,
    );
    const v2 = rows[0]!.id;
    try {
      expect(await view(place.token)).toMatchObject({ document_id: v2, title: 'Guest waiver v2', signed_name: null, signed_at: null });
      // The page still holds the old version: refused, so nobody signs what they did not read.
      await expectSqlError(sign(place.token, 'Gus Guest'), { hint: 'document_not_current' });
      expect(await sign(place.token, 'Gus Guest', v2)).toMatchObject({ document_id: v2, signed_name: 'Gus Guest' });
      expect((await signatures(place.email)).map((s) => s.document_id)).toEqual([waiverId, v2]);
    } finally {
      // Later tests sign the first version.
      await db.query('delete from public.guest_waiver_signatures where document_id = $1', [v2]);
      await db.query('delete from public.document_versions where id = $1', [v2]);
    }
  });

  it('a guest who signed this version on an earlier visit is not asked again, and the email then has no waiver link', async () => {
    const email = uniqueEmail('gw-regular');
    const first = await guestOnNewClass('gw-first', 'Hana Host', 'Rita Regular', email);
    await sign(first.place.token, 'Rita Regular');
    const second = await guestOnNewClass('gw-second', 'Sam Host', 'Rita Regular', email);
    expect(await view(second.place.token)).toMatchObject({ host_name: 'Sam Host', signed_name: 'Rita Regular' });
    const { rows } = await db.query<{ links: { label: string }[] }>(
      `select links from public.notification_outbox where to_email = $1 and kind = 'guest_invited' and class_id = $2`,
      [second.place.email, second.classId],
    );
    expect(rows[0]!.links.map((l) => l.label)).toEqual(['Cancel my guest place']);
  });

  it('with no waiver published asks nothing: the page has nothing to sign and signing is refused', async () => {
    const { place } = await guestOnNewClass('gw-none', 'Hana Host');
    await db.query(`update public.document_versions set kind = 'cookies', version = version + 100 where kind = 'waiver'`);
    try {
      expect(await view(place.token)).toMatchObject({ document_id: null, title: null, signed_name: null });
      await expectSqlError(sign(place.token, 'Gus Guest'), { hint: 'no_waiver', message: 'The studio has no waiver for you to sign' });
      const { rows } = await db.query<{ documents_current: boolean }>(`select private.guest_waiver_signed($1) as documents_current`, [
        place.email,
      ]);
      expect(rows[0]!.documents_current).toBe(true);
    } finally {
      await db.query(
        `update public.document_versions set kind = 'waiver', version = version - 100 where kind = 'cookies' and version > 100`,
      );
    }
  });
});

describe('who reads what', () => {
  it('anon and members read no signature, no other place; only admins read the signatures table', async () => {
    const { host, place } = await guestOnNewClass('gw-privacy', 'Hana Host');
    await sign(place.token, 'Gus Guest');
    await expectSqlError(
      asAnon(db, (tx) => tx.query('select * from public.guest_waiver_signatures')),
      { code: '42501' },
    );
    await expectSqlError(
      asAnon(db, (tx) => tx.query('select guest_name from public.guest_places')),
      { code: '42501' },
    );
    expect((await asUser(db, host.claims, (tx) => tx.query('select * from public.guest_waiver_signatures'))).rows).toEqual([]);
    const seen = await asUser(db, admin.claims, (tx) =>
      tx.query<{ signed_name: string }>('select signed_name from public.guest_waiver_signatures where guest_email = $1', [place.email]),
    );
    expect(seen.rows).toEqual([{ signed_name: 'Gus Guest' }]);
    // Nobody writes the table directly, not even the host.
    await expectSqlError(
      asUser(db, host.claims, (tx) =>
        tx.query(`insert into public.guest_waiver_signatures (guest_email, document_id, signed_name) values ($1, $2, 'Forged')`, [
          'someone@example.test',
          waiverId,
        ]),
      ),
      { code: '42501' },
    );
  });

  it("the coach's roster flags a guest who has not signed", async () => {
    const { classId, place } = await guestOnNewClass('gw-coach', 'Hana Host');
    const coach = await createUser(db, 'gw-coach-account');
    const trainer = (await db.query<{ id: string }>(`insert into public.trainers (name) values ($1) returning id`, [uniqueEmail('Coach')]))
      .rows[0]!.id;
    await as(admin, 'public.link_trainer_account($1, $2)', [trainer, coach.email]);
    await db.query(`update public.classes set trainer_id = $2, start_time = now() + interval '30 minutes' where id = $1`, [
      classId,
      trainer,
    ]);
    const roster = () =>
      as<{ name: string; contact_name: string | null; documents_current: boolean }[]>(coach, 'public.coach_class_roster($1)', [classId]);
    expect((await roster()).map((r) => [r.name, r.contact_name, r.documents_current])).toEqual([
      ['Hana Host', null, true],
      ['Gus Guest', 'Hana Host', false],
    ]);
    await sign(place.token, 'Gus Guest');
    expect((await roster())[1]).toMatchObject({ documents_current: true });
  });
});
