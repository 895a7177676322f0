-- Foundation: what every domain file below uses. Extensions, the unexposed `private` schema and
-- shared helpers. One migration per domain follows, in dependency order:
--   members, classes (timetable), bookings (booking rules, holds, plan usage, attendance),
--   waitlist, schedule, payments, notifications, admin reads, calendar, storage.
--
-- Grants: Supabase's default privileges give anon/authenticated every privilege on new tables
-- and functions; each object revokes them and grants back only what its callers need.

-- Layout of every domain file: its types and tables (with grants, row-level security, indexes),
-- then private helpers and the SECURITY DEFINER code of its RPCs in `private`, then the API: the
-- `public` SECURITY INVOKER functions PostgREST exposes, which call that code, and who may call
-- them. No SECURITY DEFINER function is exposed (Supabase's linter, splinter, warns about those),
-- and every function has `set search_path = ''` with fully qualified names.

-- Extensions -------------------------------------------------------------------------------------

create extension if not exists citext with schema extensions;

-- The private schema -----------------------------------------------------------------------------

-- Helpers that policies and RPCs call. Not exposed by the API (PostgREST serves `public` only),
-- so usage of `private` lets nothing be called from outside; anon needs it because the guest
-- schedule's public function calls its helper here.
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to anon, authenticated, service_role;

-- Enums ------------------------------------------------------------------------------------------

-- Closed sets of values that several domains store, compare and return. PostgREST returns them as
-- the same strings the text columns held; `npm run db:types` types them as string unions.
create type public.membership_tier as enum ('trial', 'payg', 'standard', 'premium');
-- What a booking is paid with: the plan ('paid', the booking form's "Member"), the free trial, or
-- the class price (pay-as-you-go).
create type public.booking_type as enum ('paid', 'trial', 'payg');
-- A booking's payment: confirmed, or a pay-as-you-go hold waiting for the card payment.
create type public.payment_status as enum ('completed', 'pending');
-- A card payment (payments.status): its own life cycle, so its own type rather than more values
-- in payment_status that a booking must never take.
create type public.checkout_status as enum ('pending', 'paid', 'failed', 'expired');
create type public.attendance_status as enum ('attended', 'no_show');

-- Shared helpers ---------------------------------------------------------------------------------

-- '%term%' with the term's own LIKE wildcards made literal.
create function private.like_pattern(p_term text)
returns text
language sql immutable set search_path = ''
as $$ select '%' || replace(replace(replace(coalesce(p_term, ''), '\', '\\'), '%', '\%'), '_', '\_') || '%' $$;

-- Filters of the schedule screens, London time (spec: weeks start on Sunday). p_day: 'all',

revoke execute on function private.like_pattern(text) from public;
grant execute on function private.like_pattern(text) to anon, authenticated, service_role;
