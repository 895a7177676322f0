import { expect, type Page } from '@playwright/test';

/**
 * Waits for the network to go quiet (realtime sockets aside) and for spinners to go away: before
 * axe looks at a whole screen and before the bench measures one. Journeys wait on what they
 * expect to see instead.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 6_000 }).catch(() => undefined);
  await page
    .waitForFunction(() => !document.querySelector('[aria-busy="true"], [role="status"][aria-label^="Loading"]'), undefined, {
      timeout: 5_000,
    })
    .catch(() => undefined);
}

/** Opens a path, fails on an HTTP error, and lets the screen settle. */
export async function openRoute(page: Page, path: string): Promise<void> {
  const response = await page.goto(path, { waitUntil: 'load' });
  expect(response?.status(), `HTTP status of ${path}`).toBeLessThan(400);
  await settle(page);
}

/** Finds a class on Book a Class (/my-schedule) by name through the search box, and returns its card. */
export async function findClassCard(page: Page, name: string) {
  await page.goto('/my-schedule');
  await page.getByPlaceholder('Search classes or instructors...').fill(name);
  const card = page.getByRole('article', { name });
  await expect(card).toBeVisible();
  return card;
}
