import { loadavg } from 'node:os';
import type { LocalStack, StackOptions } from '../../tests/e2e/support/local-stack';
import type { Report } from '../report';
import type { PostgresServer } from './postgres-server';

export const SCALE = { classes: 100_000, bookings: 1_000_000, members: 10_000 } as const;
const HTTP_TIMEOUT_MS = 60_000;
/** Each query is timed this many times over HTTP on the same data; the median is held to the budget. */
const RUNS = 3;

interface Budgets {
  scale: { queryMs: number };
}

type Who = 'anon' | 'member' | 'admin';

/** The app's queries (same PostgREST URLs as its data calls) and the SQL they amount to. */
interface ScaleQuery {
  name: string;
  who: Who;
  rest: string;
  sql: string;
  /** Selective queries must use an index; whole-table lists are expected to scan. */
  needsIndex: boolean;
  method?: 'GET' | 'POST';
  body?: unknown;
  /** The admin lists ask for the total with the page (supabase-js `count: 'exact'`). */
  countExact?: boolean;
}

/** A London calendar month and the twelve months before it, as the Analytics range picker sends them. */
function reportRanges(): { month: { from: string; to: string }; year: { from: string; to: string } } {
  const d = new Date();
  const first = (y: number, m: number) => new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 10);
  const last = (y: number, m: number) => new Date(Date.UTC(y, m + 1, 0)).toISOString().slice(0, 10);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth() - 1];
  return { month: { from: first(y, m), to: last(y, m) }, year: { from: first(y, m - 11), to: last(y, m) } };
}

/** Bookings Management's search for `term`: its first page of 50 and the number of matches. */
function bookingsSearch(name: string, term: string): ScaleQuery {
  return {
    name,
    who: 'admin',
    rest: `/rest/v1/rpc/admin_bookings_search`,
    method: 'POST',
    body: { p_term: term, p_offset: 0, p_limit: 50 },
    sql: `select public.admin_bookings_search('${term}', 0, 50)`,
    needsIndex: false,
  };
}

function queries(memberId: string, classId: string): ScaleQuery[] {
  const now = new Date().toISOString();
  const { month, year } = reportRanges();
  const week = new Date(Date.now() + 7 * 24 * 3600_000).toISOString();
  const search = encodeURIComponent('"*scale member 77*"');
  const bookingCols = 'id,booked_at,member_name,member_email,class_name,class_start_time,class_trainer';
  return [
    {
      name: 'schedule: a week of classes (limit 200)',
      who: 'anon',
      rest: `/rest/v1/classes?select=*&start_time=gte.${now}&start_time=lt.${week}&order=start_time.asc&limit=200`,
      sql: `select * from public.classes where start_time >= now() and start_time < now() + interval '7 days' order by start_time limit 200`,
      needsIndex: true,
    },
    {
      name: 'schedule: is there a class after the week',
      who: 'member',
      rest: `/rest/v1/classes?select=start_time&start_time=gte.${week}&order=start_time.asc&limit=1`,
      sql: `select start_time from public.classes where start_time >= now() + interval '7 days' order by start_time limit 1`,
      needsIndex: true,
    },
    {
      name: 'member: my bookings with classes',
      who: 'member',
      rest: `/rest/v1/bookings?select=id,class_id,type,payment_status,booked_at,classes(*)&member_id=eq.${memberId}&order=booked_at.desc`,
      sql: `select b.*, c.* from public.bookings b join public.classes c on c.id = b.class_id where b.member_id = '${memberId}' order by b.booked_at desc`,
      needsIndex: true,
    },
    {
      name: 'class: bookings of one class',
      who: 'admin',
      rest: `/rest/v1/bookings?select=id&class_id=eq.${classId}`,
      sql: `select id from public.bookings where class_id = '${classId}'`,
      needsIndex: true,
    },
    {
      name: 'admin: analytics (admin_stats)',
      who: 'admin',
      rest: `/rest/v1/rpc/admin_stats`,
      method: 'POST',
      body: {},
      sql: `select public.admin_stats()`,
      needsIndex: false,
    },
    {
      name: 'admin: analytics memberships (admin_membership_stats)',
      who: 'admin',
      rest: `/rest/v1/rpc/admin_membership_stats`,
      method: 'POST',
      body: {},
      sql: `select public.admin_membership_stats()`,
      needsIndex: false,
    },
    {
      name: `admin: reports for a month (admin_reports ${month.from}..${month.to})`,
      who: 'admin',
      rest: `/rest/v1/rpc/admin_reports`,
      method: 'POST',
      body: { p_from: month.from, p_to: month.to },
      sql: `select public.admin_reports('${month.from}', '${month.to}')`,
      needsIndex: false,
    },
    {
      name: `admin: reports for a year (admin_reports ${year.from}..${year.to})`,
      who: 'admin',
      rest: `/rest/v1/rpc/admin_reports`,
      method: 'POST',
      body: { p_from: year.from, p_to: year.to },
      sql: `select public.admin_reports('${year.from}', '${year.to}')`,
      needsIndex: false,
    },
    {
      name: 'admin: members to contact (members_to_contact)',
      who: 'admin',
      rest: `/rest/v1/rpc/members_to_contact`,
      method: 'POST',
      body: {},
      sql: `select * from public.members_to_contact()`,
      needsIndex: false,
    },
    {
      name: 'admin: members tier card (HEAD count of premium members)',
      who: 'admin',
      rest: `/rest/v1/members?select=id&membership_tier=eq.premium&limit=1`,
      sql: `select count(*) from public.members where membership_tier = 'premium'`,
      needsIndex: false,
      countExact: true,
    },
    {
      name: 'admin: waitlists of classes to come',
      who: 'admin',
      rest: `/rest/v1/class_waitlist?select=id,seq,joined_at,members(name,email),classes!inner(id,name,start_time,trainer)&classes.start_time=gte.${now}&order=seq&limit=500`,
      sql: `select w.id from public.class_waitlist w join public.classes c on c.id = w.class_id where c.start_time >= now() order by w.seq limit 500`,
      needsIndex: false,
    },
    {
      name: 'admin: refunds owed',
      who: 'admin',
      rest: `/rest/v1/refunds_owed?select=id,member_name,member_email,amount,created_at&refunded_at=is.null&order=created_at.asc`,
      sql: `select id from public.refunds_owed where refunded_at is null order by created_at`,
      needsIndex: false,
    },
    {
      name: 'admin: members page 1 of 50 with booking counts + count',
      who: 'admin',
      rest: `/rest/v1/members?select=id,name,email,membership_tier,created_at,bookings(count)&order=created_at.desc&offset=0&limit=50`,
      sql: `select m.id, (select count(*) from public.bookings b where b.member_id = m.id) from public.members m order by m.created_at desc limit 50`,
      needsIndex: true,
      countExact: true,
    },
    {
      name: 'admin: members search (name/email ilike) + count',
      who: 'admin',
      rest: `/rest/v1/members?select=id,name,email,membership_tier,created_at,bookings(count)&or=(name.ilike.${search},email.ilike.${search})&order=created_at.desc&offset=0&limit=50`,
      sql: `select m.id, (select count(*) from public.bookings b where b.member_id = m.id) from public.members m where m.name ilike '%scale member 77%' or m.email ilike '%scale member 77%' order by m.created_at desc limit 50`,
      needsIndex: false,
      countExact: true,
    },
    {
      name: 'admin: upcoming classes page 1 of 50 + count',
      who: 'admin',
      rest: `/rest/v1/classes?select=*&start_time=gte.${now}&order=start_time.asc&offset=0&limit=50`,
      sql: `select * from public.classes where start_time >= now() order by start_time limit 50`,
      needsIndex: true,
      countExact: true,
    },
    {
      name: 'admin: bookings page 1 of 50 (admin_bookings)',
      who: 'admin',
      rest: `/rest/v1/admin_bookings?select=${bookingCols}&order=booked_at.desc,id.desc&offset=0&limit=50`,
      sql: `select ${bookingCols} from public.admin_bookings order by booked_at desc, id desc limit 50`,
      needsIndex: false,
    },
    {
      // The page's total, asked in parallel with it (the class tallies, decision 0029).
      name: 'admin: bookings total (admin_bookings_total)',
      who: 'admin',
      rest: `/rest/v1/rpc/admin_bookings_total`,
      method: 'POST',
      body: {},
      sql: `select public.admin_bookings_total()`,
      needsIndex: false,
    },
    // One page and the number of matches in one call (decision 0033): 111 members' 11,100 bookings.
    bookingsSearch('admin: bookings search (admin_bookings_search, page + total)', 'scale member 77'),
    // A term in every member's name, as a one-letter search is (decision 0034): all 1M bookings.
    bookingsSearch('admin: bookings search matching every booking', 'scale'),
    // A tenth of the members (member 5, 50–59, 500–599, 5000–5999): 111,100 bookings.
    bookingsSearch('admin: bookings search matching a tenth of them', 'member 5'),
  ];
}

/** 10,000 members, 100,000 classes (past and future) and 1,000,000 bookings, 10 per class, 100 per member. */
export function generateSql(): string {
  const { classes, bookings, members } = SCALE;
  const perClass = bookings / classes;
  const memberStride = members / perClass;
  return `
set session_replication_role = replica; -- bulk load: no per-row triggers; counters are set below
insert into public.members (email, name, membership_tier, created_at)
  select 'scale-' || g || '@bench.test', 'Scale Member ' || g, (array['payg','standard','premium']::public.membership_tier[])[1 + g % 3], now() - (g || ' minutes')::interval
  from generate_series(0, ${members - 1}) g;
insert into public.trainers (name) select 'Scale Coach ' || g from generate_series(0, 9) g on conflict (name) do nothing;
insert into public.classes (name, description, duration, start_time, trainer, trainer_id, type, capacity, current_bookings, spots_left, is_premium)
  select 'Scale Class ' || g, 'Generated for the scale bench', 45,
         date_trunc('hour', now()) - interval '500 days' + g * interval '10 minutes',
         t.name, t.id, 'Group', 20, ${perClass}, ${20 - perClass}, g % 7 = 0
  from generate_series(0, ${classes - 1}) g
  join public.trainers t on t.name = 'Scale Coach ' || (g % 10);
create temp table sc as select id, (row_number() over (order by start_time) - 1)::int as i from public.classes where name like 'Scale Class %';
create temp table sm as select id, (row_number() over (order by email) - 1)::int as i from public.members where email like 'scale-%@bench.test';
create index on sc (i); create index on sm (i);
insert into public.bookings (member_id, class_id, type, payment_status, booked_at)
  select sm.id, sc.id, 'paid', 'completed', now() - ((g % 400) || ' days')::interval
  from generate_series(0, ${bookings - 1}) g
  join sc on sc.i = g % ${classes}
  join sm on sm.i = (g / ${classes}) * ${memberStride} + g % ${memberStride};
-- The class tallies the triggers keep (decision 0029), counted once for the bulk-loaded classes.
insert into private.class_tallies (class_id, start_time, london_month, london_week, weekday, slot, capacity, bookings, confirmed)
  select c.id, c.start_time, date_trunc('month', c.start_time at time zone 'Europe/London')::date,
         date_trunc('week', c.start_time at time zone 'Europe/London')::date,
         extract(isodow from c.start_time at time zone 'Europe/London')::smallint,
         to_char(c.start_time at time zone 'Europe/London', 'HH24:MI'), c.capacity, ${perClass}, ${perClass}
  from public.classes c where c.name like 'Scale Class %';
set session_replication_role = origin;
`;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function walk(node: PlanNode, out: PlanNode[] = []): PlanNode[] {
  out.push(node);
  for (const child of node.Plans ?? []) walk(child, out);
  return out;
}

/**
 * The scale test on a real PostgreSQL server: the schema from the migrations (the stack applies
 * them), bulk data from generate_series, then each app query's plan (EXPLAIN ANALYZE run as the
 * caller's role with its JWT claims, as PostgREST does) and its latency over HTTP.
 */
export async function measureScale(
  report: Report,
  pg: PostgresServer,
  startStack: (o: StackOptions) => Promise<LocalStack>,
  budgets: Budgets,
): Promise<void> {
  const stack = await startStack({ port: 0, databaseUrl: pg.url, seed: true, quiet: true });
  try {
    const t0 = Date.now();
    pg.psql(generateSql(), 15 * 60_000);
    // As autovacuum leaves a busy table: statistics and the visibility map (index-only scans).
    for (const table of ['public.members', 'public.classes', 'public.bookings', 'private.class_tallies'])
      pg.psql(`vacuum analyze ${table}`, 10 * 60_000);
    const counts = pg.psql(
      `select (select count(*) from public.classes) || ' classes, ' || (select count(*) from public.bookings) || ' bookings, ' || (select count(*) from public.members) || ' members'`,
    );
    report.add({
      section: 'scale',
      metric: 'machine load (1, 5, 15 min) before the queries',
      value: loadavg()
        .map((l) => l.toFixed(1))
        .join(' / '),
    });
    report.add({
      section: 'scale',
      metric: 'data generated (generate_series)',
      value: `${counts} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    });

    const tokenFor = async (email: string, password: string) => {
      const res = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
        method: 'POST',
        headers: { apikey: stack.anonKey, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      if (!res.ok) throw new Error(`sign-in ${email}: ${res.status}`);
      return ((await res.json()) as { access_token: string }).access_token;
    };
    // A seeded member gets the 100 bookings of one generated member, so the member queries are realistic.
    const memberEmail = 'premium@studio.test';
    const scaleMember = pg.psql(`select id from public.members where email = 'scale-0@bench.test'`);
    const memberId = pg.psql(`select id from public.members where email = '${memberEmail}'`);
    const userId = pg.psql(`select user_id from public.members where email = '${memberEmail}'`);
    const adminUserId = pg.psql(`select user_id from public.members where email = 'admin@studio.test'`);
    pg.psql(
      `set session_replication_role = replica; update public.bookings set member_id = '${memberId}' where member_id = '${scaleMember}'; set session_replication_role = origin;`,
    );
    const classId = pg.psql(`select id from public.classes where name = 'Scale Class 70000'`);
    const tokens: Record<Who, string> = {
      anon: stack.anonKey,
      member: await tokenFor(memberEmail, 'studio123'),
      admin: await tokenFor('admin@studio.test', 'studio123'),
    };
    const claims: Record<Who, string> = {
      anon: `{"role":"anon"}`,
      member: `{"role":"authenticated","sub":"${userId}","email":"${memberEmail}"}`,
      admin: `{"role":"authenticated","sub":"${adminUserId}","email":"admin@studio.test"}`,
    };

    for (const q of queries(memberId, classId)) {
      const role = q.who === 'anon' ? 'anon' : 'authenticated';
      let planNote = '';
      try {
        const json = pg.psql(
          `begin; set local role ${role}; select set_config('request.jwt.claims', '${claims[q.who]}', true); explain (analyze, format json) ${q.sql}; rollback;`,
          120_000,
        );
        const plan = (JSON.parse(json.slice(json.indexOf('['))) as [{ Plan: PlanNode; 'Execution Time': number }])[0];
        const nodes = walk(plan.Plan);
        const big = ['classes', 'bookings', 'members'];
        const seq = nodes
          .filter((n) => n['Node Type'] === 'Seq Scan' && big.includes(n['Relation Name'] ?? ''))
          .map((n) => n['Relation Name']!);
        const idx = [...new Set(nodes.filter((n) => n['Index Name']).map((n) => n['Index Name']!))];
        planNote = `plan: ${idx.length ? `index ${idx.join(', ')}` : 'no index'}${seq.length ? `; seq scan ${[...new Set(seq)].join(', ')}` : ''}; SQL ${plan['Execution Time'].toFixed(1)} ms`;
        if (q.needsIndex)
          report.add({
            section: 'scale',
            metric: `${q.name}: plan uses indexes`,
            value: planNote,
            budget: 'no seq scan',
            ok: seq.length === 0,
          });
      } catch (err) {
        planNote = `plan: n/a (${(err instanceof Error ? err.message : String(err)).split('\n')[0]})`;
      }
      // Latency as the browser sees it: PostgREST over HTTP with the caller's JWT, median of runs.
      const times: number[] = [];
      let rows = '';
      let failure = '';
      for (let i = 0, retried = false; i < RUNS && !failure; i++) {
        const started = performance.now();
        try {
          const res = await fetch(`${stack.url}${q.rest}`, {
            method: q.method ?? 'GET',
            headers: {
              apikey: stack.anonKey,
              authorization: `Bearer ${tokens[q.who]}`,
              'content-type': 'application/json',
              ...(q.countExact ? { prefer: 'count=exact' } : {}),
            },
            body: q.body ? JSON.stringify(q.body) : undefined,
            signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
          });
          const text = await res.text();
          if (!res.ok) failure = `HTTP ${res.status} ${text.slice(0, 120)}`;
          const parsed = JSON.parse(text) as unknown;
          const total = res.headers.get('content-range')?.split('/')[1];
          rows = Array.isArray(parsed)
            ? `${parsed.length}${total ? ` of ${total}` : ''} rows, ${(text.length / 1e6).toFixed(1)} MB`
            : `${text.length} B`;
        } catch (err) {
          // A keep-alive socket the server closed after a huge response: retry once on a new one.
          if (!retried && err instanceof TypeError && err.message === 'fetch failed') {
            retried = true;
            i--;
            continue;
          }
          failure = err instanceof Error ? `${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}` : String(err);
        }
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const median = times[Math.floor(times.length / 2)]!;
      if (failure) report.add({ section: 'scale', metric: q.name, value: `failed after ${median.toFixed(0)} ms: ${failure}`, ok: false });
      else
        report.measure(
          'scale',
          `${q.name} (${rows}; ${planNote}; HTTP ${times.map((t) => t.toFixed(0)).join(' / ')} ms, median shown)`,
          median,
          ' ms',
          0,
          { max: budgets.scale.queryMs },
        );
    }

    // Booking when the tables are big: the RPC's own work does not grow with them.
    const future = pg.psql(
      `select id from public.classes where start_time > now() + interval '1 day' and not is_premium and spots_left > 0 order by start_time offset 500 limit 1`,
    );
    const started = performance.now();
    const res = await fetch(`${stack.url}/rest/v1/rpc/book_class`, {
      method: 'POST',
      headers: { apikey: stack.anonKey, authorization: `Bearer ${tokens.member}`, 'content-type': 'application/json' },
      body: JSON.stringify({ p_class_id: future }),
      signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
    });
    const body = await res.text();
    const ms = performance.now() - started;
    if (res.ok) report.measure('scale', 'book_class with 1M bookings', ms, ' ms', 0, { max: budgets.scale.queryMs });
    else
      report.add({ section: 'scale', metric: 'book_class with 1M bookings', value: `HTTP ${res.status} ${body.slice(0, 120)}`, ok: false });
  } finally {
    await stack.stop();
  }
}
