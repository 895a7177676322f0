/**
 * Backup and restore of a project on a PostgreSQL server (hosted Supabase): the data through
 * DATABASE_URL (the project's `postgres` connection string), the stored files through the Storage
 * API with the service role key, as the app's own uploads go.
 */
import pg from 'pg';
import type { SqlDatabase, SqlExecutor } from '../../supabase/local/db/open-database';
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

export interface HostedProject {
  databaseUrl: string;
  /** The project's API URL (https://<ref>.supabase.co). */
  supabaseUrl: string;
  serviceRoleKey: string;
}

function database(client: pg.Client): SqlDatabase {
  const executor: SqlExecutor = {
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }),
    exec: (sql: string) => client.query(sql),
  };
  return {
    ...executor,
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      await client.query('begin');
      try {
        const value = await fn(executor);
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    },
  };
}

async function withDatabase<T>(project: HostedProject, fn: (db: SqlDatabase) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: project.databaseUrl });
  await client.connect();
  try {
    // A large table's rows are read in one statement; hosted's default statement timeout is short.
    await client.query('set statement_timeout = 0');
    return await fn(database(client));
  } finally {
    await client.end();
  }
}

const objectUrl = (project: HostedProject, bucket: string, name: string) =>
  `${project.supabaseUrl.replace(/\/$/, '')}/storage/v1/object/${encodeURIComponent(bucket)}/${name
    .split('/')
    .map(encodeURIComponent)
    .join('/')}`;

const serviceHeaders = (project: HostedProject) => ({
  apikey: project.serviceRoleKey,
  authorization: `Bearer ${project.serviceRoleKey}`,
});

async function storageFailure(what: string, res: Response): Promise<BackupError> {
  return new BackupError(`${what}: the Storage API answered ${res.status} ${(await res.text()).slice(0, 300)}`);
}

export async function backupHosted(project: HostedProject): Promise<BackupArchive> {
  return withDatabase(project, async (db) => {
    const data = await dumpDatabase(db);
    const { rows } = await db.query<{ bucket_id: string; name: string; owner: string | null }>(
      'select bucket_id, name, owner::text as owner from storage.objects order by bucket_id, name',
    );
    const objects: StoredObjectData[] = [];
    for (const row of rows) {
      // The authenticated path with the service key: private buckets too.
      const url = objectUrl(project, row.bucket_id, row.name).replace('/object/', '/object/authenticated/');
      const res = await fetch(url, { headers: serviceHeaders(project) });
      if (!res.ok) throw await storageFailure(`Downloading ${row.bucket_id}/${row.name}`, res);
      objects.push({
        bucket: row.bucket_id,
        name: row.name,
        owner: row.owner,
        contentType: res.headers.get('content-type') ?? 'application/octet-stream',
        data: Buffer.from(await res.arrayBuffer()).toString('base64'),
      });
    }
    return {
      format: ARCHIVE_FORMAT,
      version: ARCHIVE_VERSION,
      createdAt: new Date().toISOString(),
      source: new URL(project.supabaseUrl).host,
      ...data,
      objects,
    };
  });
}

export async function restoreHosted(project: HostedProject, archive: BackupArchive): Promise<void> {
  await withDatabase(project, async (db) => {
    const refusal = await restoreRefusal(db, archive);
    if (refusal) throw new BackupError(refusal);
    await loadDatabase(db, archive);
  });
  for (const object of archive.objects) {
    const res = await fetch(objectUrl(project, object.bucket, object.name), {
      method: 'POST',
      headers: { ...serviceHeaders(project), 'content-type': object.contentType, 'x-upsert': 'true' },
      body: Buffer.from(object.data, 'base64'),
    });
    if (!res.ok) throw await storageFailure(`Uploading ${object.bucket}/${object.name}`, res);
  }
}
