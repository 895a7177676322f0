import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform, applySeed } from '../../supabase/local/db/apply';
import {
  findPostgresBinDir,
  pg,
  pgClientDatabase,
  startThrowawayCluster,
  type ThrowawayCluster,
} from '../../supabase/tests/support/real-postgres';
import { BACKED_UP_SCHEMAS, type BackupArchive } from './archive';
import { backupHosted, restoreHosted } from './hosted';

// The hosted path's database part on a real PostgreSQL server, logged in as hosted's `postgres`
// (not a superuser): a seeded project is backed up and restored into a second, empty one. (The
// stored files go through the Storage API; the restore drill covers them on the local stack.)
const binDir = findPostgresBinDir();
let cluster: ThrowawayCluster | undefined;

const asPostgres = (database: string) =>
  cluster!.connectionString.replace('supabase_admin@', 'postgres@').replace(/\/postgres$/, `/${database}`);
const project = (database: string) => ({ databaseUrl: asPostgres(database), supabaseUrl: 'http://127.0.0.1:9', serviceRoleKey: 'unused' });

async function prepared(database: string, seed: boolean) {
  const admin = new pg.Client({ connectionString: cluster!.connectionString });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
  const client = new pg.Client({ connectionString: cluster!.connectionString.replace(/\/postgres$/, `/${database}`) });
  await client.connect();
  const db = pgClientDatabase(client);
  await applyPlatform(db);
  await applyMigrations(db);
  if (seed) await applySeed(db);
  await client.end();
}

async function fingerprint(database: string): Promise<Record<string, string>> {
  const client = new pg.Client({ connectionString: cluster!.connectionString.replace(/\/postgres$/, `/${database}`) });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `select format('%I.%I', n.nspname, c.relname) as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any($1) and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
      [[...BACKED_UP_SCHEMAS]],
    );
    const out: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const r = await client.query<{ n: number; sum: string }>(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${name} t`,
      );
      out[name] = `${r.rows[0]!.n} rows, ${r.rows[0]!.sum}`;
    }
    return out;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  if (!binDir) return;
  cluster = await startThrowawayCluster(binDir);
  await prepared('origin', true);
  await prepared('target', false);
}, 120_000);

afterAll(() => cluster?.stop());

describe.skipIf(!binDir)('backup and restore through DATABASE_URL (hosted)', () => {
  it('restores a seeded project into an empty one as postgres, and refuses it a second time', async () => {
    const archive: BackupArchive = await backupHosted(project('origin'));
    expect(archive.objects).toEqual([]);
    await restoreHosted(project('target'), archive);
    const before = await fingerprint('origin');
    expect(before['auth.users']).not.toMatch(/^0 rows/);
    expect(await fingerprint('target')).toEqual(before);
    await expect(restoreHosted(project('target'), archive)).rejects.toThrow(/This project is not empty/);
    await expect(restoreHosted(project('origin'), { ...archive, schemaVersion: '20000101000000' })).rejects.toThrow(
      /schema version 20000101000000/,
    );
  });
});
