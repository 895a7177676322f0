import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asAnon, asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { addChild, bookFamily, kidsClass } from './support/families.ts';
import {
  classCounts,
  createClass,
  createUser,
  expectSqlError,
  publishBookingDocuments,
  rpc,
  signCurrentDocuments,
  type TestUser,
} from './support/fixtures.ts';

// Nobody books, joins a waitlist or holds a place to pay for without the
// current terms, waiver and PAR-Q; a new version asks again; health answers stay private.

let db: Database;
let docs: { terms: string; waiver: string; parq: string };
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  docs = await publishBookingDocuments(db);
  admin = await createUser(db, 'consent-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

const book = (u: TestUser, classId: string) =>
  asUser(db, u.claims, (tx) => rpc<{ status: string }>(tx, 'public.book_class($1)', [classId]));

interface MyDocument {
  kind: string;
  document_id: string;
  version: number;
  accepted_version: number | null;
  is_current: boolean;
}

/** The name on the member's account (createUser gives 'Test <label>'): what they sign with. */
const accountName = async (u: TestUser) =>
  (await db.query<{ name: string | null }>('select name from public.members where id = $1', [u.memberId])).rows[0]!.name;

/** Signs as the member, with the name on their account unless `name` is given. */
const sign = async (u: TestUser, ids: string[], answers: unknown = [false, false], consent = true, name?: string | null) => {
  const signedName = name === undefined ? await accountName(u) : name;
  return asUser(db, u.claims, (tx) =>
    rpc<MyDocument[]>(tx, 'public.sign_documents($1, $2::uuid[], $3::jsonb, $4, $5)', [
      signedName,
      ids,
      JSON.stringify(answers),
      'Old knee injury',
      consent,
    ]),
  );
};

const currentIds = async () => {
  const { rows } = await db.query<{ id: string }>(
    `select distinct on (kind) id from public.document_versions where kind in ('terms', 'waiver', 'parq') order by kind, version desc`,
  );
  return rows.map((r) => r.id);
};

const publish = (u: TestUser, kind: string, questions: unknown = null) =>
  asUser(db, u.claims, (tx) =>
    rpc<{ id: string; version: number }>(tx, 'public.publish_document($1, $2, $3, $4, $5::jsonb)', [
      kind,
      `New ${kind}`,
      `The new ${kind}.`,
      'What changed',
      questions === null ? null : JSON.stringify(questions),
    ]),
  );

describe('documents', () => {
  it('are readable by anyone, so the footer links open them', async () => {
    const rows = await asAnon(db, (tx) =>
      tx.query<{ kind: string }>(`select kind::text from public.document_versions where id = $1`, [docs.terms]),
    );
    expect(rows.rows).toEqual([{ kind: 'terms' }]);
  });

  it('are published by admins only, each as the next version; the PAR-Q needs its questions', async () => {
    const member = await createUser(db, 'consent-publisher');
    await expectSqlError(publish(member, 'privacy'), { code: '42501', hint: 'not_admin' });
    const first = await publish(admin, 'privacy');
    const second = await publish(admin, 'privacy');
    expect(second.version).toBe(first.version + 1);
    await expectSqlError(publish(admin, 'parq'), { hint: 'questions_required' });
    await expectSqlError(publish(admin, 'nonsense'), { hint: 'invalid_document_kind' });
  });
});

describe('a booking without the current documents', () => {
  it('is refused by book_class with a message to sign, and nothing is booked', async () => {
    const member = await createUser(db, 'consent-unsigned', { membership_tier: 'standard' });
    const classId = await createClass(db);
    await expectSqlError(book(member, classId), {
      code: 'P0001',
      hint: 'documents_required',
      message: 'Before your first class, please read and sign our terms and waiver and answer the health questions',
    });
    expect((await classCounts(db, classId)).bookings).toBe(0);
  });

  it('is refused on every path: a payment hold, a waitlist place, an insert by the owner', async () => {
    const member = await createUser(db, 'consent-paths', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { price_payg: 10 });
    await expectSqlError(
      asServiceRole(db, (tx) => rpc(tx, 'public.create_class_payment_hold($1, $2, 15)', [member.memberId, classId])),
      { hint: 'documents_required' },
    );
    const full = await createClass(db, { capacity: 1 });
    const other = await createUser(db, 'consent-paths-other', { membership_tier: 'standard' });
    await signCurrentDocuments(db, other.memberId);
    await book(other, full);
    const planMember = await createUser(db, 'consent-paths-plan', { membership_tier: 'standard' });
    await expectSqlError(
      asUser(db, planMember.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [full])),
      { hint: 'documents_required' },
    );
    await expectSqlError(
      db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'payg')`, [member.memberId, classId]),
      { hint: 'documents_required' },
    );
    expect((await classCounts(db, classId)).bookings).toBe(0);
  });

  it("asks the parent's own waiver and PAR-Q only for their own place; a child's place asks the parent's terms", async () => {
    const unsigned = await createUser(db, 'consent-family', { membership_tier: 'standard' });
    const kids = await kidsClass(db);
    await db.query(`update public.classes set min_age = 0, max_age = 99 where id = $1`, [kids]);
    const child = await addChild(db, unsigned, 'Rosa', 8);
    await expectSqlError(bookFamily(db, unsigned, kids, false, [child]), { hint: 'documents_required' });
    await expectSqlError(bookFamily(db, unsigned, kids, true, [child]), { hint: 'documents_required' });
    expect((await classCounts(db, kids)).bookings).toBe(0);
    // The terms signed, but not the adult waiver or PAR-Q: the child goes, the parent still may not.
    await db.query(
      `insert into public.document_acceptances (member_id, document_id, signed_name)
       select $1, id, 'Consent Family' from public.document_versions where kind = 'terms' order by version desc limit 1`,
      [unsigned.memberId],
    );
    await expectSqlError(bookFamily(db, unsigned, kids, true, [child]), { hint: 'documents_required' });
    expect((await bookFamily(db, unsigned, kids, false, [child])).places).toBe(1);
  });

  it('is allowed once the member signs and answers; a free trial sign-up too', async () => {
    const member = await createUser(db, 'consent-trial', { membership_tier: 'trial' });
    const classId = await createClass(db);
    await expectSqlError(book(member, classId), { hint: 'documents_required' });
    // The account's name, typed in another case and spacing: kept as typed.
    const after = await sign(member, await currentIds(), [false, false], true, ' TEST Consent Trial ');
    expect(after.every((d) => d.is_current)).toBe(true);
    expect((await book(member, classId)).status).toBe('booked');
    const { rows } = await db.query<{ signed_name: string; n: number }>(
      `select signed_name, count(*) over ()::int as n from public.document_acceptances where member_id = $1`,
      [member.memberId],
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]!.signed_name).toBe('TEST Consent Trial');
  });
});

describe('the typed signature', () => {
  it("must be the name on the member's account, case, spaces and punctuation aside; anything else signs nothing", async () => {
    const member = await createUser(db, 'consent-name', { membership_tier: 'standard' }, { full_name: "Siobhan O'Neill-Price" });
    const ids = await currentIds();
    const mismatch = {
      code: '22023',
      hint: 'signature_mismatch',
      message:
        "Type the name on your account to sign: Siobhan O'Neill-Price. If that is not your full name, change it in Edit Profile first.",
    };
    await expectSqlError(sign(member, ids, [false, false], true, 'Someone Else'), mismatch);
    await expectSqlError(sign(member, ids, [false, false], true, 'Siobhan Price'), mismatch);
    const signed = async () =>
      (await db.query('select 1 from public.document_acceptances where member_id = $1', [member.memberId])).rows.length +
      (await db.query('select 1 from public.health_answers where member_id = $1', [member.memberId])).rows.length;
    expect(await signed()).toBe(0);

    // A phone's curly apostrophe, another case, no hyphen, a full stop: the same name.
    await sign(member, ids, [false, false], true, 'siobhan o’neill price.');
    expect(await signed()).toBe(4);
  });

  it('is asked for an account with no name: the member adds their name first', async () => {
    const nameless = await createUser(db, 'consent-nameless', { membership_tier: 'standard' }, {});
    await expectSqlError(sign(nameless, await currentIds(), [false, false], true, 'Nia Nameless'), {
      code: '22023',
      hint: 'account_name_required',
      message: 'Your account has no name yet: add your full name to your profile, then sign with it.',
    });
    await db.query(`update public.members set name = 'Nia Nameless' where id = $1`, [nameless.memberId]);
    expect((await sign(nameless, await currentIds(), [false, false], true, 'Nia Nameless')).every((d) => d.is_current)).toBe(true);
  });
});

describe('a new version', () => {
  it('asks again before the next booking; the old signature stays on record', async () => {
    const member = await createUser(db, 'consent-stale', { membership_tier: 'standard' });
    await sign(member, await currentIds());
    const waiver = await publish(admin, 'waiver');
    const classId = await createClass(db);
    await expectSqlError(book(member, classId), {
      hint: 'documents_required',
      message: 'We have updated our terms, waiver or health questions: please read and sign them before booking',
    });
    const mine = await asUser(db, member.claims, (tx) => rpc<MyDocument[]>(tx, 'public.my_documents()'));
    expect(mine.find((d) => d.kind === 'waiver')).toMatchObject({
      is_current: false,
      version: waiver.version,
      accepted_version: waiver.version - 1,
    });
    await sign(member, [waiver.id], null, false);
    expect((await book(member, classId)).status).toBe('booked');
    const { rows } = await db.query(`select 1 from public.document_acceptances where member_id = $1`, [member.memberId]);
    expect(rows).toHaveLength(4);
  });

  it('refuses to sign a version that is no longer current', async () => {
    const member = await createUser(db, 'consent-old-version');
    const old = (await currentIds()).find((id) => id === docs.waiver);
    const newer = await publish(admin, 'waiver');
    expect(newer.id).not.toBe(old);
    await expectSqlError(sign(member, [docs.waiver]), { hint: 'document_not_current' });
  });

  it('does not undo a cancellation: a waitlisted member is promoted even if a version changed meanwhile', async () => {
    const holder = await createUser(db, 'consent-holder', { membership_tier: 'standard' });
    const waiting = await createUser(db, 'consent-waiting', { membership_tier: 'standard' });
    await signCurrentDocuments(db, holder.memberId);
    await signCurrentDocuments(db, waiting.memberId);
    const classId = await createClass(db, { capacity: 1 });
    await book(holder, classId);
    await asUser(db, waiting.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId]));
    await publish(admin, 'terms');
    const { rows } = await db.query<{ id: string }>(`select id from public.bookings where class_id = $1`, [classId]);
    await asUser(db, holder.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [rows[0]!.id]));
    const after = await db.query<{ member_id: string }>(`select member_id from public.bookings where class_id = $1`, [classId]);
    expect(after.rows).toEqual([{ member_id: waiting.memberId }]);
  });
});

describe('health answers', () => {
  it('need explicit consent and an answer to every question', async () => {
    const member = await createUser(db, 'consent-health');
    const ids = await currentIds();
    await expectSqlError(sign(member, ids, [false, false], false), { hint: 'health_consent_required' });
    await expectSqlError(sign(member, ids, [false]), { hint: 'answers_incomplete' });
    await expectSqlError(sign(member, ids, [false, 'no']), { hint: 'answers_incomplete' });
    await expectSqlError(sign(member, ids, [false, false], true, ' '), { hint: 'signature_required' });
  });

  it('are read by the member and admins only, and flag a yes on the register', async () => {
    const member = await createUser(db, 'consent-yes', { membership_tier: 'standard' });
    const nosy = await createUser(db, 'consent-nosy');
    await sign(member, await currentIds(), [false, true]);
    const classId = await createClass(db);
    await book(member, classId);
    const read = (u: TestUser) =>
      asUser(db, u.claims, (tx) =>
        tx.query<{ answers: boolean[] }>(`select answers from public.health_answers where member_id = $1`, [member.memberId]),
      );
    expect((await read(member)).rows).toEqual([{ answers: [false, true] }]);
    expect((await read(nosy)).rows).toEqual([]);
    expect((await read(admin)).rows).toHaveLength(1);
    await expectSqlError(
      asUser(db, nosy.claims, (tx) => rpc(tx, 'public.admin_class_places($1::uuid[])', [[classId]])),
      { hint: 'not_admin' },
    );
    const register = await asUser(db, admin.claims, (tx) =>
      rpc<{ member_id: string; health_flag: boolean; health_yes: string[]; health_details: string }[]>(
        tx,
        'public.admin_class_places($1::uuid[])',
        [[classId]],
      ),
    );
    expect(register).toEqual([
      expect.objectContaining({
        member_id: member.memberId,
        health_flag: true,
        health_yes: ['Do you feel pain in your chest when active?'],
        health_details: 'Old knee injury',
      }),
    ]);
  });

  it('withdrawn, are deleted and the next booking asks again', async () => {
    const member = await createUser(db, 'consent-withdraw', { membership_tier: 'standard' });
    await sign(member, await currentIds());
    expect(await asUser(db, member.claims, (tx) => rpc<boolean>(tx, 'public.withdraw_health_answers()'))).toBe(true);
    const { rows } = await db.query(`select 1 from public.health_answers where member_id = $1`, [member.memberId]);
    expect(rows).toEqual([]);
    await expectSqlError(book(member, await createClass(db)), { hint: 'documents_required' });
  });

  it('withdrawn while on a waitlist, the member is skipped: the next in line is promoted, and they keep their place', async () => {
    const holder = await createUser(db, 'consent-wl-holder', { membership_tier: 'standard' });
    const withdrew = await createUser(db, 'consent-wl-withdrew', { membership_tier: 'standard' });
    const next = await createUser(db, 'consent-wl-next', { membership_tier: 'standard' });
    for (const m of [holder, withdrew, next]) await signCurrentDocuments(db, m.memberId);
    const classId = await createClass(db, { capacity: 1 });
    await book(holder, classId);
    await asUser(db, withdrew.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId]));
    await asUser(db, next.claims, (tx) => rpc(tx, 'public.join_waitlist($1)', [classId]));
    expect(await asUser(db, withdrew.claims, (tx) => rpc<boolean>(tx, 'public.withdraw_health_answers()'))).toBe(true);

    const bookingsOf = async () =>
      (await db.query<{ member_id: string }>(`select member_id from public.bookings where class_id = $1 order by booked_at`, [classId]))
        .rows;
    const waitlist = async () =>
      (await db.query<{ member_id: string }>(`select member_id from public.class_waitlist where class_id = $1 order by seq`, [classId]))
        .rows;
    const { rows } = await db.query<{ id: string }>(`select id from public.bookings where class_id = $1`, [classId]);
    await asUser(db, holder.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [rows[0]!.id]));
    expect(await bookingsOf()).toEqual([{ member_id: next.memberId }]);
    expect(await waitlist()).toEqual([{ member_id: withdrew.memberId }]);

    // Answered again, they are promoted into the next place that opens.
    await signCurrentDocuments(db, withdrew.memberId);
    await db.query('update public.classes set capacity = 2 where id = $1', [classId]);
    expect(await bookingsOf()).toEqual([{ member_id: next.memberId }, { member_id: withdrew.memberId }]);
  });
});

describe('admin overview', () => {
  it('lists who has signed which version, and who has not', async () => {
    const signed = await createUser(db, 'consent-overview-signed');
    const unsigned = await createUser(db, 'consent-overview-unsigned');
    await sign(signed, await currentIds());
    const all = await asUser(db, admin.claims, (tx) =>
      rpc<{ member_id: string; all_current: boolean; waiver_version: number | null }[]>(tx, 'public.admin_member_documents()'),
    );
    expect(all.find((r) => r.member_id === signed.memberId)).toMatchObject({ all_current: true });
    expect(all.find((r) => r.member_id === unsigned.memberId)).toMatchObject({ all_current: false, waiver_version: null });
    const missing = await asUser(db, admin.claims, (tx) => rpc<{ member_id: string }[]>(tx, 'public.admin_member_documents(true)'));
    expect(missing.map((r) => r.member_id)).toContain(unsigned.memberId);
    expect(missing.map((r) => r.member_id)).not.toContain(signed.memberId);
  });
});

describe('profile', () => {
  it('refuses a date of birth in the future; a member sets their own and an emergency contact', async () => {
    const member = await createUser(db, 'consent-dob');
    const update = (dob: string) =>
      asUser(db, member.claims, (tx) =>
        tx.query(
          `update public.members set date_of_birth = $2, emergency_contact_name = 'Sam', emergency_contact_phone = '07700 900456' where id = $1`,
          [member.memberId, dob],
        ),
      );
    await expectSqlError(update('2999-01-01'), {
      code: '22007',
      hint: 'date_of_birth_in_future',
      message: 'Date of birth cannot be in the future',
    });
    await update('1990-05-17');
    const { rows } = await db.query<{ dob: string; name: string }>(
      `select date_of_birth::text as dob, emergency_contact_name as name from public.members where id = $1`,
      [member.memberId],
    );
    expect(rows).toEqual([{ dob: '1990-05-17', name: 'Sam' }]);
  });
});
