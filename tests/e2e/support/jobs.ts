import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { StackApi } from './local-stack';

const run = promisify(execFile);

/**
 * `npm run jobs -- --at <time>` against the journeys' stack, as a person trying the lifecycle
 * would run it: a separate process reaching the stack over HTTP with the service role, whose
 * saved-card charges go through the local test provider with --at as its clock, and whose pushes
 * are signed with the stack's VAPID pair (the stack's functionsEnv: an in-memory stack keeps its
 * pair nowhere the command could read it). Returns what the command printed.
 */
export async function runJobsAt(stack: StackApi, siteUrl: string, at: Date, testPaymentsFile: string): Promise<string> {
  const { stdout } = await run('npm', ['run', '--silent', 'jobs', '--', '--at', at.toISOString()], {
    env: {
      ...process.env,
      ...stack.functionsEnv,
      SITE_URL: siteUrl,
      TEST_PAYMENTS_FILE: testPaymentsFile,
    },
    timeout: 60_000,
  });
  return stdout;
}
