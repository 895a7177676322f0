import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';

// Data rights (decision 0047, docs/data-contract.md "Personal data"): a member downloads their
// data, then closes their account; what the contract says goes is gone, what it keeps is kept.

let db: Database;
let admin: TestUser;

const count = async (sql: string, params: unknown[]) =>
  (await db.query<{ n: number }>(`select count(*)::int as n ${sql}`, params)).rows[0]!.n;

beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'rights-admin', { is_admin: true });
});
afterAll(async () => {
  await db.close();
});

describe('download my data, then close my account', () => {
  it('exports every kind of data, then deletes what the contract deletes and keeps the payments', async () => {
    const member = await createUser(db, 'rights-member', { membership_tier: 'payg' });
    const past = await createClass(db, { name: 'Rights Past', startsIn: '-3 days' });
    const future = await createClass(db, { name: 'Rights Future', startsIn: '5 days' });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid'), ($1, $3, 'paid')`, [
      member.memberId,
      past,
      future,
    ]);
    await db.query(
      `insert into public.payments (member_id, kind, amount, description, checkout_reference, status, paid_at, class_id)
       values ($1, 'class', 10, 'Rights Past', 'ref-rights-1', 'paid', now() - interval '4 days', $2)`,
      [member.memberId, past],
    );
    await db.query(`insert into public.dependants (parent_member_id, name, date_of_birth) values ($1, 'Kid Rights', '2018-01-01')`, [
      member.memberId,
    ]);
    // Published after the bookings, so booking needed no signature.
    const parq = (
      await db.query<{ id: string }>(
        `insert into public.document_versions (kind, version, title, body, questions) values ('parq', 90, 'PAR-Q', 'Answer', '["Any heart condition?"]') returning id`,
      )
    ).rows[0]!;
    await db.query(
      `insert into public.health_answers (member_id, document_id, answers, consented_at, signed_name) values ($1, $2, '[false]', now(), 'Test Rights')`,
      [member.memberId, parq.id],
    );

    const exported = await asUser(db, member.claims, (tx) => rpc<Record<string, unknown>>(tx, 'public.my_data_export()'));
    expect(Object.keys(exported).sort()).toEqual(
      [
        'bookings',
        'credits',
        'documents_signed',
        'exported_at',
        'family',
        'guest_places',
        'health_answers',
        'membership',
        'payments',
        'preferences',
        'profile',
        'waitlist',
      ].sort(),
    );
    expect(exported.profile).toMatchObject({ id: member.memberId, email: member.email });
    expect(exported.profile).not.toHaveProperty('user_id');
    expect((exported.bookings as { class_name: string }[]).map((b) => b.class_name)).toEqual(['Rights Past', 'Rights Future']);
    expect(exported.payments).toEqual([expect.objectContaining({ checkout_reference: 'ref-rights-1', amount: 10 })]);
    expect(exported.family).toEqual([expect.objectContaining({ name: 'Kid Rights' })]);
    expect(exported.health_answers).toMatchObject({ signed_name: 'Test Rights' });

    // Another member's export is their own.
    const other = await createUser(db, 'rights-other');
    const theirs = await asUser(db, other.claims, (tx) => rpc<{ bookings: unknown[] }>(tx, 'public.my_data_export()'));
    expect(theirs.bookings).toEqual([]);

    const removal = await asUser(db, member.claims, (tx) => rpc<{ member_id: string; user_id: string }>(tx, 'public.close_my_account()'));
    expect(removal).toMatchObject({ member_id: member.memberId, user_id: member.userId });

    // Deleted now: the profile, bookings, family, health answers.
    expect(await count('from public.members where id = $1', [member.memberId])).toBe(0);
    expect(await count('from public.bookings where member_id = $1', [member.memberId])).toBe(0);
    expect(await count('from public.dependants where parent_member_id = $1', [member.memberId])).toBe(0);
    expect(await count('from public.health_answers where member_id = $1', [member.memberId])).toBe(0);
    // Kept: the payment (6 years, HMRC), without the member link; the trial remembered by hash only.
    const { rows } = await db.query<{ member_id: string | null; billed_email: string | null }>(
      `select member_id, billed_email from public.payments where checkout_reference = 'ref-rights-1'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.member_id).toBeNull();
    // The future booking was cancelled by the normal rules, so its place is free again.
    expect((await db.query<{ n: number }>('select spots_left as n from public.classes where id = $1', [future])).rows[0]!.n).toBe(10);
  });

  it("refuses an admin's own account (another admin closes it)", async () => {
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.close_my_account()')),
      { code: '42501', hint: 'staff_account' },
    );
    expect(await count('from public.members where id = $1', [admin.memberId])).toBe(1);
  });
});

describe('the retention job', () => {
  it('removes guest signatures and contact messages past the studio’s periods, once', async () => {
    const waiver = (
      await db.query<{ id: string }>(
        `insert into public.document_versions (kind, version, title, body) values ('waiver', 90, 'Waiver', 'Sign') returning id`,
      )
    ).rows[0]!;
    await db.query(
      `insert into public.guest_waiver_signatures (guest_email, document_id, signed_name, signed_at)
       values ('old-guest@example.test', $1, 'Old Guest', now() - interval '1100 days'),
              ('new-guest@example.test', $1, 'New Guest', now() - interval '10 days')`,
      [waiver.id],
    );
    await db.query(
      `insert into public.contact_messages (name, email, message, created_at)
       values ('Old', 'old@example.test', 'Hello', now() - interval '400 days'), ('New', 'new@example.test', 'Hello', now() - interval '5 days')`,
    );
    const service = (sql: string) => asUser(db, { role: 'service_role' }, (tx) => rpc<Record<string, number>>(tx, sql));
    expect(await service('public.apply_data_retention(now())')).toEqual({ guest_signatures: 1, contact_messages: 1, audit_events: 0 });
    expect(await service('public.apply_data_retention(now())')).toEqual({ guest_signatures: 0, contact_messages: 0, audit_events: 0 });
    expect(await count(`from public.guest_waiver_signatures where guest_email = 'new-guest@example.test'`, [])).toBe(1);
    expect(await count(`from public.contact_messages where email = 'new@example.test'`, [])).toBe(1);

    // The studio shortens the contact period: the next run applies it.
    await expectSqlError(
      asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_set_data_retention($1, $2)', [1095, 5])),
      { code: '22023', hint: 'invalid_retention', message: 'Each period must be between 30 and 3650 days' },
    );
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_set_data_retention($1, $2)', [1095, 30]));
    // Admin > Settings reads the periods as they are now; nobody else may.
    expect(await asUser(db, admin.claims, (tx) => rpc(tx, 'public.admin_data_retention()'))).toEqual({
      guest_signature_days: 1095,
      contact_message_days: 30,
    });
    const reader = await createUser(db, 'retention-reader');
    await expectSqlError(
      asUser(db, reader.claims, (tx) => rpc(tx, 'public.admin_data_retention()')),
      { code: '42501', hint: 'not_admin' },
    );
    expect(await service(`public.apply_data_retention(now() + interval '26 days')`)).toMatchObject({ contact_messages: 1 });
  });
});
