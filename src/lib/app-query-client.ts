import type { QueryClient } from '@tanstack/react-query';

/**
 * The browser's one QueryClient, created when the first screen that reads or writes server data
 * loads (app/router.tsx), or when a session needs its member row. TanStack Query's core is about
 * 12 KB gzip that the home page never uses, so a visitor's first page does not download it
 * . Tests and the build-time render hand AppProvider a client of their own.
 */
let client: QueryClient | undefined;
let loading: Promise<QueryClient> | undefined;
const listeners = new Set<() => void>();

export function loadAppQueryClient(): Promise<QueryClient> {
  loading ??= import('./react-query').then(
    ({ createQueryClient }) => {
      client ??= createQueryClient();
      for (const listener of listeners) listener();
      return client;
    },
    (error: unknown) => {
      loading = undefined; // a failed chunk download may be retried
      throw error;
    },
  );
  return loading;
}

export function getAppQueryClient(): QueryClient | undefined {
  return client;
}

export function subscribeToAppQueryClient(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
