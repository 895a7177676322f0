/**
 * The issue tracker is not part of the repository: a comment, test name or string that names an
 * issue by its number sends the reader somewhere they cannot follow, and means nothing once the tracker
 * renumbers or goes. Name the decision record ("decision 0055") or say the rule itself.
 *
 * This finds such references in every text file of the repository except the places that may keep
 * them: sealed migrations (they cannot change), decision records (their context is history) and,
 * in supabase/schemas, function bodies (the schema check compares them to the migrations' to the
 * letter, so they change only with a migration that redefines the function).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export interface TrackerRef {
  /** Path from the repository root, with forward slashes. */
  file: string;
  /** 1-based line number. */
  line: number;
  /** The words matched: "issue" and the number. */
  match: string;
}

/** "issue" or "issues", any case, then the number, after a space, "#", "-" or "_" (or nothing). */
export const TRACKER_REF = /\bissues?[ \t_#-]*\d+/gi;

/** Folders never read: dependencies, build output, local data and the places allowed above. */
const SKIPPED_DIRS = new Set([
  '.git',
  'node_modules',
  'dist',
  'dist-ssr',
  '.data',
  '.netlify',
  'coverage',
  'test-results',
  'playwright-report',
  'supabase/.temp',
  'supabase/migrations',
  'docs/decisions',
]);

/** The lines of a schema file that lie inside a `$$ ... $$` body (0-based line indexes). */
export function linesInsideBodies(sql: string): Set<number> {
  const inside = new Set<number>();
  let inBody = false;
  sql.split('\n').forEach((text, index) => {
    // Outside a body a `--` comment may mention `$$` without opening one; inside a body PostgreSQL
    // ends the quote at the next `$$` wherever it stands, comments included.
    const code = inBody ? text : text.replace(/--.*$/, '');
    const marks = code.split('$$').length - 1;
    // A line that opens, closes or sits in a body is part of it.
    if (inBody || marks > 0) inside.add(index);
    if (marks % 2 === 1) inBody = !inBody;
  });
  return inside;
}

/** References in one file's text; `schemaFile` leaves those inside function bodies alone. */
export function findInText(file: string, text: string, schemaFile = false): TrackerRef[] {
  const skip = schemaFile ? linesInsideBodies(text) : new Set<number>();
  const found: TrackerRef[] = [];
  text.split('\n').forEach((lineText, index) => {
    if (skip.has(index)) return;
    for (const m of lineText.matchAll(TRACKER_REF)) found.push({ file, line: index + 1, match: m[0] });
  });
  return found;
}

export function isSchemaFile(file: string): boolean {
  return /^supabase\/schemas\/[^/]+\.sql$/.test(file);
}

function walk(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    const rel = relative(root, path).split(sep).join('/');
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(rel) && !SKIPPED_DIRS.has(entry.name)) walk(root, path, out);
    } else if (entry.isFile()) {
      out.push(rel);
    }
  }
}

/** Every reference to the tracker in the repository at `root`, outside the allowed places. */
export function findTrackerRefs(root: string): TrackerRef[] {
  const files: string[] = [];
  walk(root, root, files);
  const found: TrackerRef[] = [];
  for (const file of files.sort()) {
    const bytes = readFileSync(join(root, file));
    if (bytes.includes(0)) continue; // images, fonts: not text
    found.push(...findInText(file, bytes.toString('utf8'), isSchemaFile(file)));
  }
  return found;
}

/** The occurrences inside schema function bodies, left for a migration that redefines them. */
export function findInsideBodies(root: string): TrackerRef[] {
  const found: TrackerRef[] = [];
  for (const name of readdirSync(join(root, 'supabase/schemas')).sort()) {
    if (!name.endsWith('.sql')) continue;
    const file = `supabase/schemas/${name}`;
    const text = readFileSync(join(root, file), 'utf8');
    const inside = linesInsideBodies(text);
    text.split('\n').forEach((lineText, index) => {
      if (!inside.has(index)) return;
      for (const m of lineText.matchAll(TRACKER_REF)) found.push({ file, line: index + 1, match: m[0] });
    });
  }
  return found;
}
