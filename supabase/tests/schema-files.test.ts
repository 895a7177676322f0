import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPlatform, applySchemaFiles, listSchemaFiles } from '../local/db/apply.ts';
import { diffCatalogues, readCatalogue, type Catalogue } from '../local/db/catalogue.ts';
import { openDatabase } from '../local/db/open-database.ts';
import { schemasDir } from '../local/db/paths.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';

// supabase/schemas says what the database is; supabase/migrations is how production got there.
// Both must describe the same database: same functions (to the letter), tables, columns,
// constraints, indexes, policies, triggers, types, privileges and comments.

async function catalogueOfSchemaFiles(dir: string): Promise<Catalogue> {
  const db = await openDatabase({ dataDir: 'memory' });
  try {
    await applyPlatform(db);
    await applySchemaFiles(db, dir);
    return await readCatalogue(db);
  } finally {
    await db.close();
  }
}

let fromMigrations: Catalogue;

beforeAll(async () => {
  const db = await createTestDatabase();
  try {
    fromMigrations = await readCatalogue(db);
  } finally {
    await db.close();
  }
}, 120_000);

describe('supabase/schemas and supabase/migrations', () => {
  it('build the same database (else change the schema file and its migration together)', async () => {
    const differences = diffCatalogues(fromMigrations, await catalogueOfSchemaFiles(schemasDir));
    expect(differences, '- only the migrations make it, + only the schema files make it').toEqual([]);
    // The comparison sees the whole database, not an empty one.
    expect(fromMigrations.functions!.length).toBeGreaterThan(200);
    expect(fromMigrations.policies!.length).toBeGreaterThan(20);
  }, 120_000);

  describe('a schema file that disagrees with the migrations is caught', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(`${tmpdir()}/schemas-`);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('a function body, a grant and a column default changed only in the schema files', async () => {
      cpSync(schemasDir, dir, { recursive: true });
      const edit = (file: string, from: string, to: string) => {
        const sql = readFileSync(`${dir}/${file}`, 'utf8');
        expect(sql, `${file} holds ${from}`).toContain(from);
        writeFileSync(
          `${dir}/${file}`,
          sql.replace(from, () => to),
        );
      };
      edit('11_admin.sql', 'as $$ select 8 $$', 'as $$ select 9 $$');
      edit(
        '12_calendar.sql',
        'grant execute on function public.calendar_feed(text) to service_role;',
        'grant execute on function public.calendar_feed(text) to service_role, anon;',
      );
      edit('06_payments.sql', "currency text not null default 'GBP'", "currency text not null default 'EUR'");
      const differences = diffCatalogues(fromMigrations, await catalogueOfSchemaFiles(dir));
      expect(differences.some((d) => d.startsWith('- [functions] private.stats_weeks()'))).toBe(true);
      expect(differences.some((d) => d.startsWith('+ [functions] public.calendar_feed(text)'))).toBe(true);
      expect(differences.some((d) => d.startsWith("+ [columns] public.payments.currency text not null default 'EUR'"))).toBe(true);
    }, 120_000);
  });

  it('declare each function once, in one file, never as create or replace', () => {
    const seen = new Map<string, string>();
    const twice: string[] = [];
    for (const file of listSchemaFiles()) {
      expect(file.sql, `${file.name} replaces a definition`).not.toMatch(/create\s+or\s+replace/i);
      for (const [, name] of file.sql.matchAll(/^create function ([\w.]+)\(/gim)) {
        if (seen.has(name!)) twice.push(`${name} in ${seen.get(name!)} and ${file.name}`);
        seen.set(name!, file.name);
      }
    }
    expect(twice).toEqual([]);
    expect(seen.size).toBe(fromMigrations.functions!.length);
  });
});
