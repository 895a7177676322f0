import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { applyMigrations, applyPlatform, applySeed } from './db/apply';
import type { SqlDatabase, SqlExecutor } from './db/open-database';
import { seedSqlPath } from './db/paths';
import { supersededMigrations } from './db/snapshot';
import { POSTGREST_LOGIN_ROLE, REALTIME_CHANNEL, type DatabaseHost, type HostOptions } from './database-host';
import { OUTBOX_CHANNEL } from './mail/outbox-pump';

function executor(client: pg.Client): SqlExecutor {
  return {
    query: async <T>(sql: string, params?: unknown[]) => ({ rows: (await client.query(sql, params)).rows as T[] }),
    exec: (sql: string) => client.query(sql),
  };
}

function database(client: pg.Client): SqlDatabase {
  const tx = executor(client);
  return {
    ...tx,
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      await client.query('begin');
      try {
        const value = await fn(tx);
        await client.query('commit');
        return value;
      } catch (error) {
        await client.query('rollback');
        throw error;
      }
    },
  };
}

/** The same server as `databaseUrl`, logged in as authenticator (PGRST_DB_URI overrides it). */
export function postgrestUri(databaseUrl: string, override?: string): string {
  if (override) return override;
  const url = new URL(databaseUrl);
  url.username = POSTGREST_LOGIN_ROLE;
  url.password = '';
  return url.toString();
}

/**
 * A real PostgreSQL server (DATABASE_URL, connecting as the platform superuser supabase_admin as
 * hosted does): platform, migrations (as postgres), gateway.sql and (on a fresh database) the
 * seed are applied with node-postgres; PostgREST connects as authenticator with its normal pool
 * (trust or PGRST_DB_URI); a dedicated connection LISTENs for the realtime trigger and outbox.
 */
export async function startPostgresHost(opts: {
  databaseUrl: string;
  /** PGRST_DB_URI, when authenticator needs a password or another address. */
  postgrestUri?: string;
  seed: boolean;
  onChange: HostOptions['onChange'];
  onOutbox: HostOptions['onOutbox'];
}): Promise<DatabaseHost> {
  const admin = new pg.Client({ connectionString: opts.databaseUrl });
  await admin.connect();
  const listener = new pg.Client({ connectionString: opts.databaseUrl });
  try {
    const fresh =
      (await admin.query<{ t: string | null }>("select to_regclass('supabase_migrations.schema_migrations')::text as t")).rows[0]?.t ==
      null;
    const db = database(admin);
    const superseded = await supersededMigrations(db);
    if (superseded.length > 0) {
      throw new Error(
        `${opts.databaseUrl.replace(/\/\/[^@]*@/, '//')} was migrated by migrations that no longer exist (${superseded.join(', ')}): ` +
          'the chain was squashed once before any deployment; drop and recreate this local database.',
      );
    }
    await applyPlatform(db);
    await applyMigrations(db);
    await admin.query(readFileSync(new URL('./gateway.sql', import.meta.url), 'utf8'));
    if (fresh && opts.seed && existsSync(seedSqlPath)) await applySeed(db);
    await admin.end();

    await listener.connect();
    listener.on('notification', (n) => {
      if (n.channel === REALTIME_CHANNEL && n.payload) opts.onChange(n.payload);
      else if (n.channel === OUTBOX_CHANNEL) opts.onOutbox(n.payload ?? '');
    });
    await listener.query(`LISTEN ${REALTIME_CHANNEL}; LISTEN ${OUTBOX_CHANNEL}`);
    return {
      dbUri: postgrestUri(opts.databaseUrl, opts.postgrestUri),
      singleSession: false,
      created: fresh,
      async stop() {
        await listener.end();
      },
    };
  } catch (error) {
    await admin.end().catch(() => undefined);
    await listener.end().catch(() => undefined);
    throw error;
  }
}
