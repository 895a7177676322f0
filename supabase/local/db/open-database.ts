import { PGlite } from '@electric-sql/pglite';
import { citext } from '@electric-sql/pglite/contrib/citext';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/** The PGlite extensions platform.sql and the migrations create (hosted Supabase has them too). */
export const pgliteExtensions = { pgcrypto, citext, pg_trgm };

export type Database = PGlite;

/**
 * The cluster's bootstrap superuser. Hosted Supabase's is `supabase_admin`; `postgres` is created
 * by platform.sql without superuser. PGlite cannot demote or rename its bootstrap role, so new
 * clusters are initialised with this name instead of PGlite's default `postgres`.
 */
export const PLATFORM_SUPERUSER = 'supabase_admin';

/**
 * The part of a database client the apply functions need: PGlite and its transactions fit it,
 * and so does a small adapter over node-postgres (see supabase/tests/support/real-postgres.ts).
 */
export interface SqlExecutor {
  query<T>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(sql: string): Promise<unknown>;
}
export interface SqlDatabase extends SqlExecutor {
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
}

export interface OpenDatabaseOptions {
  /** A folder for the data files, or 'memory' (the default) for a throwaway database. */
  dataDir?: string;
  /** A tarball from `dumpDataDir()` to start from instead of running initdb (much faster). */
  loadDataDir?: Blob;
}

/**
 * Opens (or creates) a PGlite database with the extensions this project uses. Applies nothing:
 * see applyPlatform / applyMigrations / applySeed, or prepareDatabase for the whole sequence.
 */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const dataDir = options.dataDir === 'memory' ? undefined : options.dataDir;
  const db = await PGlite.create(dataDir, {
    extensions: pgliteExtensions,
    initDbStartParams: ['-U', PLATFORM_SUPERUSER],
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  return db;
}
