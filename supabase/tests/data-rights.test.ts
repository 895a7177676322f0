import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, expectSqlError, rpc, type TestUser } from './support/fixtures.ts';
import { DATA_EXPORT_SECTIONS } from '../../src/features/profile/lib/data-export-sections.ts';

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
    // Every part of the file is a section of the readable page, and no section is missing from it.
    expect(Object.keys(exported).sort()).toEqual(['exported_at', ...DATA_EXPORT_SECTIONS.map(([key]) => key)].sort());
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

  it('exports the money parts: family lines, referrals, offers, billing, attendance, and nothing of another member', async () => {
    const member = await createUser(db, 'rights-money', { membership_tier: 'payg' });
    const friend = await createUser(db, 'rights-friend', {}, { full_name: 'Fiona Friend' });
    const referrer = await createUser(db, 'rights-referrer', {}, { full_name: 'Rita Referrer' });
    const { rows: paid } = await db.query<{ id: string }>(
      `insert into public.payments (member_id, kind, amount, description, checkout_reference, status, paid_at, plan_slug, collected_by)
       values ($1, 'class', 18, 'Family places', 'ref-money-0', 'paid', now() - interval '1 day', null, 'card'),
              ($1, 'plan', 90, 'Standard', 'ref-money-1', 'paid', now(), 'standard', 'direct_debit') returning id`,
      [member.memberId],
    );
    const family = paid[0]!.id;
    const payment = paid[1]!.id;
    await db.query(
      `insert into public.family_payment_lines (payment_id, position, member_id, name, covered_by, amount)
       values ($1, 1, $2, 'Test rights-money', 'paid', 10), ($1, 2, $2, 'Kid Money', 'paid', 8)`,
      [family, member.memberId],
    );
    await db.query(`insert into public.referral_codes (member_id, code) values ($1, 'MONEY123')`, [member.memberId]);
    const { rows: refs } = await db.query<{ id: string }>(
      `insert into public.referrals (referred_member_id, referrer_member_id, status, payment_id, settled_at)
       values ($1, $2, 'rewarded', $3, now()), ($4, $1, 'pending', null, null) returning id`,
      [member.memberId, referrer.memberId, payment, friend.memberId],
    );
    await db.query(`insert into public.referral_rewards (referral_id, member_id, kind, used_at) values ($1, $2, 'class_credit', now())`, [
      refs[0]!.id,
      member.memberId,
    ]);
    const code = await asUser(db, admin.claims, (tx) =>
      rpc<{ id: string }>(tx, 'public.admin_create_promo_code($1, $2, $3, $4, $5, $6)', [
        'RIGHTS10',
        ['standard'],
        new Date(Date.now() + 30 * 86_400_000).toISOString(),
        10,
        10,
        null,
      ]),
    );
    await db.query(
      `insert into public.offer_uses (payment_id, member_id, promo_code_id, list_price, discount) values ($1, $2, $3, 100, 10)`,
      [payment, member.memberId, code.id],
    );
    await db.query(`insert into public.billing_methods (member_id, method, updated_at) values ($1, 'direct_debit', now())`, [
      member.memberId,
    ]);
    const { rows: mandate } = await db.query<{ id: string }>(
      `insert into private.direct_debit_mandates (member_id, provider_mandate_id, status, created_at, updated_at)
       values ($1, 'MD-rights', 'active', now(), now()) returning id`,
      [member.memberId],
    );
    await db.query(
      `insert into private.direct_debit_collections (payment_id, attempt, mandate_id, provider_payment_id, charge_date, amount, status, created_at, updated_at)
       values ($1, 1, $2, 'PM-rights', current_date, 90, 'paid_out', now(), now())`,
      [payment, mandate[0]!.id],
    );
    const { rows: policy } = await db.query<{ id: string }>(
      `insert into public.attendance_policies (valid_from, no_show_fee) values ('2099-01-01', 5) returning id`,
    );
    await db.query(
      `insert into public.attendance_incidents (member_id, booking_id, kind, class_name, class_start_time, occurred_at, policy_id, fee,
                                                waived_at, waived_by, waive_reason)
       values ($1, gen_random_uuid(), 'no_show', 'Rights Spin', now() - interval '2 days', now() - interval '2 days', $2, 5,
               now(), $3, 'Doctor''s note')`,
      [member.memberId, policy[0]!.id, admin.memberId],
    );

    const exported = await asUser(db, member.claims, (tx) => rpc<Record<string, unknown>>(tx, 'public.my_data_export()'));
    expect(exported.payments).toEqual([
      expect.objectContaining({
        checkout_reference: 'ref-money-0',
        family_lines: [
          { position: 1, dependant_id: null, name: 'Test rights-money', covered_by: 'paid', amount: 10 },
          { position: 2, dependant_id: null, name: 'Kid Money', covered_by: 'paid', amount: 8 },
        ],
      }),
      expect.objectContaining({ checkout_reference: 'ref-money-1', collected_by: 'direct_debit', family_lines: [] }),
    ]);
    expect(exported.referrals).toEqual({
      code: 'MONEY123',
      made: [expect.objectContaining({ status: 'pending', settled_at: null })],
      received: expect.objectContaining({ status: 'rewarded', refused_reason: null }),
      rewards: [expect.objectContaining({ kind: 'class_credit', amount: null })],
    });
    expect(exported.offer_uses).toEqual([
      expect.objectContaining({ payment_id: payment, offer: 'RIGHTS10', kind: 'promo_code', list_price: 100, discount: 10 }),
    ]);
    expect(exported.billing).toEqual({
      method: 'direct_debit',
      direct_debit_mandates: [expect.objectContaining({ mandate: 'MD-rights', status: 'active', ended_at: null })],
      direct_debit_collections: [expect.objectContaining({ payment_id: payment, attempt: 1, amount: 90, status: 'paid_out' })],
    });
    expect(exported.attendance).toEqual([
      expect.objectContaining({ kind: 'no_show', class_name: 'Rights Spin', fee: 5, waive_reason: "Doctor's note" }),
    ]);
    // Nothing of another member: not the friend they referred, the member who referred them, or the
    // admin who waived the fee.
    const text = JSON.stringify(exported);
    for (const other of [friend, referrer, admin]) {
      expect(text).not.toContain(other.memberId);
      expect(text).not.toContain(other.email);
    }
    expect(text).not.toMatch(/Fiona Friend|Rita Referrer/);

    // Their friend's export has their own side only: the referral they received, no code, no billing.
    const theirs = await asUser(db, friend.claims, (tx) => rpc<Record<string, unknown>>(tx, 'public.my_data_export()'));
    expect(theirs.referrals).toEqual({ code: null, made: [], received: expect.objectContaining({ status: 'pending' }), rewards: [] });
    expect(theirs).toMatchObject({
      offer_uses: [],
      attendance: [],
      billing: { method: 'card', direct_debit_mandates: [], direct_debit_collections: [] },
    });
    expect(JSON.stringify(theirs)).not.toContain(member.memberId);
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
