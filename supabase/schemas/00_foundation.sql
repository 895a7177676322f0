-- The database as it is now, one file per domain (Supabase's declarative schema layout). The
-- migrations in supabase/migrations deploy it; supabase/tests/schema-files.test.ts builds a
-- database from these files and one from the migrations and fails when they differ. README,
-- "Changing the database", says how a change is made.
--
-- Foundation: what every domain file uses. Extensions, the unexposed `private` schema, the enums
-- several domains share and small helpers (money, London dates). The files are applied in name
-- order: members, classes (timetable), bookings (booking rules, holds, plan usage, attendance),
-- waitlist, schedule, payments, memberships, refunds, credits (plans and session credits),
-- notifications (emails, Contact Us), admin reads, calendar, storage. A file may call a function
-- a later one declares (function bodies are checked when they run); everything else it uses
-- comes before it.
--
-- Grants: Supabase's default privileges give anon/authenticated every privilege on new tables
-- and functions; each object revokes them and grants back only what its callers need.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Layout of every domain file: its types and tables (with grants, indexes, comments), then
-- private helpers and the SECURITY DEFINER code of its RPCs in `private`, then the API: the
-- `public` SECURITY INVOKER functions PostgREST exposes, which call that code, and who may call
-- them; last its row-level security policies and triggers. No SECURITY DEFINER function is exposed (Supabase's linter, splinter, warns about those),
-- and every function has `set search_path = ''` with fully qualified names.

-- Extensions -------------------------------------------------------------------------------------
create extension if not exists citext with schema extensions;

-- The private schema ---------------------------------------------------------------------------
-- Helpers that policies and RPCs call. Not exposed by the API (PostgREST serves `public` only),
-- so usage of `private` lets nothing be called from outside; anon needs it because the guest
-- schedule's public function calls its helper here.
create schema if not exists private;

revoke all on schema private from public;

grant usage on schema private to anon, authenticated, service_role;

-- Enums ----------------------------------------------------------------------------------------
-- Closed sets of values that several domains store, compare and return. PostgREST returns them as
-- the same strings the text columns held; `npm run db:types` types them as string unions.
create type public.membership_tier as enum ('trial', 'payg', 'standard', 'premium');

-- What a booking is paid with: the plan ('paid', the booking form's "Member"), the free trial, the
-- class price (pay-as-you-go) or a session credit (a package's or a Premium period's).
create type public.booking_type as enum ('paid', 'trial', 'payg', 'credit');

-- A booking's payment: confirmed, or a pay-as-you-go hold waiting for the card payment.
create type public.payment_status as enum ('completed', 'pending');

-- A card payment (payments.status): its own life cycle, so its own type rather than more values
-- in payment_status that a booking must never take.
create type public.checkout_status as enum ('pending', 'paid', 'failed', 'expired');

create type public.attendance_status as enum ('attended', 'no_show');

-- Shared helpers -------------------------------------------------------------------------------
-- '%term%' with the term's own LIKE wildcards made literal.
create function private.like_pattern(p_term text)
returns text
language sql immutable set search_path = ''
as $$ select '%' || replace(replace(replace(coalesce(p_term, ''), '\', '\\'), '%', '\%'), '_', '\_') || '%' $$;

-- Filters of the schedule screens, London time (spec: weeks start on Sunday). p_day: 'all',
revoke execute on function private.like_pattern(text) from public;

grant execute on function private.like_pattern(text) to anon, authenticated, service_role;

-- A phone number as a member gives one (their own and their emergency contact's, members' checks):
-- a UK number (0 and 10 or 11 digits: 07700 900123, (020) 7946-0018) or an international one (+ or
-- 00, a country code and 7 to 15 digits: +44 7700 900123, +44 (0)20 7946 0018), written with
-- digits, spaces, brackets and hyphens only, around it no spaces. None (null) is fine. Mirrored by
-- Edit Profile's form (src/features/profile/lib/profile-rules.ts, isPhoneNumber).
create function private.is_phone_number(p_phone text)
returns boolean
language sql immutable set search_path = ''
as $$
  select p_phone is null or (
    p_phone = btrim(p_phone) and p_phone ~ '^\+?[0-9() -]+$'
    and case
      when p_phone like '+%' then t.digits ~ '^[1-9][0-9]{6,14}$'
      when t.digits like '00%' then t.digits ~ '^00[1-9][0-9]{6,14}$'
      else t.digits ~ '^0[0-9]{9,10}$'
    end)
    -- '(0)' is the trunk prefix written after a country code (+44 (0)20 …): not dialled.
    from (select regexp_replace(replace(coalesce(p_phone, ''), '(0)', ''), '[^0-9]', '', 'g') as digits) as t
$$;

revoke execute on function private.is_phone_number(text) from public;

-- Checks on members evaluate it whoever writes the row: Edit Profile (a member), the functions
-- and the studio's scripts (service_role).
grant execute on function private.is_phone_number(text) to authenticated, service_role;

-- What an email says -----------------------------------------------------------------------
-- The studio's identity as the database's emails print it, one row. Written from the one file the
-- owner edits, studio.config.json (src/config/studio.ts reads it for the site and the functions):
-- by the local stack on every start, and on hosted by running what `npm run studio:sql` prints
-- (README, "The studio's identity"). A test checks the two agree. The row below is the default
-- file's, so a fresh database prints something until then.
create table private.studio_settings (
  id boolean primary key default true check (id),
  -- One line: 'Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom'.
  address text not null check (char_length(address) between 1 and 300),
  -- Where Contact Us messages go.
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$'),
  updated_at timestamptz not null default now()
);

revoke all on private.studio_settings from public, anon, authenticated;

insert into private.studio_settings (address, email)
values ('Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom', 'hello@finerfitness.example');

-- The studio's address as emails print it (private.studio_settings).
create function private.studio_address()
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  -- One row at most (studio_settings' key is true).
  return (select address from private.studio_settings);
end;
$$;

revoke execute on function private.studio_address() from public;

-- A class's start as members read it: London wall-clock time, e.g. 'Monday 6 October 2025, 6:00 AM'.
create function private.london_time_text(p_at timestamptz)
returns text
language plpgsql stable set search_path = ''
as $$
begin
  return to_char(p_at at time zone 'Europe/London', 'FMDay FMDD FMMonth YYYY, FMHH12:MI AM');
end;
$$;

revoke execute on function private.london_time_text(timestamptz) from public;

-- '12 hours', '90 minutes', '1 day'.
create function private.interval_text(p_interval interval)
returns text
language plpgsql immutable set search_path = ''
as $$
declare
  s bigint := extract(epoch from p_interval)::bigint;
begin
  return case
    when s % 86400 = 0 then (s / 86400) || case when s = 86400 then ' day' else ' days' end
    when s % 3600 = 0 then (s / 3600) || case when s = 3600 then ' hour' else ' hours' end
    else (s / 60) || case when s = 60 then ' minute' else ' minutes' end
  end;
end;
$$;

revoke execute on function private.interval_text(interval) from public;

-- The studio's inbox for Contact Us messages (private.studio_settings).
create function private.studio_email()
returns text
language sql stable security definer set search_path = ''
as $$ select email from private.studio_settings $$;

revoke execute on function private.studio_email() from public;

-- The end of a calendar month from the anchor, in London time (a 31st anchor ends on the month's
-- last day in shorter months and on the 31st again after them).
create function private.months_after(p_anchor timestamptz, p_months integer)
returns timestamptz
language plpgsql stable set search_path = ''
as $$
begin
  return ((p_anchor at time zone 'Europe/London') + make_interval(months => p_months)) at time zone 'Europe/London';
end;
$$;

revoke execute on function private.months_after(timestamptz, integer) from public;

-- '£100.00'
create function private.gbp(p_amount numeric)
returns text
language sql immutable set search_path = ''
as $$ select '£' || to_char(p_amount, 'FM999990.00') $$;

revoke execute on function private.gbp(numeric) from public;

-- '23 December 2026' (London)
create function private.london_date_text(p_at timestamptz)
returns text
language sql stable set search_path = ''
as $$ select to_char(p_at at time zone 'Europe/London', 'FMDD FMMonth YYYY') $$;

revoke execute on function private.london_date_text(timestamptz) from public;

-- Monday 00:00 London of the week that p_at falls in.
create function private.london_week_start(p_at timestamptz)
returns timestamptz
language sql immutable set search_path = ''
as $$ select date_trunc('week', p_at at time zone 'Europe/London') at time zone 'Europe/London' $$;

revoke execute on function private.london_week_start(timestamptz) from public;

-- How an email greets a person: "Hi Tom," (the first word of their name), or "Hi there," without one.
create function private.greeting(p_name text)
returns text
language plpgsql immutable set search_path = ''
as $$
begin
  return 'Hi ' || coalesce(nullif(split_part(btrim(coalesce(p_name, '')), ' ', 1), ''), 'there') || ',';
end;
$$;

revoke execute on function private.greeting(text) from public;

-- Trigram matching for the admin searches (`ilike '%anna%'`, which a btree cannot serve; decision
-- 0029). A trusted extension: hosted Supabase's postgres role creates it in `extensions`; the local
-- stack loads PGlite's contrib build.
create extension if not exists pg_trgm with schema extensions;
