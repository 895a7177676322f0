import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { readCsv } from '../../src/features/admin/lib/member-import/csv.ts';
import { mappingFor } from '../../src/features/admin/lib/member-import/presets.ts';
import { toImportRows } from '../../src/features/admin/lib/member-import/rows.ts';

// The member import (decision 0065) against the database: a studio's CSV of about 20
// members with a family, packages and bad rows, read by the same code the screen and the CLI use.

interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  refused: number;
  committed: boolean;
  import_id: string | null;
  rows: { line: number; kind: string; name: string | null; email: string | null; outcome: string; actions: string[]; refusals: string[] }[];
}

const NOW = '2026-12-01T12:00:00Z';
const file = readFileSync(new URL('./fixtures/import-studio.csv', import.meta.url), 'utf8');
const table = readCsv(file);
const rows = toImportRows(table, mappingFor(table.headers));

let db: Database;
let admin: TestUser;
let existingUserId: string;

async function runImport(commit: boolean, who = admin.claims): Promise<ImportResult> {
  return asUser(db, who, (tx) =>
    rpc<ImportResult>(tx, 'private.admin_import_members($1::jsonb, $2, $3::timestamptz)', [JSON.stringify(rows), commit, NOW]),
  );
}

/** Every row the import can touch, as text, to prove a second run changes nothing. */
async function studioState(): Promise<string> {
  const parts = await Promise.all(
    [
      `select id, user_id, email, name, phone, date_of_birth, membership_tier, plan_renews_at from public.members order by id`,
      `select * from public.memberships order by id`,
      `select id, member_id, kind, source, grant_key, seq, expires_at from public.credits order by id`,
      `select * from public.dependants order by id`,
      `select * from public.member_imports order by id`,
      `select * from public.imported_members order by member_id`,
      `select id, encrypted_password from auth.users order by id`,
    ].map(async (sql) => JSON.stringify((await db.query(sql)).rows)),
  );
  return parts.join('\n');
}

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'import-admin', { is_admin: true });
  const { rows: users } = await db.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data, created_at, updated_at)
     values (gen_random_uuid(), 'authenticated', 'authenticated', 'existing@import.test', 'hash-before-import', now(), '{}', now(), now())
     returning id`,
  );
  existingUserId = users[0]!.id;
});
afterAll(async () => {
  await db.close();
});

describe('importing members', () => {
  it('reads the file into 24 rows', () => {
    expect(rows).toHaveLength(24);
    expect(rows.find((r) => r.line === 25)?.name).toBe('Multi\nLine');
  });

  it('previews every row without writing anything, and refuses only non-admins', async () => {
    const before = await studioState();
    const preview = await runImport(false);
    expect(await studioState()).toBe(before);
    expect(preview).toMatchObject({ created: 17, updated: 1, unchanged: 0, refused: 6, committed: false, import_id: null });
    const refusals = Object.fromEntries(preview.rows.filter((r) => r.outcome === 'refused').map((r) => [r.line, r.refusals]));
    expect(refusals).toEqual({
      19: ['Guardian nobody@import.test is in neither the file nor the studio.'],
      20: ['Email "not-an-email" is not an email address.'],
      21: ['Date of birth "31/02/1990" is not a date.'],
      22: ['Unknown plan "Gold": choose Standard or Platinum Premium.'],
      23: ['Plan price -5 is not more than £0.'],
      24: ['The same email as row 2.'],
    });
    expect(preview.rows.find((r) => r.line === 3)?.actions).toEqual([
      'New member ben@import.test.',
      'Platinum Premium at £165.00/month, next payment 12/01/2027 (no card charged now).',
      '3 personal-training sessions, expiring 28/02/2027.',
    ]);
    expect(preview.rows.find((r) => r.line === 15)).toMatchObject({
      outcome: 'updated',
      actions: [
        'Existing member existing@import.test: name, phone updated.',
        'Standard at £80.00/month, next payment 10/01/2027 (no card charged now).',
      ],
    });

    // The app's RPC answers the same rows, one record each, and writes nothing either.
    const viaApi = await asUser(db, admin.claims, (tx) =>
      rpc<ImportResult['rows']>(tx, 'public.admin_import_members($1::jsonb)', [JSON.stringify(rows)]),
    );
    expect(viaApi).toHaveLength(24);
    expect(viaApi.find((r) => r.line === 21)).toMatchObject({
      outcome: 'refused',
      refusals: ['Date of birth "31/02/1990" is not a date.'],
    });
    expect(await studioState()).toBe(before);

    const member = await createUser(db, 'import-member');
    await expectSqlError(runImport(false, member.claims), { code: '42501', hint: 'not_admin' });
  });

  it('writes what the preview said, in one go, and a second run changes nothing', async () => {
    const preview = await runImport(false);
    const done = await runImport(true);
    expect(done.rows).toEqual(preview.rows);
    expect(done).toMatchObject({ created: 17, updated: 1, refused: 6, committed: true });
    expect(done.import_id).toEqual(expect.any(String));

    // Plans keep the file's price and next payment date; the month before it counts as paid.
    const { rows: plans } = await db.query(
      `select m.email::text, ms.plan_slug, ms.price::text, ms.status::text, ms.period_end, m.membership_tier::text as tier
         from public.memberships ms join public.members m on m.id = ms.member_id
        where m.email::text ilike '%import.test' order by lower(m.email::text)`,
    );
    expect(plans).toEqual([
      {
        email: 'amara@import.test',
        plan_slug: 'standard',
        price: '70.00',
        status: 'active',
        period_end: new Date('2027-01-05T00:00:00Z'),
        tier: 'standard',
      },
      {
        email: 'ben@import.test',
        plan_slug: 'platinum',
        price: '165.00',
        status: 'active',
        period_end: new Date('2027-01-12T00:00:00Z'),
        tier: 'premium',
      },
      {
        email: 'chloe@import.test',
        plan_slug: 'standard',
        price: '100.00',
        status: 'active',
        period_end: new Date('2026-12-20T00:00:00Z'),
        tier: 'standard',
      },
      {
        email: 'existing@import.test',
        plan_slug: 'standard',
        price: '80.00',
        status: 'active',
        period_end: new Date('2027-01-10T00:00:00Z'),
        tier: 'standard',
      },
      {
        email: 'FINN@Import.Test',
        plan_slug: 'platinum',
        price: '150.50',
        status: 'active',
        period_end: new Date('2027-01-15T00:00:00Z'),
        tier: 'premium',
      },
    ]);
    // No card was charged: no payment exists for any of them.
    const { rows: payments } = await db.query(
      `select count(*)::int as n from public.payments p join public.members m on m.id = p.member_id where m.email::text ilike '%import.test'`,
    );
    expect(payments).toEqual([{ n: 0 }]);

    // Package sessions are credits with their count and expiry (the end of that London day).
    const { rows: credits } = await db.query(
      `select m.email::text, count(*)::int as n, min(c.expires_at) as expires_at, min(c.source) as source
         from public.credits c join public.members m on m.id = c.member_id
        where m.email::text ilike '%import.test' group by m.email order by m.email`,
    );
    expect(credits).toEqual([
      { email: 'ben@import.test', n: 3, expires_at: new Date('2027-03-01T00:00:00Z'), source: 'import' },
      { email: 'dev@import.test', n: 10, expires_at: new Date('2027-02-01T00:00:00Z'), source: 'import' },
      { email: 'grace@import.test', n: 1, expires_at: new Date('2027-03-16T00:00:00Z'), source: 'import' },
    ]);

    // Children are under their guardian, from the file or already in the studio.
    const { rows: children } = await db.query(
      `select d.name, d.date_of_birth::text as born, m.email::text as parent
         from public.dependants d join public.members m on m.id = d.parent_member_id order by d.name`,
    );
    expect(children).toEqual([
      { name: 'Kid Of Existing', born: '2015-06-01', parent: 'existing@import.test' },
      { name: 'Yusuf Okafor', born: '2019-11-11', parent: 'amara@import.test' },
      { name: 'Zoe Okafor', born: '2016-09-03', parent: 'amara@import.test' },
    ]);

    // The existing account: updated, not duplicated, its sign-in untouched. Text stored as given.
    const { rows: existing } = await db.query(
      `select m.user_id, m.phone, u.encrypted_password from public.members m join auth.users u on u.id = m.user_id
        where lower(m.email::text) = 'existing@import.test'`,
    );
    expect(existing).toEqual([{ user_id: existingUserId, phone: '07700 900114', encrypted_password: 'hash-before-import' }]);
    const { rows: names } = await db.query(
      `select name from public.members where email::text in ('bold@import.test', 'formula@import.test') order by email`,
    );
    expect(names).toEqual([{ name: '<b>Bold</b> Name' }, { name: '=HYPERLINK("http://x")' }]);

    // Refused rows wrote nothing.
    const { rows: refused } = await db.query(
      `select count(*)::int as n from public.members where email::text in ('baddate@import.test', 'unknownplan@import.test', 'negative@import.test')`,
    );
    expect(refused).toEqual([{ n: 0 }]);

    // Nobody is emailed yet: the new members wait for "Send invitations".
    const toInvite = await asUser(db, admin.claims, (tx) => rpc<{ email: string }[]>(tx, 'public.admin_members_to_invite()'));
    expect(toInvite.map((m) => m.email)).toHaveLength(14);
    expect(toInvite.map((m) => m.email)).not.toContain('existing@import.test');

    const before = await studioState();
    const again = await runImport(true);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 18, refused: 6, import_id: null });
    expect(await studioState()).toBe(before);
  });

  it('runs for the service role (the CLI), and marks an invitation sent once', async () => {
    const result = await asServiceRole(db, (tx) =>
      rpc<ImportResult>(tx, 'private.admin_import_members($1::jsonb, false, $2::timestamptz)', [JSON.stringify(rows), NOW]),
    );
    expect(result).toMatchObject({ created: 0, updated: 0, unchanged: 18, refused: 6 });
    const [first] = await asServiceRole(db, (tx) => rpc<{ member_id: string }[]>(tx, 'public.admin_members_to_invite()'));
    expect(await asServiceRole(db, (tx) => rpc(tx, 'public.mark_member_invited($1)', [first!.member_id]))).toBe(true);
    expect(await asServiceRole(db, (tx) => rpc(tx, 'public.mark_member_invited($1)', [first!.member_id]))).toBe(false);
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.mark_member_invited($1)', [first!.member_id])),
      { code: '42501' },
    );
  });
});

describe('a card for an imported plan', () => {
  /** The hourly reminders as of `at` (renewals, trials, pauses and imported plans' card requests). */
  const reminders = (at: string) =>
    asServiceRole(db, (tx) => rpc<number>(tx, 'private.enqueue_membership_reminders($1::timestamptz)', [at]));
  const emails = async (kind: string) =>
    (
      await db.query<{ to_email: string; subject: string; body_text: string }>(
        `select to_email::text, subject, body_text from public.notification_outbox where kind = $1 order by created_at, to_email`,
        [kind],
      )
    ).rows;
  const invite = async (email: string) => {
    const { rows: found } = await db.query<{ id: string }>(`select id from public.members where email::text = $1`, [email]);
    await asServiceRole(db, (tx) => rpc(tx, 'public.mark_member_invited($1)', [found[0]!.id]));
  };

  it('asks a week before the first renewal, once, only once the member was invited, and never one with a card', async () => {
    // Chloe's plan is paid up to 20 December; a week before, she has not been invited yet.
    await reminders('2026-12-14T12:00:00Z');
    expect(await emails('import_card_request')).toEqual([]);

    await invite('chloe@import.test');
    await reminders('2026-12-14T12:00:00Z');
    await reminders('2026-12-15T12:00:00Z');
    expect(await emails('import_card_request')).toEqual([
      {
        to_email: 'chloe@import.test',
        subject: 'Your Standard membership: a card is needed on 20 December 2026',
        body_text: expect.stringContaining(
          'That day the next payment of £100.00 is due here, and there is no card saved for it yet. Add one now with "Add a card" on your membership page: nothing is charged when you add it',
        ),
      },
    ]);
    // The renewal reminder promises a charge to a saved card: it is not sent for a plan without one.
    await reminders('2026-12-18T12:00:00Z');
    expect(await emails('renewal_reminder')).toEqual([]);

    // Ben (12 January) has saved a card since; the existing member (10 January) can sign in already.
    const { rows: ben } = await db.query<{ id: string }>(`select id from public.members where email::text = 'ben@import.test'`);
    await db.query(
      `insert into private.member_cards (member_id, customer_id, token, saved_at) values ($1::uuid, 'member-' || $1::text, 'tok', now())`,
      [ben[0]!.id],
    );
    await invite('ben@import.test');
    await reminders('2027-01-06T12:00:00Z');
    expect((await emails('import_card_request')).map((e) => e.to_email)).toEqual(['chloe@import.test', 'existing@import.test']);
    // With his card, Ben gets the usual renewal reminder instead.
    await reminders('2027-01-10T12:00:00Z');
    expect((await emails('renewal_reminder')).map((e) => e.to_email)).toEqual(['ben@import.test']);
  });
});

describe('emergency contacts from the file', () => {
  const contacts = (csv: string) => {
    const t = readCsv(csv);
    return toImportRows(t, mappingFor(t.headers));
  };
  const run = (importRows: unknown[], commit: boolean) =>
    asUser(db, admin.claims, (tx) =>
      rpc<ImportResult>(tx, 'private.admin_import_members($1::jsonb, $2, $3::timestamptz)', [JSON.stringify(importRows), commit, NOW]),
    );
  const contactOf = async (email: string) =>
    (
      await db.query(`select emergency_contact_name, emergency_contact_phone from public.members where lower(email::text) = lower($1)`, [
        email,
      ])
    ).rows[0];

  it('refuses a contact phone Edit Profile would refuse, and a contact on a child row', async () => {
    const preview = await run(
      contacts(
        'Name,Email,Date of birth,Emergency contact name,Emergency contact phone,Guardian email\r\n' +
          'Bad Phone,badphone@contact.test,,Sam,call me,\r\n' +
          `Long Name,longname@contact.test,,${'x'.repeat(201)},07700 900201,\r\n` +
          'A Kid,,01/01/2018,Sam,07700 900202,amara@import.test\r\n',
      ),
      false,
    );
    expect(Object.fromEntries(preview.rows.map((r) => [r.line, r.refusals]))).toEqual({
      2: ['Emergency contact phone "call me" is not a phone number.'],
      3: ['The emergency contact name is longer than 200 characters.'],
      4: ["A child's emergency contact is their guardian: put it on the guardian's row."],
    });
  });

  it("stores a new member's contact, updates an existing one only where the file has one, and a second run changes nothing", async () => {
    const file =
      'Name,Email,Emergency contact name,Emergency contact phone\r\n' +
      'New Contact,new@contact.test,Pat Parent,7700900301\r\n' +
      'Amara Okafor,amara@import.test,Obi Okafor,+44 (0)7700 900302\r\n' +
      'Ben Carter,ben@import.test,,\r\n';
    await db.query(
      `update public.members set emergency_contact_name = 'Old Contact', emergency_contact_phone = '07700 900399'
        where email::text = 'ben@import.test'`,
    );
    const done = await run(contacts(file), true);
    expect(done.rows.map((r) => [r.line, r.outcome, r.actions])).toEqual([
      [2, 'created', ['New member new@contact.test.']],
      [3, 'updated', ['Existing member amara@import.test: emergency contact name, emergency contact phone updated.']],
      [4, 'unchanged', ['Existing member ben@import.test.']],
    ]);
    expect(await contactOf('new@contact.test')).toEqual({ emergency_contact_name: 'Pat Parent', emergency_contact_phone: '07700900301' });
    expect(await contactOf('amara@import.test')).toEqual({
      emergency_contact_name: 'Obi Okafor',
      emergency_contact_phone: '+44 (0)7700 900302',
    });
    // An empty cell leaves the studio's contact as it was.
    expect(await contactOf('ben@import.test')).toEqual({ emergency_contact_name: 'Old Contact', emergency_contact_phone: '07700 900399' });

    const again = await run(contacts(file), true);
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, refused: 0, import_id: null });
    expect(await contactOf('amara@import.test')).toEqual({
      emergency_contact_name: 'Obi Okafor',
      emergency_contact_phone: '+44 (0)7700 900302',
    });
  });
});
