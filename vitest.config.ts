import { defineConfig, mergeConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';

export default defineConfig((env) =>
  mergeConfig(viteConfig(env), {
    test: {
      // Screens and pure helpers run in jsdom; database, stack and function tests in Node.
      projects: [
        {
          extends: true,
          test: {
            name: 'app',
            environment: 'jsdom',
            include: ['src/**/*.test.{ts,tsx}'],
            setupFiles: ['src/testing/setup-tests.ts'],
            // Screen tests wait on what the screen says; on a shared 2-core machine under load a
            // user-event journey can pass 5 s without anything being wrong.
            testTimeout: 15_000,
          },
        },
        {
          extends: true,
          test: {
            name: 'server',
            environment: 'node',
            include: ['supabase/**/*.test.ts', 'netlify/**/*.test.ts', 'scripts/**/*.test.ts'],
            testTimeout: 60_000,
            hookTimeout: 120_000,
            pool: 'forks',
          },
        },
      ],
    },
  }),
);
