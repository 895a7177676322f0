-- Foundation: what every domain file below uses. Extensions, the unexposed `private` schema and
-- shared helpers. One migration per domain follows, in dependency order:
--   members, classes (timetable), bookings (booking rules, holds, plan usage, attendance),
--   waitlist, schedule, payments, notifications, admin reads, calendar, storage.
--
-- Grants: Supabase's default privileges give anon/authenticated every privilege on new tables
-- and functions; each object revokes them and grants back only what its callers need.

-- Extensions -------------------------------------------------------------------------------------

create extension if not exists citext with schema extensions;

-- The private schema -----------------------------------------------------------------------------

-- Helpers that policies and RPCs call. Not exposed by the API (PostgREST serves `public` only),
-- so usage of `private` lets nothing be called from outside; anon needs it because the guest
-- schedule's public function calls its helper here.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- Shared helpers ---------------------------------------------------------------------------------

-- '%term%' with the term's own LIKE wildcards made literal.
create function private.like_pattern(p_term text)
returns text
language sql immutable set search_path = ''
as $$ select '%' || replace(replace(replace(coalesce(p_term, ''), '\', '\\'), '%', '\%'), '_', '\_') || '%' $$;

-- Filters of the schedule screens, London time (spec: weeks start on Sunday). p_day: 'all',

revoke execute on function private.like_pattern(text) from public;
grant execute on function private.like_pattern(text) to anon, authenticated, service_role;
