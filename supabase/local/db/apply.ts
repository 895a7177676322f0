import { readdirSync, readFileSync } from 'node:fs';
import type { SqlDatabase, SqlExecutor } from './open-database.ts';
import { migrationsDir, platformSqlPath, schemasDir, seedSqlPath } from './paths.ts';

export interface MigrationFile {
  /** The timestamp prefix, as the Supabase CLI records it. */
  version: string;
  name: string;
  path: string;
  sql: string;
}

const migrationFileName = /^(\d+)_(.+)\.sql$/;

/** The migration files in the order the Supabase CLI applies them (by version). */
export function listMigrations(dir: string = migrationsDir): MigrationFile[] {
  return readdirSync(dir)
    .map((file) => ({ file, match: migrationFileName.exec(file) }))
    .filter((f): f is { file: string; match: RegExpExecArray } => f.match !== null)
    .map(({ file, match }) => ({
      version: match[1]!,
      name: match[2]!,
      path: `${dir}/${file}`,
      sql: readFileSync(`${dir}/${file}`, 'utf8'),
    }))
    .sort((a, b) => a.version.localeCompare(b.version));
}

/** Creates what hosted Supabase provides before any migration (idempotent; run on every start). */
export async function applyPlatform(db: SqlExecutor): Promise<void> {
  await db.exec(readFileSync(platformSqlPath, 'utf8'));
}

// The Supabase CLI's own history table, so `supabase migration list` would read it the same way.
const historyDdl = `
  create schema if not exists supabase_migrations;
  create table if not exists supabase_migrations.schema_migrations (
    version text primary key,
    statements text[],
    name text
  );`;

/** The role migrations run as: hosted's `postgres`, which is not a superuser (platform.sql). */
export const MIGRATION_ROLE = 'postgres';

// A migration that switched roles could do locally what postgres may not do on hosted.
const roleSwitch = /\b(set\s+(session\s+|local\s+)?role|reset\s+role|session\s+authorization)\b/i;

/**
 * Runs `fn` in one transaction as `postgres`, the way the Supabase CLI applies migrations to the
 * hosted project: whatever needs a superuser, or ownership of auth's tables, fails here too.
 */
export async function asMigrationRole<T>(db: SqlDatabase, fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.exec(`set local role ${MIGRATION_ROLE}`);
    return fn(tx);
  });
}

export interface ApplyMigrationsResult {
  applied: string[];
  skipped: string[];
}

/**
 * Applies every migration not yet in supabase_migrations.schema_migrations, each in its own
 * transaction together with its history row and as `postgres` (not a superuser, as on hosted),
 * so a second run is a no-op and a failed migration leaves nothing half-applied.
 */
export async function applyMigrations(db: SqlDatabase, dir: string = migrationsDir): Promise<ApplyMigrationsResult> {
  await asMigrationRole(db, (tx) => tx.exec(historyDdl));
  const done = new Set(
    (await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map((r) => r.version),
  );
  const result: ApplyMigrationsResult = { applied: [], skipped: [] };
  for (const m of listMigrations(dir)) {
    const label = `${m.version}_${m.name}`;
    if (done.has(m.version)) {
      result.skipped.push(label);
      continue;
    }
    try {
      if (roleSwitch.test(m.sql.replace(/--.*$/gm, ''))) {
        throw new Error('a migration may not switch roles (hosted runs it as postgres, which cannot become another role)');
      }
      await asMigrationRole(db, async (tx) => {
        await tx.exec(m.sql);
        await tx.query('insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)', [
          m.version,
          m.name,
          [m.sql],
        ]);
      });
    } catch (error) {
      throw new Error(`Migration ${label} failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
    result.applied.push(label);
  }
  return result;
}

/** The schema files in the order the Supabase CLI applies them (lexicographic: 00_… first). */
export function listSchemaFiles(dir: string = schemasDir): { name: string; sql: string }[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => ({ name: file, sql: readFileSync(`${dir}/${file}`, 'utf8') }));
}

/**
 * Builds the database from supabase/schemas instead of the migrations (the equivalence test does,
 * to prove both describe the same database), as `postgres` in one transaction. Function bodies are
 * checked when called, not when created, so a domain may call a function a later file declares.
 */
export async function applySchemaFiles(db: SqlDatabase, dir: string = schemasDir): Promise<void> {
  await asMigrationRole(db, async (tx) => {
    await tx.exec('set local check_function_bodies = off');
    for (const file of listSchemaFiles(dir)) {
      try {
        await tx.exec(file.sql);
      } catch (error) {
        throw new Error(`supabase/schemas/${file.name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    }
  });
}

/** Loads the demo data (supabase/seed.sql) in one transaction. Local stack and tests only. */
export async function applySeed(db: SqlDatabase, path: string = seedSqlPath): Promise<void> {
  const sql = readFileSync(path, 'utf8');
  await db.transaction(async (tx) => {
    await tx.exec(sql);
  });
}
