-- Withdrawing a trainer's availability (or a one-off slot) removes the sessions generated from it
-- that nobody booked; booked ones stay and admin_uncovered_sessions lists them (issue 26).
-- Withdrawing availability ---------------------------------------------------------------------
-- Whether a One-to-One session at p_start of p_duration minutes is still published: inside one of
-- the trainer's weekly windows, on its grid of sessions (London wall clock), or a one-off slot.
create function private.one_to_one_covered(p_trainer_id uuid, p_start timestamptz, p_duration integer)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
           select 1
             from public.trainer_availability a
            cross join lateral (select (p_start at time zone 'Europe/London')::time as t) l
            where a.trainer_id = p_trainer_id
              and a.weekday = extract(isodow from p_start at time zone 'Europe/London')
              and a.session_minutes = p_duration
              and l.t >= a.starts_at and l.t + make_interval(mins => a.session_minutes) <= a.ends_at
              and (extract(epoch from l.t - a.starts_at)::int / 60) % a.session_minutes = 0)
      or exists (
           select 1 from public.trainer_one_off_slots o
            where o.trainer_id = p_trainer_id and o.start_time = p_start and o.duration = p_duration)
$$;

revoke execute on function private.one_to_one_covered(uuid, timestamptz, integer) from public;

-- As of p_now: removes the trainer's coming One-to-One sessions that nobody has booked, held or
-- queued for and that no availability publishes any more. Booked sessions stay (the member keeps
-- their place; admin_uncovered_sessions lists them for the admin). Idempotent. Returns how many
-- were removed.
create function private.withdraw_uncovered_one_to_one(p_trainer_id uuid, p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  delete from public.classes c
   where c.trainer_id = p_trainer_id and c.type = 'One-to-One' and c.start_time > p_now
     and not exists (select 1 from public.bookings b where b.class_id = c.id)
     and not exists (select 1 from public.class_waitlist w where w.class_id = c.id)
     and not private.one_to_one_covered(c.trainer_id, c.start_time, c.duration);
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.withdraw_uncovered_one_to_one(uuid, timestamptz) from public;

-- After an admin removes a weekly window or a one-off slot (any path: the portal deletes the row).
create function private.availability_withdrawn()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.withdraw_uncovered_one_to_one(old.trainer_id, now());
  return null;
end;
$$;

revoke execute on function private.availability_withdrawn() from public;

-- A booked coming One-to-One session that no availability publishes any more, and who booked it.
create type public.uncovered_session as (
  class_id uuid,
  start_time timestamptz,
  duration integer,
  member_name text
);

comment on type public.uncovered_session is 'A booked One-to-One session outside its trainer''s published availability (admin_uncovered_sessions).';

-- Admins: the trainer's booked sessions from p_now on that withdrawn availability left standing.
create function private.admin_uncovered_sessions(p_trainer_id uuid, p_now timestamptz)
returns setof public.uncovered_session
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select c.id, c.start_time, c.duration, m.name
      from public.classes c
      join public.bookings b on b.class_id = c.id
      join public.members m on m.id = b.member_id
     where c.trainer_id = p_trainer_id and c.type = 'One-to-One' and c.start_time > p_now
       and not private.one_to_one_covered(c.trainer_id, c.start_time, c.duration)
     order by c.start_time;
end;
$$;

revoke execute on function private.admin_uncovered_sessions(uuid, timestamptz) from public;

grant execute on function private.admin_uncovered_sessions(uuid, timestamptz) to authenticated;

create function public.admin_uncovered_sessions(p_trainer_id uuid)
returns setof public.uncovered_session
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_uncovered_sessions(p_trainer_id, now()) $$;

revoke execute on function public.admin_uncovered_sessions(uuid) from public, anon;

grant execute on function public.admin_uncovered_sessions(uuid) to authenticated;


-- Withdrawn availability takes its unbooked sessions with it (issue 26).
create trigger trainer_availability_withdrawn
  after delete on public.trainer_availability
  for each row execute function private.availability_withdrawn();

create trigger trainer_one_off_slots_withdrawn
  after delete on public.trainer_one_off_slots
  for each row execute function private.availability_withdrawn();
