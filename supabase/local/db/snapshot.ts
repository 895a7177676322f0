import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { applyMigrations, applyPlatform, applySeed, listMigrations, type ApplyMigrationsResult } from './apply.ts';
import { openDatabase, PLATFORM_SUPERUSER, type Database, type SqlExecutor } from './open-database.ts';
import { platformSqlPath, snapshotCacheDir } from './paths.ts';
import { applyStudioSettings } from './studio-settings.ts';

// A fresh initdb costs 6-12 s and a lot of memory; loading a dumped tarball ~1-2 s. So the
// platform + migrations are applied once, dumped, and cached under .data/cache keyed by a hash
// of everything that shaped them. Demo data is NOT in the snapshot: it is relative to "now",
// so it is applied fresh (fast) each time a seeded database is made.

// The package does not export its package.json; find it next to the resolved entry point.
const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
const pgliteVersion = (
  JSON.parse(readFileSync(`${pgliteEntry.slice(0, pgliteEntry.lastIndexOf('/dist/'))}/package.json`, 'utf8')) as {
    version: string;
  }
).version;

/** Hash of platform.sql, every migration file and the PGlite version. */
export function schemaHash(): string {
  const h = createHash('sha256');
  h.update(`pglite ${pgliteVersion}\n`);
  h.update(readFileSync(platformSqlPath));
  for (const m of listMigrations()) h.update(`\n-- ${m.version}_${m.name}\n`).update(m.sql);
  return h.digest('hex').slice(0, 16);
}

function withFileLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  const staleMs = 180_000;
  const tryLock = async (): Promise<T> => {
    try {
      mkdirSync(lockDir);
    } catch {
      // Another process is building the same snapshot; a crashed builder's lock goes stale.
      if (Date.now() - statSync(lockDir, { throwIfNoEntry: false })!.mtimeMs > staleMs) rmSync(lockDir, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 250));
      return tryLock();
    }
    try {
      return await fn();
    } finally {
      rmSync(lockDir, { recursive: true, force: true });
    }
  };
  return tryLock();
}

async function buildSnapshot(): Promise<Blob> {
  const db = await openDatabase({ dataDir: 'memory' });
  try {
    await applyPlatform(db);
    await applyMigrations(db);
    return await db.dumpDataDir('gzip');
  } finally {
    await db.close();
  }
}

const memo = new Map<string, Promise<Blob>>();

/**
 * The migrated (platform + migrations, no seed) database as a gzip tarball for `loadDataDir`,
 * from the disk cache or built once (concurrent processes wait for one builder).
 */
export function getMigratedSnapshot(): Promise<Blob> {
  const hash = schemaHash();
  let pending = memo.get(hash);
  if (!pending) {
    const file = `${snapshotCacheDir}/migrated-${hash}.tar.gz`;
    pending = (async () => {
      if (!existsSync(file)) {
        mkdirSync(snapshotCacheDir, { recursive: true });
        await withFileLock(`${file}.lock`, async () => {
          if (existsSync(file)) return;
          const blob = await buildSnapshot();
          const tmp = `${file}.${process.pid}.tmp`;
          writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
          renameSync(tmp, file);
        });
      }
      return new Blob([readFileSync(file)]);
    })();
    pending.catch(() => memo.delete(hash));
    memo.set(hash, pending);
  }
  return pending;
}

export interface PrepareDatabaseOptions {
  /** Folder for the data files, or 'memory'. */
  dataDir: string;
  /** Load the demo data when the database is created (default true). Never on an existing one. */
  seed?: boolean;
  /** Wipe the data folder first (npm run db:reset). */
  reset?: boolean;
}

export interface PreparedDatabase {
  db: Database;
  /** True when the data folder was new (created from the snapshot, seeded if asked). */
  created: boolean;
  migrations: ApplyMigrationsResult;
}

/** Migrations recorded in the database's history that are no longer in supabase/migrations. */
export async function supersededMigrations(db: SqlExecutor): Promise<string[]> {
  const history = await db.query<{ t: string | null }>("select to_regclass('supabase_migrations.schema_migrations')::text as t");
  if (!history.rows[0]?.t) return [];
  const current = new Set(listMigrations().map((m) => m.version));
  const { rows } = await db.query<{ version: string; name: string | null }>(
    'select version, name from supabase_migrations.schema_migrations order by version',
  );
  return rows.filter((r) => !current.has(r.version)).map((r) => `${r.version}_${r.name ?? ''}`);
}

/**
 * What the local stack calls on start: opens the data folder (creating it from the migrated
 * snapshot when missing, then seeding), re-applies platform.sql and any pending migrations.
 */
export async function prepareDatabase(options: PrepareDatabaseOptions): Promise<PreparedDatabase> {
  const { dataDir, seed = true } = options;
  const inMemory = dataDir === 'memory';
  if (options.reset && !inMemory) rmSync(dataDir, { recursive: true, force: true });
  const created = inMemory || !existsSync(`${dataDir}/PG_VERSION`);
  if (created && !inMemory) {
    // PGlite refuses to load a tarball into a folder that already holds files.
    rmSync(dataDir, { recursive: true, force: true });
    mkdirSync(dataDir, { recursive: true });
  }
  const db = await openDatabase({ dataDir, ...(created ? { loadDataDir: await getMigratedSnapshot() } : {}) });
  // A folder made before the local database had hosted's roles (postgres was its superuser)
  // cannot be converted; one built from a migration chain that no longer exists (the one-time
  // per-domain squash) cannot take the current migrations. Either starts again (demo data only).
  if (!created && (!(await hasHostedRoles(db)) || (await supersededMigrations(db)).length > 0)) {
    console.log(
      `[local stack] ${dataDir} was built without hosted Supabase's roles or from an older migration chain; recreating it (demo data is re-seeded).`,
    );
    await db.close();
    return prepareDatabase({ ...options, reset: true });
  }
  try {
    await applyPlatform(db);
    const migrations = await applyMigrations(db);
    // studio.config.json may have changed since the last start.
    await applyStudioSettings(db);
    if (created && seed) await applySeed(db);
    return { db, created, migrations };
  } catch (error) {
    await db.close();
    throw error;
  }
}

/** Whether the cluster's bootstrap superuser is hosted's supabase_admin (not postgres). */
async function hasHostedRoles(db: Database): Promise<boolean> {
  const { rows } = await db.query<{ rolname: string }>('select rolname from pg_catalog.pg_roles where oid = 10');
  return rows[0]?.rolname === PLATFORM_SUPERUSER;
}

/**
 * A fresh in-memory database with the platform and every migration applied (from the cached
 * snapshot, ~1-2 s), plus the demo data when `seed` is true. Close it when done.
 */
export async function createTestDatabase(options: { seed?: boolean } = {}): Promise<Database> {
  const db = await openDatabase({ dataDir: 'memory', loadDataDir: await getMigratedSnapshot() });
  await applyStudioSettings(db);
  if (options.seed) await applySeed(db);
  return db;
}
