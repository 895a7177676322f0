import { asUser } from '../../local/db/as-user.ts';
import type { SqlDatabase } from '../../local/db/open-database.ts';
import { createUser, rpc, type TestUser } from '../support/fixtures.ts';

/** Calls an RPC as a member in its own committed transaction (one API request). */
export function call<T = Record<string, unknown>>(db: SqlDatabase, user: TestUser, sql: string, params: unknown[] = []) {
  return asUser(db, user.claims, (tx) => rpc<T>(tx, sql, params));
}

/** Books `count` premium members into the class directly (as the owner): a full class without emails. */
export async function fillWith(db: SqlDatabase, classId: string, count: number, label = 'filler'): Promise<TestUser[]> {
  const users: TestUser[] = [];
  for (let i = 0; i < count; i += 1) {
    const u = await createUser(db, `${label}-${i}`, { membership_tier: 'premium' });
    await db.query(`insert into public.bookings (member_id, class_id, type) values ($1, $2, 'paid')`, [u.memberId, classId]);
    users.push(u);
  }
  return users;
}

export async function bookingIdOf(db: SqlDatabase, memberId: string, classId: string): Promise<string | null> {
  const { rows } = await db.query<{ id: string }>('select id from public.bookings where member_id = $1 and class_id = $2', [
    memberId,
    classId,
  ]);
  return rows[0]?.id ?? null;
}

export async function waitlistOf(db: SqlDatabase, classId: string): Promise<string[]> {
  const { rows } = await db.query<{ member_id: string }>('select member_id from public.class_waitlist where class_id = $1 order by seq', [
    classId,
  ]);
  return rows.map((r) => r.member_id);
}

export interface OutboxRow {
  kind: string;
  to_email: string;
  member_id: string | null;
  class_id: string | null;
  booking_id: string | null;
  subject: string;
  body_text: string;
  links: { label: string; path: string }[];
  dedupe_key: string | null;
  sent_at: Date | null;
}

export async function emailsTo(db: SqlDatabase, memberId: string): Promise<OutboxRow[]> {
  const { rows } = await db.query<OutboxRow>(
    'select kind, to_email, member_id, class_id, booking_id, subject, body_text, links, dedupe_key, sent_at from public.notification_outbox where member_id = $1 order by created_at, id',
    [memberId],
  );
  return rows;
}
