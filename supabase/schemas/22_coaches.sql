-- Coaches (decision 0027): a trainer record linked to a sign-in account. A coach
-- is an ordinary member account plus one row in trainer_accounts; it gets no admin right, no
-- money, no member list, no analytics. Through the functions below (and nothing else) a coach
-- reads the classes they teach (classes.trainer_id = their trainer), each one's roster with the
-- register's emergency contacts and PAR-Q flag, and checks booked members in by the same rules as
-- mark_attendance (03_bookings.sql). Every other class is refused here, in the database.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Table ------------------------------------------------------------------------------------------
-- One sign-in account per trainer and one trainer per account. Only admins write it
-- (link_trainer_account / unlink_trainer_account).
create table public.trainer_accounts (
  trainer_id uuid primary key references public.trainers (id) on delete cascade,
  member_id uuid not null unique references public.members (id) on delete cascade,
  linked_at timestamptz not null default now(),
  linked_by uuid references public.members (id) on delete set null
);

comment on table public.trainer_accounts is
  'The sign-in account of a trainer (a coach): the member who may read and check in the classes that trainer teaches.';

alter table public.trainer_accounts enable row level security;

revoke all on public.trainer_accounts from public, anon, authenticated;

grant select on public.trainer_accounts to authenticated;

grant all on public.trainer_accounts to service_role;

-- Who is calling -----------------------------------------------------------------------------------
-- The trainer the caller's account is linked to, or null.
create function private.current_trainer_id()
returns uuid
language sql stable security definer set search_path = ''
as $$
  select ta.trainer_id from public.trainer_accounts ta where ta.member_id = private.current_member_id()
$$;

revoke execute on function private.current_trainer_id() from public;

-- The caller's trainer id; everyone else gets coach_only.
create function private.require_coach()
returns uuid
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.current_trainer_id();
begin
  if v_trainer_id is null then
    raise exception 'Only coaches can do this' using errcode = '42501', hint = 'coach_only';
  end if;
  return v_trainer_id;
end;
$$;

revoke execute on function private.require_coach() from public;

-- How long after its start a coach may still read a class's roster (health answers are read for
-- the class, not kept on the coach's phone: decision 0027).
create function private.coach_roster_closes_after()
returns interval
language sql immutable set search_path = ''
as $$ select interval '1 day' $$;

revoke execute on function private.coach_roster_closes_after() from public;

-- The class, if the caller coaches it (classes.trainer_id is their trainer) and its roster is
-- still open; not_your_class otherwise (a class of another trainer and a missing class alike).
create function private.require_coach_of(p_class_id uuid)
returns public.classes
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
  v_class public.classes;
begin
  select c.* into v_class from public.classes c where c.id = p_class_id;
  if not found or v_class.trainer_id is distinct from v_trainer_id then
    raise exception 'This is not one of your classes' using errcode = '42501', hint = 'not_your_class';
  end if;
  if v_class.start_time < now() - private.coach_roster_closes_after() then
    raise exception 'This class''s roster closed a day after the class' using errcode = '42501', hint = 'coach_roster_closed';
  end if;
  return v_class;
end;
$$;

revoke execute on function private.require_coach_of(uuid) from public;

-- A coach account never gets admin rights: linking refuses an admin, and an account linked to a
-- trainer cannot be made an admin (unlink it first).
create function private.members_coach_never_admin()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.is_admin and exists (select 1 from public.trainer_accounts ta where ta.member_id = new.id) then
    raise exception 'A coach account cannot be an admin: unlink it from its trainer first'
      using errcode = '42501', hint = 'coach_cannot_be_admin';
  end if;
  return new;
end;
$$;

revoke execute on function private.members_coach_never_admin() from public;

-- Admins: linking ------------------------------------------------------------------------------
create type public.trainer_account as (
  trainer_id uuid,
  member_id uuid,
  email text,
  name text,
  linked_at timestamptz
);

comment on type public.trainer_account is 'A trainer''s linked sign-in account (admin_trainer_accounts, link_trainer_account).';

-- Links the existing account with this email to the trainer (replacing any account linked
-- before). The coach creates their account first (sign up); the admin then links it here.
-- Refusals: trainer_not_found, coach_account_not_found, coach_account_is_admin,
-- coach_account_taken (the account is another trainer's).
create function private.link_trainer_account(p_trainer_id uuid, p_email text)
returns public.trainer_account
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_admin public.members := private.require_member();
  v_member public.members;
  v_trainer public.trainers;
begin
  perform private.require_admin();
  select t.* into v_trainer from public.trainers t where t.id = p_trainer_id for update;
  if not found then
    raise exception 'Trainer not found' using errcode = 'P0002', hint = 'trainer_not_found';
  end if;
  select m.* into v_member from public.members m where m.email::text = lower(btrim(coalesce(p_email, ''))) for update;
  if not found then
    raise exception 'No account uses that email. Ask the coach to create one (Sign up), then link it.'
      using errcode = 'P0002', hint = 'coach_account_not_found';
  end if;
  if v_member.is_admin then
    raise exception 'That account is an admin: a coach needs an account of their own'
      using errcode = 'P0001', hint = 'coach_account_is_admin';
  end if;
  if exists (select 1 from public.trainer_accounts ta where ta.member_id = v_member.id and ta.trainer_id <> v_trainer.id) then
    raise exception 'That account is already linked to another trainer' using errcode = 'P0001', hint = 'coach_account_taken';
  end if;
  insert into public.trainer_accounts (trainer_id, member_id, linked_by)
  values (v_trainer.id, v_member.id, v_admin.id)
  on conflict (trainer_id) do update set member_id = excluded.member_id, linked_at = now(), linked_by = excluded.linked_by;
  return (v_trainer.id, v_member.id, v_member.email::text, v_member.name, now())::public.trainer_account;
end;
$$;

revoke execute on function private.link_trainer_account(uuid, text) from public;

grant execute on function private.link_trainer_account(uuid, text) to authenticated;

-- Unlinks the trainer's account (the member keeps their account); true if one was linked.
create function private.unlink_trainer_account(p_trainer_id uuid)
returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  delete from public.trainer_accounts where trainer_id = p_trainer_id;
  return found;
end;
$$;

revoke execute on function private.unlink_trainer_account(uuid) from public;

grant execute on function private.unlink_trainer_account(uuid) to authenticated;

-- Every linked account, for Admin > Trainers.
create function private.admin_trainer_accounts()
returns setof public.trainer_account
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
  select ta.trainer_id, m.id, m.email::text, m.name, ta.linked_at
    from public.trainer_accounts ta join public.members m on m.id = ta.member_id
   order by ta.trainer_id;
end;
$$;

revoke execute on function private.admin_trainer_accounts() from public;

grant execute on function private.admin_trainer_accounts() to authenticated;

-- Coaches: their classes, rosters and check-in ----------------------------------------------------
create type public.coach_class as (
  id uuid,
  name text,
  type text,
  start_time timestamptz,
  duration integer,
  -- Booked members (holds included) and guests; checked in; marked no-show.
  booked integer,
  guests integer,
  attended integer,
  no_show integer
);

comment on type public.coach_class is 'A class the caller teaches, with its counts (coach_classes).';

-- The caller's trainer record, or no row for an account that is not a coach: where the app
-- decides to show the coach area.
create function private.my_coach_profile()
returns setof public.trainers
language sql stable security definer set search_path = ''
as $$
  select t.* from public.trainers t where t.id = private.current_trainer_id()
$$;

revoke execute on function private.my_coach_profile() from public;

grant execute on function private.my_coach_profile() to authenticated;

-- The classes the caller teaches from the start of today (London) to p_days days ahead.
create function private.coach_classes(p_days integer)
returns setof public.coach_class
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
  v_from timestamptz := date_trunc('day', now() at time zone 'Europe/London') at time zone 'Europe/London';
begin
  if p_days is null or p_days < 1 or p_days > 60 then
    raise exception 'Choose between 1 and 60 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  return query
  select c.id, c.name, c.type::text, c.start_time, c.duration,
         (select count(*)::int from public.bookings b where b.class_id = c.id),
         (select count(*)::int from public.guest_places g where g.class_id = c.id),
         (select count(*)::int from public.bookings b where b.class_id = c.id and b.attendance = 'attended')
           + (select count(*)::int from public.guest_places g where g.class_id = c.id and g.attendance = 'attended'),
         (select count(*)::int from public.bookings b where b.class_id = c.id and b.attendance = 'no_show')
           + (select count(*)::int from public.guest_places g where g.class_id = c.id and g.attendance = 'no_show')
    from public.classes c
   where c.trainer_id = v_trainer_id
     and c.start_time >= v_from and c.start_time < v_from + make_interval(days => p_days)
   order by c.start_time;
end;
$$;

revoke execute on function private.coach_classes(integer) from public;

grant execute on function private.coach_classes(integer) to authenticated;

-- A class's roster for its coach reads the place model: coach_class_roster in 24_places.sql.

-- mark_attendance's rules (private.mark_place: 'attended' or null to clear from
-- attendance_opens_before() before the start, 'no_show' once it started; never books) for a place
-- (a booking's or a guest's) in a class the caller coaches.
create function private.coach_mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_class_id uuid;
begin
  perform private.require_coach();
  if p_status is not null and p_status not in ('attended', 'no_show') then
    raise exception 'Unknown attendance status' using errcode = '22023', hint = 'invalid_attendance';
  end if;
  v_class_id := private.place_class_id(p_booking_id);
  if v_class_id is null then
    raise exception 'This is not one of your classes' using errcode = '42501', hint = 'not_your_class';
  end if;
  perform private.require_coach_of(v_class_id);
  return private.mark_place(p_booking_id, p_status);
end;
$$;

revoke execute on function private.coach_mark_attendance(uuid, text) from public;

grant execute on function private.coach_mark_attendance(uuid, text) to authenticated;

-- API ------------------------------------------------------------------------------------------
create function public.link_trainer_account(p_trainer_id uuid, p_email text)
returns public.trainer_account
language sql volatile security invoker set search_path = ''
as $$ select * from private.link_trainer_account(p_trainer_id, p_email) $$;

revoke execute on function public.link_trainer_account(uuid, text) from public, anon, authenticated;

grant execute on function public.link_trainer_account(uuid, text) to authenticated;

create function public.unlink_trainer_account(p_trainer_id uuid)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.unlink_trainer_account(p_trainer_id) $$;

revoke execute on function public.unlink_trainer_account(uuid) from public, anon, authenticated;

grant execute on function public.unlink_trainer_account(uuid) to authenticated;

create function public.admin_trainer_accounts()
returns setof public.trainer_account
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_trainer_accounts() $$;

revoke execute on function public.admin_trainer_accounts() from public, anon, authenticated;

grant execute on function public.admin_trainer_accounts() to authenticated;

create function public.my_coach_profile()
returns setof public.trainers
language sql stable security invoker set search_path = ''
as $$ select * from private.my_coach_profile() $$;

revoke execute on function public.my_coach_profile() from public, anon, authenticated;

grant execute on function public.my_coach_profile() to authenticated;

create function public.coach_classes(p_days integer default 14)
returns setof public.coach_class
language sql stable security invoker set search_path = ''
as $$ select * from private.coach_classes(p_days) $$;

revoke execute on function public.coach_classes(integer) from public, anon, authenticated;

grant execute on function public.coach_classes(integer) to authenticated;

create function public.coach_mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language sql volatile security invoker set search_path = ''
as $$ select * from private.coach_mark_attendance(p_booking_id, p_status) $$;

revoke execute on function public.coach_mark_attendance(uuid, text) from public, anon, authenticated;

grant execute on function public.coach_mark_attendance(uuid, text) to authenticated;

-- Row-level security and triggers ----------------------------------------------------------------
create policy "Coaches read their own link; admins read all"
  on public.trainer_accounts for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger members_coach_never_admin
  before insert or update of is_admin on public.members
  for each row execute function private.members_coach_never_admin();
