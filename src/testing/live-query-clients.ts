import type { QueryClient } from '@tanstack/react-query';
import { getAppQueryClient } from '@/lib/app-query-client';

/**
 * The query clients of the screens a test rendered. A query whose request starts late (after the
 * session resolves) can still be on its way when the test's last assertion passes; if the test
 * ended then, the request would reach the next test's handlers and fail it. So a test ends once its
 * clients are at rest, or after a short wait for a request the test deliberately never answers.
 */
const clients = new Set<QueryClient>();

export function trackQueryClient(client: QueryClient): void {
  clients.add(client);
}

const SETTLE_LIMIT_MS = 1000;

/** Waits until no tracked query or mutation is running (at most a second), then forgets the clients. */
export async function settleQueryClients(): Promise<void> {
  const app = getAppQueryClient(); // the app's own, for screens rendered without one
  if (app) clients.add(app);
  const busy = () => [...clients].some((client) => client.isFetching() > 0 || client.isMutating() > 0);
  const deadline = Date.now() + SETTLE_LIMIT_MS;
  while (busy() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  clients.clear();
}
