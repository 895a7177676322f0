import { existsSync, readFileSync } from 'node:fs';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { applyMigrations, applyPlatform, applySeed } from './db/apply';
import { openDatabase, type Database } from './db/open-database';
import { seedSqlPath } from './db/paths';
import { NotificationTap } from './notification-tap';

/** The realtime trigger's NOTIFY channel (gateway.sql). */
export const REALTIME_CHANNEL = 'local_gateway_realtime';

const gatewaySql = () => readFileSync(new URL('./gateway.sql', import.meta.url), 'utf8');

/** A database PostgREST can connect to, plus a feed of committed row changes. */
export interface DatabaseHost {
  /** Connection string for PostgREST. */
  dbUri: string;
  /** PGlite is one session: PostgREST must use one connection without prepared statements. */
  singleSession: boolean;
  /** Whether this start created the database (platform, migrations and seed were applied). */
  created: boolean;
  stop(): Promise<void>;
}

export interface HostOptions {
  /** PGlite data folder, or 'memory'. */
  dataDir: string;
  seed: boolean;
  /** Another migrations folder (tests of the stack itself); default supabase/migrations. */
  migrationsDir?: string;
  onChange: (payload: string) => void;
}

/**
 * PGlite behind pglite-socket. Everything in-process (platform, migrations, gateway.sql, seed,
 * LISTEN) runs before the socket opens; afterwards PostgREST is the socket's only client and the
 * gateway never queries PGlite directly (an interleaved query would run inside PostgREST's open
 * transaction, under its role).
 */
export async function startPgliteHost(opts: HostOptions): Promise<DatabaseHost & { db: Database }> {
  const fresh = opts.dataDir === 'memory' || !existsSync(`${opts.dataDir}/PG_VERSION`);
  const db = await openDatabase({ dataDir: opts.dataDir });
  await applyPlatform(db);
  await applyMigrations(db, opts.migrationsDir);
  await db.exec(gatewaySql());
  if (fresh && opts.seed && existsSync(seedSqlPath)) await applySeed(db);

  await db.exec(`LISTEN ${REALTIME_CHANNEL}`);
  const tap = new NotificationTap((channel, payload) => {
    if (channel === REALTIME_CHANNEL) opts.onChange(payload);
  });
  // Tap the protocol stream the socket server relays to PostgREST (see notification-tap.ts).
  const original = db.execProtocolRawStream.bind(db);
  db.execProtocolRawStream = (message, options) =>
    original(message, {
      ...options,
      onRawData: (data: Uint8Array) => {
        tap.push(data);
        options.onRawData(data);
      },
    });

  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  await server.start();
  const port = Number(server.getServerConn().split(':').pop());
  return {
    db,
    dbUri: `postgres://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`,
    singleSession: true,
    created: fresh,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
