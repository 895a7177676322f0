import lighthouse from 'lighthouse';
import { launch } from 'chrome-launcher';
import { CHROMIUM_ARGS, requireChromium } from '../../tests/e2e/support/chromium';
import type { Report } from '../report';

interface Budgets {
  lighthouse: { performance: number; accessibility: number; bestPractices: number; lcpMs: number; cls: number; tbtMs: number };
}

export const LIGHTHOUSE_ROUTES = ['/', '/schedule', '/membership'];

/**
 * Lighthouse's default (mobile) preset: a Moto G-class viewport, simulated slow 4G and a 4x
 * CPU slowdown, against the served production build. One chromium for all routes.
 */
export async function measureLighthouse(report: Report, origin: string, budgets: Budgets): Promise<void> {
  const chrome = await launch({
    chromePath: requireChromium(),
    chromeFlags: CHROMIUM_ARGS.map((f) => (f === '--headless' ? '--headless=new' : f)),
    logLevel: 'silent',
  });
  try {
    for (const path of LIGHTHOUSE_ROUTES) {
      const result = await lighthouse(new URL(path, origin).href, {
        port: chrome.port,
        logLevel: 'error',
        output: 'json',
        onlyCategories: ['performance', 'accessibility', 'best-practices'],
      });
      const lhr = result?.lhr;
      if (!lhr) {
        report.na('lighthouse', path, 'no result');
        continue;
      }
      if (lhr.runtimeError) {
        report.na('lighthouse', path, lhr.runtimeError.message);
        continue;
      }
      const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
      const audit = (id: string) => lhr.audits[id]?.numericValue ?? NaN;
      const b = budgets.lighthouse;
      report.measure('lighthouse', `${path} performance`, score('performance'), '', 0, { min: b.performance });
      report.measure('lighthouse', `${path} accessibility`, score('accessibility'), '', 0, { min: b.accessibility });
      report.measure('lighthouse', `${path} best practices`, score('best-practices'), '', 0, { min: b.bestPractices });
      report.measure('lighthouse', `${path} LCP`, audit('largest-contentful-paint'), ' ms', 0, { max: b.lcpMs });
      report.measure('lighthouse', `${path} CLS`, audit('cumulative-layout-shift'), '', 3, { max: b.cls });
      report.measure('lighthouse', `${path} TBT`, audit('total-blocking-time'), ' ms', 0, { max: b.tbtMs });
      const failing = Object.values(lhr.categories)
        .flatMap((c) => c.auditRefs.filter((r) => r.weight > 0).map((r) => lhr.audits[r.id]))
        .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'metricSavings');
      if (process.env.BENCH_VERBOSE) for (const a of failing) console.log(`    ${path}: ${a!.id} (${a!.score}) ${a!.title}`);
    }
  } finally {
    chrome.kill();
  }
}
