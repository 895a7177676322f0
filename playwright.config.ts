import { defineConfig, type Project } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './tests/e2e/support/chromium';

// The journeys (decision 0004): Debian's chromium, never a downloaded browser, against the
// production build and one in-memory local stack that the global setup starts for the whole run.
const CI = !!process.env.CI;

/** Phone and desktop: every journey runs at both widths. */
const WIDTHS = [
  { name: 'phone', viewport: { width: 375, height: 812 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
];

/** Regenerating the timetable deletes every class, so the admin journey runs after the members' ones. */
const ADMIN = '**/admin.spec.ts';
/** The jobs a month ahead renew, lapse and end trials of every member of the stack: after the others. */
const MEMBERSHIPS = '**/memberships.spec.ts';
/** A new waiver makes every member of the stack sign again before booking: last of all. */
const PUBLISH = '**/documents-publish.spec.ts';

// One worker runs the projects one after another in this order (no dependencies between them, so
// a failed journey does not skip the later ones): both widths, the admin journey at both, the
// membership lifecycle at both, then publishing a new waiver at both.
const projects: Project[] = [
  ...WIDTHS.map(({ name, viewport }) => ({ name, use: { viewport }, testIgnore: [ADMIN, MEMBERSHIPS, PUBLISH] })),
  ...WIDTHS.map(({ name, viewport }) => ({ name: `${name} admin`, use: { viewport }, testMatch: ADMIN })),
  ...WIDTHS.map(({ name, viewport }) => ({ name: `${name} memberships`, use: { viewport }, testMatch: MEMBERSHIPS })),
  ...WIDTHS.map(({ name, viewport }) => ({ name: `${name} documents`, use: { viewport }, testMatch: PUBLISH })),
];

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/global-setup.ts',
  // Apart from test-results/e2e-dist (the cached build), which Playwright must not clean away.
  outputDir: 'test-results/e2e',
  // One local stack on PGlite (one serialised session) and two cores: one journey at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: CI,
  retries: CI ? 1 : 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'test-results/e2e-report' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: findChromium() ?? undefined, args: CHROMIUM_ARGS },
    actionTimeout: 15_000,
    navigationTimeout: 30_000,
    screenshot: { mode: 'only-on-failure', fullPage: true },
    trace: 'on-first-retry',
  },
  projects,
});
