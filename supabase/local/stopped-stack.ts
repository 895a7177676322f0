/**
 * For the commands that write the local PGlite folder directly (`db:reset`, `db:seed:history`):
 * where the folder is, and a refusal while a stack (which holds the folder open) is running.
 */
import { createServer } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { readLocalEnv, repoRoot } from './config';

export function localDataDir(env: Record<string, string> = readLocalEnv()): string {
  const setting = env.SUPABASE_LOCAL_DATA_DIR ?? '.data';
  return isAbsolute(setting) ? setting : resolve(repoRoot, setting);
}

/** Exits with a message when DATABASE_URL is set (not a PGlite folder) or the stack's port is taken. */
export async function requireStoppedLocalStack(command: string, env: Record<string, string> = readLocalEnv()): Promise<void> {
  if (env.DATABASE_URL) {
    console.error(`${command} writes the local PGlite folder only; DATABASE_URL is set.`);
    process.exit(1);
  }
  const port = Number(env.SUPABASE_LOCAL_PORT ?? 54321);
  const free = await new Promise<boolean>((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
  if (!free) {
    console.error(`Something is running on port ${port} (the local stack?). Stop "npm run dev" / "npm run backend" first.`);
    process.exit(1);
  }
}
