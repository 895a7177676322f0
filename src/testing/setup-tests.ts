import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './mocks/server';
import './browser-polyfills';
import { settleQueryClients } from './live-query-clients';

// findBy* waits up to 5 s (not 1 s): screens that render in the background (deferred values,
// transitions) take longer than 1 s under a full run on a shared 2-core machine.
configure({ asyncUtilTimeout: 5000 });

// msw's 'error' strategy only logs, and the screen's query fails quietly into an empty state, so a
// test could pass while its screen asked for data nobody stated. Collect them and fail the test.
const unhandledRequests: string[] = [];
beforeAll(() =>
  server.listen({
    onUnhandledRequest(request, print) {
      const url = new URL(request.url);
      unhandledRequests.push(`${request.method} ${url.origin}${url.pathname}`);
      // Still fail the request itself, as 'error' does: it must never reach a stack running on this machine.
      print.error();
    },
  }),
);
afterEach(async () => {
  await settleQueryClients();
  cleanup();
  server.resetHandlers();
  localStorage.clear();
  const unhandled = unhandledRequests.splice(0);
  if (unhandled.length > 0) throw new Error(`Requests without an msw handler: ${[...new Set(unhandled)].join(', ')}`);
});
afterAll(() => server.close());

// Console errors during tests are failures, not noise (Epic Stack).
const originalError = console.error;
beforeAll(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    originalError(...args);
    throw new Error(`console.error called in a test: ${args.map(String).join(' ')}`);
  });
});
