import { STUDIO, STUDIO_ADDRESS_LINES } from '../../../src/config/studio.ts';
import type { SqlExecutor } from './open-database.ts';

/**
 * The database's copy of the studio's identity (private.studio_settings: what its emails print),
 * from the one file the owner edits, studio.config.json, through src/config/studio.ts.
 */
export function studioSettings(studio: { email: string } = STUDIO, addressLines: readonly string[] = STUDIO_ADDRESS_LINES) {
  return { address: addressLines.join(', '), email: studio.email };
}

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The statement that writes them on hosted: `npm run studio:sql`, run in the SQL editor or psql. */
export function studioSettingsSql(settings = studioSettings()): string {
  return [
    '-- The studio identity from studio.config.json (npm run studio:sql); run it once after each change.',
    `update private.studio_settings set address = ${literal(settings.address)}, email = ${literal(settings.email)}, updated_at = now() where id;`,
  ].join('\n');
}

/** What the local stack runs on every start (and the test databases once made): idempotent. */
export async function applyStudioSettings(db: SqlExecutor, settings = studioSettings()): Promise<void> {
  await db.query(
    'update private.studio_settings set address = $1, email = $2, updated_at = now() where id and (address, email) is distinct from ($1, $2)',
    [settings.address, settings.email],
  );
}
