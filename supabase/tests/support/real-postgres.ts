import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { applyMigrations, applyPlatform } from '../../local/db/apply.ts';
import type { JwtClaims } from '../../local/db/as-user.ts';
import { PLATFORM_SUPERUSER, type SqlDatabase, type SqlExecutor } from '../../local/db/open-database.ts';

/** Where a PostgreSQL server binary may be on this machine (Debian layout first). */
export function findPostgresBinDir(): string | null {
  const candidates = ['/usr/local/bin'];
  if (existsSync('/usr/lib/postgresql')) {
    for (const v of readdirSync('/usr/lib/postgresql').sort().reverse()) candidates.push(`/usr/lib/postgresql/${v}/bin`);
  }
  return candidates.find((d) => ['initdb', 'pg_ctl', 'postgres'].every((b) => existsSync(`${d}/${b}`))) ?? null;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export interface ThrowawayCluster {
  port: number;
  connectionString: string;
  stop(): void;
}

/**
 * Starts a throwaway PostgreSQL cluster on a loopback port in a temp folder, set up like hosted
 * Supabase's: trust auth, the bootstrap superuser is `supabase_admin` (platform.sql then creates
 * `postgres` without superuser). As root, initdb refuses to run, so the server runs as the
 * `postgres` OS user.
 */
export async function startThrowawayCluster(binDir: string): Promise<ThrowawayCluster> {
  const dir = mkdtempSync(`${tmpdir()}/studio-pg-`);
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
    execFileSync(file, argv, { stdio: 'pipe' });
  };
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const data = `${dir}/data`;
  const port = await freePort();
  run(`${binDir}/initdb`, ['-D', data, '-U', PLATFORM_SUPERUSER, '-A', 'trust', '--no-sync', '-E', 'UTF8']);
  run(`${binDir}/pg_ctl`, [
    '-D',
    data,
    '-w',
    '-l',
    `${dir}/server.log`,
    'start',
    '-o',
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`,
  ]);
  return {
    port,
    connectionString: `postgres://${PLATFORM_SUPERUSER}@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(`${binDir}/pg_ctl`, ['-D', data, '-m', 'immediate', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Wraps a node-postgres client in the SqlDatabase shape the db module's apply functions take. */
export function pgClientDatabase(client: pg.Client): SqlDatabase {
  const executor: SqlExecutor = {
    async query<T>(sql: string, params?: unknown[]) {
      const r = await client.query(sql, params);
      return { rows: r.rows as T[] };
    },
    async exec(sql: string) {
      await client.query(sql);
    },
  };
  return {
    ...executor,
    async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>) {
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

/**
 * A test file's PostgreSQL server with the platform and every migration applied, started before
 * its tests and stopped after them; `cluster()` and `admin()` are undefined when no server binaries
 * were found (the file's suites then skip with `describe.skipIf(!binDir)`).
 */
export function migratedClusterForFile(label: string, binDir: string | null) {
  let cluster: ThrowawayCluster | undefined;
  let admin: pg.Client | undefined;
  beforeAll(async () => {
    if (!binDir) {
      console.log(`[${label}] SKIPPED: no PostgreSQL server binaries found`);
      return;
    }
    cluster = await startThrowawayCluster(binDir);
    admin = new pg.Client({ connectionString: cluster.connectionString });
    await admin.connect();
    const db = pgClientDatabase(admin);
    await applyPlatform(db);
    await applyMigrations(db);
  }, 120_000);
  afterAll(async () => {
    await admin?.end();
    cluster?.stop();
  });
  return { cluster: () => cluster, admin: () => admin };
}

/** One statement of a race: as the service role, or as the user whose JWT claims are given. */
export interface RaceStatement {
  sql: string;
  params?: unknown[];
  claims?: JwtClaims;
}
export type RaceResult<T> = { rows: T[]; error?: undefined } | { rows?: undefined; error: pg.DatabaseError };

/**
 * Runs each statement on its own connection in its own transaction, as PostgREST runs a request,
 * all sent at once: the race the database's locks and keys must decide. Each result is its rows
 * or the error it raised (that statement's transaction is rolled back).
 */
export async function together<T>(connectionString: string, statements: RaceStatement[]): Promise<RaceResult<T>[]> {
  const clients = await Promise.all(
    statements.map(async (statement) => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      await client.query('begin');
      await client.query(`set local role ${statement.claims?.role ?? 'service_role'}`);
      if (statement.claims) await client.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify(statement.claims)]);
      return client;
    }),
  );
  try {
    return await Promise.all(
      clients.map(async (client, i): Promise<RaceResult<T>> => {
        try {
          const r = await client.query(statements[i]!.sql, statements[i]!.params ?? []);
          await client.query('commit');
          return { rows: r.rows as T[] };
        } catch (error) {
          await client.query('rollback');
          return { error: error as pg.DatabaseError };
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
}

export { pg };
