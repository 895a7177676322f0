-- Members: the member row of each auth user, who may read and edit it, and how it is created.
-- Rules live here, not in the browser (docs/data-contract.md, decision 0001).
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Table ------------------------------------------------------------------------------------------
create table public.members (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references auth.users (id) on delete set null,
  email extensions.citext not null unique check (char_length(email) between 3 and 320),
  -- Edit Profile's limit; a sign-up's longer full name is cut to it (create_member_for_user).
  name text check (char_length(name) <= 100),
  phone text check (char_length(phone) <= 40)
    constraint members_phone_is_a_phone_number check (private.is_phone_number(phone)),
  profile_image_url text check (char_length(profile_image_url) <= 2048),
  membership_tier public.membership_tier not null default 'payg',
  has_used_trial boolean not null default false,
  trial_expires_at timestamptz,
  plan_renews_at timestamptz,
  is_admin boolean not null default false,
  status text not null default 'active' check (status in ('active', 'inactive')),
  -- Secret of the member's calendar feed URL (calendar migration); only its RPCs write it.
  calendar_token text unique
    constraint members_calendar_token_format check (calendar_token ~ '^[A-Za-z0-9_-]{32,64}$'),
  created_at timestamptz not null default now(),
  -- What the coach may need in the room (the register, 17_consent.sql and 24_places.sql): an age,
  -- and who to call. members_check_date_of_birth (17_consent.sql) refuses a date in the future.
  date_of_birth date constraint members_date_of_birth_plausible check (date_of_birth >= date '1900-01-01'),
  emergency_contact_name text constraint members_emergency_contact_name_length check (char_length(emergency_contact_name) <= 200),
  emergency_contact_phone text constraint members_emergency_contact_phone_length check (char_length(emergency_contact_phone) <= 40)
    constraint members_emergency_contact_phone_is_a_phone_number check (private.is_phone_number(emergency_contact_phone)),
  -- A sign-up whose email is not confirmed yet: not counted as a member in the admin figures
  -- (decision 0070). Kept from auth.users by members_confirmation_from_user and
  -- members_sync_email_confirmed; a row with no account (user_id null) is a member.
  awaiting_confirmation boolean not null default false
);

-- Triggers other domains add to public.members: memberships_end_used_trial (07_memberships.sql),
--  memberships_on_trial_member (07_memberships.sql), members_end_open_checkouts (08_refunds.sql),
--  members_owe_unused_credits (09_credits.sql), members_check_date_of_birth (17_consent.sql),
--  members_remember_trial (19_reports.sql), members_coach_never_admin (22_coaches.sql).

-- The members search and the bookings search (admin_bookings_search) by name or email (decision
-- 0029). The email is citext: the index and the search read it as text.
create index members_name_trgm_idx on public.members using gin (name extensions.gin_trgm_ops);

create index members_email_trgm_idx on public.members using gin ((email::text) extensions.gin_trgm_ops);

comment on table public.members is 'A studio member; linked to the auth user (user_id) who signs in.';

comment on column public.members.calendar_token is
  'Secret of the member''s calendar feed URL; set by rotate_calendar_token, cleared by revoke_calendar_token.';

create index members_created_at_idx on public.members (created_at desc);

create index members_membership_tier_idx on public.members (membership_tier);

-- Row-level security -----------------------------------------------------------------------------
alter table public.members enable row level security;

revoke all on public.members from anon, authenticated;

grant select, delete on public.members to authenticated;

-- A member edits only these; tier, trial fields, is_admin, email, user_id are not client-writable.
grant update (name, phone, profile_image_url, date_of_birth, emergency_contact_name, emergency_contact_phone)
  on public.members to authenticated;

grant all on public.members to service_role;

revoke delete on public.members from authenticated;

-- Who is calling -------------------------------------------------------------------------------
-- The caller's member id and admin flag. SECURITY DEFINER so policies on members can use them
-- without recursing into members' own policies.
create function private.current_member_id()
returns uuid
language sql stable security definer set search_path = ''
as $$
  select m.id from public.members m where m.user_id = (select auth.uid())
$$;

revoke execute on function private.current_member_id() from public;

grant execute on function private.current_member_id() to authenticated, service_role;

create function private.is_admin()
returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((select m.is_admin from public.members m where m.user_id = (select auth.uid())), false)
$$;

revoke execute on function private.is_admin() from public;

grant execute on function private.is_admin() to authenticated, service_role;

-- The caller's auth user id; without one, the contract's not_authenticated refusal.
create function private.require_user_id()
returns uuid
language plpgsql stable set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
begin
  if v_uid is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  return v_uid;
end;
$$;

revoke execute on function private.require_user_id() from public;

-- The caller's member row (not_authenticated / member_not_found otherwise).
create function private.require_member()
returns public.members
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members;
begin
  select * into v_member from public.members where user_id = private.require_user_id();
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return v_member;
end;
$$;

revoke execute on function private.require_member() from public;

-- Admin-only RPCs refuse everyone else with the same error.
create function private.require_admin()
returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Access denied' using errcode = '42501', hint = 'not_admin';
  end if;
end;
$$;

revoke execute on function private.require_admin() from public;

-- Member creation ------------------------------------------------------------------------------
-- Length of the free trial a free-trial sign-up gets (spec section 9: 7 days).
create function private.trial_length()
returns interval
language sql immutable set search_path = ''
as $$ select interval '7 days' $$;

revoke execute on function private.trial_length() from public;

-- Emails whose free trial is spent, remembered after the member is deleted so a new account with
-- the same email gets no second trial (decision 0010). A one-way hash: the address itself is not kept.
create function private.email_hash(p_email text)
returns text
language sql immutable set search_path = ''
as $$ select encode(extensions.digest(lower(btrim(p_email)), 'sha256'), 'hex') $$;

revoke execute on function private.email_hash(text) from public;

create table private.trial_emails (
  email_hash text primary key,
  recorded_at timestamptz not null default now()
);

revoke all on private.trial_emails from public, anon, authenticated;

-- Creates (or links, when an unlinked row with the same email exists) the member row of an auth
-- user: 'trial' for sign-ups from the free-trial page, else 'payg'. Returns the row, or null when
-- the user has no email.
create function private.create_member_for_user(p_user_id uuid)
returns public.members
language plpgsql security definer set search_path = ''
as $$
declare
  v_user auth.users;
  v_member public.members;
  v_is_trial boolean;
  v_trial_used boolean;
begin
  select * into v_user from auth.users where id = p_user_id;
  if not found or v_user.email is null then
    return null;
  end if;
  -- The free trial is once per email: a member deleted and signing up again gets none.
  v_trial_used := exists (select 1 from private.trial_emails t where t.email_hash = private.email_hash(v_user.email));
  v_is_trial := coalesce(v_user.raw_user_meta_data ->> 'signup_source', '') = 'free-trial' and not v_trial_used;

  insert into public.members as m (user_id, email, name, membership_tier, has_used_trial, trial_expires_at)
  values (
    v_user.id,
    v_user.email,
    -- A name longer than an account takes is cut to it rather than refusing the sign-up (which
    -- GoTrue could only answer with a server error).
    nullif(btrim(left(btrim(v_user.raw_user_meta_data ->> 'full_name'), 100)), ''),
    (case when v_is_trial then 'trial' else 'payg' end)::public.membership_tier,
    v_trial_used,
    case when v_is_trial then now() + private.trial_length() end
  )
  on conflict (email) do update set user_id = excluded.user_id
    where m.user_id is null
  returning * into v_member;

  if v_member.id is null then
    -- The email's row belongs to another user id (should not happen: auth emails are unique).
    select * into v_member from public.members where user_id = p_user_id;
  end if;
  -- The sign-up form's unticked "news and offers" choice, recorded once with its words
  -- (10_notifications.sql). A sign-up that showed no choice records none: marketing stays off.
  if v_member.id is not null and v_user.raw_user_meta_data ? 'marketing_opt_in'
     and not exists (select 1 from public.marketing_consents c where c.member_id = v_member.id) then
    perform private.record_marketing_consent(v_member.id, (v_user.raw_user_meta_data ->> 'marketing_opt_in') = 'true',
                                             case when v_user.raw_user_meta_data ->> 'signup_source' = 'free-trial'
                                                  then 'free_trial' else 'sign_up' end);
  end if;
  return v_member;
end;
$$;

revoke execute on function private.create_member_for_user(uuid) from public;

create function private.members_on_auth_user_created()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.create_member_for_user(new.id);
  return new;
end;
$$;

revoke execute on function private.members_on_auth_user_created() from public;

-- Returns the caller's member row, creating it when missing. Idempotent.
create function private.ensure_member()
returns public.members
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := private.require_user_id();
  v_member public.members;
begin
  select * into v_member from public.members where user_id = v_uid;
  if found then
    return v_member;
  end if;
  v_member := private.create_member_for_user(v_uid);
  if v_member.id is null then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return v_member;
end;
$$;

revoke execute on function private.ensure_member() from public;

grant execute on function private.ensure_member() to authenticated;

-- API --------------------------------------------------------------------------------------------
create function public.ensure_member()
returns public.members
language sql volatile security invoker set search_path = ''
as $$ select * from private.ensure_member() $$;

revoke execute on function public.ensure_member() from public, anon;

grant execute on function public.ensure_member() to authenticated;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own row; admins read all"
  on public.members for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create policy "Members update their own row"
  on public.members for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

-- No path leaves a user without a member row: every new auth user gets one.
create trigger members_on_auth_user_created
  after insert on auth.users
  for each row execute function private.members_on_auth_user_created();

-- Whether a member row's account still waits for its email confirmation, read when the row is
-- made or linked to an account.
create function private.members_confirmation_from_user()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  new.awaiting_confirmation := new.user_id is not null
    and exists (select 1 from auth.users u where u.id = new.user_id and u.email_confirmed_at is null);
  return new;
end;
$$;

revoke execute on function private.members_confirmation_from_user() from public;

create trigger members_confirmation_from_user
  before insert or update of user_id on public.members
  for each row execute function private.members_confirmation_from_user();

-- An account confirming its email (or an admin un-confirming it) moves its member row.
create function private.members_sync_email_confirmed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.members m set awaiting_confirmation = (new.email_confirmed_at is null)
   where m.user_id = new.id and m.awaiting_confirmation is distinct from (new.email_confirmed_at is null);
  return null;
end;
$$;

revoke execute on function private.members_sync_email_confirmed() from public;

create trigger members_sync_email_confirmed
  after update of email_confirmed_at on auth.users
  for each row execute function private.members_sync_email_confirmed();

-- A member's children (family accounts, decision 0021) -----------------------------------------
-- Declared here, beside their parents, so that a child's place (03_bookings.sql) keys to the child
-- at its column. What families do with them is 21_families.sql, which also adds the trigger
-- dependants_check_date_of_birth.
create table public.dependants (
  id uuid primary key default gen_random_uuid(),
  parent_member_id uuid not null references public.members (id) on delete cascade,
  name text not null check (char_length(btrim(name)) between 1 and 200),
  date_of_birth date not null constraint dependants_date_of_birth_plausible check (date_of_birth >= date '1900-01-01'),
  -- Allergies, conditions, medication: what the coach should know.
  medical_notes text check (char_length(medical_notes) <= 2000),
  -- Who may collect the child after class (names, relationship).
  collected_by text check (char_length(collected_by) <= 500),
  created_at timestamptz not null default now()
);

comment on table public.dependants is
  'A member''s children: no email, no sign-in, no trial. Booked by the parent through book_family.';

create index dependants_parent_member_id_idx on public.dependants (parent_member_id);

alter table public.dependants enable row level security;

-- Written through save_dependant / remove_dependant.
revoke all on public.dependants from anon, authenticated;

grant select on public.dependants to authenticated;

grant all on public.dependants to service_role;

create policy "Parents read their children; admins read all"
  on public.dependants for select to authenticated
  using (parent_member_id = (select private.current_member_id()) or (select private.is_admin()));
