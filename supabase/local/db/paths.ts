import { fileURLToPath } from 'node:url';

/** Repository root (three levels above this folder). */
export const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export const platformSqlPath = `${repoRoot}supabase/local/platform.sql`;
export const migrationsDir = `${repoRoot}supabase/migrations`;
/** The declarative schema: each domain's objects in their current form (README: Changing the database). */
export const schemasDir = `${repoRoot}supabase/schemas`;
export const seedSqlPath = `${repoRoot}supabase/seed.sql`;
/** Git-ignored; holds migrated database snapshots keyed by a hash of what built them. */
export const snapshotCacheDir = `${repoRoot}.data/cache`;
