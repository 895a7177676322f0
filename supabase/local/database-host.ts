import { readFileSync } from 'node:fs';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import type { Database } from './db/open-database';
import { prepareDatabase } from './db/snapshot';
import { NotificationTap } from './notification-tap';
import { OUTBOX_CHANNEL } from './mail/outbox-pump';

/** The role PostgREST logs in as on a PostgreSQL server (platform.sql): noinherit, API roles only. */
export const POSTGREST_LOGIN_ROLE = 'authenticator';

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
  /** A single-session socket opened again on a new port (its one client slot held by a stray); the new dbUri. */
  reopen?(): Promise<string>;
}

export interface HostOptions {
  /** PGlite data folder, or 'memory'. */
  dataDir: string;
  seed: boolean;
  /** Wipe the data folder first (npm run db:reset). */
  reset?: boolean;
  onChange: (payload: string) => void;
  /** A row was committed into the notifications outbox (payload: its id). */
  onOutbox: (payload: string) => void;
}

/**
 * PGlite behind pglite-socket. Everything in-process (platform, migrations, gateway.sql, seed,
 * LISTEN) runs before the socket opens; afterwards PostgREST is the socket's only client and the
 * gateway never queries PGlite directly (an interleaved query would run inside PostgREST's open
 * transaction, under its role).
 */
export async function startPgliteHost(opts: HostOptions): Promise<DatabaseHost & { db: Database }> {
  // From the cached migrated snapshot when new (seeded if asked), else the existing folder.
  const { db, created } = await prepareDatabase({ dataDir: opts.dataDir, seed: opts.seed, reset: opts.reset });
  await db.exec(gatewaySql());

  await db.exec(`LISTEN ${REALTIME_CHANNEL}; LISTEN ${OUTBOX_CHANNEL}`);
  const tap = new NotificationTap((channel, payload) => {
    if (channel === REALTIME_CHANNEL) opts.onChange(payload);
    else if (channel === OUTBOX_CHANNEL) opts.onOutbox(payload);
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

  // PGlite is one session and stays the platform superuser's: switching it to authenticator
  // (as PostgREST logs in on hosted and on the PostgreSQL server) made pglite-socket refuse
  // PostgREST's connection now and then (seen twice in ~15 starts), so it is not done here.

  const open = async () => {
    const socket = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
    await socket.start();
    return socket;
  };
  const uriOf = (socket: PGLiteSocketServer) =>
    `postgres://postgres@127.0.0.1:${Number(socket.getServerConn().split(':').pop())}/postgres?sslmode=disable`;
  let server = await open();
  return {
    db,
    dbUri: uriOf(server),
    singleSession: true,
    created,
    async stop() {
      await server.stop();
      await db.close();
    },
    async reopen() {
      await server.stop();
      server = await open();
      return uriOf(server);
    },
  };
}
