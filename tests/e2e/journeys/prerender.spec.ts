import { STUDIO } from '../../../src/config/studio';
import { expect, test } from '../fixtures';
import { HYDRATE_AFTER_LOAD, PRERENDERED_ROUTES } from '../../../scripts/prerender-routes';

/** Each prerendered route's heading, as its HTML carries it before any script runs. */
const HEADINGS: Record<(typeof PRERENDERED_ROUTES)[number], string> = {
  '/': 'Mind and body transformation starts here',
  '/membership': 'Membership',
  '/schedule': 'Class Schedule',
  '/signin': 'Sign In',
  '/free-trial': 'Your First Class Is On Us',
  '/admin/login': 'Admin Portal',
};

test.describe('prerendered public pages', () => {
  for (const route of PRERENDERED_ROUTES) {
    test(`${route} shows its content with JavaScript off, then hydrates it without a warning`, async ({ browser, page, baseURL }) => {
      const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL });
      try {
        const bare = await noScript.newPage();
        await bare.goto(route);
        await expect(bare.getByRole('heading', { level: 1, name: HEADINGS[route] })).toBeVisible();
        // The site's header too (the admin sign-in has its own frame).
        if (route !== '/admin/login')
          await expect(bare.getByRole('link', { name: STUDIO.name }).first(), 'the header is in the HTML').toBeVisible();
        // A form sent before the app starts goes by POST: never credentials in a URL.
        expect(await bare.locator('form:not([method="post"])').count(), 'a form that would submit by GET').toBe(0);
        // The stylesheet is inline: nothing blocks the first paint.
        expect(await bare.locator('link[rel="stylesheet"]').count(), 'a render-blocking stylesheet').toBe(0);
      } finally {
        await noScript.close();
      }
      // With scripts the same HTML hydrates: a mismatch is a console error, which fails the test.
      await page.goto(route);
      await expect(page.getByRole('heading', { level: 1, name: HEADINGS[route] })).toBeVisible();
    });
  }

  /** Every element's computed style, in document order, with animations (the skeleton's pulse) at their start. */
  const computedStyles = () => {
    for (const animation of document.getAnimations()) {
      animation.pause();
      animation.currentTime = 0;
    }
    return Array.from(document.querySelectorAll('body *'), (el) => {
      const style = getComputedStyle(el);
      return `${el.tagName}.${el.getAttribute('class') ?? ''} ${Array.from(style, (name) => `${name}:${style.getPropertyValue(name)}`).join(';')}`;
    });
  };

  for (const route of HYDRATE_AFTER_LOAD) {
    test(`${route} inlines only the CSS it uses, and looks exactly as with the whole stylesheet, which the app brings`, async ({
      browser,
      page,
      baseURL,
    }) => {
      // The page alone: its scripts and the whole stylesheet (which the loader adds) refused, in a
      // context of its own (refused requests are console errors, which fail a journey's page).
      const alone = await browser.newContext({ baseURL, viewport: page.viewportSize() });
      try {
        const bare = await alone.newPage();
        let whole = false;
        await bare.route(/\/assets\/.+\.(js|css)$/, (request) =>
          whole && request.request().url().endsWith('.css') ? request.continue() : request.abort(),
        );
        await bare.goto(route, { waitUntil: 'load' });
        const inlineOnly = await bare.evaluate(computedStyles);
        whole = true;
        const stylesheet = await bare.locator('script[data-stylesheet]').getAttribute('data-stylesheet');
        await bare.evaluate(
          (href) =>
            new Promise((resolve, reject) => {
              const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href, onload: resolve, onerror: reject });
              document.head.appendChild(link);
            }),
          stylesheet,
        );
        const withWholeSheet = await bare.evaluate(computedStyles);
        const differing = withWholeSheet.filter((style, i) => style !== inlineOnly[i]).map((style) => style.split(' ')[0]);
        expect(differing, 'elements styled differently without the whole stylesheet').toEqual([]);

        // With its scripts, the app's start brings the whole stylesheet (its other screens need it).
        await page.goto(route);
        await expect(page.locator(`link[rel="stylesheet"][href="${stylesheet}"]`)).toHaveCount(1);
      } finally {
        await alone.close();
      }
    });
  }

  test('a button pressed before the app has started works once it has (/membership, Contact Us)', async ({ page }) => {
    // /membership starts its app after `load`: hold the app's code so the press surely comes first.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/membership');
    await page.getByRole('button', { name: 'Contact Us' }).last().click();
    await expect(page.getByRole('dialog', { name: 'Contact Us' }), 'nothing answers before the app is live').toBeHidden();
    release();
    await expect(page.getByRole('dialog', { name: 'Contact Us' })).toBeVisible();
  });

  test('the phone menu on / opens and closes before the app has started, and the app takes it over as it is', async ({
    page,
  }, testInfo) => {
    test.skip(testInfo.project.name !== 'phone', 'the menu toggle shows on narrow screens only');
    // / starts its app after `load`: hold the app's code so the presses surely come first.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const menu = page.getByRole('navigation', { name: 'Main menu' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(toggle, 'the menu answers before the app is live').toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Classes' })).toBeVisible();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
    // Left open for the app to take over.
    await toggle.click();
    await expect(menu).toBeVisible();

    release();
    await page.waitForFunction(() => (window as unknown as { __studioEarlyClicks?: { hydrated: boolean } }).__studioEarlyClicks?.hydrated);
    // The app keeps what the visitor sees (no flicker, no press replayed), and one press closes it.
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();
    await toggle.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  test('/schedule’s classes arrive without moving anything on screen (no layout shift)', async ({ page }) => {
    await page.addInitScript(() => {
      const shifts: string[] = ((window as unknown as { layoutShifts: string[] }).layoutShifts = []);
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; sources: { node?: Node }[] })[]) {
          shifts.push(`${entry.value.toFixed(4)} ${entry.sources.map((source) => source.node?.nodeName).join(',')}`);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto('/schedule');
    // All the cards, those below the first screen too (they are laid out only when near it).
    await expect(page.getByRole('article').nth(6)).toBeAttached();
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    expect(await page.evaluate(() => (window as unknown as { layoutShifts: string[] }).layoutShifts)).toEqual([]);
  });

  test('a member route is not prerendered: the shell renders it in the browser', async ({ page }) => {
    const response = await page.request.get('/dashboard');
    expect(await response.text(), 'the SPA shell has an empty root').toContain('<div id="root"></div>');
  });
});
