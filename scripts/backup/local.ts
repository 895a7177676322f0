/**
 * Backup and restore of the local stack's data folder: the PGlite database in `<data>/pglite`
 * (opened directly, so the stack must be stopped: its lock is taken meanwhile) and the stored
 * files in `<data>/storage` (bytes plus a `.meta.json`, with their rows in storage.objects).
 */
import { existsSync } from 'node:fs';
import { openDatabase } from '../../supabase/local/db/open-database';
import { prepareDatabase } from '../../supabase/local/db/snapshot';
import { DiskObjectStore } from '../../supabase/local/storage/object-store';
import { lockDataDir } from '../../supabase/local/stack';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  BackupError,
  dumpDatabase,
  loadDatabase,
  restoreRefusal,
  type BackupArchive,
  type StoredObjectData,
} from './archive';

export async function backupLocal(dataDir: string): Promise<BackupArchive> {
  if (!existsSync(`${dataDir}/pglite/PG_VERSION`)) {
    throw new BackupError(`There is no local database in ${dataDir}/pglite: nothing to back up.`);
  }
  const unlock = lockDataDir(dataDir);
  try {
    const db = await openDatabase({ dataDir: `${dataDir}/pglite` });
    try {
      const data = await dumpDatabase(db);
      const store = new DiskObjectStore(`${dataDir}/storage`);
      const { rows } = await db.query<{ bucket_id: string; name: string; owner: string | null }>(
        'select bucket_id, name, owner::text as owner from storage.objects order by bucket_id, name',
      );
      const objects: StoredObjectData[] = [];
      for (const row of rows) {
        const object = await store.get(row.bucket_id, row.name);
        if (!object) throw new BackupError(`Stored file ${row.bucket_id}/${row.name} is listed but missing from ${dataDir}/storage.`);
        objects.push({
          bucket: row.bucket_id,
          name: row.name,
          owner: row.owner,
          contentType: object.contentType,
          data: object.data.toString('base64'),
        });
      }
      return { format: ARCHIVE_FORMAT, version: ARCHIVE_VERSION, createdAt: new Date().toISOString(), source: 'local', ...data, objects };
    } finally {
      await db.close();
    }
  } finally {
    unlock();
  }
}

/** Loads an archive into the data folder, creating its database from the migrations when missing. */
export async function restoreLocal(dataDir: string, archive: BackupArchive): Promise<void> {
  const unlock = lockDataDir(dataDir);
  try {
    // A missing database is built from the migrations without the demo data: an empty project.
    const { db } = await prepareDatabase({ dataDir: `${dataDir}/pglite`, seed: false });
    try {
      const refusal = await restoreRefusal(db, archive);
      if (refusal) throw new BackupError(refusal);
      await loadDatabase(db, archive);
      const store = new DiskObjectStore(`${dataDir}/storage`);
      for (const object of archive.objects) {
        const data = Buffer.from(object.data, 'base64');
        await store.put(object.bucket, object.name, { data, contentType: object.contentType });
        // The row the local Storage API writes on upload (storage-api.ts).
        await db.query(
          `insert into storage.objects (bucket_id, name, owner, owner_id, metadata)
           values ($1, $2, $3::uuid, $3, jsonb_build_object('size', $4::int, 'mimetype', $5::text, 'contentLength', $4::int))`,
          [object.bucket, object.name, object.owner, data.length, object.contentType],
        );
      }
    } finally {
      await db.close();
    }
  } finally {
    unlock();
  }
}
