-- Personal training (issue 26, decision 0020): trainers' weekly availability and one-off slots,
-- the One-to-One sessions generated from them, and One-to-One sessions off the group timetable.
-- Definitions from supabase/schemas/16_personal_training.sql and 05_schedule.sql.

-- Availability --------------------------------------------------------------------------------
-- A trainer's weekly window (London wall-clock times) cut into sessions of session_minutes.
create table public.trainer_availability (
  id uuid primary key default gen_random_uuid(),
  trainer_id uuid not null references public.trainers (id) on delete cascade,
  -- ISO weekday: Monday = 1 … Sunday = 7.
  weekday smallint not null check (weekday between 1 and 7),
  starts_at time not null,
  ends_at time not null,
  session_minutes integer not null default 60 check (session_minutes between 15 and 180),
  created_at timestamptz not null default now(),
  constraint trainer_availability_window check (ends_at > starts_at)
);

comment on table public.trainer_availability is
  'Each trainer''s weekly availability for One-to-One sessions (London times), published by admins; generate_one_to_one_slots makes the sessions.';

create index trainer_availability_trainer_idx on public.trainer_availability (trainer_id, weekday);

alter table public.trainer_availability enable row level security;

revoke all on public.trainer_availability from anon, authenticated;

grant select on public.trainer_availability to anon, authenticated;

grant insert (trainer_id, weekday, starts_at, ends_at, session_minutes), delete on public.trainer_availability to authenticated;

grant all on public.trainer_availability to service_role;

-- A single session outside the weekly pattern.
create table public.trainer_one_off_slots (
  id uuid primary key default gen_random_uuid(),
  trainer_id uuid not null references public.trainers (id) on delete cascade,
  start_time timestamptz not null,
  duration integer not null default 60 check (duration between 15 and 180),
  created_at timestamptz not null default now(),
  constraint trainer_one_off_slots_once unique (trainer_id, start_time)
);

comment on table public.trainer_one_off_slots is
  'One-off One-to-One sessions of a trainer, published by admins; generate_one_to_one_slots makes the sessions.';

alter table public.trainer_one_off_slots enable row level security;

revoke all on public.trainer_one_off_slots from anon, authenticated;

grant select on public.trainer_one_off_slots to anon, authenticated;

grant insert (trainer_id, start_time, duration), delete on public.trainer_one_off_slots to authenticated;

grant all on public.trainer_one_off_slots to service_role;

-- One One-to-One session per trainer and start: what makes generating them idempotent.
create unique index classes_one_to_one_slot_idx on public.classes (trainer_id, start_time) where type = 'One-to-One';

-- Generating the sessions ----------------------------------------------------------------------
-- How far ahead sessions are generated.
create function private.one_to_one_horizon()
returns interval
language sql immutable set search_path = ''
as $$ select interval '28 days' $$;

revoke execute on function private.one_to_one_horizon() from public;

-- What a generated session is called and says.
create function private.one_to_one_name()
returns text
language sql immutable set search_path = ''
as $$ select 'Personal Training'::text $$;

revoke execute on function private.one_to_one_name() from public;

-- As of p_now: the One-to-One sessions of every trainer's weekly availability and one-off slots
-- that start after p_now and before p_now + p_period, except on studio closure dates, each once
-- (running it again, or at another time inside the same period, adds nothing twice). At the
-- studio's personal-training price. Returns how many sessions were created.
create function private.generate_one_to_one_slots(p_now timestamptz, p_period interval)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_until timestamptz := p_now + coalesce(p_period, private.one_to_one_horizon());
  v_count integer;
begin
  if p_now is null or v_until <= p_now or v_until > p_now + interval '366 days' then
    raise exception 'The period must be between now and a year ahead' using errcode = '22023', hint = 'invalid_period';
  end if;
  insert into public.classes (name, description, duration, start_time, trainer_id, trainer, type, capacity, price_payg)
  select private.one_to_one_name(), 'A One-to-One session with ' || t.name || ', tailored to your goals.',
         s.duration, s.start_time, t.id, t.name, 'One-to-One', 1, private.personal_training_price()
    from (
      select a.trainer_id, a.session_minutes as duration,
             (d::date + a.starts_at + make_interval(mins => a.session_minutes * n)) at time zone 'Europe/London' as start_time
        from generate_series((p_now at time zone 'Europe/London')::date, (v_until at time zone 'Europe/London')::date, interval '1 day') d
        join public.trainer_availability a on a.weekday = extract(isodow from d)
       cross join lateral generate_series(0, (extract(epoch from a.ends_at - a.starts_at)::int / 60 / a.session_minutes) - 1) n
      union all
      select o.trainer_id, o.duration, o.start_time from public.trainer_one_off_slots o
    ) s
    join public.trainers t on t.id = s.trainer_id
   where s.start_time > p_now and s.start_time < v_until
     and not exists (select 1 from public.studio_closures sc where sc.closed_on = (s.start_time at time zone 'Europe/London')::date)
   order by s.start_time
  on conflict (trainer_id, start_time) where type = 'One-to-One' do nothing;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.generate_one_to_one_slots(timestamptz, interval) from public;

grant execute on function private.generate_one_to_one_slots(timestamptz, interval) to service_role;

-- Admins publish: the sessions of the coming weeks from what is published now.
create function private.publish_one_to_one_slots()
returns integer
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.generate_one_to_one_slots(now(), private.one_to_one_horizon());
end;
$$;

revoke execute on function private.publish_one_to_one_slots() from public;

grant execute on function private.publish_one_to_one_slots() to authenticated;

-- API --------------------------------------------------------------------------------------------
-- The jobs (service role): sessions up to the horizon as of p_now.
create function public.generate_one_to_one_slots(p_now timestamptz, p_period interval default null)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.generate_one_to_one_slots(p_now, p_period) $$;

revoke execute on function public.generate_one_to_one_slots(timestamptz, interval) from public, anon, authenticated;

grant execute on function public.generate_one_to_one_slots(timestamptz, interval) to service_role;

create function public.publish_one_to_one_slots()
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.publish_one_to_one_slots() $$;

revoke execute on function public.publish_one_to_one_slots() from public, anon;

grant execute on function public.publish_one_to_one_slots() to authenticated;

-- Row-level security -------------------------------------------------------------------------
create policy "Anyone reads trainer availability"
  on public.trainer_availability for select to anon, authenticated
  using (true);

create policy "Admins publish trainer availability"
  on public.trainer_availability for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins withdraw trainer availability"
  on public.trainer_availability for delete to authenticated
  using ((select private.is_admin()));

create policy "Anyone reads one-off slots"
  on public.trainer_one_off_slots for select to anon, authenticated
  using (true);

create policy "Admins add one-off slots"
  on public.trainer_one_off_slots for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins remove one-off slots"
  on public.trainer_one_off_slots for delete to authenticated
  using ((select private.is_admin()));

create or replace function private.schedule_matches(
  p_class public.classes, p_now timestamptz, p_search text, p_day text, p_trainer text, p_premium boolean
)
returns boolean
language sql stable set search_path = ''
as $$
  with today as (select (p_now at time zone 'Europe/London')::date as d),
       day as (select (p_class.start_time at time zone 'Europe/London')::date as d)
  select p_class.start_time >= p_now
     and p_class.type <> 'One-to-One'
     and (coalesce(p_search, '') = ''
          or p_class.name ilike private.like_pattern(p_search)
          or p_class.trainer ilike private.like_pattern(p_search))
     and (p_trainer is null or p_trainer = '' or p_class.trainer = p_trainer)
     and (p_premium is null or p_class.is_premium = p_premium)
     and case coalesce(p_day, 'all')
           when 'all' then true
           when 'today' then (select d from day) = (select d from today)
           when 'tomorrow' then (select d from day) = (select d from today) + 1
           when 'week' then (select d from day) between (select d from today)
                                 and (select d from today) + (6 - extract(dow from (select d from today))::int)
         end
$$;

revoke execute on function private.schedule_matches(public.classes, timestamptz, text, text, text, boolean) from public;

grant execute on function private.schedule_matches(public.classes, timestamptz, text, text, text, boolean) to anon, authenticated, service_role;

create or replace function public.class_schedule_summary(
  p_search text default null, p_day text default 'all', p_trainer text default null, p_premium boolean default null
)
returns public.schedule_summary
language sql stable security invoker set search_path = ''
as $$
  select count(*)::int,
         coalesce(sum(c.spots_left), 0)::int,
         count(distinct c.trainer)::int,
         (select coalesce(array_agg(distinct u.trainer order by u.trainer), '{}')
            from public.classes u where u.start_time >= now() and u.type <> 'One-to-One')
    from public.classes c
   where c.start_time >= now()
     and private.schedule_matches(c, now(), p_search, p_day, p_trainer, p_premium)
$$;

revoke execute on function public.class_schedule_summary(text, text, text, boolean) from public;

grant execute on function public.class_schedule_summary(text, text, text, boolean) to anon, authenticated, service_role;
