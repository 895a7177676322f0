import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asServiceRole, asUser } from '../local/db/as-user.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createClass, createUser, rpc, type TestUser } from './support/fixtures.ts';
import { applyPaid, buyPlan, claimDue } from './support/membership-steps.ts';

// A receipt for every payment (first month, upgrade, package, pay-as-you-go class; a
// renewal keeps its own) and every refund, once each.

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  admin = await createUser(db, 'receipts-admin', { is_admin: true });
});
afterAll(async () => {
  await db.close();
});

const emails = async (m: TestUser) =>
  (
    await db.query<{ kind: string; subject: string; body_text: string }>(
      `select kind, subject, body_text from public.notification_outbox where to_email = $1 and kind in ('payment_receipt', 'refund_receipt', 'renewal_receipt') order by created_at, kind`,
      [m.email],
    )
  ).rows;

describe('receipts', () => {
  it('one for the first month, none more for a replay, and the renewal keeps its own', async () => {
    const member = await createUser(db, 'receipt-plan');
    const t0 = new Date('2027-05-10T10:00:00Z');
    const { charge } = await buyPlan(db, member, t0);
    await applyPaid(db, charge, `chk-${charge.checkout_reference}`, t0);
    const [renewal] = (await claimDue(db, new Date('2027-06-10T10:00:00Z'))).filter((c) => c.customer_id === `member-${member.memberId}`);
    await applyPaid(db, renewal!, `chk-${renewal!.checkout_reference}`, new Date('2027-06-10T10:00:00Z'));
    const sent = await emails(member);
    expect(sent.map((e) => e.kind)).toEqual(['payment_receipt', 'renewal_receipt']);
    expect(sent[0]!.subject).toBe('Receipt: Standard (£100/month)');
    expect(sent[0]!.body_text).toContain('Thank you: we received £100.00 for Standard (£100/month) on 10 May 2027.');
  });

  it('one for a pay-as-you-go class, and one for its refund when the studio cancels it', async () => {
    const member = await createUser(db, 'receipt-class', { membership_tier: 'payg', has_used_trial: true });
    const classId = await createClass(db, { price_payg: 10 });
    const hold = await asServiceRole(db, (tx) =>
      rpc<{ checkout_reference: string; booking_id: string }>(tx, 'public.create_class_payment_hold($1, $2, 15, null)', [
        member.memberId,
        classId,
      ]),
    );
    await asServiceRole(db, (tx) =>
      rpc(tx, `public.apply_checkout_result($1, 'chk-receipt', 'PAID', 10, 'GBP')`, [hold.checkout_reference]),
    );
    await asUser(db, admin.claims, (tx) => rpc(tx, 'public.cancel_booking($1)', [hold.booking_id]));
    const { rows } = await db.query<{ id: string }>('select id from public.refunds_owed where member_email = $1', [member.email]);
    await asUser(db, admin.claims, (tx) => rpc(tx, 'to_json(public.mark_refund_refunded($1))', [rows[0]!.id]));
    const sent = await emails(member);
    expect(sent.map((e) => e.kind)).toEqual(['payment_receipt', 'refund_receipt']);
    expect(sent[1]!.body_text).toContain('We have refunded £10.00 for');
  });
});
