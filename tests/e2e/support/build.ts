import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
/** The e2e build lives under the git-ignored test-results folder, apart from `dist`. */
export const E2E_DIST = join(REPO_ROOT, 'test-results', 'e2e-dist');
const E2E_SSR = join(REPO_ROOT, 'test-results', 'e2e-ssr');
const MARKER = '.e2e-build.json';
const INPUTS = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'package-lock.json',
  '.env',
  '.env.local',
  '.env.example',
  'scripts/prerender.ts',
  'scripts/prerender-routes.ts',
];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

interface Marker {
  supabaseUrl: string;
  builtAt: number;
}

function readMarker(dir: string): Marker | null {
  try {
    return JSON.parse(readFileSync(join(dir, MARKER), 'utf8')) as Marker;
  } catch {
    return null;
  }
}

/** The Supabase URL the cached e2e build was made for, so a run can reuse its port. */
export function cachedBuildUrl(): string | null {
  return readMarker(E2E_DIST)?.supabaseUrl ?? null;
}

/**
 * A production build whose bundle talks to `supabaseUrl`. The URL is baked in at build time, so
 * the build is redone when the URL or any input changed since the last e2e build.
 */
export function ensureBuild(supabaseUrl: string, log: (line: string) => void = console.log): string {
  const marker = readMarker(E2E_DIST);
  const inputsChanged = INPUTS.reduce((m, p) => Math.max(m, newestMtime(join(REPO_ROOT, p))), 0);
  if (marker && marker.supabaseUrl === supabaseUrl && marker.builtAt > inputsChanged && existsSync(join(E2E_DIST, 'index.html'))) {
    log(`reusing the e2e build in ${E2E_DIST}`);
    return E2E_DIST;
  }
  log(`building the app for ${supabaseUrl} into ${E2E_DIST}`);
  const started = Date.now();
  // What `npm run build` does, into the e2e folders: the client, the server bundle, the prerendered routes.
  const steps = [
    [join(REPO_ROOT, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', E2E_DIST, '--emptyOutDir', '--logLevel', 'warn'],
    [
      join(REPO_ROOT, 'node_modules/vite/bin/vite.js'),
      'build',
      '--ssr',
      'src/entry-server.tsx',
      '--outDir',
      E2E_SSR,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    [join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs'), 'scripts/prerender.ts', '--dist', E2E_DIST, '--server', E2E_SSR],
  ];
  for (const args of steps) {
    const result = spawnSync(process.execPath, args, {
      cwd: REPO_ROOT,
      stdio: 'inherit',
      env: { ...process.env, VITE_SUPABASE_URL: supabaseUrl, NETLIFY: '' },
    });
    if (result.status !== 0) throw new Error(`${args.slice(1, 3).join(' ')} failed (exit ${result.status ?? result.signal})`);
  }
  writeFileSync(join(E2E_DIST, MARKER), JSON.stringify({ supabaseUrl, builtAt: started } satisfies Marker));
  log(`built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return E2E_DIST;
}
