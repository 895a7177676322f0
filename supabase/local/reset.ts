/**
 * `npm run db:reset`: wipes the local database and stored files, then recreates the database
 * (platform, migrations, demo data). Refuses while a stack is running on the configured port.
 */
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { readLocalEnv, repoRoot } from './config';
import { startStack } from './stack';

const env = readLocalEnv();
const port = Number(env.SUPABASE_LOCAL_PORT ?? 54321);
const setting = env.SUPABASE_LOCAL_DATA_DIR ?? '.data';
const dataDir = isAbsolute(setting) ? setting : resolve(repoRoot, setting);

if (env.DATABASE_URL) {
  console.error('db:reset wipes the local PGlite folder only. With DATABASE_URL set, drop and recreate that database yourself; the next start applies the migrations and seed.');
  process.exit(1);
}

const free = await new Promise<boolean>((done) => {
  const probe = createServer();
  probe.once('error', () => done(false));
  probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
});
if (!free) {
  console.error(`Something is running on port ${port} (the local stack?). Stop "npm run dev" / "npm run backend" first.`);
  process.exit(1);
}

rmSync(`${dataDir}/storage`, { recursive: true, force: true });
const stack = await startStack({ port: 0, dataDir, reset: true, seed: true, quiet: true });
await stack.stop();
console.log(`Local database reset and seeded in ${(stack.startupMs / 1000).toFixed(1)} s (${dataDir}).`);
