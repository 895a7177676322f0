import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import { applyMigrations, applyPlatform, listMigrations } from '../local/db/apply.ts';
import { openDatabase, type Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { NOT_PHONE_NUMBERS, PHONE_NUMBERS } from '../../src/features/profile/testing/phone-examples.ts';
import { createUser, expectSqlError, type TestUser } from './support/fixtures.ts';

// Edit Profile took a 150-character name and "not a phone <b>" as a phone. The database refuses
// both, whoever writes them: a name of at most 100 characters, and phone numbers (UK, or
// international with + or 00) written with digits, spaces, brackets and hyphens only.

let db: Database;
let member: TestUser;

beforeAll(async () => {
  db = await createTestDatabase();
  member = await createUser(db, 'profile-rules', { membership_tier: 'standard' });
});
afterAll(async () => {
  await db.close();
});

/** What Edit Profile sends, as the member. */
const update = (column: 'name' | 'phone' | 'emergency_contact_phone', value: string | null) =>
  asUser(db, member.claims, (tx) =>
    tx.query<{ v: string | null }>(`update public.members set ${column} = $2 where id = $1 returning ${column} as v`, [
      member.memberId,
      value,
    ]),
  ).then((r) => r.rows[0]?.v);

describe("a member's profile", () => {
  it('takes a name of up to 100 characters, and refuses a longer one', async () => {
    expect(await update('name', 'N'.repeat(100))).toHaveLength(100);
    await expectSqlError(update('name', 'N'.repeat(101)), { code: '23514', message: /members_name_check/ });
  });

  it.each(PHONE_NUMBERS)('takes %j as a phone and as an emergency contact phone', async (phone) => {
    expect(await update('phone', phone)).toBe(phone);
    expect(await update('emergency_contact_phone', phone)).toBe(phone);
  });

  it.each(NOT_PHONE_NUMBERS)('refuses %j as a phone or an emergency contact phone, and keeps the number it had', async (text) => {
    await update('phone', '07700 900123');
    await expectSqlError(update('phone', text), { code: '23514', message: /members_phone_is_a_phone_number/ });
    await expectSqlError(update('emergency_contact_phone', text), {
      code: '23514',
      message: /members_emergency_contact_phone_is_a_phone_number/,
    });
    const { rows } = await db.query<{ phone: string }>('select phone from public.members where id = $1', [member.memberId]);
    expect(rows[0]!.phone).toBe('07700 900123');
  });

  it('takes no phone at all', async () => {
    expect(await update('phone', null)).toBeNull();
  });

  it('a sign-up with a name longer than an account takes is kept, cut to 100 characters, rather than refused', async () => {
    const long = await createUser(db, 'profile-long-name', {}, { full_name: `${'Maximilian '.repeat(14)}Smith` });
    const { rows } = await db.query<{ name: string }>('select name from public.members where id = $1', [long.memberId]);
    expect(rows[0]!.name).toHaveLength(100);
    expect(rows[0]!.name.startsWith('Maximilian Maximilian')).toBe(true);
  });
});

describe('the migration over existing members', () => {
  it('cuts names to 100 characters and clears phones that are not phone numbers, keeping the rest', async () => {
    const ours = listMigrations().find((m) => m.name === 'profile_name_and_phone_rules');
    expect(ours, 'the migration that brings the rules').toBeDefined();
    const before = mkdtempSync(`${tmpdir()}/profile-migration-`);
    const old = await openDatabase({ dataDir: 'memory' });
    try {
      for (const m of listMigrations().filter((m) => m.version < ours!.version))
        symlinkSync(m.path, `${before}/${m.version}_${m.name}.sql`);
      await applyPlatform(old);
      await applyMigrations(old, before);
      await old.query(
        `insert into public.members (email, name, phone, emergency_contact_phone) values
           ('long@example.test', $1, '07700 900123', 'not a phone <b>'),
           ('typo@example.test', 'Tia Typo', '020.7946.0018', ' +44 7700 900456 '),
           ('blank@example.test', 'Bea Blank', '', null)`,
        [`${'A'.repeat(99)} tail`],
      );
      await applyMigrations(old);
      const { rows } = await old.query<{ email: string; name: string; phone: string | null; emergency_contact_phone: string | null }>(
        `select email::text, name, phone, emergency_contact_phone from public.members order by email`,
      );
      expect(rows).toEqual([
        { email: 'blank@example.test', name: 'Bea Blank', phone: null, emergency_contact_phone: null },
        { email: 'long@example.test', name: 'A'.repeat(99), phone: '07700 900123', emergency_contact_phone: null },
        { email: 'typo@example.test', name: 'Tia Typo', phone: null, emergency_contact_phone: '+44 7700 900456' },
      ]);
    } finally {
      await old.close();
      rmSync(before, { recursive: true, force: true });
    }
  }, 180_000);
});
