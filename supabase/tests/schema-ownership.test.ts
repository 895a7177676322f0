import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { schemasDir } from '../local/db/paths.ts';

// Schema files own their tables (decision 0018): a table's columns, constraints, indexes, grants and
// policies live in the file that creates it, so reading that file tells the truth about the table.
// A later domain may add to an earlier domain's table only what cannot exist before the later
// domain does: a trigger calling its functions, or a key to its table. Each sits in that file's
// section named for it, and the table's own file names it, so a reader of the table finds it.

type Statement = { file: string; table: string; text: string; name: string | null; kind: string; section: string };

const files = readdirSync(schemasDir)
  .filter((f) => f.endsWith('.sql'))
  .sort();
const source = new Map(files.map((f) => [f, readFileSync(`${schemasDir}/${f}`, 'utf8')]));

/** Which file creates each table. */
const owner = new Map<string, string>();
for (const [file, text] of source) for (const m of text.matchAll(/^create table (\w+\.\w+) \(/gm)) owner.set(m[1]!, file);

/** The last section header (a comment line ending in dashes) before `at`. */
function sectionAt(text: string, at: number): string {
  const headers = [...text.slice(0, at).matchAll(/^-- (.*?) -{3,}$/gm)];
  return headers.at(-1)?.[1] ?? '';
}

/** Every statement that shapes a table, with the table it touches. */
function statements(): Statement[] {
  const found: Statement[] = [];
  const patterns: [string, RegExp][] = [
    ['alter', /^alter table (?:only )?(\w+\.\w+)([^;]*);/gm],
    ['index', /^create (?:unique )?index (\w+) on (?:only )?(\w+\.\w+)/gm],
    ['trigger', /^create trigger (\w+)\s[^;]*?\bon (\w+\.\w+)/gm],
    ['policy', /^create policy "([^"]+)"\s+on (\w+\.\w+)/gm],
    ['grant', /^grant [^;]*? on (?:table )?(\w+\.\w+) to/gm],
  ];
  for (const [file, text] of source) {
    for (const [kind, re] of patterns) {
      for (const m of text.matchAll(re)) {
        const table = kind === 'alter' || kind === 'grant' ? m[1]! : m[2]!;
        const name = kind === 'alter' ? (/add constraint (\w+)/.exec(m[2] ?? '')?.[1] ?? null) : kind === 'grant' ? null : m[1]!;
        found.push({ file, table, text: m[0], name, kind, section: sectionAt(text, m.index) });
      }
    }
  }
  return found;
}

describe('schema files own their tables', () => {
  const foreign = statements().filter((s) => owner.has(s.table) && owner.get(s.table) !== s.file);

  it("no file changes another file's table, but for a trigger or a key in its named section", () => {
    const misplaced = foreign
      .filter((s) => {
        if (s.kind === 'trigger') return !s.section.startsWith("Triggers on other domains' tables");
        if (s.kind === 'alter' && s.name && /foreign key/.test(s.text)) return !s.section.startsWith("Keys on other domains' tables");
        return true;
      })
      .map((s) => `${s.file}: ${s.text.split('\n')[0]}`);
    expect(misplaced).toEqual([]);
  });

  it("the table's own file names every trigger and key another file adds to it", () => {
    const unnamed = foreign
      .filter((s) => s.name && !source.get(owner.get(s.table)!)!.includes(s.name))
      .map((s) => `${s.name} (${s.file}) is not named in ${owner.get(s.table)}`);
    expect(unnamed).toEqual([]);
  });

  it('adds a key from another file only across the cycles of decision 0038', () => {
    // Every other key is declared at its column: a table pointing at one declared later moves after
    // it, or the later table moves to the domain that points at it (push devices beside deliveries).
    const keys = foreign.filter((s) => s.kind === 'alter' && s.name).map((s) => s.name);
    expect(keys.sort()).toEqual(['bookings_family_payment_id_fkey', 'payments_membership_id_fkey']);
  });

  it('sees the tables and their statements (the check reads what it should)', () => {
    expect(owner.get('public.bookings')).toBe('03_bookings.sql');
    expect(foreign.some((s) => s.kind === 'trigger' && s.name === 'bookings_promote_waitlist')).toBe(true);
  });
});
