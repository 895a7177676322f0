import { expect, test } from '../fixtures';
import { ACCOUNTS, signInAs } from '../support/accounts';
import { formatViolations, runAxe } from '../support/axe';
import { openRoute } from '../support/page-helpers';
import { ALL_ROUTES, ROUTER_ERROR_TEXT, UNKNOWN_ROUTE } from '../support/routes';

/**
 * The smoke test and the accessibility pass in one visit per route: every route of the
 * spec loads from the production build without the router's error screen or a console error,
 * shows its title, and has no axe-core violation. Checks are soft, so one broken screen does not
 * hide the others: the test reports every route's problems together.
 */
for (const role of ['signed out', 'member', 'admin'] as const) {
  test(`every route loads cleanly and passes axe (${role})`, async ({ page, stack, consoleErrors }) => {
    test.setTimeout(300_000);
    if (role === 'member') await signInAs(page, stack, ACCOUNTS.premium);
    if (role === 'admin') await signInAs(page, stack, ACCOUNTS.admin, { admin: true });
    for (const route of ALL_ROUTES) {
      await test.step(route, async () => {
        consoleErrors.take();
        await openRoute(page, route);
        const at = `${route} (${role}, now at ${new URL(page.url()).pathname})`;
        await expect.soft(page.getByText(ROUTER_ERROR_TEXT), `${at}: the router's error screen`).toHaveCount(0);
        const title = page.getByRole('heading', { level: 1, ...(route === UNKNOWN_ROUTE ? { name: /not found/i } : {}) });
        await expect.soft(title.first(), `${at}: a visible h1`).toBeVisible({ timeout: 10_000 });
        const violations = await runAxe(page);
        expect.soft(formatViolations(violations), `${at}: axe violations`).toBe('');
        expect.soft(consoleErrors.take(), `${at}: console errors`).toEqual([]);
      });
    }
  });
}

/** The journeys run under the deployed policy: the build is served with netlify.toml's headers. */
test('pages are served under the deployed Content-Security-Policy', async ({ page }) => {
  const response = await page.goto('/schedule');
  const headers = response!.headers();
  expect(headers['content-security-policy'], 'the CSP of netlify.toml').toContain("script-src 'self'");
  expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(headers['x-content-type-options']).toBe('nosniff');
});
