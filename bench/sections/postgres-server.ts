import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLATFORM_SUPERUSER } from '../../supabase/local/db/open-database';
import { freePort } from '../../scripts/static-server';

export interface PostgresServer {
  url: string;
  version: string;
  /** The server's postmaster, whose children are its backends (their CPU time, process-cpu.ts). */
  postmasterPid: number;
  /** Runs SQL with psql as the superuser; returns stdout (unaligned, tuples only). */
  psql(sql: string, timeoutMs?: number): string;
  stop(): void;
}

/** Debian's PostgreSQL binaries: PG_BIN, else the newest /usr/lib/postgresql/<v>/bin. */
function findBinDir(): string | null {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], 'bin') : null;
}

/** On a clean Debian machine, installs the server (root only; BENCH_INSTALL_POSTGRES=0 opts out). */
function installPostgres(log: (line: string) => void): boolean {
  if (process.getuid?.() !== 0 || process.env.BENCH_INSTALL_POSTGRES === '0' || !existsSync('/usr/bin/apt-get')) return false;
  log('installing Debian postgresql with apt-get (set BENCH_INSTALL_POSTGRES=0 to skip)');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', timeout: 300_000, env });
  const r = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'postgresql'], {
    stdio: 'ignore',
    timeout: 600_000,
    env,
  });
  return r.status === 0;
}

/**
 * A throwaway PostgreSQL cluster on a loopback port (trust auth, socket in its own folder),
 * started with initdb + pg_ctl as the `postgres` user when running as root.
 */
export async function startPostgres(log: (line: string) => void): Promise<PostgresServer | { missing: string }> {
  let bin = findBinDir();
  if (!bin && installPostgres(log)) bin = findBinDir();
  if (!bin) return { missing: 'no PostgreSQL server binaries (apt-get install postgresql, or set PG_BIN)' };
  const asRoot = process.getuid?.() === 0;
  let uid: number | undefined;
  let gid: number | undefined;
  if (asRoot) {
    try {
      uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
      gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    } catch {
      return { missing: 'running as root but there is no postgres user to run the server as' };
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-pg-'));
  if (asRoot) chownSync(dir, uid!, gid!);
  const run = (cmd: string, args: string[], timeout = 120_000) => {
    const r = spawnSync(join(bin, cmd), args, { encoding: 'utf8', timeout, uid, gid, cwd: dir });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout || r.error?.message}`);
    return r.stdout;
  };
  const data = join(dir, 'data');
  const port = await freePort();
  // Like hosted: supabase_admin is the superuser; platform.sql makes postgres a non-superuser.
  run('initdb', ['-D', data, '-A', 'trust', '-U', PLATFORM_SUPERUSER, '-E', 'UTF8', '--no-sync', '--locale=C']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=100 -c shared_buffers=256MB`;
  run('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', opts, '-w', '-t', '60', 'start']);
  const url = `postgres://${PLATFORM_SUPERUSER}@127.0.0.1:${port}/postgres`;
  const psql = (sql: string, timeoutMs = 600_000) => {
    const r = spawnSync(join(bin, 'psql'), ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', url, '-c', sql], {
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`psql failed: ${r.stderr || r.error?.message}`);
    return r.stdout.trim();
  };
  const version = psql('show server_version');
  return {
    url,
    version,
    postmasterPid: Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]),
    psql,
    stop() {
      spawnSync(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], { uid, gid, cwd: dir, timeout: 60_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
