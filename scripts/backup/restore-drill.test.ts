import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import WebSocket from 'ws';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../supabase/local/db/open-database';
import { startStack, type Stack } from '../../supabase/local/stack';
import { BACKED_UP_SCHEMAS, readArchive, writeArchive } from './archive';
import { backupLocal, restoreLocal } from './local';

// The restore drill (decision 0075): a seeded local stack with fresh activity is backed up, a new empty
// data folder takes the archive, and the restored project must hold the same data, let a member
// sign in with their password and serve their photo.
const MEMBER = 'standard@studio.test';
const PASSWORD = 'studio123';
const PHOTO = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const folders: string[] = [];
const newFolder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'restore-drill-'));
  folders.push(dir);
  return dir;
};
let stack: Stack | undefined;

afterAll(async () => {
  await stack?.stop();
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const client = (s: Stack, key = s.anonKey) =>
  createClient(s.url, key, {
    realtime: { transport: WebSocket as never },
    auth: { persistSession: false, autoRefreshToken: false },
  });

async function signedIn(s: Stack, email: string): Promise<{ c: SupabaseClient; userId: string }> {
  const c = client(s);
  const { data, error } = await c.auth.signInWithPassword({ email, password: PASSWORD });
  if (error) throw error;
  return { c, userId: data.user.id };
}

/** Row count and a checksum of every row's text, per table of the backed-up schemas. */
async function fingerprint(dataDir: string): Promise<Record<string, string>> {
  const db = await openDatabase({ dataDir: `${dataDir}/pglite` });
  try {
    const tables = await db.query<{ name: string }>(
      `select n.nspname || '.' || c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = any($1) and c.relkind in ('r', 'p') and not c.relispartition order by 1`,
      [[...BACKED_UP_SCHEMAS, 'storage']],
    );
    const out: Record<string, string> = {};
    for (const { name } of tables.rows) {
      const [schema, table] = name.split('.') as [string, string];
      // storage.objects rows are rebuilt on restore (new ids and times): compare what they name.
      const rows = name === 'storage.objects' ? '(select bucket_id, name, owner from storage.objects)' : `"${schema}"."${table}"`;
      const { rows: r } = await db.query<{ n: number; sum: string }>(
        `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${rows} t`,
      );
      out[name] = `${r[0]!.n} rows, ${r[0]!.sum}`;
    }
    return out;
  } finally {
    await db.close();
  }
}

describe('restore drill', () => {
  it(
    'backs up a local stack with activity, restores it into an empty one, and the data, sign-in and photo come back',
    { timeout: 120_000 },
    async () => {
      const original = newFolder();
      stack = await startStack({ port: 0, dataDir: original, quiet: true, senders: false });

      // Activity on top of the demo data: a class and a booking, a payment row, a photo.
      const admin = (await signedIn(stack, 'admin@studio.test')).c;
      const start = new Date(Date.now() + 3 * 864e5);
      start.setUTCMinutes(0, 0, 0);
      const cls = await admin
        .from('classes')
        .insert({ name: 'Drill Pilates', start_time: start.toISOString(), trainer: 'Coach Jess', capacity: 5 })
        .select('id')
        .single();
      expect(cls.error).toBeNull();
      const { c: member, userId } = await signedIn(stack, MEMBER);
      expect((await member.rpc('book_class', { p_class_id: cls.data!.id })).error).toBeNull();
      const service = client(stack, stack.serviceRoleKey);
      const memberRow = await service.from('members').select('id').eq('user_id', userId).single();
      const payment = await service.from('payments').insert({
        member_id: memberRow.data!.id,
        kind: 'class',
        class_id: cls.data!.id,
        amount: 12.5,
        description: 'Drill Pilates',
        checkout_reference: 'restore-drill-1',
      });
      expect(payment.error).toBeNull();
      const photoPath = `${memberRow.data!.id}.png`;
      expect((await member.storage.from('avatars').upload(photoPath, PHOTO, { contentType: 'image/png' })).error).toBeNull();
      await stack.stop();
      stack = undefined;

      // Back up into one file, then wipe: a new, empty data folder.
      const archivePath = join(newFolder(), 'studio.backup.json.gz');
      writeArchive(archivePath, await backupLocal(original));
      const archive = readArchive(archivePath);
      expect(archive.objects.map((o) => `${o.bucket}/${o.name}`)).toEqual([`avatars/${photoPath}`]);
      const restored = newFolder();
      await restoreLocal(restored, archive);

      // The same rows, table by table (the booking and the payment among them).
      const [before, after] = [await fingerprint(original), await fingerprint(restored)];
      expect(after).toEqual(before);
      expect(before['public.payments']).not.toMatch(/^0 rows/);
      expect(before['public.bookings']).not.toMatch(/^0 rows/);

      // Refusals change nothing: a project that is no longer empty, an archive of another schema version.
      await expect(restoreLocal(restored, archive)).rejects.toThrow(/not empty \(\d+ users, 1 stored files\)/);
      await expect(restoreLocal(restored, { ...archive, schemaVersion: '20000101000000' })).rejects.toThrow(
        /archive is at schema version 20000101000000 but this project's migrations end at \d{14}/,
      );
      expect(await fingerprint(restored)).toEqual(before);

      // The restored project: the member signs in with their password (GoTrue's token endpoint) and the photo loads.
      stack = await startStack({ port: 0, dataDir: restored, quiet: true, senders: false });
      expect(stack.created).toBe(false);
      const again = await signedIn(stack, MEMBER);
      expect(again.userId).toBe(userId);
      const photo = await again.c.storage.from('avatars').download(photoPath);
      expect(photo.error).toBeNull();
      expect(Buffer.from(await photo.data!.arrayBuffer())).toEqual(PHOTO);
      const booked = await again.c.from('bookings').select('class_id').eq('class_id', cls.data!.id);
      expect(booked.data).toHaveLength(1);
    },
  );
});
