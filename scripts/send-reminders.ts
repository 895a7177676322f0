/**
 * Queues class reminder emails now, as the hourly scheduled jobs do on Netlify (`npm run jobs`
 * runs them with every other job):
 *
 *   npx tsx scripts/send-reminders.ts [--hours 24]
 *
 * Talks to the running local stack (SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY from the env, .env
 * or .env.example). The reminders land in the notifications outbox, from which the stack delivers
 * them to its inbox (/inbox). Idempotent: a booking is reminded once however often this runs.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { enqueueClassReminders, REMINDER_WINDOW_HOURS } from '../netlify/lib/jobs/class-reminders';
import { readLocalEnv } from '../supabase/local/config';

export function parseHours(argv: readonly string[]): number {
  const i = argv.indexOf('--hours');
  if (i === -1) return REMINDER_WINDOW_HOURS;
  const hours = Number(argv[i + 1]);
  if (!Number.isInteger(hours) || hours < 1 || hours > 168) throw new Error('--hours must be a whole number from 1 to 168');
  return hours;
}

async function main(): Promise<void> {
  const env = readLocalEnv();
  const url = (env.SUPABASE_URL ?? '').replace(/\/+$/, '');
  const key = env.SUPABASE_SERVICE_ROLE_KEY ?? '';
  if (!url || !key) throw new Error('SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY must be set');
  const hours = parseHours(process.argv.slice(2));
  const db = new PostgrestClient(`${url}/rest/v1`, { headers: { apikey: key, Authorization: `Bearer ${key}` } });
  const queued = await enqueueClassReminders(db, new Date(), hours);
  console.log(`Queued ${queued} reminder(s) for classes starting in the next ${hours} hours. See ${url}/inbox once delivered.`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
