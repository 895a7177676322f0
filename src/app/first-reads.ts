import type { QueryClient } from '@tanstack/react-query';

/**
 * A screen's first reads, declared beside its route (router.tsx, admin-routes.tsx) and started at
 * boot beside the screen's code (first-data.ts, decision 0032), with the screen's own query
 * options so the screen finds the answer, or the request on its way, in the cache. A member
 * screen's reads are keyed by the member's id; an admin screen's wait for the admin check.
 */
export type FirstReads = { member: (client: QueryClient, memberId: string) => void } | { admin: (client: QueryClient) => void };

/** What a route may say about itself (react-router's `handle`). */
export type RouteHandle = {
  /** A prerendered visitor page whose app starts after the first paint (scripts/visitor-path.js). */
  visitorPage?: true;
  /** Its first reads, in a module of their own so the route table stays small. */
  firstReads?: () => Promise<FirstReads>;
};

/** The `handle` of a route whose screen has first reads in the module `load` imports. */
export const withFirstReads = (load: () => Promise<{ firstReads: FirstReads }>): RouteHandle => ({
  firstReads: () => load().then((m) => m.firstReads),
});
