import type { SqlDatabase, SqlExecutor } from './open-database.ts';

export type ApiRole = 'anon' | 'authenticated' | 'service_role';

/** The JWT claims PostgREST would put in request.jwt.claims for a request. */
export interface JwtClaims {
  role: ApiRole;
  sub?: string;
  email?: string;
  [claim: string]: unknown;
}

const apiRoles: readonly ApiRole[] = ['anon', 'authenticated', 'service_role'];

/**
 * Runs `fn` in one transaction as PostgREST runs a request: `set local role` to the JWT's role and
 * the claims in `request.jwt.claims` (transaction-local). Commits when `fn` resolves, rolls back
 * when it throws (the error is rethrown), or always rolls back with `{ rollback: true }`.
 */
export async function asUser<T>(
  db: SqlDatabase,
  claims: JwtClaims,
  fn: (tx: SqlExecutor) => Promise<T>,
  options: { rollback?: boolean } = {},
): Promise<T> {
  if (!apiRoles.includes(claims.role)) throw new Error(`Unknown API role: ${String(claims.role)}`);
  const rollbackMarker = new Error('asUser rollback');
  let value: T | undefined;
  try {
    return await db.transaction(async (tx) => {
      await tx.exec(`set local role ${claims.role}`);
      await tx.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(claims)]);
      value = await fn(tx);
      if (options.rollback) throw rollbackMarker;
      return value;
    });
  } catch (error) {
    if (error === rollbackMarker) return value as T;
    throw error;
  }
}

/** asUser for a visitor with only the anon key. */
export function asAnon<T>(db: SqlDatabase, fn: (tx: SqlExecutor) => Promise<T>, options?: { rollback?: boolean }) {
  return asUser(db, { role: 'anon' }, fn, options);
}

/** asUser for the service role (the Netlify functions' key): bypasses RLS like on hosted. */
export function asServiceRole<T>(db: SqlDatabase, fn: (tx: SqlExecutor) => Promise<T>, options?: { rollback?: boolean }) {
  return asUser(db, { role: 'service_role' }, fn, options);
}
