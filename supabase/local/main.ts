/**
 * `npm run backend`: the local stack alone (for tests, benches, or your own frontend).
 * Honours SUPABASE_LOCAL_PORT, SUPABASE_LOCAL_DATA_DIR, SITE_URL, DATABASE_URL, POSTGREST_BIN
 * (see .env.example). `--memory` keeps nothing on disk.
 */
import { StackInUseError, startStack } from './stack';

const memory = process.argv.includes('--memory');
try {
  const stack = await startStack({ dataDir: memory ? 'memory' : undefined, quiet: true });
  console.log(`Local Supabase stack ready in ${(stack.startupMs / 1000).toFixed(1)} s${stack.created ? ' (new database, seeded)' : ''}`);
  console.log(`  API:       ${stack.url}`);
  console.log(`  Inbox:     ${stack.url}/inbox`);
  console.log(`  anon key:  ${stack.anonKey}`);
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the local stack…');
    void stack.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof StackInUseError ? error.message : error);
  process.exit(1);
}
