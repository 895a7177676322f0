import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, applyPlatform, listMigrations } from '../local/db/apply.ts';
import { openDatabase, type Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';

// Properties of the whole schema (every migration, the payments one included), checked in the
// catalogue so a new table or function cannot quietly skip them.

describe('migrations', () => {
  it('apply cleanly to a fresh database, and a second run is a no-op via the history table', async () => {
    const db = await openDatabase({ dataDir: 'memory' });
    try {
      const all = listMigrations().map((m) => `${m.version}_${m.name}`);
      await applyPlatform(db);
      expect(await applyMigrations(db)).toEqual({ applied: all, skipped: [] });
      await applyPlatform(db);
      expect(await applyMigrations(db)).toEqual({ applied: [], skipped: all });
      const { rows } = await db.query<{ version: string }>('select version from supabase_migrations.schema_migrations order by version');
      expect(rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
    } finally {
      await db.close();
    }
  });
});

describe('schema safety', () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.close();
  });

  it('has row-level security on every table in an exposed or storage schema', async () => {
    const { rows } = await db.query(
      `select n.nspname, c.relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in ('public', 'storage') and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    );
    expect(rows).toEqual([]);
  });

  it('has no view in public that would bypass RLS', async () => {
    const { rows } = await db.query(
      `select c.relname from pg_class c
        where c.relnamespace = 'public'::regnamespace and c.relkind in ('v', 'm')
          and not coalesce('security_invoker=true' = any (c.reloptions), false)`,
    );
    expect(rows).toEqual([]);
  });

  it('has a fixed search_path on every function of ours', async () => {
    const { rows } = await db.query(
      `select n.nspname || '.' || p.proname as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private', 'auth', 'storage')
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
          and not exists (select 1 from unnest(coalesce(p.proconfig, '{}')) c where c like 'search_path=%')`,
    );
    expect(rows).toEqual([]);
  });

  it('has no write policy that lets everyone through (using/with check true)', async () => {
    const { rows } = await db.query(
      `select schemaname, tablename, policyname, cmd, qual, with_check from pg_policies
        where cmd <> 'SELECT'
          and (qual = 'true' or with_check = 'true' or (qual is null and with_check is null))`,
    );
    expect(rows).toEqual([]);
  });

  it('lets anon execute no function in public, and authenticated only the member RPCs', async () => {
    const callable = async (role: string) =>
      (
        await db.query<{ proname: string }>(
          `select p.proname from pg_proc p
            where p.pronamespace = 'public'::regnamespace and has_function_privilege($1, p.oid, 'execute')
              and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
            order by 1`,
          [role],
        )
      ).rows.map((r) => r.proname);
    // Guests read the schedule (with a guest's facts); nothing else.
    expect(await callable('anon')).toEqual(['class_schedule', 'class_schedule_summary']);
    expect(await callable('authenticated')).toEqual([
      'admin_bookings_search',
      'admin_delete_member',
      'admin_stats',
      'book_class',
      'cancel_booking',
      'class_schedule',
      'class_schedule_summary',
      'ensure_member',
      'join_waitlist',
      'leave_waitlist',
      'mark_attendance',
      'mark_refund_refunded',
      'my_bookings',
      'my_plan_usage',
      'my_waitlist',
      'paid_bookings_affected',
      'regenerate_timetable',
      'revoke_calendar_token',
      'rotate_calendar_token',
    ]);
  });

  it('gives every public function an empty search_path; one that can change data is SECURITY DEFINER or calls its private twin', async () => {
    const { rows } = await db.query<{ proname: string; config: string[] | null; definer: boolean; volatility: string; src: string }>(
      `select p.proname, p.proconfig as config, p.prosecdef as definer, p.provolatile as volatility, p.prosrc as src from pg_proc p
        where p.pronamespace = 'public'::regnamespace
          and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const fn of rows) {
      expect(fn.config, fn.proname).toContain('search_path=""');
      // Splinter's pattern: the exposed function runs as the caller and calls the definer code
      // in the unexposed private schema; a stable read may also run as the caller so RLS applies.
      if (fn.volatility === 'v' && !fn.definer) expect(fn.src, fn.proname).toContain(`private.${fn.proname}(`);
    }
  });

  it('lets anon reach only the schedule helpers in the private schema', async () => {
    // The API exposes only `public`; usage of `private` lets the guest schedule's invoker
    // function call its definer helper. Every other private function stays out of anon's reach.
    const { rows } = await db.query<{ proname: string }>(
      `select p.proname from pg_proc p
        where p.pronamespace = 'private'::regnamespace and has_function_privilege('anon', p.oid, 'execute')
        order by 1`,
    );
    expect(rows.map((r) => r.proname)).toEqual(['class_schedule', 'like_pattern', 'schedule_matches']);
  });

  it('publishes classes and bookings to realtime', async () => {
    const { rows } = await db.query<{ tablename: string }>(
      `select tablename from pg_publication_tables where pubname = 'supabase_realtime' and schemaname = 'public' order by 1`,
    );
    expect(rows.map((r) => r.tablename)).toEqual(expect.arrayContaining(['bookings', 'classes']));
  });
});
