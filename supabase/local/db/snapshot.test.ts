import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterEach, expect, it } from 'vitest';
import { listMigrations } from './apply.ts';
import { prepareDatabase } from './snapshot.ts';

// A data folder migrated by a chain that no longer exists (the per-domain squash) cannot take the
// current migrations on top: the local stack rebuilds it rather than failing on start.

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('rebuilds a persisted database whose migration history names a migration that no longer exists', async () => {
  dir = mkdtempSync(`${tmpdir()}/studio-pglite-`);
  const first = await prepareDatabase({ dataDir: dir, seed: false });
  expect(first.created).toBe(true);
  await first.db.query(`insert into supabase_migrations.schema_migrations (version, name) values ('20250101000000', 'superseded_chain')`);
  await first.db.close();

  const again = await prepareDatabase({ dataDir: dir, seed: false });
  try {
    expect(again.created).toBe(true);
    const { rows } = await again.db.query<{ version: string }>(
      'select version from supabase_migrations.schema_migrations order by version',
    );
    expect(rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
  } finally {
    await again.db.close();
  }

  const reopened = await prepareDatabase({ dataDir: dir, seed: false });
  await reopened.db.close();
  expect(reopened.created).toBe(false);
});
