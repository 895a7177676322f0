import { STUDIO } from '../../../src/config/studio';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures';
import { ACCOUNTS, createConfirmedMember, signInAs, signInContext } from '../support/accounts';
import { REPO_ROOT } from '../support/build';
import { unique } from '../support/names';
import { findClassCard } from '../support/page-helpers';
import { createClass } from '../support/rest';
import { checkInstallability, installableContext } from '../support/installability';

// The installable app. The manifest, the service worker, the one-time install offer,
// and a member's bookings and timetable readable offline, with Book and Cancel waiting for a
// connection. Screenshots for a person to look at land in test-results/pwa-screenshots.

const SHOTS = join(REPO_ROOT, 'test-results', 'pwa-screenshots');

/** A PNG's width and height, from its IHDR chunk. */
const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/**
 * Chromium's own install event, as the browser fires it once the page is installable (a headless
 * browser never does). Fired until the app keeps it (it cancels the browser's own banner): its
 * member code loads after the screen, later still on a busy machine.
 */
async function offerBrowserPrompt(page: Page): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() => {
          const event = new Event('beforeinstallprompt', { cancelable: true });
          Object.assign(event, { prompt: () => Promise.resolve(), userChoice: Promise.resolve({ outcome: 'dismissed', platform: 'web' }) });
          return !window.dispatchEvent(event);
        }),
      { message: 'the app keeps the install prompt' },
    )
    .toBe(true);
}

/** The errors a page without a network logs (failed reads, the realtime socket), which this journey expects. */
const OFFLINE_ERRORS = /ERR_INTERNET_DISCONNECTED|ERR_NAME_NOT_RESOLVED|ERR_FAILED|WebSocket|Failed to fetch|NetworkError/i;

test.describe('the installable app', () => {
  test.beforeEach(({}, testInfo) => {
    test.skip(testInfo.project.name !== 'phone', 'an app on a phone: one width is enough');
  });

  test('every page links a valid manifest: name, colours, the dashboard as start, icons (maskable too) and shortcuts', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const response = await request.get(href!);
    expect(response.ok()).toBe(true);
    expect(response.headers()['content-type']).toContain('application/manifest+json');
    const manifest = (await response.json()) as Record<string, unknown> & {
      icons: { src: string; sizes: string; purpose: string }[];
      shortcuts: { name: string; url: string }[];
    };
    expect(manifest).toMatchObject({
      name: STUDIO.name,
      start_url: '/dashboard',
      scope: '/',
      display: 'standalone',
      theme_color: '#0f172a',
      background_color: '#ffffff',
    });
    expect(manifest.shortcuts.map(({ name, url }) => [name, url])).toEqual([
      ['Book a class', '/my-schedule'],
      ['My bookings', '/mybookings'],
    ]);
    for (const size of [192, 512]) {
      for (const purpose of ['any', 'maskable']) {
        const icon = manifest.icons.find((i) => i.sizes === `${size}x${size}` && i.purpose === purpose);
        expect(icon, `a ${purpose} icon of ${size} px`).toBeDefined();
        const png = await request.get(icon!.src);
        expect(png.headers()['content-type']).toBe('image/png');
        expect(pngSize(await png.body())).toEqual({ width: size, height: size });
      }
    }
    // iOS's Add to Home Screen takes the touch icon.
    const touch = await page.locator('link[rel="apple-touch-icon"]').getAttribute('href');
    expect((await request.get(touch!)).ok()).toBe(true);
    // A visitor's page starts no service worker.
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);
  });

  test('Chromium finds it installable: manifest and icons, a worker controlling the start URL, which opens offline', async ({
    stack,
    baseURL,
  }) => {
    // Lighthouse 12 has no PWA category: the same checks, asked of Chromium (decision 0030), in a
    // browser with a profile on disk (Chromium never installs from an incognito one).
    const { context, close } = await installableContext(baseURL!);
    try {
      await signInContext(context, stack, ACCOUNTS.premium);
      const page = await context.newPage();
      await page.goto('/my-schedule');
      await expect(page.getByRole('heading', { name: 'Available Classes' })).toBeVisible();
      const checks = await checkInstallability(context, page);
      expect(checks.length).toBeGreaterThanOrEqual(10);
      expect(checks.filter((c) => !c.ok)).toEqual([]);
    } finally {
      await close();
    }
  });

  test('a returning member’s dashboard is painted by the worker before the app runs, then the app takes its place; Log Out removes it', async ({
    page,
    browser,
    stack,
  }) => {
    const email = `${unique('copy')}@example.test`;
    await createConfirmedMember(stack, email, 'copy-pass-1234', { full_name: 'Cora Copy' });
    await signInAs(page, stack, email, { password: 'copy-pass-1234' });
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: 'Welcome back, Cora!', level: 1 })).toBeVisible();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    // The page keeps its copy once its reads have landed (decision 0112); read it as the worker will.
    const savedCopy = () =>
      page.evaluate(async () => (await (await caches.open('member-page-copies-v1')).match('/dashboard'))?.text() ?? '');
    await expect.poll(savedCopy, { timeout: 15_000 }).toContain('Welcome back, Cora!');

    // Opened again: the worker answers with the copy in the HTML itself, before any script has run.
    const opened = await page.reload();
    expect(opened?.fromServiceWorker()).toBe(true);
    const served = (await opened?.text()) ?? '';
    expect(served).toContain('<div id="member-copy" inert');
    expect(served).toContain('Welcome back, Cora!');
    expect(served).toContain('<div id="root" hidden></div>');
    // Then the app renders the same page and takes the copy's place.
    await expect(page.locator('#member-copy')).toHaveCount(0, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Welcome back, Cora!', level: 1 })).toBeVisible();
    await expect(page.locator('#root')).toBeVisible();
    // For a person to compare: the copy as painted before any script, and the app in its place.
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, 'returning-dashboard-app.png') });
    const still = await browser.newContext({
      javaScriptEnabled: false,
      viewport: page.viewportSize()!,
      baseURL: new URL(page.url()).origin,
    });
    try {
      const copyPage = await still.newPage();
      await copyPage.route('**/dashboard', (route) => route.fulfill({ body: served, contentType: 'text/html' }));
      await copyPage.goto('/dashboard');
      await expect(copyPage.getByText('Welcome back, Cora!')).toBeVisible();
      await copyPage.screenshot({ path: join(SHOTS, 'returning-dashboard-copy.png') });
    } finally {
      await still.close();
    }

    // Log Out takes the copy off this browser: the next person gets the site's own page.
    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('button', { name: 'Log Out' }).first().click();
    await expect(page.getByText('Logged out successfully', { exact: true }).first()).toBeVisible();
    await expect.poll(savedCopy).toBe('');
  });

  test('a member installs it after a first booking, reads bookings and timetable offline, and books again once online', async ({
    page,
    context,
    stack,
    consoleErrors,
  }) => {
    mkdirSync(SHOTS, { recursive: true });
    const first = await createClass(stack, unique('Offline Stretch'), 2);
    const later = await createClass(stack, unique('Back Online HIIT'), 9);
    await signInAs(page, stack, ACCOUNTS.premium);
    await page.goto('/my-schedule');
    await expect(page.getByRole('heading', { name: 'Available Classes' })).toBeVisible();

    // The worker registers and takes control of the page it was registered from.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });
    expect(await page.evaluate(() => navigator.serviceWorker.ready.then((r) => r.active?.scriptURL))).toMatch(/\/sw\.js$/);

    // The first booking brings the install offer, once.
    await offerBrowserPrompt(page);
    const card = await findClassCard(page, first.name);
    await offerBrowserPrompt(page); // findClassCard loaded the page again
    await card.getByRole('button', { name: 'Book Now' }).click();
    await expect(page.getByText('Class booked successfully!', { exact: true }).first()).toBeVisible();
    const offer = page.getByRole('dialog', { name: `Add ${STUDIO.name} to your home screen` });
    await expect(offer).toBeVisible();
    await expect(offer.getByRole('button', { name: 'Install app' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'install-offer.png') });
    await offer.getByRole('button', { name: 'Not now' }).click();
    await expect(offer).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('ffInstallOffer'))).toBe('dismissed');

    // My Bookings read online; the saved copy has the booking and two weeks of timetable (the
    // later class is 9 days out, past the first page the member looked at).
    await page.goto('/mybookings');
    await expect(page.getByText(first.name).first()).toBeVisible();
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('ffOfflineSnapshot') ?? ''), {
        timeout: 30_000,
        message: 'the saved copy holds the booking and the class 9 days out',
      })
      .toEqual(expect.stringMatching(new RegExp(`${first.name}[\\s\\S]*${later.name}|${later.name}[\\s\\S]*${first.name}`)));

    // The dashboard read online: its reads go into the copy too.
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Quick Stats' })).toBeVisible();
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const copy = JSON.parse(localStorage.getItem('ffOfflineSnapshot') ?? '{"entries":[]}') as {
              entries: { queryKey: unknown[] }[];
            };
            return ['plan-usage', 'credits', 'documents'].filter((key) => !copy.entries.some((e) => e.queryKey[0] === key));
          }),
        { timeout: 30_000, message: 'the saved copy holds what the dashboard shows' },
      )
      .toEqual([]);

    // Offline: the app opened again (a new page, as from the home screen) comes from the worker
    // and shows the saved copy, and says so. (Playwright's offline mode leaves navigator.onLine
    // true, as a network that carries nothing does: the app finds out by asking the site.)
    // The first page closes before the network goes, so none of its requests fails on the way out.
    await page.close();
    await context.setOffline(true);
    const phone = await context.newPage();
    const errors: string[] = [];
    phone.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    phone.on('pageerror', (err) => errors.push(err.message));
    await phone.goto('/mybookings');
    const banner = phone.getByRole('status').filter({ hasText: 'You are offline' });
    await expect(banner).toContainText(/You are offline: showing what we had at .+; it may be out of date\./);
    await expect(phone.getByText(first.name).first()).toBeVisible();
    const cancel = phone.getByRole('button', { name: new RegExp(`^Cancel ${first.name}`) });
    await expect(cancel).toBeDisabled();
    await expect(cancel).toHaveAccessibleDescription('Cancelling needs a connection.');
    await phone.screenshot({ path: join(SHOTS, 'offline-my-bookings.png') });

    // The timetable too, with Book Now waiting for a connection.
    await phone.getByRole('link', { name: 'Book a Class' }).first().click();
    const laterCard = phone.getByRole('article', { name: later.name });
    await expect(laterCard).toBeVisible();
    const book = laterCard.getByRole('button', { name: 'Book Now' });
    await expect(book).toBeDisabled();
    await expect(book).toHaveAccessibleDescription('Booking needs a connection.');
    await expect(phone.getByRole('status').filter({ hasText: 'You are offline' })).toBeVisible();
    await phone.screenshot({ path: join(SHOTS, 'offline-book-a-class-top.png') });
    await laterCard.scrollIntoViewIfNeeded();
    await phone.screenshot({ path: join(SHOTS, 'offline-book-a-class.png') });

    // The dashboard shows its saved copy under the banner, never a spinner that waits for the network.
    await phone.goto('/dashboard');
    await expect(phone.getByRole('heading', { name: /Welcome back/ })).toBeVisible();
    await expect(phone.getByRole('status').filter({ hasText: 'You are offline' })).toContainText('showing what we had at');
    await expect(phone.getByRole('heading', { name: 'Quick Stats' })).toBeVisible();
    await expect(phone.getByText(first.name).first()).toBeVisible();
    await expect(phone.getByRole('status', { name: 'Loading your dashboard' })).toHaveCount(0);
    await phone.screenshot({ path: join(SHOTS, 'offline-dashboard.png') });

    // The pages kept nowhere say so plainly, in the app's usual frame, instead of spinning.
    for (const [path, heading, shot] of [
      ['/membership', 'Membership', 'offline-membership.png'],
      ['/personal-training', 'Personal training', 'offline-personal-training.png'],
      ['/edit-profile', 'Edit Profile', 'offline-edit-profile.png'],
    ] as const) {
      await phone.goto(path);
      await expect(phone.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(phone.getByText('This page is not available offline.')).toBeVisible();
      await expect(phone.getByRole('status').filter({ hasText: 'You are offline' })).toBeVisible();
      await expect(phone.getByRole('link', { name: STUDIO.name }).first(), `${path}: the header`).toBeVisible();
      await expect(phone.locator('[role="status"][aria-live] .animate-spin:visible'), `${path}: no spinner`).toHaveCount(0);
      await phone.screenshot({ path: join(SHOTS, shot) });
    }
    await phone.goto('/my-schedule');
    await expect(laterCard).toBeVisible();

    // Back online: the banner goes and booking works.
    await context.setOffline(false);
    await expect(banner).toBeHidden();
    await expect(book).toBeEnabled();
    await book.click();
    await expect(phone.getByText('Class booked successfully!', { exact: true }).first()).toBeVisible();
    await phone.screenshot({ path: join(SHOTS, 'back-online-booked.png') });
    // Offered once: a second booking brings no offer.
    await expect(phone.getByRole('dialog', { name: `Add ${STUDIO.name} to your home screen` })).toBeHidden();
    expect(
      errors.filter((line) => !OFFLINE_ERRORS.test(line)),
      'errors other than the missing network',
    ).toEqual([]);
    expect(consoleErrors.take()).toEqual([]);
  });
});
