import { ACCOUNTS, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import type { Journey, JourneyContext } from '../support/harness';
import { expectHeading, expectNoRouterError, openRoute } from '../support/page-helpers';
import { ALL_ROUTES, UNKNOWN_ROUTE } from '../support/routes';

type Role = 'signed out' | 'member' | 'admin';

/**
 * Issue 2's smoke test and issue 8's accessibility pass in one visit per route: every route of the
 * spec loads from the production build without the router's error screen or a console error,
 * shows its title, and has no axe-core violation. Problems are gathered per route and reported
 * together, so one broken screen does not hide the others.
 */
async function visitEveryRoute(ctx: JourneyContext, role: Role): Promise<void> {
  const { page, stack } = ctx;
  if (role === 'member') await signInAs(page, stack, ACCOUNTS.premium);
  if (role === 'admin') await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
  const problems: string[] = [];
  for (const route of ALL_ROUTES) {
    ctx.clearErrors();
    const found: string[] = [];
    try {
      await openRoute(page, route);
      await expectNoRouterError(page);
      await expectHeading(page, route === UNKNOWN_ROUTE ? /not found/i : undefined);
    } catch (err) {
      found.push(err instanceof Error ? err.message.split('\n')[0]! : String(err));
    }
    found.push(...ctx.errors);
    const violations = await runAxe(page).catch((err: Error) => [{ rule: 'axe-failed', impact: 'n/a', help: err.message, targets: [] }]);
    if (violations.length) found.push(`axe: ${formatViolations(violations)}`);
    if (found.length) problems.push(`${route} (${role}, now at ${new URL(page.url()).pathname}):\n    ${found.join('\n    ')}`);
  }
  ctx.clearErrors();
  if (problems.length) throw new Error(`${problems.length} of ${ALL_ROUTES.length} routes have problems:\n  ${problems.join('\n  ')}`);
}

export const routeJourneys: Journey[] = (['signed out', 'member', 'admin'] as const).map((role) => ({
  name: `every route loads cleanly and passes axe (${role})`,
  timeoutMs: 300_000,
  run: (ctx) => visitEveryRoute(ctx, role),
}));
