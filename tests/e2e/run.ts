/**
 * `npm run test:e2e [-- <filter>]`: the product's journeys in Debian chromium against the
 * production build and a fresh in-memory local stack, each at 375 px and 1280 px. Failures leave a
 * screenshot and a console log in test-results/e2e/. Exits non-zero when anything fails.
 */
import type { Browser } from 'playwright-core';
import { launchChromium, requireChromium } from './support/chromium';
import { serveApp, type ServedApp } from './support/environment';
import { ARTEFACTS, runJourneys, type Journey, type Result } from './support/harness';
import { routeJourneys } from './journeys/routes';
import { memberJourneys } from './journeys/member';
import { memberAccountJourneys } from './journeys/member-account';
import { waitlistJourneys } from './journeys/waitlist';
import { adminJourneys } from './journeys/admin';

// Admin last: regenerating the timetable deletes every class.
const journeys: Journey[] = [...routeJourneys, ...memberJourneys, ...memberAccountJourneys, ...waitlistJourneys, ...adminJourneys];

async function main(): Promise<number> {
  const filter = process.argv.slice(2).find((a) => !a.startsWith('-'));
  const started = Date.now();
  console.log(`chromium: ${requireChromium()}`);
  let app: ServedApp | undefined;
  let browser: Browser | undefined;
  let results: Result[] = [];
  try {
    app = await serveApp();
    browser = await launchChromium();
    results = await runJourneys({ origin: app.origin, stack: app.stack, browser }, journeys, filter);
  } finally {
    await browser?.close().catch(() => undefined);
    await app?.stop().catch((err: Error) => console.error(`stopping the stack: ${err.message}`));
  }
  const failed = results.filter((r) => !r.ok).length;
  const passed = results.length - failed;
  if (failed) console.log(`\nscreenshots and logs of failures: ${ARTEFACTS}`);
  console.log(`\n${passed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  if (results.length === 0) {
    console.log(filter ? `no journey matches "${filter}"` : 'no journeys ran');
    return 1;
  }
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    console.log('\n0 passed, 1 failed (the harness could not start)');
    process.exit(1);
  },
);
