import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { ACCOUNTS, signInContext } from '../../tests/e2e/support/accounts';
import type { LocalStack } from '../../tests/e2e/support/local-stack';
import { settle } from '../../tests/e2e/support/page-helpers';
import { createClass } from '../../tests/e2e/support/rest';
import type { Report } from '../report';

interface Budgets {
  bundle: Record<string, { jsKb?: number; firstPaintJsKb?: number; cssKb?: number; htmlKb?: number }>;
  requests: Record<string, number>;
}

type Who = 'visitor' | 'member' | 'admin';
const BUNDLE_ROUTES: { path: string; who: Who }[] = [
  { path: '/', who: 'visitor' },
  { path: '/schedule', who: 'visitor' },
  { path: '/membership', who: 'visitor' },
  { path: '/embed/schedule', who: 'visitor' },
  { path: '/dashboard', who: 'member' },
  { path: '/my-schedule', who: 'member' },
  { path: '/mybookings', who: 'member' },
  { path: '/admin', who: 'admin' },
];

async function newContext(browser: Browser, stack: LocalStack, origin: string, who: Who): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin, viewport: { width: 375, height: 812 } });
  context.setDefaultTimeout(15_000);
  if (who === 'member') await signInContext(context, stack, ACCOUNTS.premium);
  if (who === 'admin') await signInContext(context, stack, ACCOUNTS.admin, { admin: true });
  return context;
}

/**
 * Gzipped bytes one cold visit transfers: its scripts until the page settles, those of them asked
 * for before the first paint with data (`jsFirstPaint`), its stylesheets, and its HTML with headers.
 */
export type RouteBytes = { js: number; jsFirstPaint: number; css: number; html: number; listed: string[] };

/**
 * Runs in the page: notes (epoch ms) the first frame that shows the screen with its data: a heading
 * in the main region, and no spinner ("Loading…", "Checking your session") and nothing busy: on a
 * signed-in page, once its first reads have answered (or its saved copy is painted). A string, not
 * a function: tsx adds its own helpers to a function's text, which the page does not have.
 */
const NOTE_FIRST_PAINT_WITH_DATA = `(() => {
  const check = () => {
    const main = document.getElementById('main');
    const waiting =
      document.querySelector('[aria-busy="true"]') !== null ||
      [...document.querySelectorAll('[role="status"]')].some((el) => /^(Loading|Checking)/.test((el.textContent || '').trim()));
    if (main && main.querySelector('h1, h2') && !waiting) window.__firstPaintWithData = performance.timeOrigin + performance.now();
    else requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
})();`;

/**
 * A response's gzipped body size. Chromium now and then reports a body still being read as a
 * negative size (seen for a script asked for as the page settles): read once it is complete.
 */
async function bodySize(req: Request): Promise<number> {
  const { responseBodySize } = await req.sizes();
  if (responseBodySize >= 0) return responseBodySize;
  await (await req.response())?.finished();
  return Math.max(0, (await req.sizes()).responseBodySize);
}

/**
 * What a cold visit to `path` on a fresh page transfers from `origin` (what a phone downloads).
 * The bench reports it; the bundle-budget journey fails CI on it (sizes are deterministic).
 */
export async function measureRouteBytes(page: Page, origin: string, path: string): Promise<RouteBytes> {
  const finished: Request[] = [];
  page.on('requestfinished', (req) => finished.push(req));
  await page.addInitScript(NOTE_FIRST_PAINT_WITH_DATA);
  await page.goto(path, { waitUntil: 'load' });
  await settle(page);
  // Live updates start once the first reads have answered and the browser is idle (at most 2 s
  // later, decision 0110): "until settled" waits for them, and whatever they load.
  await page.waitForTimeout(2_500);
  await settle(page);
  const paintedAt = await page
    .waitForFunction(() => (window as unknown as { __firstPaintWithData?: number }).__firstPaintWithData, undefined, { timeout: 5_000 })
    .then((handle) => handle.jsonValue() as Promise<number>)
    .catch(() => Infinity);
  const bytes: RouteBytes = { js: 0, jsFirstPaint: 0, css: 0, html: 0, listed: [] };
  for (const req of finished) {
    if (!req.url().startsWith(origin)) continue;
    const type = req.resourceType();
    if (type === 'document' && req.frame() === page.mainFrame() && !req.redirectedTo()) {
      const { responseBodySize, responseHeadersSize } = await req.sizes();
      bytes.html = responseBodySize + responseHeadersSize;
    }
    if (type !== 'script' && type !== 'stylesheet') continue;
    const responseBodySize = await bodySize(req);
    // Asked for after the first paint with data: not part of what that paint waited for.
    const later = req.timing().startTime > paintedAt;
    if (type === 'script') {
      bytes.js += responseBodySize;
      if (!later) bytes.jsFirstPaint += responseBodySize;
    } else bytes.css += responseBodySize;
    bytes.listed.push(
      `${(responseBodySize / 1024).toFixed(1).padStart(6)} KB ${req.url().slice(origin.length)}${later ? ' (after the first paint with data)' : ''}`,
    );
  }
  return bytes;
}

/**
 * Gzipped bytes of JS and CSS a cold visit to each route transfers (what a phone downloads), and
 * its HTML with the response's headers: what must fit in a new connection's first round trip.
 */
export async function measureBundles(report: Report, browser: Browser, stack: LocalStack, origin: string, budgets: Budgets): Promise<void> {
  for (const { path, who } of BUNDLE_ROUTES) {
    const context = await newContext(browser, stack, origin, who);
    try {
      const page = await context.newPage();
      const { js, jsFirstPaint, css, html, listed } = await measureRouteBytes(page, origin, path);
      if (process.env.BENCH_VERBOSE) console.log(`  ${path} (${who}):\n${listed.sort().reverse().join('\n')}`);
      const budget = budgets.bundle[path];
      const landed = new URL(page.url()).pathname;
      const label = `${path} (${who}${landed !== path ? `, landed on ${landed}` : ''})`;
      // A signed-in page: both figures, its budget on the first (JS off the first paint, decision 0110).
      // A prerendered visitor page paints its data from its HTML before any script: one figure.
      if (who !== 'visitor')
        report.measure('bundle', `${label} JS gzip before the first paint with data`, jsFirstPaint / 1024, ' KB', 1, {
          max: budget?.firstPaintJsKb,
        });
      report.measure('bundle', `${label} JS gzip until settled`, js / 1024, ' KB', 1, { max: budget?.jsKb });
      report.measure('bundle', `${label} CSS gzip`, css / 1024, ' KB', 1, { max: budget?.cssKb });
      report.measure('bundle', `${label} HTML gzip + headers`, html / 1024, ' KB', 1, { max: budget?.htmlKb });
    } finally {
      await context.close();
    }
  }
}

/** Counts HTTP requests (not websocket frames) the page makes to the backend while `action` runs. */
async function countBackendRequests(page: Page, stack: LocalStack, action: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const onRequest = (req: Request) => {
    if (req.url().startsWith(stack.url) && req.resourceType() !== 'websocket')
      seen.push(`${req.method()} ${req.url().slice(stack.url.length)}`);
  };
  page.on('request', onRequest);
  try {
    await action();
    await settle(page);
  } finally {
    page.off('request', onRequest);
  }
  return seen;
}

/** The requests a journey step costs, against the budgets. */
export async function measureRequests(
  report: Report,
  browser: Browser,
  stack: LocalStack,
  origin: string,
  budgets: Budgets,
): Promise<void> {
  const render = async (label: string, who: Who, path: string) => {
    const context = await newContext(browser, stack, origin, who);
    try {
      const page = await context.newPage();
      const requests = await countBackendRequests(page, stack, async () => {
        await page.goto(path, { waitUntil: 'load' });
      });
      report.measure('requests', label, requests.length, '', 0, { max: budgets.requests[label] });
      if (process.env.BENCH_VERBOSE) console.log(`    ${requests.join('\n    ')}`);
    } finally {
      await context.close();
    }
  };
  await render('render /my-schedule (member)', 'member', '/my-schedule');

  // Booking: from pressing Book Now on /my-schedule until the success toast, as a member.
  const label = 'book a class (member)';
  const context = await newContext(browser, stack, origin, 'member');
  try {
    const page = await context.newPage();
    const cls = await createClass(stack, `Bench Booking ${Date.now().toString(36)}`, 2);
    await page.goto('/my-schedule', { waitUntil: 'load' });
    await settle(page);
    await page.getByPlaceholder('Search classes or instructors...').fill(cls.name);
    const book = page.getByRole('article', { name: cls.name }).getByRole('button', { name: 'Book Now' });
    await book.waitFor();
    const requests = await countBackendRequests(page, stack, async () => {
      await book.click();
      await page.getByText('Class booked successfully!', { exact: true }).first().waitFor();
    });
    report.measure('requests', label, requests.length, '', 0, { max: budgets.requests[label] });
    if (process.env.BENCH_VERBOSE) console.log(`    ${requests.join('\n    ')}`);
  } catch (err) {
    report.na('requests', label, (err instanceof Error ? err.message : String(err)).split('\n')[0]!);
  } finally {
    await context.close();
  }
  await render('render /admin/analytics (admin)', 'admin', '/admin/analytics');
}
