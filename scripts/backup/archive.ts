/**
 * One backup archive (decision 0075): a gzipped JSON file holding the database's data (every table
 * of the public and auth schemas), the schema version it was taken at (the last applied migration)
 * and every stored object (bucket, name, content type, bytes). The same format comes from the local
 * stack and from a hosted project, and restores into either.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { SqlDatabase, SqlExecutor } from '../../supabase/local/db/open-database';

export const ARCHIVE_FORMAT = 'studio-backup';
export const ARCHIVE_VERSION = 1;
/** The schemas whose data a backup holds (storage's rows are rebuilt from `objects`). */
export const BACKED_UP_SCHEMAS = ['public', 'auth'] as const;

export interface TableData {
  /** `schema.table` */
  name: string;
  columns: string[];
  /** The rows as PostgreSQL's own JSON text (json_agg), kept as text so no value is rounded. */
  rows: string;
  count: number;
}

export interface SequenceValue {
  name: string;
  value: string;
  isCalled: boolean;
}

export interface StoredObjectData {
  bucket: string;
  name: string;
  owner: string | null;
  contentType: string;
  /** base64 */
  data: string;
}

export interface BackupArchive {
  format: typeof ARCHIVE_FORMAT;
  version: typeof ARCHIVE_VERSION;
  createdAt: string;
  /** 'local' or the hosted project's host, for the reader. */
  source: string;
  /** The last migration applied to the database it came from. */
  schemaVersion: string;
  tables: TableData[];
  sequences: SequenceValue[];
  objects: StoredObjectData[];
}

/** A refusal the command prints as it is (no stack trace): bad archive, non-empty project, … */
export class BackupError extends Error {}

export function writeArchive(path: string, archive: BackupArchive): void {
  writeFileSync(path, gzipSync(Buffer.from(JSON.stringify(archive))));
}

export function readArchive(path: string): BackupArchive {
  let parsed: unknown;
  try {
    parsed = JSON.parse(gunzipSync(readFileSync(path)).toString('utf8'));
  } catch (error) {
    throw new BackupError(`${path} is not a backup archive made by "npm run backup" (${(error as Error).message}).`);
  }
  const a = parsed as Partial<BackupArchive>;
  if (a.format !== ARCHIVE_FORMAT || a.version !== ARCHIVE_VERSION || !Array.isArray(a.tables) || !a.schemaVersion) {
    throw new BackupError(`${path} is not a version ${ARCHIVE_VERSION} backup archive made by "npm run backup".`);
  }
  return a as BackupArchive;
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (schemaDotName: string) => {
  const [schema, name] = schemaDotName.split('.', 2) as [string, string];
  return `${ident(schema)}.${ident(name)}`;
};

/** The last migration recorded in the Supabase CLI's history table, or null when there is none. */
export async function schemaVersion(db: SqlExecutor): Promise<string | null> {
  const { rows } = await db.query<{ t: string | null }>("select to_regclass('supabase_migrations.schema_migrations')::text as t");
  if (!rows[0]?.t) return null;
  const last = await db.query<{ version: string | null }>('select max(version) as version from supabase_migrations.schema_migrations');
  return last.rows[0]?.version ?? null;
}

/**
 * Ordinary and partitioned tables of the backed-up schemas (partitions are read through their
 * parent), without generated columns (the database computes them again).
 */
async function listTables(db: SqlExecutor): Promise<{ name: string; columns: string[] }[]> {
  const { rows } = await db.query<{ name: string; columns: string[] }>(
    `select n.nspname || '.' || c.relname as name,
            array_agg(a.attname::text order by a.attnum) as columns
       from pg_catalog.pg_class c
       join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       join pg_catalog.pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      where n.nspname = any($1) and c.relkind in ('r', 'p') and not c.relispartition
        and a.attgenerated = ''
        -- GoTrue's own migration history belongs to the target's GoTrue, whatever its version.
        and (n.nspname, c.relname) <> ('auth', 'schema_migrations')
      group by n.nspname, c.relname
      order by 1`,
    [[...BACKED_UP_SCHEMAS]],
  );
  return rows;
}

/** Reads every row of the backed-up schemas, their sequences and the schema version. */
export async function dumpDatabase(db: SqlExecutor): Promise<Pick<BackupArchive, 'schemaVersion' | 'tables' | 'sequences'>> {
  const version = await schemaVersion(db);
  if (!version) throw new BackupError('The database has no migration history (supabase_migrations.schema_migrations): nothing to back up.');
  const tables: TableData[] = [];
  for (const table of await listTables(db)) {
    const cols = table.columns.map(ident).join(', ');
    const { rows } = await db.query<{ rows: string; count: number }>(
      `select coalesce(json_agg(t), '[]')::text as rows, count(*)::int as count from (select ${cols} from ${qualified(table.name)}) t`,
    );
    tables.push({ name: table.name, columns: table.columns, rows: rows[0]!.rows, count: rows[0]!.count });
  }
  const seqs = await db.query<{ name: string; value: string | null; is_called: boolean }>(
    `select schemaname || '.' || sequencename as name, last_value::text as value, last_value is not null as is_called
       from pg_catalog.pg_sequences where schemaname = any($1) order by 1`,
    [[...BACKED_UP_SCHEMAS]],
  );
  const sequences = seqs.rows.filter((s) => s.value !== null).map((s) => ({ name: s.name, value: s.value!, isCalled: s.is_called }));
  return { schemaVersion: version, tables, sequences };
}

/**
 * Why a project cannot take a restore, or null when it can: it must be at the archive's schema
 * version and hold no users and no stored objects (what a project has right after its migrations).
 */
export async function restoreRefusal(db: SqlExecutor, archive: BackupArchive): Promise<string | null> {
  const version = await schemaVersion(db);
  if (version !== archive.schemaVersion) {
    return (
      `The archive is at schema version ${archive.schemaVersion} but this project's migrations end at ${version ?? '(none)'}. ` +
      "Restore into a project migrated to exactly the archive's version (check out the commit whose last migration it is), then migrate forward."
    );
  }
  const { rows } = await db.query<{ users: number; objects: number }>(
    'select (select count(*)::int from auth.users) as users, (select count(*)::int from storage.objects) as objects',
  );
  const { users, objects } = rows[0]!;
  if (users > 0 || objects > 0) {
    return (
      `This project is not empty (${users} users, ${objects} stored files): restore only loads into an empty project, ` +
      'so nothing was changed. Restore into a new project (or, locally, a new data folder).'
    );
  }
  return null;
}

/**
 * Replaces the backed-up schemas' rows with the archive's, in one transaction with triggers off
 * (session_replication_role = replica, as Supabase's own restore guide does), so nothing fires
 * twice: no emails are queued again, no audit rows are added, foreign keys are loaded as they were.
 */
export async function loadDatabase(db: SqlDatabase, archive: BackupArchive): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.exec('set local session_replication_role = replica');
    // Rows the migrations themselves inserted (reference data) are in the archive too.
    for (const table of archive.tables) await tx.query(`delete from ${qualified(table.name)} where true`);
    for (const table of archive.tables) {
      if (table.count === 0) continue;
      const cols = table.columns.map(ident).join(', ');
      await tx.query(
        `insert into ${qualified(table.name)} (${cols}) overriding system value
         select ${cols} from json_populate_recordset(null::${qualified(table.name)}, $1::json)`,
        [table.rows],
      );
    }
    for (const seq of archive.sequences) {
      await tx.query('select pg_catalog.setval($1::regclass, $2::bigint, $3)', [qualified(seq.name), seq.value, seq.isCalled]);
    }
  });
}
