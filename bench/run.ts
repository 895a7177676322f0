/**
 * `npm run bench`: the speed, size and load figures against bench/budgets.json, printed as a table.
 * Each section runs on its own and prints "n/a (reason)" when what it needs is missing, so the
 * bench always runs to the end. Only loopback addresses are used; every loop is bounded.
 *
 *   npm run bench                  all sections
 *   npm run bench -- load scale    only those sections (bundle, lighthouse, signed-in, installable, requests, load, postgres, scale)
 *   npm run bench -- signed-in --write   also rewrite those sections' tables in docs/performance.md
 *   BENCH_VERBOSE=1 npm run bench  also list requests and failing Lighthouse audits
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { findChromium, launchChromium } from '../tests/e2e/support/chromium';
import { serveApp, type ServedApp } from '../tests/e2e/support/environment';
import { loadStartStack } from '../tests/e2e/support/local-stack';
import { Report } from './report';
import { measureBundles, measureRequests } from './sections/browser-figures';
import { measureLighthouse } from './sections/lighthouse';
import { measureBackendLoad } from './sections/backend-load';
import { startPostgres, type PostgresServer } from './sections/postgres-server';
import { measureScale } from './sections/scale';
import { measureSignedIn } from './sections/signed-in';
import { measureInstallability } from './sections/installable';

const budgets = JSON.parse(readFileSync(new URL('./budgets.json', import.meta.url), 'utf8')) as Parameters<typeof measureBundles>[4] &
  Parameters<typeof measureLighthouse>[3] &
  Parameters<typeof measureBackendLoad>[3] &
  Parameters<typeof measureScale>[3] &
  Parameters<typeof measureSignedIn>[5];

/**
 * The load sections sign in their members from one address, this machine, as a load generator
 * does; auth limits /token per address (GoTrue's 150 per 5 minutes, and the local stack never
 * trusts a client's X-Forwarded-For), so their stacks allow that many. They also leave the emails
 * and pushes that bookings queue unsent (StackOptions.senders): production sends them from
 * scheduled functions elsewhere, and sending here would be counted against book_class.
 */
const LOAD_AUTH_LIMITS = { tokenRefreshPer5Minutes: 10_000 };

/**
 * The PostgreSQL load test runs without the local stack's own triggers (gateway.sql): the realtime
 * imitation's and the outbox wake-ups' NOTIFY. Nobody subscribes during it; hosted Realtime reads
 * changes from the WAL outside the booking's transaction, and production's senders run on a
 * schedule. NOTIFY inside the transaction takes a database-wide lock at commit, so with them every
 * booking commits in single file: measured on 2026-11-27, 1.2–1.9 ms more database CPU a booking
 * and 160–171 bookings/s instead of 203–209 at 50 clients.
 */
const WITHOUT_LOCAL_NOTIFY_TRIGGERS = `do $$
declare r record;
begin
  for r in select t.tgname, t.tgrelid::regclass as rel from pg_catalog.pg_trigger t
             join pg_catalog.pg_proc p on p.oid = t.tgfoid
            where p.pronamespace = 'local_gateway'::regnamespace
  loop
    execute format('drop trigger %I on %s', r.tgname, r.rel);
  end loop;
end $$`;

const SECTIONS = ['bundle', 'lighthouse', 'signed-in', 'installable', 'requests', 'load', 'postgres', 'scale'] as const;
type Section = (typeof SECTIONS)[number];
const SECTION_TIMEOUT_MS = 15 * 60_000;

const report = new Report();
/** The rows each section printed, for docs/performance.md (--write). */
const sectionRows = new Map<Section, Report['rows']>();
const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 200);

async function section(name: Section, selected: Set<Section>, body: () => Promise<void>): Promise<void> {
  if (!selected.has(name)) return;
  console.log(`\n## ${name}`);
  const started = Date.now();
  const first = report.rows.length;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      body(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`section timed out after ${SECTION_TIMEOUT_MS / 60000} min`)), SECTION_TIMEOUT_MS);
      }),
    ]);
  } catch (err) {
    report.na(name, 'section', reason(err));
    if (process.env.BENCH_VERBOSE) console.error(err);
  } finally {
    clearTimeout(timer);
    sectionRows.set(name, report.rows.slice(first));
  }
  console.log(`  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

const PERFORMANCE_DOC = new URL('../docs/performance.md', import.meta.url);
const DOC_HEAD = `# Performance: the bench's current figures

Written by \`npm run bench -- <sections> --write\` (bench/run.ts): each run replaces the tables of
the sections it ran and keeps the others; earlier figures are in git's history of this file.
Budgets are bench/budgets.json. Each table says when, on what machine and under what load it was
measured: this repository's machine is shared by several engineers running tests, so a figure
measured there under load is a measurement, not a verdict; a budget counts as met only on a quiet
run (load average well under the core count). What a signed-in page's first load holds, and what
stands between it and its budget: decisions 0099, 0105 and 0110 (a signed-in page's budget is on
the JavaScript asked for before its first paint with data; "until settled" adds what loads after).
`;

/** Rewrites the tables of the sections this run measured in docs/performance.md, keeping the others. */
function writePerformanceDoc(measuredOn: string): void {
  const blocks = new Map<string, string>();
  if (existsSync(PERFORMANCE_DOC))
    for (const block of readFileSync(PERFORMANCE_DOC, 'utf8').split(/^## /m).slice(1))
      blocks.set(block.split('\n')[0]!.trim(), `## ${block.trimEnd()}\n`);
  for (const [name, rows] of sectionRows) {
    const table = new Report();
    table.rows.push(...rows);
    blocks.set(name, `## ${name}\n\n${measuredOn}\n\n${table.table()}\n`);
  }
  const ordered = SECTIONS.filter((name) => blocks.has(name)).map((name) => blocks.get(name)!);
  writeFileSync(PERFORMANCE_DOC, [DOC_HEAD, ...ordered].join('\n'));
  console.log(`\nwrote ${ordered.length} section table(s) to docs/performance.md`);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2).filter((a) => !a.startsWith('-')) as Section[];
  const unknown = args.filter((a) => !SECTIONS.includes(a));
  if (unknown.length) throw new Error(`unknown section(s) ${unknown.join(', ')}; pick from ${SECTIONS.join(', ')}`);
  const selected = new Set<Section>(args.length ? args : SECTIONS);
  const started = Date.now();
  const chromium = findChromium();
  const stackModule = await loadStartStack();

  // Browser sections share one served build and one stack.
  const needsApp = ['bundle', 'lighthouse', 'signed-in', 'installable', 'requests'].some((s) => selected.has(s as Section));
  let app: ServedApp | undefined;
  let browser: Browser | undefined;
  let appProblem: string | undefined;
  if (needsApp) {
    if (!chromium) appProblem = 'no chromium: set CHROME_PATH or apt-get install chromium';
    else {
      try {
        app = await serveApp((line) => console.log(`  ${line}`));
        browser = await launchChromium();
      } catch (err) {
        appProblem = reason(err);
      }
    }
  }
  try {
    await section('bundle', selected, async () => {
      if (!app || !browser) return report.na('bundle', 'routes', appProblem ?? 'app not served');
      await measureBundles(report, browser, app.stack, app.origin, budgets);
    });
    await section('lighthouse', selected, async () => {
      if (!app) return report.na('lighthouse', 'routes', appProblem ?? 'app not served');
      await measureLighthouse(report, app.dist, app.stack.url, budgets);
    });
    await section('signed-in', selected, async () => {
      if (!app || !browser) return report.na('signed-in', 'routes', appProblem ?? 'app not served');
      await measureSignedIn(report, browser, app.stack, app.origin, app.dist, budgets);
    });
    await section('installable', selected, async () => {
      if (!app) return report.na('installable', 'checks', appProblem ?? 'app not served');
      await measureInstallability(report, app.stack, app.origin);
    });
    await section('requests', selected, async () => {
      if (!app || !browser) return report.na('requests', 'journeys', appProblem ?? 'app not served');
      await measureRequests(report, browser, app.stack, app.origin, budgets);
    });
  } finally {
    await browser?.close().catch(() => undefined);
    await app?.stop().catch(() => undefined);
  }

  await section('load', selected, async () => {
    if ('missing' in stackModule) return report.na('load (PGlite)', 'book_class', stackModule.missing);
    const stack = await stackModule.startStack({
      port: 0,
      dataDir: 'memory',
      seed: true,
      quiet: true,
      authRateLimits: LOAD_AUTH_LIMITS,
      senders: false,
    });
    try {
      await measureBackendLoad(report, stack, 'PGlite', budgets);
    } finally {
      await stack.stop();
    }
  });

  // A real PostgreSQL server: the load test again, then the scale test on the same cluster.
  let pg: PostgresServer | undefined;
  if (selected.has('postgres') || selected.has('scale')) {
    console.log('\n## starting PostgreSQL');
    const started = await startPostgres((line) => console.log(`  ${line}`)).catch((err: unknown) => ({ missing: reason(err) }));
    if ('missing' in started) {
      if (selected.has('postgres')) report.na('load (PostgreSQL)', 'book_class', started.missing);
      if (selected.has('scale')) report.na('scale', 'queries', started.missing);
    } else {
      pg = started;
      console.log(`  PostgreSQL ${pg.version} on ${new URL(pg.url).host}`);
    }
  }
  try {
    if (pg) {
      const server = pg;
      await section('postgres', selected, async () => {
        if ('missing' in stackModule) return report.na('load (PostgreSQL)', 'book_class', stackModule.missing);
        const stack = await stackModule.startStack({
          port: 0,
          databaseUrl: server.url,
          seed: true,
          quiet: true,
          authRateLimits: LOAD_AUTH_LIMITS,
          senders: false,
        });
        try {
          server.psql(WITHOUT_LOCAL_NOTIFY_TRIGGERS);
          await measureBackendLoad(report, stack, `PostgreSQL ${server.version.split(' ')[0]}`, budgets, server.postmasterPid);
        } finally {
          await stack.stop();
        }
      });
      await section('scale', selected, async () => {
        if ('missing' in stackModule) return report.na('scale', 'queries', stackModule.missing);
        await measureScale(report, server, stackModule.startStack, budgets);
      });
    }
  } finally {
    pg?.stop();
  }

  const os = await import('node:os');
  const cpu = os.cpus();
  // The machine is shared: the load average says how far the times can be trusted.
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  const measuredOn = `${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; ${cpu.length} cores ${cpu[0]?.model.trim() ?? ''}; load ${load}; Node ${process.version}`;
  console.log(`\n# Bench results (${measuredOn}; ${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
  console.log(report.table());
  const over = report.rows.filter((r) => r.ok === false).length;
  console.log(`\n${report.rows.length} figures, ${over} over budget or failed`);
  // A load average at or above the core count: other work shared the machine during the run.
  const busy = os.loadavg()[0]! >= cpu.length;
  if (process.argv.includes('--write'))
    writePerformanceDoc(`Measured ${measuredOn}${busy ? ' (under load: the machine was shared)' : ''}.`);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? (err.stack ?? err.message) : err);
    process.exit(1);
  },
);
