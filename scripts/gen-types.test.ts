import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { repoRoot } from '../supabase/local/db/paths.ts';
import { generateDatabaseTypes } from './gen-types.ts';

it('the committed src/lib/database.types.ts matches the migrations (else run npm run db:types)', async () => {
  const committed = readFileSync(`${repoRoot}src/lib/database.types.ts`, 'utf8');
  expect(await generateDatabaseTypes()).toBe(committed);
});
