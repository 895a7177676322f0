/**
 * `npm start` as a newcomer runs it on a fresh clone (it used to build without the SPA
 * shell and die on the first page it served): a new data folder, free ports, then every route of
 * src/config/paths.ts must answer 200 with HTML, under netlify.toml's Content-Security-Policy and
 * framing rule as on Netlify, and the process must still be running.
 *
 *   npx tsx scripts/smoke-start.ts      (CI runs it after the production build)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { paths } from '../src/config/paths';
import { repoRoot } from '../supabase/local/config';

const READY_TIMEOUT_MS = 10 * 60_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Every route the app has: the static paths, the ones that take a query, and an unknown one. */
function routes(): string[] {
  const all: string[] = [];
  const walk = (value: unknown) => {
    if (typeof value === 'string') all.push(value);
    else if (value && typeof value === 'object') {
      const entry = value as { path?: unknown; href?: unknown };
      if (typeof entry.path === 'string') all.push(entry.path);
      else Object.values(value).forEach(walk);
    }
  };
  walk(paths);
  all.push(paths.book.href('00000000-0000-4000-8000-000000000000'), paths.signIn.href('/mybookings'), '/no-such-page');
  return [...new Set(all)];
}

async function main(): Promise<void> {
  const [sitePort, apiPort, smtpPort] = [await freePort(), await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-smoke-'));
  const site = `http://127.0.0.1:${sitePort}`;
  const child = spawn('npm', ['start'], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      SITE_PORT: String(sitePort),
      SITE_URL: site,
      SUPABASE_LOCAL_PORT: String(apiPort),
      SUPABASE_URL: `http://127.0.0.1:${apiPort}`,
      SUPABASE_LOCAL_SMTP_PORT: String(smtpPort),
      SUPABASE_LOCAL_DATA_DIR: dataDir,
    },
  });
  let output = '';
  // Read in callbacks and loops: an object, so the type checker does not narrow it to null.
  const state: { exited: number | null } = { exited: null };
  child.on('exit', (code) => (state.exited = code ?? 1));
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const failures: string[] = [];
  try {
    const started = Date.now();
    while (!/Ready in/.test(output)) {
      if (state.exited !== null) throw new Error(`npm start exited (${state.exited}) before it was ready`);
      if (Date.now() - started > READY_TIMEOUT_MS) throw new Error('npm start was not ready within 10 minutes');
      await new Promise((r) => setTimeout(r, 500));
    }
    console.log(`npm start ready in ${((Date.now() - started) / 1000).toFixed(1)} s on ${site}`);
    for (const route of routes()) {
      const res = await fetch(`${site}${route}`).catch((error: Error) => error);
      if (res instanceof Error) failures.push(`${route}: ${res.message}`);
      else if (res.status !== 200 || !/text\/html/.test(res.headers.get('content-type') ?? '')) {
        failures.push(`${route}: ${res.status} ${res.headers.get('content-type') ?? ''}`);
      } else if (
        !/frame-ancestors 'none'/.test(res.headers.get('content-security-policy') ?? '') ||
        res.headers.get('x-frame-options') !== 'DENY'
      ) {
        failures.push(`${route}: served without netlify.toml's Content-Security-Policy and X-Frame-Options`);
      } else console.log(`  200 ${route}`);
    }
    if (state.exited !== null) failures.push(`the process exited (${state.exited}) while serving`);
  } catch (error) {
    failures.push(error instanceof Error ? error.message : String(error));
  } finally {
    if (state.exited === null && child.pid) {
      process.kill(-child.pid, 'SIGTERM');
      await new Promise((r) => setTimeout(r, 3000));
      if (state.exited === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    console.error(
      `npm start failed on a fresh data folder:\n${failures.map((f) => `  - ${f}`).join('\n')}\n--- its output ---\n${output.slice(-4000)}`,
    );
    process.exit(1);
  }
  console.log('npm start served every route and is still running.');
}

void main();
