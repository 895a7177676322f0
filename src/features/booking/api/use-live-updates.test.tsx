import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryKeys } from '@/lib/query-keys';
import { afterFirstReads, LIVE_JOIN_GAP_MS, useLiveUpdates } from './use-live-updates';

type Handlers = { onClass: () => void; onMyBooking: () => void; onJoined?: () => void };
const subscribed: { handlers: Handlers; ready: Promise<void> }[] = [];
vi.mock('./subscribe-live-changes', () => ({
  subscribeToLiveChanges: (_memberId: string | null, handlers: Handlers, ready: Promise<void>) => {
    subscribed.push({ handlers, ready });
    return () => undefined;
  },
}));

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('live updates start after the first reads', () => {
  let client: QueryClient;
  beforeEach(() => {
    client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    subscribed.length = 0;
  });
  afterEach(() => client.clear());

  it('waits while a read is in flight, then for the browser to be idle', async () => {
    let answer: (rows: string[]) => void = () => undefined;
    void client.fetchQuery({ queryKey: ['classes', 'list'], queryFn: () => new Promise<string[]>((resolve) => (answer = resolve)) });
    let started = false;
    void afterFirstReads(client, new AbortController().signal).then(() => (started = true));
    await flush();
    expect(started).toBe(false);
    answer(['a class']);
    await vi.waitFor(() => expect(started).toBe(true));
  });

  it('never starts once the screen has gone', async () => {
    let answer: (rows: string[]) => void = () => undefined;
    void client.fetchQuery({ queryKey: ['classes', 'list'], queryFn: () => new Promise<string[]>((resolve) => (answer = resolve)) });
    const stop = new AbortController();
    let started = false;
    void afterFirstReads(client, stop.signal).then(() => (started = true));
    stop.abort();
    answer(['a class']);
    await flush();
    await flush();
    expect(started).toBe(false);
  });

  it('reads again on joining only what was read longer ago than the gap a change could slip through', () => {
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const now = Date.now();
    client.setQueryData([...queryKeys.classes.all, 'fresh'], ['fresh'], { updatedAt: now });
    client.setQueryData([...queryKeys.classes.all, 'old'], ['old'], { updatedAt: now - LIVE_JOIN_GAP_MS - 1000 });
    client.setQueryData([...queryKeys.bookings.all, 'old'], ['old'], { updatedAt: now - LIVE_JOIN_GAP_MS - 1000 });
    renderHook(() => useLiveUpdates('member-1'), { wrapper });
    expect(subscribed).toHaveLength(1);
    subscribed[0]!.handlers.onJoined!();
    const stale = (key: readonly unknown[]) => client.getQueryCache().find({ queryKey: key, exact: true })!.state.isInvalidated;
    expect(stale([...queryKeys.classes.all, 'fresh'])).toBe(false);
    expect(stale([...queryKeys.classes.all, 'old'])).toBe(true);
    expect(stale([...queryKeys.bookings.all, 'old'])).toBe(true);
  });
});
