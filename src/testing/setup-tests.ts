import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { server } from './mocks/server';
import './browser-polyfills';

// findBy* waits up to 5 s (not 1 s): screens that render in the background (deferred values,
// transitions) take longer than 1 s under a full run on a shared 2-core machine.
configure({ asyncUtilTimeout: 5000 });

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  localStorage.clear();
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
