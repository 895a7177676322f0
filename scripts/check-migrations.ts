/**
 * Migrations are append-only: once a migration is sealed (its SHA-256 recorded in
 * supabase/migrations.sha256), changing or deleting it fails CI, because a deployed database has
 * already run it and would never see the edit. A new migration must be sealed in the same change:
 *
 *   npm run db:migrations:check   verify (CI)
 *   npm run db:migrations:seal    record the checksums of new migrations (never rewrites old lines)
 *
 * The manifest itself is checked against git history where it is available: a line, once
 * committed on main (its first-parent line), may never change or disappear, so editing both a
 * migration and its checksum fails too.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface MigrationProblem {
  file: string;
  problem: string;
}

export const MANIFEST = 'supabase/migrations.sha256';
const MIGRATIONS = 'supabase/migrations';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `<sha256>  <file name>` lines, as `sha256sum` writes them. */
export function parseManifest(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]{64}) {2}(\S+)$/.exec(line.trim());
    if (match) entries.set(match[2]!, match[1]!);
  }
  return entries;
}

function migrationFiles(root: string): string[] {
  return readdirSync(join(root, MIGRATIONS))
    .filter((name) => name.endsWith('.sql'))
    .sort();
}

/** Compares the migrations folder with the manifest. */
export function checkAgainstManifest(root: string): MigrationProblem[] {
  const manifestPath = join(root, MANIFEST);
  const sealed = existsSync(manifestPath) ? parseManifest(readFileSync(manifestPath, 'utf8')) : new Map<string, string>();
  const files = migrationFiles(root);
  const problems: MigrationProblem[] = [];
  for (const [file, hash] of sealed) {
    if (!files.includes(file)) problems.push({ file, problem: 'a sealed migration was deleted or renamed' });
    else if (sha256(readFileSync(join(root, MIGRATIONS, file), 'utf8')) !== hash)
      problems.push({ file, problem: 'a sealed migration was changed: write a new migration instead' });
  }
  for (const file of files) {
    if (!sealed.has(file)) problems.push({ file, problem: 'not sealed: run `npm run db:migrations:seal`' });
  }
  const newest = [...sealed.keys()].sort().at(-1);
  for (const file of files) {
    if (!sealed.has(file) && newest && file < newest)
      problems.push({ file, problem: `sorts before the newest sealed migration (${newest}): it would never run on a deployed database` });
  }
  return problems;
}

/**
 * Every line the manifest ever had on main must still be there: checks each version of the
 * manifest on the first-parent line (main's own commits and its merges) against the working copy.
 * A branch's own commits are not on that line: it may reseal a migration that never landed before
 * it is merged, as nothing deployed it. Skipped (with a note) when git history is unavailable.
 */
export function checkManifestHistory(root: string): { problems: MigrationProblem[]; note?: string } {
  let versions: string[];
  try {
    const log = execFileSync('git', ['log', '--first-parent', '--format=%H', '--', MANIFEST], { cwd: root, encoding: 'utf8' });
    versions = log.split('\n').filter(Boolean);
  } catch {
    return { problems: [], note: 'git history not available: manifest history not checked' };
  }
  const current = existsSync(join(root, MANIFEST)) ? parseManifest(readFileSync(join(root, MANIFEST), 'utf8')) : new Map<string, string>();
  const problems: MigrationProblem[] = [];
  const reported = new Set<string>();
  for (const commit of versions) {
    const text = execFileSync('git', ['show', `${commit}:${MANIFEST}`], { cwd: root, encoding: 'utf8' });
    for (const [file, hash] of parseManifest(text)) {
      if (current.get(file) !== hash && !reported.has(file)) {
        reported.add(file);
        problems.push({ file, problem: `its sealed checksum was changed or removed after commit ${commit.slice(0, 8)}` });
      }
    }
  }
  return { problems };
}

/** Appends the checksums of unsealed migrations; never rewrites an existing line. */
export function seal(root: string): string[] {
  const manifestPath = join(root, MANIFEST);
  const existing = existsSync(manifestPath) ? readFileSync(manifestPath, 'utf8') : '';
  const sealed = parseManifest(existing);
  const added = migrationFiles(root).filter((file) => !sealed.has(file));
  const lines = added.map((file) => `${sha256(readFileSync(join(root, MIGRATIONS, file), 'utf8'))}  ${file}`);
  if (lines.length > 0) writeFileSync(manifestPath, `${existing}${existing && !existing.endsWith('\n') ? '\n' : ''}${lines.join('\n')}\n`);
  return added;
}

function main() {
  const root = join(fileURLToPath(new URL('.', import.meta.url)), '..');
  if (process.argv.includes('--seal')) {
    const added = seal(root);
    console.log(added.length ? `sealed: ${added.join(', ')}` : 'nothing new to seal');
    return;
  }
  const history = checkManifestHistory(root);
  const problems = [...checkAgainstManifest(root), ...history.problems];
  if (history.note) console.log(history.note);
  if (problems.length === 0) {
    console.log(`migrations: ${parseManifest(readFileSync(join(root, MANIFEST), 'utf8')).size} sealed, none changed`);
    return;
  }
  for (const { file, problem } of problems) console.error(`${relative(root, join(root, MIGRATIONS, file))}: ${problem}`);
  process.exit(1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
