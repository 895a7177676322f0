-- Cover requests (decision 0087): a coach asks for cover on one of their classes, another coach
-- accepts, an admin approves (or the studio approves every acceptance at once: cover_settings);
-- the class's coach then changes once, by one update of classes.trainer_id. Nothing here tells
-- members: that update is an edit of a watched column (private.class_watched, 26_class_changes.sql),
-- so everyone booked and waitlisted gets the one class_changed notice after the quiet period,
-- exactly as when an admin edits the coach in the class form. An admin's direct swap
-- (admin_swap_coach) is the same update. Pay follows classes.trainer_id (25_coach_pay.sql), so the
-- cover counts for the coach who taught.
--
-- A request is open (waiting for a coach), accepted (waiting for an admin), then approved; or
-- withdrawn by the coach who asked, or superseded when the class's coach changed another way.

-- Tables ------------------------------------------------------------------------------------------
create table public.cover_requests (
  id uuid primary key default gen_random_uuid(),
  class_id uuid not null references public.classes (id) on delete cascade,
  -- The trainer who asked: the class's coach when they asked.
  requested_by uuid not null references public.trainers (id) on delete cascade,
  note text check (char_length(note) between 1 and 500),
  status text not null default 'open' check (status in ('open', 'accepted', 'approved', 'withdrawn', 'superseded')),
  -- The trainer who offered to cover (accepted and approved requests).
  accepted_by uuid references public.trainers (id) on delete cascade,
  accepted_at timestamptz,
  -- The admin who approved; null when the studio approves acceptances itself (auto-approve).
  approved_by uuid references public.members (id) on delete set null,
  closed_at timestamptz,
  created_at timestamptz not null default now(),
  -- Accepted and approved name their coach; an open request has none yet (a withdrawn or
  -- superseded one keeps whoever had offered).
  constraint cover_requests_accepted_has_coach check (
    (status not in ('accepted', 'approved') or (accepted_by is not null and accepted_at is not null))
    and (status <> 'open' or accepted_by is null)),
  constraint cover_requests_not_self check (accepted_by is distinct from requested_by),
  constraint cover_requests_closed_when_done check ((status in ('open', 'accepted')) = (closed_at is null))
);

comment on table public.cover_requests is
  'A coach''s request for cover on a class, who accepted and who approved. Written only by the cover functions.';

-- One request under way per class: a second ask waits for the first to be settled.
create unique index cover_requests_one_pending_idx on public.cover_requests (class_id) where status in ('open', 'accepted');

create index cover_requests_requested_by_idx on public.cover_requests (requested_by);

create index cover_requests_accepted_by_idx on public.cover_requests (accepted_by);

create index cover_requests_approved_by_idx on public.cover_requests (approved_by);

alter table public.cover_requests enable row level security;

revoke all on public.cover_requests from public, anon, authenticated;

grant all on public.cover_requests to service_role;

-- The studio's one choice: approve every acceptance at once (no admin step).
create table private.cover_settings (
  id boolean primary key default true check (id),
  auto_approve boolean not null default false,
  updated_at timestamptz not null default now()
);

revoke all on private.cover_settings from public, anon, authenticated;

insert into private.cover_settings (auto_approve) values (false);

-- Types ------------------------------------------------------------------------------------------
create type public.cover_request as (
  id uuid,
  class_id uuid,
  class_name text,
  start_time timestamptz,
  duration integer,
  requested_by uuid,
  requested_by_name text,
  note text,
  status text,
  accepted_by uuid,
  accepted_by_name text,
  created_at timestamptz,
  accepted_at timestamptz,
  -- For a coach: the caller asked for it; the caller offered to cover it.
  mine boolean,
  covering boolean
);

comment on type public.cover_request is 'A cover request with its class and coaches'' names (coach_cover_requests, admin_cover_requests).';

-- Rules, named once ----------------------------------------------------------------------------------
-- Whether an acceptance is approved at once.
create function private.cover_auto_approve()
returns boolean
language sql stable security definer set search_path = ''
as $$ select coalesce((select s.auto_approve from private.cover_settings s), false) $$;

revoke execute on function private.cover_auto_approve() from public;

-- Refuses a coach who already teaches a class overlapping this one (cover_clash).
create function private.refuse_cover_clash(p_trainer_id uuid, p_class public.classes)
returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if exists (select 1 from public.classes c
              where c.trainer_id = p_trainer_id and c.id <> p_class.id
                and c.start_time < p_class.start_time + make_interval(mins => p_class.duration)
                and p_class.start_time < c.start_time + make_interval(mins => c.duration)) then
    raise exception 'That coach already teaches a class at that time' using errcode = 'P0001', hint = 'cover_clash';
  end if;
end;
$$;

revoke execute on function private.refuse_cover_clash(uuid, public.classes) from public;

-- The requests still under way for classes not started, as p_trainer_id (a coach, or null for an
-- admin) sees them.
create function private.cover_request_rows(p_trainer_id uuid, p_id uuid default null)
returns setof public.cover_request
language sql stable security definer set search_path = ''
as $$
  select r.id, c.id, c.name, c.start_time, c.duration, r.requested_by, asker.name, r.note, r.status,
         r.accepted_by, coverer.name, r.created_at, r.accepted_at,
         coalesce(r.requested_by = p_trainer_id, false), coalesce(r.accepted_by = p_trainer_id, false)
    from public.cover_requests r
    join public.classes c on c.id = r.class_id
    join public.trainers asker on asker.id = r.requested_by
    left join public.trainers coverer on coverer.id = r.accepted_by
   where (r.id = p_id or (p_id is null and r.status in ('open', 'accepted') and c.start_time > now()))
   order by c.start_time, r.created_at
$$;

revoke execute on function private.cover_request_rows(uuid, uuid) from public;

-- The request, locked, or request_not_found.
create function private.lock_cover_request(p_id uuid)
returns public.cover_requests
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_request public.cover_requests;
begin
  select r.* into v_request from public.cover_requests r where r.id = p_id for update;
  if not found then
    raise exception 'Cover request not found' using errcode = 'P0002', hint = 'cover_request_not_found';
  end if;
  return v_request;
end;
$$;

revoke execute on function private.lock_cover_request(uuid) from public;

-- The class of a request, locked, refused once it has started (class_started).
create function private.lock_class_not_started(p_class_id uuid)
returns public.classes
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_class public.classes;
begin
  select c.* into v_class from public.classes c where c.id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  if v_class.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  return v_class;
end;
$$;

revoke execute on function private.lock_class_not_started(uuid) from public;

-- Gives an accepted request's class to the coach who accepted: the request is approved first, so
-- the class update below (which closes every request still under way for it) leaves it be.
create function private.apply_cover(p_request public.cover_requests, p_approved_by uuid)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_class public.classes := private.lock_class_not_started(p_request.class_id);
begin
  if v_class.trainer_id is distinct from p_request.requested_by then
    raise exception 'The class already has another coach' using errcode = 'P0001', hint = 'cover_request_closed';
  end if;
  perform private.refuse_cover_clash(p_request.accepted_by, v_class);
  update public.cover_requests
     set status = 'approved', approved_by = p_approved_by, closed_at = now()
   where id = p_request.id;
  update public.classes set trainer_id = p_request.accepted_by where id = v_class.id;
end;
$$;

revoke execute on function private.apply_cover(public.cover_requests, uuid) from public;

-- Coaches -------------------------------------------------------------------------------------------
-- The caller asks for cover on a class they teach that has not started. Refusals: coach_only,
-- not_your_class, class_started, cover_already_requested, invalid_note.
create function private.request_cover(p_class_id uuid, p_note text)
returns public.cover_request
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
  v_class public.classes := private.require_coach_of(p_class_id);
  v_note text := nullif(btrim(coalesce(p_note, '')), '');
  v_id uuid;
begin
  if char_length(v_note) > 500 then
    raise exception 'Keep the note to 500 characters' using errcode = '22023', hint = 'invalid_note';
  end if;
  v_class := private.lock_class_not_started(v_class.id);
  if v_class.trainer_id is distinct from v_trainer_id then
    raise exception 'This is not one of your classes' using errcode = '42501', hint = 'not_your_class';
  end if;
  if exists (select 1 from public.cover_requests r where r.class_id = v_class.id and r.status in ('open', 'accepted')) then
    raise exception 'You have already asked for cover on this class' using errcode = 'P0001', hint = 'cover_already_requested';
  end if;
  insert into public.cover_requests (class_id, requested_by, note)
  values (v_class.id, v_trainer_id, v_note)
  returning id into v_id;
  return (select r from private.cover_request_rows(v_trainer_id, v_id) r);
end;
$$;

revoke execute on function private.request_cover(uuid, text) from public;

grant execute on function private.request_cover(uuid, text) to authenticated;

-- The coach who asked takes the request back before it is approved. Refusals: coach_only,
-- cover_request_not_found (another coach's request too), cover_request_closed.
create function private.withdraw_cover_request(p_id uuid)
returns public.cover_request
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
  v_request public.cover_requests := private.lock_cover_request(p_id);
begin
  if v_request.requested_by is distinct from v_trainer_id then
    raise exception 'Cover request not found' using errcode = 'P0002', hint = 'cover_request_not_found';
  end if;
  if v_request.status not in ('open', 'accepted') then
    raise exception 'This request is already settled' using errcode = 'P0001', hint = 'cover_request_closed';
  end if;
  update public.cover_requests set status = 'withdrawn', closed_at = now() where id = v_request.id;
  return (select r from private.cover_request_rows(v_trainer_id, v_request.id) r);
end;
$$;

revoke execute on function private.withdraw_cover_request(uuid) from public;

grant execute on function private.withdraw_cover_request(uuid) to authenticated;

-- Another coach offers to cover an open request; approved at once when the studio auto-approves.
-- Refusals: coach_only, cover_request_not_found, cannot_cover_own_class, cover_already_taken,
-- cover_request_closed, class_started, cover_clash (the caller teaches at that time).
create function private.accept_cover(p_id uuid)
returns public.cover_request
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
  v_request public.cover_requests := private.lock_cover_request(p_id);
  v_class public.classes;
begin
  if v_request.requested_by = v_trainer_id then
    raise exception 'You cannot cover your own class' using errcode = 'P0001', hint = 'cannot_cover_own_class';
  end if;
  if v_request.status = 'accepted' or v_request.status = 'approved' then
    raise exception 'Another coach is already covering this class' using errcode = 'P0001', hint = 'cover_already_taken';
  end if;
  if v_request.status <> 'open' then
    raise exception 'This request is no longer open' using errcode = 'P0001', hint = 'cover_request_closed';
  end if;
  v_class := private.lock_class_not_started(v_request.class_id);
  perform private.refuse_cover_clash(v_trainer_id, v_class);
  update public.cover_requests
     set status = 'accepted', accepted_by = v_trainer_id, accepted_at = now()
   where id = v_request.id
  returning * into v_request;
  if private.cover_auto_approve() then
    perform private.apply_cover(v_request, null);
  end if;
  return (select r from private.cover_request_rows(v_trainer_id, v_request.id) r);
end;
$$;

revoke execute on function private.accept_cover(uuid) from public;

grant execute on function private.accept_cover(uuid) to authenticated;

-- What a coach sees: every request under way, theirs and the others' (the others' to accept).
create function private.coach_cover_requests()
returns setof public.cover_request
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
begin
  return query select * from private.cover_request_rows(v_trainer_id);
end;
$$;

revoke execute on function private.coach_cover_requests() from public;

grant execute on function private.coach_cover_requests() to authenticated;

-- Admins ----------------------------------------------------------------------------------------------
create function private.admin_cover_requests()
returns setof public.cover_request
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query select * from private.cover_request_rows(null);
end;
$$;

revoke execute on function private.admin_cover_requests() from public;

grant execute on function private.admin_cover_requests() to authenticated;

-- The admin approves an accepted request: the class's coach changes, once. Refusals: not_admin,
-- cover_request_not_found, cover_not_accepted (no coach offered yet), cover_request_closed
-- (approved already, withdrawn, superseded), class_started, cover_clash.
create function private.approve_cover(p_id uuid)
returns public.cover_request
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_admin public.members := private.require_member();
  v_request public.cover_requests;
begin
  perform private.require_admin();
  v_request := private.lock_cover_request(p_id);
  if v_request.status = 'open' then
    raise exception 'No coach has offered to cover this class yet' using errcode = 'P0001', hint = 'cover_not_accepted';
  end if;
  if v_request.status <> 'accepted' then
    raise exception 'This request is already settled' using errcode = 'P0001', hint = 'cover_request_closed';
  end if;
  perform private.apply_cover(v_request, v_admin.id);
  return (select r from private.cover_request_rows(null, v_request.id) r);
end;
$$;

revoke execute on function private.approve_cover(uuid) from public;

grant execute on function private.approve_cover(uuid) to authenticated;

-- The admin gives a class to another coach directly: the same update as an approved cover (and
-- so the same notice); any request under way for the class is superseded. Refusals: not_admin,
-- class_not_found, class_started, trainer_not_found, same_coach, cover_clash.
create function private.admin_swap_coach(p_class_id uuid, p_trainer_id uuid)
returns public.classes
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_class public.classes;
begin
  perform private.require_admin();
  v_class := private.lock_class_not_started(p_class_id);
  if not exists (select 1 from public.trainers t where t.id = p_trainer_id) then
    raise exception 'Trainer not found' using errcode = 'P0002', hint = 'trainer_not_found';
  end if;
  if v_class.trainer_id = p_trainer_id then
    raise exception 'That coach already teaches this class' using errcode = 'P0001', hint = 'same_coach';
  end if;
  perform private.refuse_cover_clash(p_trainer_id, v_class);
  update public.classes set trainer_id = p_trainer_id where id = v_class.id returning * into v_class;
  return v_class;
end;
$$;

revoke execute on function private.admin_swap_coach(uuid, uuid) from public;

grant execute on function private.admin_swap_coach(uuid, uuid) to authenticated;

create function private.admin_cover_auto_approve()
returns boolean
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.cover_auto_approve();
end;
$$;

revoke execute on function private.admin_cover_auto_approve() from public;

grant execute on function private.admin_cover_auto_approve() to authenticated;

-- Turning auto-approve on approves nothing already accepted: those wait for an admin as before.
create function private.set_cover_auto_approve(p_on boolean)
returns boolean
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_on is null then
    raise exception 'Choose on or off' using errcode = '22023', hint = 'invalid_setting';
  end if;
  update private.cover_settings set auto_approve = p_on, updated_at = now() where id;
  return p_on;
end;
$$;

revoke execute on function private.set_cover_auto_approve(boolean) from public;

grant execute on function private.set_cover_auto_approve(boolean) to authenticated;

-- A class's coach changed (a cover approved, a swap, the class form): requests still under way
-- for it are superseded, since the coach who asked no longer teaches it.
create function private.classes_close_cover_requests()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.cover_requests
     set status = 'superseded', closed_at = now()
   where class_id = new.id and status in ('open', 'accepted');
  return null;
end;
$$;

revoke execute on function private.classes_close_cover_requests() from public;

-- API ------------------------------------------------------------------------------------------
create function public.request_cover(p_class_id uuid, p_note text default null)
returns public.cover_request
language sql volatile security invoker set search_path = ''
as $$ select * from private.request_cover(p_class_id, p_note) $$;

revoke execute on function public.request_cover(uuid, text) from public, anon, authenticated;

grant execute on function public.request_cover(uuid, text) to authenticated;

create function public.withdraw_cover_request(p_id uuid)
returns public.cover_request
language sql volatile security invoker set search_path = ''
as $$ select * from private.withdraw_cover_request(p_id) $$;

revoke execute on function public.withdraw_cover_request(uuid) from public, anon, authenticated;

grant execute on function public.withdraw_cover_request(uuid) to authenticated;

create function public.accept_cover(p_id uuid)
returns public.cover_request
language sql volatile security invoker set search_path = ''
as $$ select * from private.accept_cover(p_id) $$;

revoke execute on function public.accept_cover(uuid) from public, anon, authenticated;

grant execute on function public.accept_cover(uuid) to authenticated;

create function public.coach_cover_requests()
returns setof public.cover_request
language sql stable security invoker set search_path = ''
as $$ select * from private.coach_cover_requests() $$;

revoke execute on function public.coach_cover_requests() from public, anon, authenticated;

grant execute on function public.coach_cover_requests() to authenticated;

create function public.admin_cover_requests()
returns setof public.cover_request
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_cover_requests() $$;

revoke execute on function public.admin_cover_requests() from public, anon, authenticated;

grant execute on function public.admin_cover_requests() to authenticated;

create function public.approve_cover(p_id uuid)
returns public.cover_request
language sql volatile security invoker set search_path = ''
as $$ select * from private.approve_cover(p_id) $$;

revoke execute on function public.approve_cover(uuid) from public, anon, authenticated;

grant execute on function public.approve_cover(uuid) to authenticated;

create function public.admin_swap_coach(p_class_id uuid, p_trainer_id uuid)
returns public.classes
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_swap_coach(p_class_id, p_trainer_id) $$;

revoke execute on function public.admin_swap_coach(uuid, uuid) from public, anon, authenticated;

grant execute on function public.admin_swap_coach(uuid, uuid) to authenticated;

create function public.admin_cover_auto_approve()
returns boolean
language sql stable security invoker set search_path = ''
as $$ select private.admin_cover_auto_approve() $$;

revoke execute on function public.admin_cover_auto_approve() from public, anon, authenticated;

grant execute on function public.admin_cover_auto_approve() to authenticated;

create function public.set_cover_auto_approve(p_on boolean)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.set_cover_auto_approve(p_on) $$;

revoke execute on function public.set_cover_auto_approve(boolean) from public, anon, authenticated;

grant execute on function public.set_cover_auto_approve(boolean) to authenticated;

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
-- trainer as well as trainer_id: the class form may send the name only (classes_link_trainer).
create trigger classes_close_cover_requests
  after update of trainer, trainer_id on public.classes
  for each row when (old.trainer_id is distinct from new.trainer_id)
  execute function private.classes_close_cover_requests();
