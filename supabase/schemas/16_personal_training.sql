-- Personal training (issue 26, decision 0020): each trainer's weekly availability and one-off
-- slots, published by admins; the One-to-One sessions generated from them (idempotent, as of a
-- given now, by the hourly jobs and by the admin's Publish); what members see to book them.
-- One-to-One sessions are not on the group timetable (class_schedule, 05_schedule.sql): members
-- find them under Personal training. They are booked with a personal-training credit
-- (book_with_credit) or paid for at their price through the checkout, never on a plan's classes,
-- the free trial, or for nothing (needs_payment, classes_one_to_one_price in 09_credits.sql).

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

-- What members see ------------------------------------------------------------------------------
-- A One-to-One session a member can book (Personal training), with what a booking would use:
-- the credit that expires first (and when), or the price and why no credit (credit_for's words).
create type public.training_slot as (
  id uuid,
  trainer_id uuid,
  trainer text,
  start_time timestamptz,
  duration integer,
  price numeric,
  spots_left integer,
  my_booking_id uuid,
  credit_id uuid,
  credit_expires_at timestamptz,
  credit_refusal text,
  credit_message text
);

comment on type public.training_slot is 'A One-to-One session and what booking it would use for the caller (personal_training_slots).';

-- The caller's bookable One-to-One sessions of the next p_days (1 to 56) days, of one trainer or
-- all, soonest first: free ones, and ones the caller has booked.
create function private.personal_training_slots(p_trainer_id uuid, p_days integer)
returns setof public.training_slot
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
begin
  if p_days is null or p_days < 1 or p_days > 56 then
    raise exception 'Choose 1 to 56 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  perform private.release_expired_holds();
  return query
    select c.id, c.trainer_id, c.trainer, c.start_time, c.duration,
           coalesce(nullif(c.price_payg, 0), private.personal_training_price()), c.spots_left, b.id,
           f.credit_id, f.expires_at, f.refusal, f.message
      from public.classes c
      left join public.bookings b on b.class_id = c.id and b.member_id = v_member.id
     cross join lateral private.credit_for(v_member.id, c) f
     where c.type = 'One-to-One' and c.start_time > now() and c.start_time < now() + make_interval(days => p_days)
       and (p_trainer_id is null or c.trainer_id = p_trainer_id)
       and (c.spots_left > 0 or b.id is not null)
     order by c.start_time, c.id;
end;
$$;

revoke execute on function private.personal_training_slots(uuid, integer) from public;

grant execute on function private.personal_training_slots(uuid, integer) to authenticated, service_role;

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

create function public.personal_training_slots(p_trainer_id uuid default null, p_days integer default 28)
returns setof public.training_slot
language sql volatile security invoker set search_path = ''
as $$ select * from private.personal_training_slots(p_trainer_id, p_days) $$;

revoke execute on function public.personal_training_slots(uuid, integer) from public, anon;

grant execute on function public.personal_training_slots(uuid, integer) to authenticated, service_role;

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
