/**
 * Runs every scheduled job once, as of a given time, against the local stack, the way the hourly
 * scheduled function does in production, and prints what each did:
 *
 *   npm run jobs                                   as of now
 *   npm run jobs -- --at 2027-01-15T09:00:00Z      as of that time (watch a month pass)
 *
 * Needs the stack running (`npm run backend` or `npm run dev`). Without a SumUp key, saved-card
 * charges go through the local test provider, whose clock is --at (so the card that declines later
 * charges declines). Running it twice with the same --at does nothing the second time.
 */
import { PostgrestClient } from '@supabase/postgrest-js';
import { formatReports, runScheduledJobs } from '../netlify/lib/jobs/scheduled-jobs';
import { paymentWebhookUrl, selectProvider, TEST_PAYMENTS_FILE_ENV } from '../netlify/lib/payments/select-provider';
import { isLoopbackUrl, readServerEnv } from '../netlify/lib/server-env';
import { localTwilioEnv } from '../netlify/lib/sms/sms-env';
import { localGoCardlessEnv } from '../netlify/lib/direct-debit/gocardless';
import { localDataDir, readLocalEnv } from '../supabase/local/config';
import { savedVapidKeys } from '../supabase/local/push/vapid-keys';

export function parseAt(argv: readonly string[], now = new Date()): Date {
  const i = argv.indexOf('--at');
  if (i === -1) return now;
  const value = argv[i + 1] ?? '';
  const at = new Date(value);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(at.getTime())) {
    throw new Error(`--at needs an ISO time such as 2027-01-15T09:00:00Z (got "${value}")`);
  }
  return at;
}

async function main(): Promise<void> {
  const at = parseAt(process.argv.slice(2));
  const local = readLocalEnv();
  const dataDir = localDataDir(local.SUPABASE_LOCAL_DATA_DIR);
  if (dataDir !== 'memory') process.env[TEST_PAYMENTS_FILE_ENV] ??= `${dataDir}/test-payments.json`;
  // Pushes due at --at go out signed with the stack's VAPID pair, found as the stack finds it
  // (VAPID_* in the env, else its data folder); never a new pair, which the devices would refuse.
  const vapid = savedVapidKeys(local, dataDir);
  if (vapid) {
    process.env.VAPID_PUBLIC_KEY ??= vapid.publicKey;
    process.env.VAPID_PRIVATE_KEY ??= vapid.privateKey;
  }
  const env = readServerEnv(local);
  // Texts due at --at go to the stack's own Twilio (texts at /sms) unless real Twilio keys are set.
  if (isLoopbackUrl(env.supabaseUrl)) {
    for (const [k, v] of Object.entries(localTwilioEnv(env.supabaseUrl, { ...local, ...process.env }))) process.env[k] ??= v;
    // Direct Debit renewals go to the stack's own GoCardless unless a real access token is set.
    for (const [k, v] of Object.entries(localGoCardlessEnv(env.supabaseUrl, { ...local, ...process.env }))) process.env[k] ??= v;
  }
  const db = new PostgrestClient(`${env.supabaseUrl}/rest/v1`, {
    headers: { apikey: env.serviceRoleKey, Authorization: `Bearer ${env.serviceRoleKey}` },
  });
  const provider = selectProvider(env, { now: () => at.getTime() });
  const reports = await runScheduledJobs(db, provider, at, paymentWebhookUrl(env));
  console.log(`Jobs as of ${at.toISOString()} (${provider.name} payments):\n${formatReports(reports)}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
