import type { LocalStack } from '../../tests/e2e/support/local-stack';
import type { Report } from '../report';
import { cpuMsPerUnit, cpuPerUnit, cpuSnapshot } from './process-cpu';

/** Clients of the load test and the bounds of each run, in bookings and in seconds. */
export const CONCURRENCY = [1, 10, 50] as const;
const BOOKINGS_PER_LEVEL = 600;
const SECONDS_PER_LEVEL = 20;
const OVERBOOK_ATTEMPTS = 50;
const OVERBOOK_CAPACITY = 5;
const BENCH_PASSWORD = 'bench-password-123';

interface Budgets {
  /**
   * postgresCpuMsPerBooking: the PostgreSQL server's CPU per booking at the highest
   * concurrency, which a shared 2-core machine can measure where it cannot a p95 (the load
   * generator competes for the same cores). p95Ms holds for PGlite only.
   */
  load: { minBookingsPerSecond: number; p95Ms: number; postgresCpuMsPerBooking?: number };
}

/** A small PostgREST/GoTrue client for the bench (only loopback URLs reach here). */
class Api {
  constructor(private readonly stack: LocalStack) {}

  private service(): Record<string, string> {
    return { apikey: this.stack.serviceRoleKey, authorization: `Bearer ${this.stack.serviceRoleKey}`, 'content-type': 'application/json' };
  }

  async call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = this.service(),
  ): Promise<{ status: number; json: unknown; headers: Headers }> {
    const res = await fetch(`${this.stack.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let json: unknown = text;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      /* not JSON: keep the text */
    }
    return { status: res.status, json, headers: res.headers };
  }

  async ok(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<unknown> {
    const r = await this.call(method, path, body, headers);
    if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
    return r.json;
  }

  /**
   * The current terms, waiver and PAR-Q (decision 0021): a member signs and answers them before the
   * first booking, or book_class refuses with documents_required. Empty when none is published.
   */
  async currentDocuments(): Promise<{ id: string; kind: string; questions: unknown[] | null }[]> {
    const all = (await this.ok('GET', '/rest/v1/document_versions?select=id,kind,version,questions&order=version.desc')) as {
      id: string;
      kind: string;
      questions: unknown[] | null;
    }[];
    return ['terms', 'waiver', 'parq'].flatMap((kind) => all.filter((d) => d.kind === kind).slice(0, 1));
  }

  /** Confirmed users made with GoTrue's admin API, moved to premium (paid bookings, no locks), who signed the documents. */
  async createMembers(prefix: string, count: number): Promise<string[]> {
    const documents = await this.currentDocuments();
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) {
      const email = `${prefix}-${i}@bench.test`;
      await this.ok('POST', '/auth/v1/admin/users', {
        email,
        password: BENCH_PASSWORD,
        email_confirm: true,
        user_metadata: { full_name: `Bench ${i}` },
      });
      const [member] = (await this.ok(
        'PATCH',
        `/rest/v1/members?email=eq.${encodeURIComponent(email)}&select=id`,
        { membership_tier: 'premium' },
        { ...this.service(), prefer: 'return=representation' },
      )) as { id: string }[];
      if (documents.length) {
        const signed = { member_id: member!.id, signed_name: `Bench ${i}` };
        await this.ok(
          'POST',
          '/rest/v1/document_acceptances',
          documents.map((d) => ({ ...signed, document_id: d.id })),
          { ...this.service(), prefer: 'return=minimal' },
        );
        const parq = documents.find((d) => d.kind === 'parq');
        if (parq)
          await this.ok(
            'POST',
            '/rest/v1/health_answers',
            { ...signed, document_id: parq.id, answers: (parq.questions ?? []).map(() => false), consented_at: new Date().toISOString() },
            { ...this.service(), prefer: 'return=minimal' },
          );
      }
      const session = (await this.ok(
        'POST',
        '/auth/v1/token?grant_type=password',
        { email, password: BENCH_PASSWORD },
        { apikey: this.stack.anonKey, 'content-type': 'application/json' },
      )) as {
        access_token: string;
      };
      tokens.push(session.access_token);
    }
    return tokens;
  }

  /** Future group classes (service role: the bench sets up data, the RPC under test does the rest). */
  async createClasses(prefix: string, count: number, capacity: number): Promise<string[]> {
    const ids: string[] = [];
    const base = Date.now() + 20 * 24 * 3600_000;
    for (let start = 0; start < count; start += 200) {
      const rows = Array.from({ length: Math.min(200, count - start) }, (_, k) => ({
        name: `${prefix} ${start + k}`,
        description: 'Bench class',
        duration: 45,
        start_time: new Date(base + (start + k) * 60_000).toISOString(),
        trainer: 'Bench Coach',
        type: 'Group',
        capacity,
      }));
      const created = (await this.ok('POST', '/rest/v1/classes?select=id', rows, {
        ...this.service(),
        prefer: 'return=representation',
      })) as { id: string }[];
      ids.push(...created.map((c) => c.id));
    }
    return ids;
  }

  async book(token: string, classId: string): Promise<{ status: number; json: unknown }> {
    return this.call(
      'POST',
      '/rest/v1/rpc/book_class',
      { p_class_id: classId },
      { apikey: this.stack.anonKey, authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    );
  }
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Bookings per second and latency percentiles through POST /rest/v1/rpc/book_class with 1, 10 and
 * 50 concurrent clients (each its own premium member, each booking a different class in turn),
 * then the overbooking check: N simultaneous attempts on a class with C spots leave exactly C.
 */
export async function measureBackendLoad(
  report: Report,
  stack: LocalStack,
  engine: string,
  budgets: Budgets,
  postmasterPid?: number,
): Promise<void> {
  const api = new Api(stack);
  const section = `load (${engine})`;
  // On PostgreSQL (production's engine) the budget is the server's CPU per booking, not a latency.
  const onPostgres = engine.startsWith('PostgreSQL');
  const prefix = `b${Date.now().toString(36)}`;
  const maxClients = Math.max(...CONCURRENCY);
  const tokens = await api.createMembers(prefix, Math.max(maxClients, OVERBOOK_ATTEMPTS));

  for (const clients of CONCURRENCY) {
    const perClient = Math.ceil(BOOKINGS_PER_LEVEL / clients);
    // Class j takes the j-th booking of every client: capacity = clients keeps every attempt valid.
    const classIds = await api.createClasses(`${prefix}-c${clients}`, perClient, Math.max(clients, 1));
    const latencies: number[] = [];
    const failures = new Map<string, number>();
    const deadline = Date.now() + SECONDS_PER_LEVEL * 1000;
    const cpuBefore = cpuSnapshot(postmasterPid);
    const started = performance.now();
    await Promise.all(
      tokens.slice(0, clients).map(async (token) => {
        for (let j = 0; j < perClient && Date.now() < deadline; j++) {
          const t0 = performance.now();
          const r = await api.book(token, classIds[j]!);
          const ms = performance.now() - t0;
          const status = (r.json as { status?: string } | null)?.status;
          if (r.status === 200 && status === 'booked') latencies.push(ms);
          else {
            const key = `${r.status} ${JSON.stringify(r.json).slice(0, 120)}`;
            failures.set(key, (failures.get(key) ?? 0) + 1);
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = cpuSnapshot(postmasterPid);
    latencies.sort((a, b) => a - b);
    const label = `${clients} client${clients > 1 ? 's' : ''}`;
    report.measure(section, `${label}: bookings/s (${latencies.length} in ${seconds.toFixed(1)} s)`, latencies.length / seconds, '/s', 1, {
      min: budgets.load.minBookingsPerSecond,
    });
    report.add({
      section,
      metric: `${label}: p50 / p95 / p99`,
      value: `${percentile(latencies, 50).toFixed(0)} / ${percentile(latencies, 95).toFixed(0)} / ${percentile(latencies, 99).toFixed(0)} ms`,
      ...(onPostgres ? {} : { budget: `p95 ≤ ${budgets.load.p95Ms} ms`, ok: percentile(latencies, 95) <= budgets.load.p95Ms }),
    });
    // Where a booking's time goes on this machine: the harness shares its cores with the server.
    if (cpuBefore && cpuAfter) {
      report.add({ section, metric: `${label}: CPU ms per booking`, value: cpuPerUnit(cpuBefore, cpuAfter, latencies.length) });
      const serverMs = onPostgres ? cpuMsPerUnit(cpuBefore, cpuAfter, latencies.length, 'PostgreSQL') : null;
      if (serverMs !== null && clients === maxClients)
        report.measure(section, `${label}: PostgreSQL CPU per booking`, serverMs, ' ms', 2, { max: budgets.load.postgresCpuMsPerBooking });
    }
    for (const [key, n] of failures) report.add({ section, metric: `${label}: failed calls`, value: `${n} × ${key}`, ok: false });
  }

  // Overbooking: every attempt at once on one class with few spots.
  const [classId] = await api.createClasses(`${prefix}-overbook`, 1, OVERBOOK_CAPACITY);
  const outcomes = await Promise.all(tokens.slice(0, OVERBOOK_ATTEMPTS).map((t) => api.book(t, classId!)));
  const booked = outcomes.filter((o) => o.status === 200 && (o.json as { status?: string }).status === 'booked').length;
  const refusedFull = outcomes.filter((o) => (o.json as { hint?: string } | null)?.hint === 'class_full').length;
  const rows = (await api.ok('GET', `/rest/v1/bookings?class_id=eq.${classId}&select=id`)) as unknown[];
  const cls = (
    (await api.ok('GET', `/rest/v1/classes?id=eq.${classId}&select=spots_left,current_bookings`)) as {
      spots_left: number;
      current_bookings: number;
    }[]
  )[0];
  const exact =
    rows.length === OVERBOOK_CAPACITY &&
    booked === OVERBOOK_CAPACITY &&
    cls?.spots_left === 0 &&
    cls.current_bookings === OVERBOOK_CAPACITY;
  report.add({
    section,
    metric: `overbooking: ${OVERBOOK_ATTEMPTS} simultaneous attempts, ${OVERBOOK_CAPACITY} spots`,
    value: `${rows.length} bookings (${booked} booked, ${refusedFull} "class_full"; spots_left ${cls?.spots_left}, current_bookings ${cls?.current_bookings})`,
    budget: `exactly ${OVERBOOK_CAPACITY}`,
    ok: exact,
  });
}
