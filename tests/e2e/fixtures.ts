import { rmSync, writeFileSync } from 'node:fs';
import { test as base } from '@playwright/test';
import { publishedOrigin, publishedStack } from './support/environment';
import type { StackApi } from './support/local-stack';

export { expect } from '@playwright/test';

/** Console errors and uncaught exceptions a journey's page produced. */
export interface ConsoleErrors {
  /** The errors seen since the last take(), which forgets them (a step expected to log one). */
  take(): string[];
}

interface Fixtures {
  consoleErrors: ConsoleErrors;
}

interface WorkerFixtures {
  /** The run's local stack (the global setup started it): its REST API and its inbox. */
  stack: StackApi;
}

/**
 * The journeys' `test`: every test gets the served app as its baseURL and the stack, and fails
 * when its page logs a console error or throws an uncaught exception (an auto fixture), so a
 * journey whose clicks all worked still fails on a screen that broke on the way. On failure the
 * whole console log is attached next to the screenshot and trace.
 */
export const test = base.extend<Fixtures, WorkerFixtures>({
  baseURL: async ({}, use) => use(publishedOrigin()),
  stack: [async ({}, use) => use(publishedStack()), { scope: 'worker' }],
  consoleErrors: [
    async ({ page, baseURL }, use, testInfo) => {
      const errors: string[] = [];
      const log: string[] = [];
      page.on('console', (msg) => {
        log.push(`[${msg.type()}] ${msg.text()}`);
        // The app's own pages only: the local test checkout stands in for the provider's hosted page.
        if (msg.type() === 'error' && page.url().startsWith(baseURL!)) errors.push(`console.error on ${page.url()}: ${msg.text()}`);
      });
      page.on('pageerror', (err) => {
        log.push(`[pageerror] ${err.message}`);
        errors.push(`uncaught on ${page.url()}: ${err.message}`);
      });
      page.on('requestfailed', (req) => log.push(`[requestfailed] ${req.method()} ${req.url()} ${req.failure()?.errorText ?? ''}`));

      await use({ take: () => errors.splice(0) });

      if (errors.length || testInfo.status !== testInfo.expectedStatus) {
        // Attached as a file (the reporter names it, the html report links it), not printed inline.
        const path = testInfo.outputPath('console.log');
        writeFileSync(path, `URL: ${page.url()}\n\n${log.join('\n')}\n`);
        await testInfo.attach('console log', { path, contentType: 'text/plain' });
        rmSync(path); // attach() keeps its own copy under attachments/
      }
      if (errors.length) throw new Error(`console errors:\n  ${errors.join('\n  ')}`);
    },
    { auto: true },
  ],
});
