import { matchRoutes, type RouteObject } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { HYDRATE_AFTER_LOAD } from '../../scripts/prerender-routes';
// @ts-expect-error: plain JavaScript for ESLint's config, without declarations
import { visitorPathFiles, visitorScreenFiles } from '../../scripts/visitor-path.js';
import type { RouteHandle } from './first-reads';
import { routes } from './router';

const visitorFlag = (path: string) =>
  (matchRoutes(routes, { pathname: path }) ?? []).some(({ route }) => (route.handle as RouteHandle | undefined)?.visitorPage === true);

function markedRoutes(tree: RouteObject[]): number {
  return tree.reduce(
    (n, route) => n + ((route.handle as RouteHandle | undefined)?.visitorPage ? 1 : 0) + markedRoutes(route.children ?? []),
    0,
  );
}

// The lint rule that keeps supabase-js and zod off a visitor's page covers the files that
// scripts/visitor-path.js derives from the routes router.tsx marks (decisions 0013, 0014).
describe('the visitor path, from the route table', () => {
  it('marks exactly the prerendered pages whose app starts after the first paint', () => {
    for (const path of HYDRATE_AFTER_LOAD) expect(visitorFlag(path), path).toBe(true);
    expect(markedRoutes(routes)).toBe(HYDRATE_AFTER_LOAD.length);
    expect(visitorFlag('/dashboard')).toBe(false);
    expect(visitorFlag('/signin')).toBe(false);
  });

  it('reads the same marks from the source as the router has at run time', () => {
    expect((visitorScreenFiles() as string[]).map((file) => file.replace(/^.*\/src\//, 'src/')).sort()).toEqual([
      'src/app/routes/home.tsx',
      'src/app/routes/membership.tsx',
      'src/app/routes/schedule.tsx',
    ]);
  });

  it('follows every static import of those screens, and stops at what loads on demand', () => {
    const files = visitorPathFiles() as string[];
    // What the hand-kept list named, now found by following imports.
    for (const file of [
      'src/features/booking/api/get-class-schedule.ts',
      'src/features/booking/components/class-card.tsx',
      'src/features/booking/components/timetable.tsx',
      'src/features/booking/components/use-day-schedule.ts',
      'src/features/membership/components/plan-card.tsx',
      'src/features/marketing/components/hero.tsx',
      'src/lib/public-api.ts',
      'src/lib/studio-time.ts',
    ])
      expect(files).toContain(file);
    // Loaded on demand (dynamic imports): the member timetable, the Supabase client, the forms' zod schemas.
    for (const file of [
      'src/app/routes/schedule-member.tsx',
      'src/lib/supabase.ts',
      'src/features/membership/api/submit-contact-message.ts',
    ])
      expect(files).not.toContain(file);
    expect(files.some((file) => file.endsWith('.test.ts') || file.endsWith('.test.tsx'))).toBe(false);
  });
});
