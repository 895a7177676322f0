import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform } from '../local/db/apply.ts';
import { findPostgresBinDir, pg, pgClientDatabase, startThrowawayCluster, type ThrowawayCluster } from './support/real-postgres.ts';

// Two runs of the announcements job at once (the every-minute function and the hourly jobs) on a
// real PostgreSQL server, one connection each: a due announcement is queued once, for each member
// once (decision 0090: FOR UPDATE SKIP LOCKED, then sent_at). PGlite is one session, so the race
// needs the real server; it is skipped where none is installed.

const MEMBERS = 5;
const RUNS = 4;

describe('announcements sent by runs at the same moment', () => {
  const binDir = findPostgresBinDir();
  let cluster: ThrowawayCluster | undefined;
  let admin: pg.Client | undefined;

  beforeAll(async () => {
    if (!binDir) {
      console.log('[announcements race] SKIPPED: no PostgreSQL server binaries on this machine');
      return;
    }
    cluster = await startThrowawayCluster(binDir);
    admin = new pg.Client({ connectionString: cluster.connectionString });
    await admin.connect();
    const db = pgClientDatabase(admin);
    await applyPlatform(db);
    await applyMigrations(db);
  }, 180_000);

  afterAll(async () => {
    await admin?.end();
    cluster?.stop();
  });

  it('queues a due announcement once, however many runs take it together', async () => {
    if (!cluster || !admin) return;
    await admin.query(
      `with m as (
         insert into public.members (email, name) select 'race-' || g || '@example.test', 'Racer ' || g from generate_series(1, $1::int) g returning id)
       insert into public.memberships (member_id, plan_slug, tier, status, price, period_number, period_start, period_end, anchor_at, renews)
       select id, 'standard', 'standard', 'active', 100, 1, now() - interval '5 days', now() + interval '25 days', now() - interval '5 days', true from m
       on conflict (member_id) do update set plan_slug = 'standard', tier = 'standard', status = 'active', price = 100, renews = true, ended_at = null`,
      [MEMBERS],
    );
    const { rows } = await admin.query<{ id: string }>(
      `insert into public.announcements (type, subject, body, segment, send_at)
       values ('announcement', 'Hall closed', 'We meet in the park.', 'active', now()) returning id`,
    );
    const id = rows[0]!.id;

    const clients = await Promise.all(
      Array.from({ length: RUNS }, async () => {
        const c = new pg.Client({ connectionString: cluster!.connectionString });
        await c.connect();
        return c;
      }),
    );
    try {
      await Promise.all(
        clients.map(async (c) => {
          await c.query('begin');
          await c.query('set local role service_role');
        }),
      );
      const now = new Date(Date.now() + 1000).toISOString();
      const counts = await Promise.all(
        clients.map(async (c) => {
          const r = await c.query<{ n: number }>('select public.send_announcements_at($1) as n', [now]);
          await c.query('commit');
          return r.rows[0]!.n;
        }),
      );
      expect(counts.reduce((a, b) => a + b, 0)).toBe(MEMBERS);
    } finally {
      await Promise.all(clients.map((c) => c.end()));
    }
    const { rows: queued } = await admin.query<{ n: number; members: number }>(
      `select count(*)::int as n, count(distinct e.member_id)::int as members
         from public.notification_deliveries d join public.notification_events e on e.id = d.event_id
        where e.idempotency_key like 'announcement:' || $1 || ':%' and d.channel = 'email'`,
      [id],
    );
    expect(queued[0]).toEqual({ n: MEMBERS, members: MEMBERS });
    const { rows: sent } = await admin.query('select recipients from public.announcements where id = $1', [id]);
    expect(sent).toEqual([{ recipients: MEMBERS }]);
  }, 60_000);
});
