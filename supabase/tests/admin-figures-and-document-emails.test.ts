import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asUser } from '../local/db/as-user.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';
import { createUser, publishBookingDocuments, rpc, uniqueEmail, type TestUser } from './support/fixtures.ts';

// A sign-up that never confirmed its email is not a member in the admin figures (decision 0070);
// a new version of a document members must accept is emailed to every active member (decision 0071).

let db: Database;
let admin: TestUser;
beforeAll(async () => {
  db = await createTestDatabase();
  await publishBookingDocuments(db);
  admin = await createUser(db, 'figures-admin', { is_admin: true, membership_tier: 'premium' });
});
afterAll(async () => {
  await db.close();
});

const totalMembers = () =>
  asUser(db, admin.claims, (tx) => rpc<{ total_members: number; payg_members: number }>(tx, 'public.admin_stats()'));

/** A sign-up as GoTrue stores it before the email link is followed. */
async function unconfirmedSignUp(label: string): Promise<{ userId: string; memberId: string; email: string }> {
  const email = uniqueEmail(label);
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data, created_at, updated_at)
     values (gen_random_uuid(), 'authenticated', 'authenticated', $1, 'x', null, '{"full_name": "Una Unconfirmed"}', now(), now())
     returning id`,
    [email],
  );
  const member = await db.query<{ id: string }>('select id from public.members where user_id = $1', [rows[0]!.id]);
  return { userId: rows[0]!.id, memberId: member.rows[0]!.id, email };
}

describe('admin figures', () => {
  it('count a sign-up as a member only once its email is confirmed', async () => {
    const before = await totalMembers();
    const signUp = await unconfirmedSignUp('figures-unconfirmed');
    expect((await totalMembers()).total_members).toBe(before.total_members);
    expect((await totalMembers()).payg_members).toBe(before.payg_members);
    // What the Members Management cards count (PostgREST: awaiting_confirmation=eq.false).
    const cards = () =>
      asUser(db, admin.claims, (tx) =>
        tx.query<{ n: number }>('select count(*)::int as n from public.members where awaiting_confirmation = false'),
      );
    const cardsBefore = (await cards()).rows[0]!.n;

    await db.query('update auth.users set email_confirmed_at = now() where id = $1', [signUp.userId]);
    expect((await totalMembers()).total_members).toBe(before.total_members + 1);
    expect((await cards()).rows[0]!.n).toBe(cardsBefore + 1);
  });
});

describe('a new version of a booking document', () => {
  const publish = (kind: string) =>
    asUser(db, admin.claims, (tx) =>
      rpc<{ id: string; version: number }>(tx, 'public.publish_document($1, $2, $3, $4, $5::jsonb)', [
        kind,
        'Liability waiver',
        'The new waiver.',
        'Outdoor sessions are now covered.',
        null,
      ]),
    );
  const emailsOf = (documentId: string) =>
    db.query<{ member_id: string; subject: string; body_text: string; links: { label: string; path: string }[] }>(
      `select member_id, subject, body_text, links from public.notification_outbox
        where kind = 'document_updated' and dedupe_key like 'document_updated:' || $1 || ':%'`,
      [documentId],
    );

  it('queues one email per active member saying what changed, none to an unconfirmed sign-up', async () => {
    const member = await createUser(db, 'docs-member');
    const unconfirmed = await unconfirmedSignUp('docs-unconfirmed');
    const { rows: active } = await db.query<{ id: string }>(
      `select id from public.members where status = 'active' and user_id is not null and not awaiting_confirmation`,
    );
    const waiver = await publish('waiver');
    expect(waiver.version).toBeGreaterThan(1);
    const { rows } = await emailsOf(waiver.id);
    expect(rows.map((r) => r.member_id).sort()).toEqual(active.map((r) => r.id).sort());
    expect(rows.map((r) => r.member_id)).not.toContain(unconfirmed.memberId);
    const mine = rows.find((r) => r.member_id === member.memberId)!;
    expect(mine.subject).toBe('We have updated our Liability waiver');
    expect(mine.body_text).toContain(`We have published a new version of our Liability waiver (version ${waiver.version}).`);
    expect(mine.body_text).toContain('What changed: Outdoor sessions are now covered.');
    expect(mine.links).toEqual([{ label: 'Read and accept it', path: '/agreements' }]);
  });

  it('is not emailed for a document nobody has to accept (privacy)', async () => {
    await publish('privacy');
    const second = await publish('privacy');
    expect(second.version).toBe(2);
    expect((await emailsOf(second.id)).rows).toEqual([]);
  });
});
