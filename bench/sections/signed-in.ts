import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { staticCopy } from '../../scripts/prerender';
import { ACCOUNTS, passwordSession, signInContext, storageKey } from '../../tests/e2e/support/accounts';
import type { LocalStack } from '../../tests/e2e/support/local-stack';
import { settle } from '../../tests/e2e/support/page-helpers';
import { bookAs, createClass } from '../../tests/e2e/support/rest';
import type { Report } from '../report';
import { explain, runLighthouse, startLighthouseHost, type LighthouseHost } from './lighthouse';

interface Budgets {
  signedIn: {
    performance: number;
    /** LCP of a first visit after sign-in against the rendered copy (budget ≤ 1.5). */
    coldLcpRatio: number;
    /** A member page's LCP at a second visit, service worker installed and the member's copy saved (budget ≤ 1.10, decisions 0062, 0112). */
    warmLcpRatio: number;
    /** CORS preflights while a page loads: data reads come from the site's own origin (decision 0060). */
    preflights: number;
    interactionMs: Record<string, number>;
  };
  /** The public pages' layout-shift budget holds for these pages too. */
  lighthouse: { cls: number };
}

type Who = 'member' | 'admin';
/** What members and admins open every day, signed in on the demo data. */
export const SIGNED_IN_ROUTES: { path: string; who: Who }[] = [
  { path: '/dashboard', who: 'member' },
  { path: '/my-schedule', who: 'member' },
  { path: '/mybookings', who: 'member' },
  { path: '/admin', who: 'admin' },
  { path: '/admin/analytics', who: 'admin' },
];
const EMAIL: Record<Who, string> = { member: ACCOUNTS.premium, admin: ACCOUNTS.admin };

/**
 * Stores a fresh session for `who` in the Lighthouse chromium, on a cleared origin (service worker,
 * caches, storage) and an empty HTTP cache: each run is a first visit of someone already signed in,
 * as after the sign-in screen. Lighthouse then runs without its own storage reset.
 */
async function signInLighthouseChrome(host: LighthouseHost, stack: LocalStack, who: Who): Promise<void> {
  const session = await passwordSession(stack, EMAIL[who]);
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${host.chromePort}`);
  try {
    const page = await browser.contexts()[0]!.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin: host.origin, storageTypes: 'all' });
    await page.goto(new URL('/favicon.svg', host.origin).href);
    await page.evaluate(
      ({ key, value, email, admin }) => {
        localStorage.setItem(key, value);
        localStorage.setItem('ffEmail', email);
        if (admin) localStorage.setItem('adminAuthenticated', 'true');
      },
      { key: storageKey(stack.url), value: JSON.stringify(session), email: EMAIL[who], admin: who === 'admin' },
    );
    await cdp.send('Network.clearBrowserCache');
    await page.close();
  } finally {
    // Disconnects; the chromium itself belongs to the host.
    await browser.close();
  }
}

/**
 * The page as a signed-in visit renders it with its data (after load, once the network is idle),
 * without its scripts: what the page would be with its data in the HTML. Written into the build.
 */
async function writeRenderedCopy(browser: Browser, stack: LocalStack, appOrigin: string, distDir: string, path: string, who: Who) {
  const context = await browser.newContext({ baseURL: appOrigin, viewport: { width: 412, height: 823 } });
  try {
    await signInContext(context, stack, EMAIL[who], { admin: who === 'admin' });
    const page = await context.newPage();
    // Every request the page makes, CORS preflights included (DevTools reports them as their own
    // requests of type Preflight; Playwright's request events do not show them).
    const cdp = await context.newCDPSession(page);
    const sent: { url: string; method: string; type?: string }[] = [];
    cdp.on('Network.requestWillBeSent', (event) => sent.push({ url: event.request.url, method: event.request.method, type: event.type }));
    await cdp.send('Network.enable');
    await page.goto(path, { waitUntil: 'load' });
    await settle(page);
    const copyPath = `/__static${path}/`;
    const file = join(distDir, copyPath, 'index.html');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, staticCopy(await page.content()));
    const preflights = sent.filter((r) => r.method === 'OPTIONS' || r.type === 'Preflight').length;
    const dataReads = sent.filter(
      (r) => r.method !== 'OPTIONS' && r.type !== 'Preflight' && new URL(r.url).pathname.startsWith('/rest/v1/'),
    );
    const throughSite = dataReads.filter((r) => new URL(r.url).origin === new URL(appOrigin).origin).length;
    return { copyPath, requests: sent.length, preflights, dataReads: dataReads.length, throughSite };
  } finally {
    await context.close();
  }
}

/**
 * Lighthouse's mobile preset on the signed-in pages over HTTP/2 + TLS, each against a
 * static copy of the same page rendered with its data (captured in this run), then the latency of
 * Book Now and Cancel. Lighthouse 12 has no PWA category; its viewport audit is printed here and
 * the rest of the PWA checks are the `installable` section.
 */
export async function measureSignedIn(
  report: Report,
  browser: Browser,
  stack: LocalStack,
  appOrigin: string,
  distDir: string,
  budgets: Budgets,
): Promise<void> {
  const b = budgets.signedIn;
  const host = await startLighthouseHost(distDir, stack.url);
  try {
    for (const { path, who } of SIGNED_IN_ROUTES) {
      await signInLighthouseChrome(host, stack, who);
      const lhr = await runLighthouse(host, path, true);
      if (!lhr || lhr.runtimeError) {
        report.na('signed-in', `${path} (${who})`, lhr?.runtimeError?.message ?? 'no result');
        continue;
      }
      const landed = new URL(lhr.finalDisplayedUrl).pathname;
      const label = `${path} (${who}${landed !== path ? `, landed on ${landed}` : ''})`;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const lcp = lhr.audits['largest-contentful-paint']?.numericValue ?? NaN;
      report.measure('signed-in', `${label} performance`, score('performance'), '', 0, { min: b.performance });
      report.measure('signed-in', `${label} cold LCP`, lcp, ' ms', 0);
      report.measure('signed-in', `${label} TBT`, lhr.audits['total-blocking-time']?.numericValue ?? NaN, ' ms', 0);
      report.measure('signed-in', `${label} CLS`, lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN, '', 3, {
        max: budgets.lighthouse.cls,
      });
      report.measure('signed-in', `${label} accessibility`, score('accessibility'), '', 0);
      report.measure('signed-in', `${label} viewport audit`, (lhr.audits.viewport?.score ?? 0) * 100, '', 0, { min: 100 });
      if (process.env.BENCH_VERBOSE) explain(path, lhr, host.origin);

      // The same page opened again: the worker installed by the first visit holds the code, the
      // member's copy is saved (decision 0062). It is given a moment to finish its precache.
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const warm = await runLighthouse(host, path, true);
      const warmLcp = warm?.audits['largest-contentful-paint']?.numericValue ?? NaN;
      report.measure('signed-in', `${label} warm LCP`, warmLcp, ' ms', 0);
      // The worker's copy is replaced by the app (decision 0112): nothing may move when it is.
      report.measure('signed-in', `${label} warm CLS`, warm?.audits['cumulative-layout-shift']?.numericValue ?? NaN, '', 3, {
        max: budgets.lighthouse.cls,
      });

      const { copyPath, requests, preflights, dataReads, throughSite } = await writeRenderedCopy(
        browser,
        stack,
        appOrigin,
        distDir,
        path,
        who,
      );
      report.measure('signed-in', `${label} requests (first visit)`, requests, '', 0);
      report.measure('signed-in', `${label} CORS preflights (OPTIONS)`, preflights, '', 0, { max: b.preflights });
      report.add({
        section: 'signed-in',
        metric: `${label} data reads through the site's /rest/v1`,
        value: `${throughSite} of ${dataReads}`,
        ok: throughSite === dataReads,
      });
      const copy = await runLighthouse(host, copyPath);
      const copyLcp = copy?.audits['largest-contentful-paint']?.numericValue;
      if (copy && process.env.BENCH_VERBOSE) explain(copyPath, copy, host.origin);
      if (copyLcp) {
        report.measure('signed-in', `${label} cold LCP / rendered copy`, lcp / copyLcp, '', 2, { max: b.coldLcpRatio });
        // The warm budget is the member's daily pages' (an admin's reads are never kept, decision 0062).
        report.measure('signed-in', `${label} warm LCP / rendered copy`, warmLcp / copyLcp, '', 2, {
          max: who === 'member' ? b.warmLcpRatio : undefined,
        });
      } else report.na('signed-in', `${label} static copy`, copy?.runtimeError?.message ?? 'no LCP');
    }
  } finally {
    await host.close();
  }
  await measureInteractions(report, browser, stack, appOrigin, b.interactionMs);
}

/** One Event Timing entry: its duration is input delay + processing (the handlers) + the time to the next paint. */
type Interaction = { name: string; id: number; duration: number; inputDelay: number; processing: number };

/** Records Event Timing entries of interactions (what INP is made of) from the first document on. */
function observeInteractions() {
  const w = window as unknown as { __interactions: Interaction[] };
  w.__interactions = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries() as (PerformanceEventTiming & { interactionId?: number })[])
      if (e.interactionId)
        w.__interactions.push({
          name: e.name,
          id: e.interactionId,
          duration: e.duration,
          inputDelay: e.processingStart - e.startTime,
          processing: e.processingEnd - e.processingStart,
        });
  }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
}

/**
 * The latency of one click as INP counts it: the longest Event Timing entry of that interaction
 * (input delay + handlers + the next paint), 16 ms when Chromium reports none (under its threshold).
 */
async function clickLatency(page: Page, click: () => Promise<void>, done: () => Promise<void>): Promise<number> {
  await page.evaluate(() => {
    (window as unknown as { __interactions: unknown[] }).__interactions = [];
  });
  await click();
  await done();
  await page.waitForTimeout(500);
  const entries = await page.evaluate(() => (window as unknown as { __interactions: Interaction[] }).__interactions);
  const clicks = entries.filter((e) => /^(pointerdown|pointerup|mousedown|mouseup|click)$/.test(e.name));
  if (process.env.BENCH_VERBOSE)
    for (const e of clicks)
      console.log(
        `    ${e.name}: ${e.duration} ms (input delay ${e.inputDelay.toFixed(0)}, handlers ${e.processing.toFixed(0)}, to the paint ${(e.duration - e.inputDelay - e.processing).toFixed(0)})`,
      );
  return Math.max(16, ...clicks.map((e) => e.duration));
}

/**
 * Book Now on /my-schedule and Cancel on /mybookings in a phone-sized Chromium with Lighthouse's
 * 4x CPU slowdown. Cancel asks window.confirm first, which the harness accepts at once: its
 * figure includes that round trip.
 */
async function measureInteractions(
  report: Report,
  browser: Browser,
  stack: LocalStack,
  appOrigin: string,
  budgets: Record<string, number>,
) {
  const context = await browser.newContext({ baseURL: appOrigin, viewport: { width: 412, height: 823 }, hasTouch: true, isMobile: true });
  try {
    await signInContext(context, stack, ACCOUNTS.premium);
    await context.addInitScript(observeInteractions);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    const tag = Date.now().toString(36);

    const toBook = await createClass(stack, `Bench INP Book ${tag}`, 2);
    await page.goto('/my-schedule', { waitUntil: 'load' });
    await settle(page);
    await page.getByPlaceholder('Search classes or instructors...').fill(toBook.name);
    const book = page.getByRole('article', { name: toBook.name }).getByRole('button', { name: 'Book Now' });
    await book.waitFor();
    await page.waitForTimeout(500);
    const booked = await clickLatency(
      page,
      () => book.click(),
      () => page.getByText('Class booked successfully!', { exact: true }).first().waitFor(),
    );
    report.measure('signed-in', 'Book Now interaction (INP, 4x CPU)', booked, ' ms', 0, { max: budgets['Book Now'] });

    const toCancel = await createClass(stack, `Bench INP Cancel ${tag}`, 3);
    await bookAs(stack, ACCOUNTS.premium, toCancel.id);
    await page.goto('/mybookings', { waitUntil: 'load' });
    await settle(page);
    const cancel = page.getByRole('button', { name: new RegExp(`^Cancel ${toCancel.name}`) });
    await cancel.waitFor();
    page.once('dialog', (d) => void d.accept());
    const cancelled = await clickLatency(
      page,
      () => cancel.click(),
      () => page.getByText('Booking cancelled', { exact: true }).first().waitFor(),
    );
    report.measure('signed-in', 'Cancel interaction (INP, 4x CPU)', cancelled, ' ms', 0, { max: budgets.Cancel });
  } catch (err) {
    report.na('signed-in', 'interactions', (err instanceof Error ? err.message : String(err)).split('\n')[0]!);
  } finally {
    await context.close();
  }
}
