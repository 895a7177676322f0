-- What a hosted Supabase project provides before any app migration runs, for the local stack
-- (PGlite) and for a plain PostgreSQL 15+ server. Modelled on supabase/postgres' init scripts,
-- GoTrue's auth schema and the Storage API's schema, reduced to what this app and the local
-- gateway use. Idempotent: the stack runs it on every start. Never applied to the hosted project.

-- Roles ------------------------------------------------------------------------------------
-- As supabase/postgres sets them up (init scripts + the "demote postgres" migrations):
-- - supabase_admin is the superuser that owns the platform (the cluster's bootstrap role here:
--   PGlite and the test server are initialised with `initdb -U supabase_admin`);
-- - postgres, which runs the migrations, is NOT a superuser: createdb, createrole, replication,
--   bypassrls; it cannot create event triggers, load libraries or alter what it does not own;
-- - supabase_auth_admin / supabase_storage_admin own the auth and storage tables;
-- - anon / authenticated / service_role are what PostgREST switches to from the JWT's role
--   claim; authenticator is the login role PostgREST connects as (noinherit: no rights itself).
do $$
begin
  if current_user = 'postgres' then
    raise exception 'platform.sql must run as the platform superuser (supabase_admin), not as postgres'
      using hint = 'Initialise the cluster with initdb -U supabase_admin and connect as that role, as hosted Supabase does.';
  end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_admin') then
    create role supabase_admin superuser createdb createrole replication bypassrls login;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'postgres') then
    create role postgres login;
  end if;
  if (select rolsuper from pg_roles where rolname = 'postgres') then
    raise exception 'The role postgres is a superuser here; on hosted Supabase it is not'
      using hint = 'Initialise the cluster with initdb -U supabase_admin (postgres is then created without superuser).';
  end if;
  alter role postgres nosuperuser createdb createrole login replication bypassrls;
  if not exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') then
    create role supabase_auth_admin noinherit createrole login noreplication;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'supabase_storage_admin') then
    create role supabase_storage_admin noinherit createrole login noreplication;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
end
$$;
alter role anon inherit;
alter role authenticated inherit;
alter role service_role inherit;

grant anon, authenticated, service_role to authenticator;
grant anon, authenticated, service_role to postgres;
-- Hosted grants the storage owner to postgres (so migrations can put policies on
-- storage.objects); the auth owner is not granted (since April 2025 postgres may add triggers,
-- policies and foreign keys to auth tables, never alter them).
grant supabase_storage_admin to postgres;
do $$ begin
  execute format('grant all on database %I to postgres', current_database());
end $$;
-- Hosted's supautils lets postgres set session_replication_role (privileged_role_allowed_configs):
-- Supabase's restore guide, and `npm run restore` (decision 0075), load data with triggers off.
grant set on parameter session_replication_role to postgres;

-- API sessions get hosted's settings. PostgREST applies the impersonated role's settings in
-- every request; authenticator's own apply to its connections. pg-safeupdate (DELETE/UPDATE
-- need a WHERE) is preloaded for authenticator when the server has the library: PGlite cannot
-- load it and Debian ships no package of it (supabase/tests/schema-safety.test.ts checks the
-- functions' statements instead).
alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';
alter role authenticator set lock_timeout = '8s';
do $$
begin
  load 'safeupdate';
  alter role authenticator set session_preload_libraries = 'safeupdate';
exception when others then
  null; -- no pg-safeupdate on this server
end
$$;

-- Extensions live in their own schema, as on hosted Supabase (objects in it are schema-qualified
-- in our SQL, e.g. extensions.crypt()).
create schema if not exists extensions;
grant usage on schema extensions to postgres, anon, authenticated, service_role;
create extension if not exists pgcrypto with schema extensions;
create extension if not exists citext with schema extensions;
grant all on all routines in schema extensions to postgres;

-- Schema public, granted as Supabase does: postgres creates in it, the API roles get every
-- privilege on what postgres (or the platform) creates there by default, and row-level
-- security (plus explicit revokes in the migrations) decides what they may do.
grant usage, create on schema public to postgres;
grant usage on schema public to anon, authenticated, service_role;
alter default privileges in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;

-- auth: the GoTrue tables the gateway's auth handlers read and write --------------------------
create schema if not exists auth;
grant usage on schema auth to anon, authenticated, service_role;

-- Columns as GoTrue's auth.users has them (the subset this app and the gateway use; the names,
-- types and meanings match, so the migrations' trigger on auth.users runs unchanged on hosted).
-- Sessions and refresh tokens are the gateway's own business (supabase/local/gateway.sql).
create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text,
  phone_confirmed_at timestamptz,
  banned_until timestamptz,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create unique index if not exists users_email_key on auth.users (email);
-- A pending email change (GoTrue's secure email change: both addresses confirm; status counts the
-- links followed). Added here rather than above so data folders made before them get them too.
alter table auth.users add column if not exists email_change_token_current varchar(255) default '';
alter table auth.users add column if not exists email_change_confirm_status smallint default 0
  check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2);

-- The JWT of the current request, as PostgREST sets it (request.jwt.claims, transaction-local).
-- nullif(..., ''): once a transaction that set it has ended, the setting reads '' not NULL.
-- No `set search_path`, as GoTrue declares them (supabase/auth migrations): PostgreSQL inlines
-- such SQL functions into the calling query, which a function with its own settings never is, so a
-- policy or a function calling auth.uid() costs here what it costs on hosted Supabase. They name
-- nothing outside pg_catalog, which is always searched first.
create or replace function auth.jwt() returns jsonb
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

create or replace function auth.uid() returns uuid
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub'
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role'
  )::text
$$;

create or replace function auth.email() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email'
  )::text
$$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email()
  to anon, authenticated, service_role;

-- GoTrue's role owns its tables and functions; postgres may read and write them, reference them
-- and put triggers on them (the migrations' trigger on auth.users), but not create, alter or
-- drop anything in the schema.
alter table auth.users owner to supabase_auth_admin;
alter function auth.jwt() owner to supabase_auth_admin;
alter function auth.uid() owner to supabase_auth_admin;
alter function auth.role() owner to supabase_auth_admin;
alter function auth.email() owner to supabase_auth_admin;
grant usage on schema auth to postgres, supabase_auth_admin;
grant all on all tables in schema auth to postgres, supabase_auth_admin;
grant all on all routines in schema auth to postgres;

-- storage: buckets and objects as the Storage API keeps them ---------------------------------
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null unique,
  owner uuid,
  public boolean not null default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  last_accessed_at timestamptz default now(),
  constraint objects_bucket_id_name_key unique (bucket_id, name)
);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

-- Path helpers the Storage docs use in policies: 'a/b/c.png' -> {a,b}, 'c.png', 'png'.
create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable set search_path = '' as $$
declare
  _parts text[] := string_to_array(name, '/');
begin
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  _parts text[] := string_to_array(name, '/');
begin
  return _parts[array_length(_parts, 1)];
end
$$;

create or replace function storage.extension(name text) returns text
language plpgsql immutable set search_path = '' as $$
declare
  _parts text[] := string_to_array(name, '/');
  _filename text := _parts[array_length(_parts, 1)];
begin
  if position('.' in _filename) = 0 then
    return '';
  end if;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role;

-- Storage's role owns its tables and functions (postgres, a member of it as on hosted, adds the
-- buckets and the policies on storage.objects).
alter table storage.buckets owner to supabase_storage_admin;
alter table storage.objects owner to supabase_storage_admin;
alter function storage.foldername(text) owner to supabase_storage_admin;
alter function storage.filename(text) owner to supabase_storage_admin;
alter function storage.extension(text) owner to supabase_storage_admin;
grant usage on schema storage to postgres, supabase_storage_admin;
grant all on all tables in schema storage to postgres;

-- realtime: the publication hosted Supabase creates empty; migrations add their tables to it.
do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime;
  end if;
end
$$;
-- postgres adds its tables to it in migrations, as on hosted.
alter publication supabase_realtime owner to postgres;
