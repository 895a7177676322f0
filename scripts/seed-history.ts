/**
 * `npm run db:seed:history`: adds a year of history (members, trials, memberships, packages,
 * classes, bookings, attendance, payments and refunds; supabase/seeds/history.sql) to the local
 * database, so Analytics' reports have something to show, then times every report over the year.
 * Stop the stack first (it holds the database folder open); `npm run db:reset` gives a fresh one.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { openDatabase } from '../supabase/local/db/open-database';
import { repoRoot } from '../supabase/local/config';
import { localDataDir, requireStoppedLocalStack } from '../supabase/local/stopped-stack';

/** The demo admin (supabase/seed.sql), as whom the reports are read. */
const DEMO_ADMIN_USER = '00000000-0000-4000-a000-000000000001';

await requireStoppedLocalStack('db:seed:history');
const db = await openDatabase({ dataDir: `${localDataDir()}/pglite` });
try {
  const started = performance.now();
  try {
    await db.exec(readFileSync(resolve(repoRoot, 'supabase/seeds/history.sql'), 'utf8'));
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const { rows } = await db.query<{ what: string; n: number }>(
    `select 'members' as what, count(*)::int as n from public.members where email like 'history-%'
     union all select 'payments', count(*)::int from public.payments where checkout_reference like 'history-%'
     union all select 'classes', count(*)::int from public.classes where created_at < now() - interval '300 days'
     union all select 'bookings', count(*)::int from public.bookings b join public.members m on m.id = b.member_id where m.email like 'history-%'`,
  );
  console.log(
    `A year of history added in ${((performance.now() - started) / 1000).toFixed(1)} s: ${rows.map((r) => `${r.n} ${r.what}`).join(', ')}.`,
  );

  const { rows: range } = await db.query<{ from: string; to: string }>(
    `select to_char((now() at time zone 'Europe/London')::date - 365, 'YYYY-MM-DD') as from, to_char((now() at time zone 'Europe/London')::date, 'YYYY-MM-DD') as to`,
  );
  const { from, to } = range[0]!;
  // As the demo admin (the reports check is_admin), in a transaction that is rolled back; the
  // private functions are each report alone, admin_reports all of them as Analytics reads them.
  const timings: string[] = [];
  await db.query('begin');
  try {
    await db.query("select set_config('request.jwt.claims', $1, true)", [JSON.stringify({ role: 'authenticated', sub: DEMO_ADMIN_USER })]);
    for (const fn of [
      'private.report_revenue',
      'private.report_mrr',
      'private.report_trials',
      'private.report_attendance',
      'private.report_fill',
      'public.admin_reports',
    ]) {
      await db.query(`select count(*) from ${fn}($1, $2)`, [from, to]);
      const t = performance.now();
      await db.query(`select count(*) from ${fn}($1, $2)`, [from, to]);
      timings.push(`${fn.replace(/^\w+\./, '')} ${(performance.now() - t).toFixed(0)} ms`);
    }
  } finally {
    await db.query('rollback');
  }
  console.log(`Reports over ${from} to ${to} (PGlite, second run): ${timings.join(', ')}.`);
} finally {
  await db.close();
}
