/**
 * Measures the local stack: start-up (new data folder, then restart of the same folder), resident
 * memory (gateway + PGlite in this process, plus the PostgREST child) and requests per second
 * through /rest/v1 for a simple select and for book_class.  Usage: npx tsx supabase/local/measure.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startStack, type Stack } from './stack';

const DURATION_MS = 5000;
const CONCURRENCY = 8;

function rssMb(pid: number | undefined): number {
  if (!pid) return 0;
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

async function signIn(stack: Stack, email: string): Promise<string> {
  const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
    method: 'POST',
    headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'studio123' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

/** Runs `task` with CONCURRENCY workers until the time is up or tasks run out; returns req/s. */
async function throughput(task: (i: number) => Promise<boolean>, limit = Infinity): Promise<{ rps: number; ok: number; failed: number }> {
  let next = 0;
  let ok = 0;
  let failed = 0;
  const start = Date.now();
  const worker = async () => {
    while (Date.now() - start < DURATION_MS && next < limit) {
      const i = next++;
      if (await task(i)) ok++;
      else failed++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return { rps: (ok + failed) / ((Date.now() - start) / 1000), ok, failed };
}

const dir = mkdtempSync(join(tmpdir(), 'local-stack-measure-'));
try {
  const first = await startStack({ port: 0, dataDir: dir, quiet: true });
  await first.stop();
  const stack = await startStack({ port: 0, dataDir: dir, quiet: true });
  console.log(`start-up, new data folder (snapshot + seed): ${(first.startupMs / 1000).toFixed(1)} s`);
  console.log(`start-up, restart of the same folder:        ${(stack.startupMs / 1000).toFixed(1)} s`);

  const headers = { apikey: stack.anonKey };
  const select = await throughput(async () => {
    const res = await fetch(`${stack.url}/rest/v1/classes?select=id,name,start_time,spots_left&order=start_time&limit=20`, { headers });
    await res.arrayBuffer();
    return res.ok;
  });
  console.log(`GET /rest/v1/classes (20 rows, anon): ${select.rps.toFixed(0)} req/s (${select.failed} failed)`);

  // book_class: each member books distinct upcoming classes (every call a real booking).
  const tokens = await Promise.all(['premium@studio.test', 'standard@studio.test', 'admin@studio.test'].map((e) => signIn(stack, e)));
  const classes = (await (
    await fetch(
      `${stack.url}/rest/v1/classes?select=id&is_premium=eq.false&type=eq.Group&spots_left=gt.3&start_time=gt.${new Date(Date.now() + 864e5).toISOString()}`,
      { headers },
    )
  ).json()) as Array<{ id: string }>;
  const jobs = tokens.flatMap((token) => classes.map((c) => ({ token, classId: c.id })));
  const book = await throughput(async (i) => {
    const job = jobs[i]!;
    const res = await fetch(`${stack.url}/rest/v1/rpc/book_class`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, authorization: `Bearer ${job.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_class_id: job.classId }),
    });
    await res.arrayBuffer();
    // already_booked (seeded bookings) is still a full book_class round trip.
    return res.ok || res.status === 409;
  }, jobs.length);
  console.log(`POST /rest/v1/rpc/book_class: ${book.rps.toFixed(0)} req/s (${book.ok} calls, ${book.failed} failed)`);

  const gateway = rssMb(process.pid);
  const postgrest = rssMb(stack.postgrestPid);
  console.log(
    `resident memory: gateway+PGlite ${gateway.toFixed(0)} MB, PostgREST ${postgrest.toFixed(0)} MB, total ${(gateway + postgrest).toFixed(0)} MB`,
  );
  await stack.stop();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
