import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, requireChromium } from './chromium';

/**
 * A phone-sized Chromium with a profile on disk: Chromium never offers to install from an
 * incognito profile (Playwright's ordinary contexts are), so the check needs a real one.
 */
export async function installableContext(origin: string): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'pwa-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: requireChromium(),
    headless: true,
    args: CHROMIUM_ARGS,
    baseURL: origin,
    viewport: { width: 375, height: 812 },
    isMobile: true,
    hasTouch: true,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** One of the checks Lighthouse's PWA category made before Lighthouse 12 removed it. */
export interface PwaCheck {
  check: string;
  ok: boolean;
  detail: string;
}

/**
 * The installability checks Lighthouse 12 no longer makes, scripted. `page` is a signed-in
 * member's page at any route of the app; this opens the manifest's start URL there, waits for the
 * service worker to control it, asks Chromium itself (DevTools' Page.getInstallabilityErrors and
 * Page.getAppManifest), then opens the start URL offline in a new tab. Leaves `page` on
 * about:blank and the context online.
 */
export async function checkInstallability(context: BrowserContext, page: Page): Promise<PwaCheck[]> {
  const checks: PwaCheck[] = [];
  const add = (check: string, ok: boolean, detail = '') => checks.push({ check, ok, detail });
  const cdp = await context.newCDPSession(page);

  const manifestInfo = await cdp.send('Page.getAppManifest');
  const manifest = JSON.parse(manifestInfo.data || '{}') as {
    start_url?: string;
    theme_color?: string;
    display?: string;
    icons?: { sizes?: string; purpose?: string }[];
  };
  add('manifest parses without errors', manifestInfo.errors.length === 0, manifestInfo.errors.map((e) => e.message).join('; '));
  const startUrl = new URL(manifest.start_url ?? '/', page.url()).pathname;
  const icons = manifest.icons ?? [];
  const has = (size: string, purpose: string) => icons.some((i) => i.sizes === size && (i.purpose ?? 'any').split(' ').includes(purpose));
  add('icons of 192 and 512 px', has('192x192', 'any') && has('512x512', 'any'), `${icons.length} icons`);
  add('a maskable icon', has('512x512', 'maskable') || has('192x192', 'maskable'));
  add('manifest theme colour', Boolean(manifest.theme_color), manifest.theme_color ?? 'none');

  await page.goto(startUrl, { waitUntil: 'load' });
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 }).catch(() => undefined);
  const controlled = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? '');
  add(`a service worker controls the start URL (${startUrl})`, controlled !== '', controlled.replace(/^https?:\/\/[^/]+/, ''));

  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  add(
    'Chromium finds it installable (no installability errors)',
    installabilityErrors.length === 0,
    installabilityErrors.map((e) => e.errorId).join(', '),
  );

  const head = await page.evaluate(() => ({
    themeColor: document.querySelector('meta[name="theme-color"]')?.getAttribute('content') ?? '',
    viewport: document.querySelector('meta[name="viewport"]')?.getAttribute('content') ?? '',
    touchIcon: document.querySelector('link[rel="apple-touch-icon"]')?.getAttribute('href') ?? '',
  }));
  add('theme-color meta', head.themeColor !== '', head.themeColor);
  add('viewport meta with width=device-width', /width=device-width/.test(head.viewport), head.viewport);
  const touch = head.touchIcon ? await page.request.get(head.touchIcon) : undefined;
  add('apple-touch-icon served', touch?.ok() === true && touch.headers()['content-type'] === 'image/png', head.touchIcon);

  // Offline, as the app opened from the home screen: a new tab. The page leaves the app first, so
  // none of its requests fails on the way out (journeys fail on console errors).
  await cdp.detach();
  await page.goto('about:blank');
  await context.setOffline(true);
  const offlinePage = await context.newPage();
  try {
    let status = 0;
    let failure = '';
    try {
      status = (await offlinePage.goto(startUrl, { waitUntil: 'domcontentloaded' }))?.status() ?? 0;
    } catch (err) {
      failure = (err instanceof Error ? err.message : String(err)).split('\n')[0]!;
    }
    add('offline start URL answers 200', status === 200, status ? `HTTP ${status}` : failure);
  } finally {
    await offlinePage.close();
    await context.setOffline(false);
  }
  return checks;
}
