import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { REPO_ROOT } from './build';
import type { LocalStack } from './local-stack';

/** Phone and desktop: every journey runs at both (issue 8). */
export const WIDTHS = [375, 1280] as const;
const HEIGHT: Record<number, number> = { 375: 812, 1280: 800 };
const JOURNEY_TIMEOUT_MS = 120_000;
const ACTION_TIMEOUT_MS = 15_000;
export const ARTEFACTS = join(REPO_ROOT, 'test-results', 'e2e');

export interface Env {
  origin: string;
  stack: LocalStack;
  browser: Browser;
}

export interface JourneyContext extends Env {
  page: Page;
  context: BrowserContext;
  width: number;
  /** Absolute URL of an app path on the served build. */
  url(path: string): string;
  /** Console errors and uncaught exceptions seen so far in this journey. */
  errors: string[];
  /** Forget the errors seen so far (after a step that is expected to log one, say a refused call). */
  clearErrors(): void;
}

export interface Journey {
  name: string;
  widths?: readonly number[];
  /** Longer than the default for journeys that visit every route. */
  timeoutMs?: number;
  run(ctx: JourneyContext): Promise<void>;
}

export interface Result {
  name: string;
  ok: boolean;
  ms: number;
  error?: string;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const slug = (text: string) => text.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '').toLowerCase();

/** Runs one journey at one width in a fresh browser context; screenshots and logs on failure. */
async function runOne(env: Env, journey: Journey, width: number): Promise<Result> {
  const name = `${journey.name} @${width}px`;
  const started = Date.now();
  const context = await env.browser.newContext({ viewport: { width, height: HEIGHT[width] ?? 800 }, baseURL: env.origin });
  context.setDefaultTimeout(ACTION_TIMEOUT_MS);
  const page = await context.newPage();
  const errors: string[] = [];
  const log: string[] = [];
  page.on('console', (msg) => {
    log.push(`[${msg.type()}] ${msg.text()}`);
    // The app's own pages only: the local test checkout stands in for the provider's hosted page.
    if (msg.type() === 'error' && page.url().startsWith(env.origin)) errors.push(`console.error on ${page.url()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`uncaught on ${page.url()}: ${err.message}`));
  page.on('requestfailed', (req) => log.push(`[requestfailed] ${req.method()} ${req.url()} ${req.failure()?.errorText ?? ''}`));
  const ctx: JourneyContext = {
    ...env,
    page,
    context,
    width,
    url: (path) => new URL(path, env.origin).href,
    errors,
    clearErrors: () => void errors.splice(0),
  };
  try {
    await withTimeout(journey.run(ctx), journey.timeoutMs ?? JOURNEY_TIMEOUT_MS, name);
    if (errors.length) throw new Error(`console errors:\n  ${errors.join('\n  ')}`);
    return { name, ok: true, ms: Date.now() - started };
  } catch (err) {
    const message = err instanceof Error ? (err.stack ?? err.message) : String(err);
    mkdirSync(ARTEFACTS, { recursive: true });
    const base = join(ARTEFACTS, slug(name));
    await page.screenshot({ path: `${base}.png`, fullPage: true }).catch(() => undefined);
    writeFileSync(`${base}.log`, `${message}\n\nURL: ${page.url()}\n\n${log.join('\n')}\n`);
    return { name, ok: false, ms: Date.now() - started, error: message };
  } finally {
    await context.close().catch(() => undefined);
  }
}

/** Runs the journeys in order, printing one line per run and the failures in full. */
export async function runJourneys(env: Env, journeys: Journey[], filter?: string): Promise<Result[]> {
  const results: Result[] = [];
  for (const journey of journeys) {
    for (const width of journey.widths ?? WIDTHS) {
      const label = `${journey.name} @${width}px`;
      if (filter && !label.toLowerCase().includes(filter.toLowerCase())) continue;
      const result = await runOne(env, journey, width);
      results.push(result);
      const secs = (result.ms / 1000).toFixed(1);
      console.log(`${result.ok ? '  ✓' : '  ✗'} ${result.name} (${secs} s)`);
      if (!result.ok) console.log(indent(result.error ?? '', 6));
    }
  }
  return results;
}

const indent = (text: string, n: number) =>
  text
    .split('\n')
    .map((l) => ' '.repeat(n) + l)
    .join('\n');
