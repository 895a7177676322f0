/**
 * The visitor path (decisions 0013, 0014): the files a visitor's page loads before the app starts,
 * which eslint.config.js keeps free of supabase-js and zod. Derived, not listed: the pages are the
 * routes that router.tsx marks `handle: { visitorPage: true }` (the prerendered pages whose app
 * starts after the first paint; a test holds them to scripts/prerender-routes.ts), and the files
 * are everything their screens import statically, followed to the end. Dynamic imports (what
 * loads on demand) and type-only imports are where the path stops. Plain JavaScript, so ESLint's
 * config can run it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const ROUTER = join(ROOT, 'src/app/router.tsx');
const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** A module specifier of the app (`@/…` or relative) as a file, or null for a package or a non-script. */
function resolveModule(fromDir, specifier) {
  const base = specifier.startsWith('@/')
    ? join(ROOT, 'src', specifier.slice(2))
    : specifier.startsWith('.')
      ? join(fromDir, specifier)
      : null;
  if (!base) return null;
  if (/\.(tsx?)$/.test(base) && existsSync(base)) return base;
  for (const ext of EXTENSIONS) if (existsSync(base + ext)) return base + ext;
  return null;
}

/** The screen modules of the routes marked as visitor pages in the route table. */
export function visitorScreenFiles(source = readFileSync(ROUTER, 'utf8')) {
  const screens = new Map();
  for (const [, name, specifier] of source.matchAll(/const (\w+) = \w+\(\s*\(\) =>\s*import\('([^']+)'\)/g)) screens.set(name, specifier);
  const files = [];
  for (const [, name] of source.matchAll(/element: <(\w+) \/>,\s*handle: \{\s*visitorPage: true\s*\}/g)) {
    const specifier = screens.get(name);
    const file = specifier && resolveModule(dirname(ROUTER), specifier);
    if (!file) throw new Error(`visitor-path: no lazy screen module found for <${name} /> in src/app/router.tsx`);
    files.push(file);
  }
  // A route table the pattern no longer reads would silently lint nothing.
  if (files.length === 0) throw new Error('visitor-path: no route in src/app/router.tsx is marked `handle: { visitorPage: true }`');
  return files;
}

/** What a module imports at run time: static imports and re-exports, not `import type` nor all-`type` lists. */
function staticImports(source) {
  const found = [];
  for (const [, kind, clause, specifier] of source.matchAll(/^\s*(import|export)\s+([^'";]*?)\s*from\s*'([^']+)'/gm)) {
    if (/^type\s/.test(clause)) continue;
    const named = /^\{([\s\S]*)\}$/.exec(clause.trim());
    if (named && named[1].split(',').every((part) => !part.trim() || /^type\s/.test(part.trim()))) continue;
    if (kind === 'export' && !/^(\*|\{)/.test(clause.trim())) continue;
    found.push(specifier);
  }
  for (const [, specifier] of source.matchAll(/^\s*import\s+'([^']+)'/gm)) found.push(specifier);
  return found;
}

/** The visitor path's files, relative to the repo (tests excluded), sorted. */
export function visitorPathFiles() {
  const seen = new Set();
  const queue = visitorScreenFiles();
  while (queue.length) {
    const file = queue.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of staticImports(readFileSync(file, 'utf8'))) {
      const next = resolveModule(dirname(file), specifier);
      if (next && !seen.has(next)) queue.push(next);
    }
  }
  return [...seen]
    .map((file) => relative(ROOT, file))
    .filter((file) => !/\.test\.tsx?$/.test(file))
    .sort();
}
