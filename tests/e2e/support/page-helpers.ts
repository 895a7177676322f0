import { expect } from './expect';
import type { Page } from 'playwright-core';
import { ROUTER_ERROR_TEXT } from './routes';

/** Opens a path and waits until the app has rendered and its data calls have settled. */
export async function openRoute(page: Page, path: string): Promise<void> {
  const response = await page.goto(path, { waitUntil: 'load' });
  expect(response?.ok(), `HTTP ${response?.status()} for ${path}`);
  await settle(page);
}

/** Waits for the network to go quiet (realtime sockets aside) and for spinners to go away. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 6_000 }).catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], [role="status"][aria-label^="Loading"]'), undefined, { timeout: 5_000 })
    .catch(() => undefined);
}

/** Fails when the router's error screen is showing. */
export async function expectNoRouterError(page: Page): Promise<void> {
  const crashed = await page.getByText(ROUTER_ERROR_TEXT).count();
  if (crashed) {
    const detail = await page.locator('pre').first().textContent().catch(() => '');
    throw new Error(`"${ROUTER_ERROR_TEXT}" on ${page.url()}: ${detail ?? ''}`);
  }
}

/** Fails unless the screen has exactly one top-level heading with text: every screen is titled. */
export async function expectHeading(page: Page, name?: string | RegExp): Promise<void> {
  const heading = page.getByRole('heading', { level: 1, ...(name ? { name } : {}) });
  await heading.first().waitFor({ state: 'visible', timeout: 10_000 });
}
