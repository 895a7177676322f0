import { createClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../supabase/local/stack';
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

// The hosted path on a real PostgreSQL server, logged in as hosted's `postgres` (not a
// superuser): a seeded project is backed up and restored into a second, empty one; then the
// same with the stored files going through the Storage API of a stack served from that server.
const binDir = findPostgresBinDir();
let cluster: ThrowawayCluster | undefined;

const asPostgres = (database: string) =>
  cluster!.connectionString.replace('supabase_admin@', 'postgres@').replace(/\/postgres$/, `/${database}`);
const project = (database: string) => ({ databaseUrl: asPostgres(database), supabaseUrl: 'http://127.0.0.1:9', serviceRoleKey: 'unused' });

async function createDatabase(database: string) {
  const admin = new pg.Client({ connectionString: cluster!.connectionString });
  await admin.connect();
  await admin.query(`create database ${database}`);
  await admin.end();
}

async function prepared(database: string, seed: boolean) {
  await createDatabase(database);
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

describe.skipIf(!binDir)('backup and restore of a project served from PostgreSQL, files through the Storage API', () => {
  const PHOTO = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  let stack: Stack | undefined;
  afterAll(async () => {
    await stack?.stop();
  });
  const serve = (database: string, seed: boolean) =>
    startStack({
      port: 0,
      quiet: true,
      senders: false,
      seed,
      databaseUrl: cluster!.connectionString.replace(/\/postgres$/, `/${database}`),
    });
  const client = (s: Stack) =>
    createClient(s.url, s.anonKey, {
      realtime: { transport: WebSocket as never },
      auth: { persistSession: false, autoRefreshToken: false },
    });

  it('carries a member photo across and the member signs in on the restored project', async () => {
    await createDatabase('live');
    await createDatabase('fresh');
    stack = await serve('live', true);
    const member = client(stack);
    expect((await member.auth.signInWithPassword({ email: 'premium@studio.test', password: 'studio123' })).error).toBeNull();
    const memberId = (await member.from('members').select('id').single()).data!.id as string;
    expect((await member.storage.from('avatars').upload(`${memberId}.png`, PHOTO, { contentType: 'image/png' })).error).toBeNull();
    const archive = await backupHosted({ ...project('live'), supabaseUrl: stack.url, serviceRoleKey: stack.serviceRoleKey });
    await stack.stop();
    expect(archive.objects.map((o) => [o.bucket, o.name, o.contentType])).toEqual([['avatars', `${memberId}.png`, 'image/png']]);

    stack = await serve('fresh', false);
    await restoreHosted({ ...project('fresh'), supabaseUrl: stack.url, serviceRoleKey: stack.serviceRoleKey }, archive);
    expect(await fingerprint('fresh')).toEqual(await fingerprint('live'));
    const again = client(stack);
    expect((await again.auth.signInWithPassword({ email: 'premium@studio.test', password: 'studio123' })).error).toBeNull();
    const photo = await again.storage.from('avatars').download(`${memberId}.png`);
    expect(photo.error).toBeNull();
    expect(Buffer.from(await photo.data!.arrayBuffer())).toEqual(PHOTO);
  });
});
