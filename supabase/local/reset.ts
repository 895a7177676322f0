/**
 * `npm run db:reset`: wipes the local database and stored files, then recreates the database
 * (platform, migrations, demo data). Refuses while a stack is running on the configured port.
 */
import { rmSync } from 'node:fs';
import { readLocalEnv } from './config';
import { startStack } from './stack';
import { localDataDir, requireStoppedLocalStack } from './stopped-stack';

const env = readLocalEnv();
const dataDir = localDataDir(env);

if (env.DATABASE_URL) {
  console.error(
    'db:reset wipes the local PGlite folder only. With DATABASE_URL set, drop and recreate that database yourself; the next start applies the migrations and seed.',
  );
  process.exit(1);
}
await requireStoppedLocalStack('db:reset', env);

rmSync(`${dataDir}/storage`, { recursive: true, force: true });
const stack = await startStack({ port: 0, dataDir, reset: true, seed: true, quiet: true });
await stack.stop();
console.log(`Local database reset and seeded in ${(stack.startupMs / 1000).toFixed(1)} s (${dataDir}).`);
