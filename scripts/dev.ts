/**
 * `npm run dev`: the local Supabase-compatible stack plus Vite's dev server.
 * `npm start` (`--prod`): the same stack plus the production build (built first when missing or
 * older than the sources), served as Netlify serves it by the journeys' own server
 * (scripts/static-server.ts): SPA fallback, the /.netlify/functions proxy and netlify.toml's
 * headers, so a Content-Security-Policy or framing rule that would break production breaks here.
 * Ctrl-C stops both. Settings: SITE_PORT, SUPABASE_LOCAL_PORT, SUPABASE_LOCAL_DATA_DIR (.env.example).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { readLocalEnv, repoRoot } from '../supabase/local/config';
import { StackInUseError, startStack, type Stack } from '../supabase/local/stack';
import { PRERENDERED_ROUTES, prerenderedFile, SPA_SHELL } from './prerender-routes';
import { serveBuild, type StaticServer } from './static-server';

const prod = process.argv.includes('--prod');
const env = readLocalEnv();
const sitePort = Number(env.SITE_PORT ?? 5173);
const siteUrl = `http://127.0.0.1:${sitePort}`;
const viteBin = join(repoRoot, 'node_modules/vite/bin/vite.js');
const distDir = join(repoRoot, 'dist');
const buildStamp = join(distDir, '.local-stack-build.json');

function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newestMtime(join(path, name))), st.mtimeMs);
}

/**
 * The build is stale when a file `npm run build` writes is missing (a plain `vite build` has no SPA
 * shell and no prerendered pages), a source is newer, or it was built for another API URL or key.
 */
function buildIsCurrent(stack: Stack): boolean {
  const written = [SPA_SHELL, ...PRERENDERED_ROUTES.map(prerenderedFile)];
  if (!written.every((file) => existsSync(join(distDir, file))) || !existsSync(buildStamp)) return false;
  const stamp = JSON.parse(readFileSync(buildStamp, 'utf8')) as { url?: string; anonKey?: string };
  if (stamp.url !== stack.url || stamp.anonKey !== stack.anonKey) return false;
  const built = statSync(join(distDir, 'index.html')).mtimeMs;
  const sources = ['src', 'public', 'index.html', 'vite.config.ts', 'package.json', '.env'].map((p) => newestMtime(join(repoRoot, p)));
  return Math.max(...sources) <= built;
}

function viteEnv(stack: Stack): NodeJS.ProcessEnv {
  // The service-role key and JWT secret never reach the browser's toolchain.
  const { SUPABASE_SERVICE_ROLE_KEY: _service, SUPABASE_JWT_SECRET: _secret, ...rest } = process.env;
  return {
    ...rest,
    VITE_SUPABASE_URL: stack.url,
    VITE_SUPABASE_ANON_KEY: stack.anonKey,
    SUPABASE_LOCAL_PORT: String(stack.port),
    SITE_PORT: String(sitePort),
  };
}

/** `npm run build` itself (client, server bundle, prerendered pages), for this stack's URL and key. */
function build(stack: Stack): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn('npm', ['run', 'build'], {
      cwd: repoRoot,
      env: viteEnv(stack),
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`npm run build exited with ${code}`))));
  });
}

async function demoAccounts(stack: Stack): Promise<string> {
  const res = await fetch(
    `${stack.url}/rest/v1/members?select=email,membership_tier,is_admin,has_used_trial,trainer_accounts!trainer_accounts_member_id_fkey(trainer_id)&email=like.*%40studio.test&order=email`,
    {
      headers: { apikey: stack.serviceRoleKey, authorization: `Bearer ${stack.serviceRoleKey}` },
    },
  );
  // A failed read is not "no demo accounts": say what the API answered.
  if (!res.ok) return `  (could not list the demo accounts: ${res.status} ${await res.text()})`;
  const rows = (await res.json()) as Array<{
    email: string;
    membership_tier: string;
    is_admin: boolean;
    has_used_trial: boolean;
    trainer_accounts: { trainer_id: string } | null;
  }>;
  if (rows.length === 0) return '  (no demo accounts: run `npm run db:reset` to load the demo data)';
  const lines = rows.map((r) => {
    const role = [
      r.is_admin ? 'admin' : null,
      r.trainer_accounts ? 'coach (/coach)' : null,
      r.membership_tier,
      r.membership_tier === 'payg' ? (r.has_used_trial ? 'trial used' : 'trial not used') : null,
    ]
      .filter(Boolean)
      .join(', ');
    return `  ${r.email.padEnd(24)} ${role}`;
  });
  return [`  ${'email'.padEnd(24)} role            (password for all: studio123)`, ...lines].join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  if (!(await portFree(sitePort))) {
    console.error(`Port ${sitePort} on 127.0.0.1 is already in use (another "npm run dev"?). Stop it, or set SITE_PORT to another port.`);
    process.exit(1);
  }
  let stack: Stack;
  try {
    stack = await startStack({ siteUrl, quiet: true });
  } catch (error) {
    console.error(error instanceof StackInUseError ? error.message : error);
    process.exit(1);
  }
  console.log(
    `Local Supabase stack ready in ${(stack.startupMs / 1000).toFixed(1)} s${stack.created ? ' (new database, seeded)' : ''}: ${stack.url}`,
  );

  let vite: ChildProcess | null = null;
  let site: StaticServer | null = null;
  let stopping = false;
  const stop = async (code = 0) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    if (vite && vite.exitCode === null) {
      const exited = new Promise((r) => vite!.once('exit', r));
      vite.kill('SIGTERM');
      await exited;
    }
    if (site) await site.close();
    await stack.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  try {
    if (prod) {
      if (!buildIsCurrent(stack)) {
        console.log('Building the production bundle (npm run build)…');
        await build(stack);
        writeFileSync(buildStamp, JSON.stringify({ url: stack.url, anonKey: stack.anonKey }));
      }
      site = await serveBuild(distDir, { port: sitePort, apiOrigin: stack.url });
    } else {
      vite = spawn(process.execPath, [viteBin, '--port', String(sitePort), '--strictPort', '--host', '127.0.0.1'], {
        cwd: repoRoot,
        env: viteEnv(stack),
        stdio: ['inherit', 'pipe', 'inherit'],
      });
      vite.once('exit', (code) => {
        if (!stopping) {
          console.error(`Vite exited (${code}); stopping the stack.`);
          void stop(code ?? 1);
        }
      });
      // Wait for Vite to listen before printing the summary.
      await new Promise<void>((ready) => {
        vite!.stdout!.on('data', (d: Buffer) => {
          if (/ready in|Local:/i.test(d.toString())) ready();
        });
      });
      vite.stdout!.pipe(process.stdout);
    }
  } catch (error) {
    console.error(error);
    await stop(1);
    return;
  }

  console.log(`
  Site:   ${siteUrl}${prod ? '  (production build)' : ''}
  Inbox:  ${stack.url}/inbox   (every email the site sends lands here, by SMTP)
  API:    ${stack.url}

Demo accounts:
${await demoAccounts(stack)}

Ready in ${((Date.now() - started) / 1000).toFixed(1)} s. Press Ctrl-C to stop.`);
}

void main();
