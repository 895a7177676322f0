import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findInText, findTrackerRefs, linesInsideBodies } from './tracker-refs';

// Built, not written, so this file holds no reference itself.
const ref = (n: number, word = 'issue', gap = ' ') => `${word}${gap}${n}`;
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

it('finds no reference to the issue tracker in the repository', () => {
  const found = findTrackerRefs(ROOT).map((r) => `${r.file}:${r.line} "${r.match}"`);
  expect(
    found,
    'The issue tracker is not part of the repository: name the decision record ("decision 0055") or say ' +
      'the rule itself in a few words (decision 0098). Sealed migrations, docs/decisions and function bodies in ' +
      'supabase/schemas (compared to the letter with the migrations) may keep theirs.',
  ).toEqual([]);
});

describe('findInText', () => {
  it('finds a reference in a comment, a test name and a string, in any case and spelling', () => {
    const text = [
      `// Where the class meets (${ref(42)}).`,
      `it('never adds a guest (${ref(38, 'Issue')} item 17)', () => {});`,
      `const s = "${ref(27, 'issues')} and 28";`,
      `/* see ${ref(30, 'issue', '#')} and ${ref(43, 'issue', '-')} */`,
      'const fine = "tissue 5 and the issues we fixed";',
    ].join('\n');
    expect(findInText('x.ts', text)).toEqual([
      { file: 'x.ts', line: 1, match: ref(42) },
      { file: 'x.ts', line: 2, match: ref(38, 'Issue') },
      { file: 'x.ts', line: 3, match: ref(27, 'issues') },
      { file: 'x.ts', line: 4, match: ref(30, 'issue', '#') },
      { file: 'x.ts', line: 4, match: ref(43, 'issue', '-') },
    ]);
  });

  it("leaves a schema file's function bodies alone but not its comments outside them", () => {
    const sql = [
      `-- Meeting points (${ref(42)}): a comment outside any body, e.g. about $$ quoting.`,
      'create function private.f() returns int language sql as $$',
      `  -- kept: the schema check compares bodies to the letter (${ref(38)})`,
      '  select 1',
      '$$;',
      `comment on function private.f() is 'after the body'; -- ${ref(40)}`,
      `create function private.g() returns int language sql as $$ select 2 /* ${ref(41)} */ $$;`,
    ].join('\n');
    expect(findInText('supabase/schemas/x.sql', sql, true).map((r) => r.line)).toEqual([1, 6]);
    expect(findInText('supabase/schemas/x.sql', sql, false).map((r) => r.line)).toEqual([1, 3, 6, 7]);
    expect([...linesInsideBodies(sql)]).toEqual([1, 2, 3, 4, 6]);
  });
});

describe('findTrackerRefs', () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tracker-refs-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads every text file but sealed migrations, decision records, dependencies and binaries', () => {
    write('src/a.ts', `// fine\n// (${ref(38)})\n`);
    write('README.md', `See ${ref(43)}.\n`);
    write('supabase/schemas/01_x.sql', `-- (${ref(42)})\ncreate function f() returns int as $$ select 1 -- ${ref(42)}\n$$;\n`);
    write('supabase/migrations/20260101000000_x.sql', `-- ${ref(12)}\n`);
    write('docs/decisions/0001-x.md', `Context: ${ref(8)}.\n`);
    write('node_modules/pkg/index.js', `// ${ref(1)}\n`);
    write('public/icon.png', `\0PNG ${ref(2)}`);
    expect(findTrackerRefs(dir)).toEqual([
      { file: 'README.md', line: 1, match: ref(43) },
      { file: 'src/a.ts', line: 2, match: ref(38) },
      { file: 'supabase/schemas/01_x.sql', line: 1, match: ref(42) },
    ]);
  });
});
