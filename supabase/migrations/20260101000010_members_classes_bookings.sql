-- The studio's three tables, their constraints, indexes, grants and row-level security.
-- Rules live here, not in the browser: the SPA only mirrors them (docs/data-contract.md).
--
-- Grants: Supabase's default privileges give anon/authenticated every privilege on new tables;
-- each table below revokes them and grants back only what its policies need, column by column
-- where a role may write only some columns.

create extension if not exists citext with schema extensions;

-- Helpers that policies and RPCs call. Not exposed by the API (PostgREST serves `public` only).
create schema if not exists private;
revoke all on schema private from public;
grant usage on schema private to authenticated, service_role;

-- members ---------------------------------------------------------------------------------
create table public.members (
  id uuid primary key default gen_random_uuid(),
  user_id uuid unique references auth.users (id) on delete set null,
  email extensions.citext not null unique check (char_length(email) between 3 and 320),
  name text check (char_length(name) <= 200),
  phone text check (char_length(phone) <= 40),
  profile_image_url text check (char_length(profile_image_url) <= 2048),
  membership_tier text not null default 'payg'
    check (membership_tier in ('trial', 'payg', 'standard', 'premium')),
  has_used_trial boolean not null default false,
  trial_expires_at timestamptz,
  plan_renews_at timestamptz,
  is_admin boolean not null default false,
  status text not null default 'active' check (status in ('active', 'inactive')),
  created_at timestamptz not null default now()
);
comment on table public.members is 'A studio member; linked to the auth user (user_id) who signs in.';

create index members_created_at_idx on public.members (created_at desc);
create index members_membership_tier_idx on public.members (membership_tier);

-- The caller's member id and admin flag. SECURITY DEFINER so policies on members can use them
-- without recursing into members' own policies.
create function private.current_member_id()
returns uuid
language sql stable security definer set search_path = ''
as $$
  select m.id from public.members m where m.user_id = (select auth.uid())
$$;

create function private.is_admin()
returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce((select m.is_admin from public.members m where m.user_id = (select auth.uid())), false)
$$;

revoke execute on function private.current_member_id(), private.is_admin() from public;
grant execute on function private.current_member_id(), private.is_admin() to authenticated, service_role;

alter table public.members enable row level security;

revoke all on public.members from anon, authenticated;
grant select, delete on public.members to authenticated;
-- A member edits only these; tier, trial fields, is_admin, email, user_id are not client-writable.
grant update (name, phone, profile_image_url) on public.members to authenticated;
grant all on public.members to service_role;

create policy "Members read their own row; admins read all"
  on public.members for select to authenticated
  using (user_id = (select auth.uid()) or (select private.is_admin()));

create policy "Members update their own row"
  on public.members for update to authenticated
  using (user_id = (select auth.uid()))
  with check (user_id = (select auth.uid()));

create policy "Admins delete members"
  on public.members for delete to authenticated
  using ((select private.is_admin()));

-- classes ---------------------------------------------------------------------------------
create table public.classes (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  description text check (char_length(description) <= 4000),
  duration integer not null default 45 check (duration between 15 and 180),
  start_time timestamptz not null,
  trainer text not null check (char_length(btrim(trainer)) between 1 and 200),
  type text not null default 'Group' check (type in ('Group', 'One-to-One')),
  capacity integer not null default 10 check (capacity between 1 and 50),
  -- Maintained by triggers (bookings insert/delete, capacity change); never written by clients.
  current_bookings integer not null default 0,
  spots_left integer not null default 10,
  is_premium boolean not null default false,
  -- How long before start_time a premium class opens to non-premium members, e.g. '3 days'.
  -- At most 5 digits so it always casts to an interval.
  unlock_for_standard text not null default '3 days'
    check (unlock_for_standard ~ '^[0-9]{1,5} (day|days|hour|hours|minute|minutes)$'),
  price_payg numeric(10, 2) check (price_payg >= 0),
  checkout_url text check (checkout_url ~ '^https?://'),
  created_at timestamptz not null default now(),
  constraint classes_one_to_one_capacity check (type <> 'One-to-One' or capacity = 1),
  constraint classes_bookings_within_capacity check (current_bookings between 0 and capacity),
  constraint classes_spots_left_consistent check (spots_left = capacity - current_bookings)
);

create index classes_start_time_idx on public.classes (start_time);

-- New classes start empty; spots_left always follows capacity - current_bookings.
create function private.classes_keep_spots()
returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.current_bookings := 0;
  end if;
  new.spots_left := new.capacity - new.current_bookings;
  return new;
end;
$$;

create trigger classes_keep_spots
  before insert or update on public.classes
  for each row execute function private.classes_keep_spots();

alter table public.classes enable row level security;

revoke all on public.classes from anon, authenticated;
grant select on public.classes to anon, authenticated;
grant insert (name, description, duration, start_time, trainer, type, capacity, is_premium,
              unlock_for_standard, price_payg, checkout_url)
  on public.classes to authenticated;
grant update (name, description, duration, start_time, trainer, type, capacity, is_premium,
              unlock_for_standard, price_payg, checkout_url)
  on public.classes to authenticated;
grant delete on public.classes to authenticated;
grant all on public.classes to service_role;

create policy "Anyone reads classes"
  on public.classes for select to anon, authenticated
  using (true);

create policy "Admins create classes"
  on public.classes for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins update classes"
  on public.classes for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins delete classes"
  on public.classes for delete to authenticated
  using ((select private.is_admin()));

-- bookings --------------------------------------------------------------------------------
create table public.bookings (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  class_id uuid not null references public.classes (id) on delete cascade,
  type text not null check (type in ('paid', 'trial', 'payg')),
  payment_status text not null default 'completed' check (payment_status in ('completed', 'pending')),
  booked_at timestamptz not null default now(),
  -- A pending pay-as-you-go booking holds its spot until then (see release_expired_holds).
  hold_expires_at timestamptz,
  constraint bookings_member_id_class_id_key unique (member_id, class_id),
  constraint bookings_hold_only_when_pending check (hold_expires_at is null or payment_status = 'pending')
);

create index bookings_class_id_idx on public.bookings (class_id);
create index bookings_booked_at_idx on public.bookings (booked_at);
create index bookings_pending_hold_idx on public.bookings (hold_expires_at) where payment_status = 'pending';

-- Every booking row takes a spot. The class's check constraint refuses a count above capacity,
-- whichever path inserted the row. The class row update also serialises concurrent inserts.
-- SECURITY DEFINER: whoever deletes a booking (an admin, a cascade) cannot write these columns.
create function private.bookings_count_spots()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    update public.classes set current_bookings = current_bookings + 1 where id = new.class_id;
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    update public.classes set current_bookings = current_bookings - 1 where id = old.class_id;
  end if;
  return null;
end;
$$;

create trigger bookings_count_spots
  after insert or delete or update of class_id on public.bookings
  for each row execute function private.bookings_count_spots();

revoke execute on function private.classes_keep_spots(), private.bookings_count_spots() from public;

alter table public.bookings enable row level security;

-- Members create and cancel bookings only through book_class / cancel_booking.
revoke all on public.bookings from anon, authenticated;
grant select, delete on public.bookings to authenticated;
grant all on public.bookings to service_role;

create policy "Members read their own bookings; admins read all"
  on public.bookings for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create policy "Admins cancel bookings"
  on public.bookings for delete to authenticated
  using ((select private.is_admin()));

-- Realtime: screens follow spots and bookings as they change.
alter publication supabase_realtime add table public.classes, public.bookings;
