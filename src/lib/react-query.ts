import { QueryClient, type DefaultOptions } from '@tanstack/react-query';

/**
 * One cache for all server data (TanStack Query). A screen revisited within `staleTime` shows
 * the cached rows without a request; mutations invalidate or update the keys they change (see
 * `query-keys.ts`), and realtime events do the same, so a fresh read is only made when the data
 * may really have changed.
 */
export const queryConfig = {
  queries: {
    staleTime: 60_000,
    // A failed read is retried once (a dropped connection on a phone), never a refusal (4xx).
    retry: (failureCount, error) => failureCount < 1 && !isClientError(error),
    refetchOnWindowFocus: false,
  },
  mutations: { retry: false },
} satisfies DefaultOptions;

export function createQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: queryConfig });
}

/** PostgREST / GoTrue errors carry a 4xx `status` or a SQLSTATE `code`; those never succeed on retry. */
function isClientError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { status, code } = error as { status?: unknown; code?: unknown };
  if (typeof status === 'number') return status >= 400 && status < 500;
  return typeof code === 'string' && code.length > 0;
}
