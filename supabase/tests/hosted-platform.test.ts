import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../local/db/apply.ts';
import type { Database } from '../local/db/open-database.ts';
import { createTestDatabase } from '../local/db/snapshot.ts';

// The local database is built the way hosted Supabase builds one (platform.sql): a superuser
// supabase_admin owning the platform, `postgres` without superuser running the migrations, and
// the API roles' settings. A migration that hosted would refuse is refused here too.

let db: Database;
let dir: string;
let version = 90_000_000_000_000;

beforeAll(async () => {
  db = await createTestDatabase();
  dir = mkdtempSync(`${tmpdir()}/hosted-migration-`);
});

afterAll(async () => {
  await db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Applies one extra migration file after the repo's, as the Supabase CLI would on hosted. */
async function applyExtraMigration(sql: string) {
  rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(`${tmpdir()}/hosted-migration-`);
  version += 1;
  writeFileSync(`${dir}/${version}_probe.sql`, sql);
  return applyMigrations(db, dir);
}

describe('roles as on hosted Supabase', () => {
  it('postgres is not a superuser but bypasses RLS and creates roles; supabase_admin is the superuser', async () => {
    const { rows } = await db.query<Record<string, unknown>>(
      `select rolname, rolsuper, rolbypassrls, rolcreaterole, rolinherit, rolcanlogin
         from pg_catalog.pg_roles
        where rolname in ('supabase_admin', 'postgres', 'authenticator', 'anon', 'authenticated', 'service_role')
        order by rolname`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', rolsuper: false, rolbypassrls: false, rolcreaterole: false, rolinherit: true, rolcanlogin: false },
      { rolname: 'authenticated', rolsuper: false, rolbypassrls: false, rolcreaterole: false, rolinherit: true, rolcanlogin: false },
      { rolname: 'authenticator', rolsuper: false, rolbypassrls: false, rolcreaterole: false, rolinherit: false, rolcanlogin: true },
      { rolname: 'postgres', rolsuper: false, rolbypassrls: true, rolcreaterole: true, rolinherit: true, rolcanlogin: true },
      { rolname: 'service_role', rolsuper: false, rolbypassrls: true, rolcreaterole: false, rolinherit: true, rolcanlogin: false },
      { rolname: 'supabase_admin', rolsuper: true, rolbypassrls: true, rolcreaterole: true, rolinherit: true, rolcanlogin: true },
    ]);
  });

  it('gives API sessions hosted statement timeouts through role settings (PostgREST applies them)', async () => {
    const { rows } = await db.query<{ rolname: string; setconfig: string[] }>(
      `select r.rolname, s.setconfig from pg_catalog.pg_db_role_setting s
         join pg_catalog.pg_roles r on r.oid = s.setrole
        where r.rolname in ('anon', 'authenticated', 'authenticator') order by r.rolname`,
    );
    expect(rows).toEqual([
      { rolname: 'anon', setconfig: ['statement_timeout=3s'] },
      { rolname: 'authenticated', setconfig: ['statement_timeout=8s'] },
      { rolname: 'authenticator', setconfig: ['statement_timeout=8s', 'lock_timeout=8s'] },
    ]);
  });

  it('the migrations ran as postgres: it owns every table and function of public and private', async () => {
    const { rows } = await db.query<{ owner: string; n: number }>(
      `select owner, count(*)::int as n from (
         select c.relowner::regrole::text as owner from pg_catalog.pg_class c
          where c.relnamespace in ('public'::regnamespace, 'private'::regnamespace) and c.relkind in ('r', 'v', 'S')
         union all
         select p.proowner::regrole::text from pg_catalog.pg_proc p
          where p.pronamespace in ('public'::regnamespace, 'private'::regnamespace)
       ) o group by owner`,
    );
    expect(rows.map((r) => r.owner)).toEqual(['postgres']);
    expect(rows[0]!.n).toBeGreaterThan(20);
  });

  it("auth's and storage's tables belong to their services' roles, not to postgres", async () => {
    const { rows } = await db.query<{ t: string; owner: string }>(
      `select c.oid::regclass::text as t, c.relowner::regrole::text as owner from pg_catalog.pg_class c
        where c.oid in ('auth.users'::regclass, 'storage.objects'::regclass, 'storage.buckets'::regclass) order by 1`,
    );
    expect(rows).toEqual([
      { t: 'auth.users', owner: 'supabase_auth_admin' },
      { t: 'storage.buckets', owner: 'supabase_storage_admin' },
      { t: 'storage.objects', owner: 'supabase_storage_admin' },
    ]);
  });
});

describe('a migration hosted would refuse fails locally', () => {
  it('creating an event trigger needs a superuser', async () => {
    await expect(
      applyExtraMigration(
        `create function public.probe_ddl() returns event_trigger language plpgsql as $$ begin end $$;
         create event trigger probe_ddl on ddl_command_end execute function public.probe_ddl();`,
      ),
    ).rejects.toThrow(/permission denied to create event trigger/);
  });

  it('altering auth.users needs its owner', async () => {
    await expect(applyExtraMigration('alter table auth.users add column probe text;')).rejects.toThrow(/must be owner of table users/);
  });

  it('creating a table in the auth schema is refused', async () => {
    await expect(applyExtraMigration('create table auth.probe (id int);')).rejects.toThrow(/permission denied for schema auth/);
  });

  it('switching to another role is refused', async () => {
    await expect(applyExtraMigration('set role supabase_admin;\nalter table auth.users add column probe text;')).rejects.toThrow(
      /may not switch roles/,
    );
  });

  it('a failed migration leaves nothing behind and is not recorded', async () => {
    const { rows } = await db.query<{ n: number }>(
      `select count(*)::int as n from supabase_migrations.schema_migrations where version::bigint >= 90000000000000`,
    );
    expect(rows[0]!.n).toBe(0);
    expect((await db.query(`select 1 from pg_catalog.pg_proc where proname = 'probe_ddl'`)).rows).toEqual([]);
  });

  it('what hosted allows still applies: a trigger on auth.users and a policy on storage.objects', async () => {
    const result = await applyExtraMigration(
      `create function public.probe_user_created() returns trigger language plpgsql set search_path = '' as $$ begin return new; end $$;
       create trigger probe_user_created after insert on auth.users for each row execute function public.probe_user_created();
       create policy "probe read" on storage.objects for select to authenticated using (bucket_id = 'probe');`,
    );
    expect(result.applied).toEqual([`${version}_probe`]);
  });
});
