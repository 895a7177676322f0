import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import lighthouse from 'lighthouse';
import type { RunnerResult } from 'lighthouse';
import { launch } from 'chrome-launcher';
import { generate as selfSignedCertificate } from 'selfsigned';
import { startStaticServer } from '../../scripts/static-server';
import { CHROMIUM_ARGS, requireChromium } from '../../tests/e2e/support/chromium';
import type { Report } from '../report';
import { PRERENDERED_ROUTES, prerenderedFile } from '../../scripts/prerender-routes';
import { staticCopy } from '../../scripts/prerender';

interface RouteBudget {
  performance: number;
  lcpMs: number;
  tbtMs: number;
}
interface Budgets {
  lighthouse: { accessibility: number; bestPractices: number; cls: number; routes: Record<string, RouteBudget>; staticLcpRatio: number };
}

export const LIGHTHOUSE_ROUTES = ['/', '/schedule', '/membership'];

/** The served build and one chromium for Lighthouse (the bench's public and signed-in sections). */
export interface LighthouseHost {
  origin: string;
  chromePort: number;
  close(): Promise<void>;
}

/**
 * The build served over HTTP/2 with TLS, as Netlify serves it: a page's requests then share one
 * connection. Over HTTP/1.1 the browser spread them over several, and whether the hero image came
 * on a warm one or a new one moved the simulated LCP by a round trip from run to run.
 */
export async function startLighthouseHost(distDir: string, apiOrigin: string): Promise<LighthouseHost> {
  const { private: key, cert } = await selfSignedCertificate([{ name: 'commonName', value: '127.0.0.1' }]);
  const site = await startStaticServer(distDir, 0, { tls: { key, cert } });
  site.setFunctionsTarget(apiOrigin);
  const chrome = await launch({
    chromePath: requireChromium(),
    // The certificate is the one just made: this chromium trusts whatever the bench serves.
    chromeFlags: [...CHROMIUM_ARGS.map((f) => (f === '--headless' ? '--headless=new' : f)), '--ignore-certificate-errors'],
    logLevel: 'silent',
  });
  return {
    origin: site.origin,
    chromePort: chrome.port,
    async close() {
      chrome.kill();
      await site.close();
    },
  };
}

/**
 * Lighthouse's default (mobile) preset on one path: a Moto G-class viewport, simulated slow 4G and
 * a 4x CPU slowdown. `keepStorage`: the caller cleared the origin and stored a session itself.
 */
export async function runLighthouse(host: LighthouseHost, path: string, keepStorage = false): Promise<RunnerResult['lhr'] | undefined> {
  const result = await lighthouse(new URL(path, host.origin).href, {
    port: host.chromePort,
    logLevel: 'error',
    output: 'json',
    onlyCategories: ['performance', 'accessibility', 'best-practices'],
    disableStorageReset: keepStorage,
  });
  return result?.lhr;
}

/** The public pages under Lighthouse's mobile preset, each against its static copy. One chromium for all routes. */
export async function measureLighthouse(report: Report, distDir: string, apiOrigin: string, budgets: Budgets): Promise<void> {
  const host = await startLighthouseHost(distDir, apiOrigin);
  const origin = host.origin;
  try {
    const run = async (path: string) => {
      const lhr = await runLighthouse(host, path);
      if (!lhr || lhr.runtimeError) {
        report.na('lighthouse', path, lhr?.runtimeError?.message ?? 'no result');
        return null;
      }
      return lhr;
    };
    for (const path of LIGHTHOUSE_ROUTES) {
      const lhr = await run(path);
      if (!lhr) continue;
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const b = budgets.lighthouse;
      const r = b.routes[path];
      report.measure('lighthouse', `${path} performance`, score('performance'), '', 0, { min: r?.performance });
      report.measure('lighthouse', `${path} accessibility`, score('accessibility'), '', 0, { min: b.accessibility });
      report.measure('lighthouse', `${path} best practices`, score('best-practices'), '', 0, { min: b.bestPractices });
      report.measure('lighthouse', `${path} LCP`, audit('largest-contentful-paint'), ' ms', 0, { max: r?.lcpMs });
      report.measure('lighthouse', `${path} CLS`, audit('cumulative-layout-shift'), '', 3, { max: b.cls });
      report.measure('lighthouse', `${path} TBT`, audit('total-blocking-time'), ' ms', 0, { max: r?.tbtMs });
      const failing = Object.values(lhr.categories)
        .flatMap((c) => c.auditRefs.filter((ref) => ref.weight > 0).map((ref) => lhr.audits[ref.id]))
        .filter(
          (a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'metricSavings',
        );
      if (process.env.BENCH_VERBOSE) {
        for (const a of failing) console.log(`    ${path}: ${a!.id} (${a!.score}) ${a!.title}`);
        explain(path, lhr, origin);
      }

      // The same page without its scripts, measured in this run: how close the page is to static.
      if (!(PRERENDERED_ROUTES as readonly string[]).includes(path)) continue;
      const copyPath = `/__static${path === '/' ? '/' : `${path}/`}`;
      const copyFile = join(distDir, copyPath, 'index.html');
      mkdirSync(dirname(copyFile), { recursive: true });
      writeFileSync(copyFile, staticCopy(readFileSync(join(distDir, prerenderedFile(path)), 'utf8')));
      const copy = await run(copyPath);
      const copyLcp = copy?.audits['largest-contentful-paint']?.numericValue;
      if (copy && process.env.BENCH_VERBOSE) explain(copyPath, copy, origin);
      if (copyLcp)
        report.measure('lighthouse', `${path} LCP / its static copy`, audit('largest-contentful-paint') / copyLcp, '', 2, {
          max: b.staticLcpRatio,
        });
    }
  } finally {
    await host.close();
  }
}

/** BENCH_VERBOSE: what the simulation started from (the figures observed here), its requests, long tasks and LCP element. */
export function explain(path: string, lhr: RunnerResult['lhr'], origin: string): void {
  const observed = (lhr.audits.metrics?.details as { items?: Record<string, number>[] } | undefined)?.items?.[0] ?? {};
  const pick = [
    'observedFirstContentfulPaint',
    'observedLargestContentfulPaint',
    'observedLoad',
    'firstContentfulPaint',
    'largestContentfulPaint',
    'totalBlockingTime',
    'speedIndex',
    'interactive',
  ];
  console.log(`    ${path}: ${pick.map((k) => `${k} ${Math.round(observed[k] ?? NaN)}`).join(' · ')}`);
  const requests =
    (
      lhr.audits['network-requests']?.details as
        { items?: { url: string; networkRequestTime: number; networkEndTime: number; transferSize: number }[] } | undefined
    )?.items ?? [];
  for (const r of requests)
    console.log(
      `      ${Math.round(r.networkRequestTime)}–${Math.round(r.networkEndTime)} ms ${Math.round(r.transferSize / 1024)} KB ${r.url.replace(origin, '')}`.slice(
        0,
        140,
      ),
    );
  const longTasks =
    (lhr.audits['long-tasks']?.details as { items?: { url: string; startTime: number; duration: number }[] } | undefined)?.items ?? [];
  for (const t of longTasks)
    console.log(`      long task at ${Math.round(t.startTime)} ms: ${Math.round(t.duration)} ms ${t.url.replace(origin, '')}`);
  const shifts =
    (lhr.audits['layout-shifts']?.details as { items?: { node?: { selector?: string; snippet?: string }; score: number }[] } | undefined)
      ?.items ?? [];
  for (const shift of shifts)
    console.log(`      layout shift ${shift.score.toFixed(3)}: ${shift.node?.selector ?? '?'} ${(shift.node?.snippet ?? '').slice(0, 90)}`);
  console.log(`    ${path}: LCP element ${JSON.stringify(lhr.audits['largest-contentful-paint-element']?.details).slice(0, 400)}`);
}
