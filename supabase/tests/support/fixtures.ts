import { expect } from 'vitest';
import type { JwtClaims } from '../../local/db/as-user.ts';
import type { SqlExecutor } from '../../local/db/open-database.ts';

export interface TestUser {
  userId: string;
  memberId: string;
  email: string;
  claims: JwtClaims;
}

let counter = 0;
/** A unique email per call, so tests sharing one database never collide. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}-${Date.now()}@example.test`;
}

interface MemberFields {
  membership_tier?: 'trial' | 'payg' | 'standard' | 'premium';
  has_used_trial?: boolean;
  is_admin?: boolean;
}

/**
 * Creates an auth user as the gateway would (the trigger creates the member row), then sets
 * member fields directly as the database owner. `metadata` is the sign-up's user metadata.
 */
export async function createUser(
  db: SqlExecutor,
  label: string,
  fields: MemberFields = {},
  metadata: Record<string, unknown> = { full_name: `Test ${label}` },
): Promise<TestUser> {
  const email = uniqueEmail(label);
  const { rows } = await db.query<{ id: string }>(
    `insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_user_meta_data, created_at, updated_at)
     values (gen_random_uuid(), 'authenticated', 'authenticated', $1, 'x', now(), $2, now(), now()) returning id`,
    [email, JSON.stringify(metadata)],
  );
  const userId = rows[0]!.id;
  const member = await db.query<{ id: string }>(
    `update public.members set
       membership_tier = coalesce($2, membership_tier),
       has_used_trial = coalesce($3, has_used_trial),
       is_admin = coalesce($4, is_admin)
     where user_id = $1 returning id`,
    [userId, fields.membership_tier ?? null, fields.has_used_trial ?? null, fields.is_admin ?? null],
  );
  return { userId, memberId: member.rows[0]!.id, email, claims: { role: 'authenticated', sub: userId, email } };
}

interface ClassFields {
  name?: string;
  startsIn?: string;
  capacity?: number;
  type?: 'Group' | 'One-to-One';
  is_premium?: boolean;
  unlock_for_standard?: string;
  price_payg?: number | null;
}

/** Inserts a class as the database owner; `startsIn` is an interval from now, e.g. '2 days'. */
export async function createClass(db: SqlExecutor, fields: ClassFields = {}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into public.classes (name, start_time, trainer, type, capacity, is_premium, unlock_for_standard, price_payg)
     values ($1, now() + $2::interval, 'Coach Test', $3, $4, $5, $6, $7) returning id`,
    [
      fields.name ?? 'Test Class',
      fields.startsIn ?? '2 days',
      fields.type ?? 'Group',
      fields.capacity ?? 10,
      fields.is_premium ?? false,
      fields.unlock_for_standard ?? '3 days',
      fields.price_payg === undefined ? 10 : fields.price_payg,
    ],
  );
  return rows[0]!.id;
}

export interface SqlErrorShape {
  code?: string;
  hint?: string;
  message?: string | RegExp;
}

/** Asserts that `promise` rejects with a PostgreSQL error of this SQLSTATE / hint / message. */
export async function expectSqlError(promise: Promise<unknown>, expected: SqlErrorShape): Promise<void> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  expect(caught, 'expected the statement to be refused').toBeDefined();
  const e = caught as { code?: string; hint?: string; message: string };
  if (expected.code) expect(e.code).toBe(expected.code);
  if (expected.hint) expect(e.hint).toBe(expected.hint);
  if (typeof expected.message === 'string') expect(e.message).toBe(expected.message);
  if (expected.message instanceof RegExp) expect(e.message).toMatch(expected.message);
}

/**
 * Calls an RPC and returns its result as PostgREST renders it: a row type becomes an object, an
 * enum its string, and a set-returning function an array of its rows.
 */
export async function rpc<T = Record<string, unknown>>(tx: SqlExecutor, call: string, params: unknown[] = []): Promise<T> {
  const [schema, name] = /^\s*(\w+)\.(\w+)\s*\(/.exec(call)?.slice(1) ?? [];
  const { rows: fn } = await tx.query<{ setof: boolean }>(
    `select exists (select 1 from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                     where n.nspname = $1 and p.proname = $2 and p.proretset) as setof`,
    [schema ?? '', name ?? ''],
  );
  const sql = fn[0]?.setof ? `select coalesce(json_agg(r), '[]'::json) as result from ${call} r` : `select to_json(${call}) as result`;
  const { rows } = await tx.query<{ result: T }>(sql, params);
  return rows[0]!.result;
}

/** Reads a class's counters as the database owner. */
export async function classCounts(db: SqlExecutor, classId: string) {
  const { rows } = await db.query<{ capacity: number; current_bookings: number; spots_left: number; bookings: number }>(
    `select c.capacity, c.current_bookings, c.spots_left,
            (select count(*)::int from public.bookings b where b.class_id = c.id) as bookings
       from public.classes c where c.id = $1`,
    [classId],
  );
  return rows[0]!;
}

/**
 * Publishes a version of each booking document (terms, waiver, PAR-Q with two questions) as the
 * database owner, as an admin would; returns their ids. Until a kind is published nothing asks for
 * it, so test databases without documents book as before (decision 0021).
 */
export async function publishBookingDocuments(db: SqlExecutor, label = 'Test'): Promise<{ terms: string; waiver: string; parq: string }> {
  const { rows } = await db.query<{ kind: 'terms' | 'waiver' | 'parq'; id: string }>(
    `insert into public.document_versions (kind, version, title, body, questions)
     select k.kind, coalesce((select max(v.version) from public.document_versions v where v.kind = k.kind), 0) + 1,
            $1 || ' ' || k.kind, 'The ' || k.kind || ' text.', k.questions
       from (values ('terms'::public.document_kind, null::jsonb), ('waiver', null),
                    ('parq', '["Has a doctor said you have a heart condition?", "Do you feel pain in your chest when active?"]'::jsonb)) k(kind, questions)
     returning kind::text as kind, id`,
    [label],
  );
  return Object.fromEntries(rows.map((r) => [r.kind, r.id])) as { terms: string; waiver: string; parq: string };
}

/**
 * Signs every current booking document for a member as the database owner (answering "no" to
 * each PAR-Q question): what a fixture member who books needs once documents are published.
 */
export async function signCurrentDocuments(db: SqlExecutor, memberId: string): Promise<void> {
  await db.query(
    `insert into public.document_acceptances (member_id, document_id, signed_name)
     select $1, d.id, 'Test Signature' from (select distinct on (kind) * from public.document_versions
                                             where kind in ('terms', 'waiver', 'parq') order by kind, version desc) d
     on conflict (member_id, document_id) do nothing`,
    [memberId],
  );
  await db.query(
    `insert into public.health_answers (member_id, document_id, answers, consented_at, signed_name)
     select $1, d.id, (select jsonb_agg(false) from jsonb_array_elements(d.questions)), now(), 'Test Signature'
       from public.document_versions d where d.kind = 'parq' order by d.version desc limit 1
     on conflict (member_id) do update set document_id = excluded.document_id, answers = excluded.answers`,
    [memberId],
  );
}
