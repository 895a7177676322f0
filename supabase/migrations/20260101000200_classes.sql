-- Classes: the timetable. Anyone reads it; admins write it (directly, and by regenerating it
-- from the studio's recurring template).

-- Studio defaults, in one place ------------------------------------------------------------------

create function private.default_waitlist_closes_before()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 hours' $$;

create function private.default_late_cancel_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '12 hours' $$;

revoke execute on function private.default_waitlist_closes_before(), private.default_late_cancel_window() from public;
-- Column defaults run as the inserting role (an admin creating a class).
grant execute on function private.default_waitlist_closes_before(), private.default_late_cancel_window()
  to authenticated, service_role;

-- Table ------------------------------------------------------------------------------------------

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
  waitlist_closes_before interval not null default private.default_waitlist_closes_before()
    constraint classes_waitlist_closes_before_range
      check (waitlist_closes_before >= interval '0' and waitlist_closes_before <= interval '7 days'),
  late_cancel_window interval not null default private.default_late_cancel_window()
    constraint classes_late_cancel_window_range
      check (late_cancel_window >= interval '0' and late_cancel_window <= interval '7 days'),
  created_at timestamptz not null default now(),
  constraint classes_one_to_one_capacity check (type <> 'One-to-One' or capacity = 1),
  constraint classes_bookings_within_capacity check (current_bookings between 0 and capacity),
  constraint classes_spots_left_consistent check (spots_left = capacity - current_bookings)
);

comment on column public.classes.waitlist_closes_before is
  'Nobody joins or is promoted from the waitlist later than start_time minus this.';
comment on column public.classes.late_cancel_window is
  'A member cancelling later than start_time minus this still has the class counted against their plan.';

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
revoke execute on function private.classes_keep_spots() from public;

-- Row-level security -----------------------------------------------------------------------------

alter table public.classes enable row level security;

revoke all on public.classes from anon, authenticated;
grant select on public.classes to anon, authenticated;
grant insert (name, description, duration, start_time, trainer, type, capacity, is_premium,
              unlock_for_standard, price_payg, checkout_url, waitlist_closes_before, late_cancel_window)
  on public.classes to authenticated;
grant update (name, description, duration, start_time, trainer, type, capacity, is_premium,
              unlock_for_standard, price_payg, checkout_url, waitlist_closes_before, late_cancel_window)
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

-- Realtime: screens follow spots as they change.
alter publication supabase_realtime add table public.classes;

-- Timetable generation ---------------------------------------------------------------------------

-- The spec's recurring timetable (section 9) for [p_start, p_end], at London wall-clock times
-- (06:00 in London in summer too). Used by regenerate_timetable and by the demo seed.
create function private.insert_timetable(p_start date, p_end date)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  insert into public.classes (name, duration, start_time, trainer, type, capacity, price_payg,
                              is_premium, unlock_for_standard)
  select slot.name, 45, (day::date + slot.at) at time zone 'Europe/London', 'Coach Alex', 'Group', 12,
         10.00, false, '3 days'
    from generate_series(p_start, p_end, interval '1 day') as day
    cross join (values
      ('Breakfast Club', time '06:00', false),
      ('Breakfast Club', time '07:15', false),
      ('Breakfast Club', time '08:30', false),
      ('Breakfast Club', time '10:00', false),
      ('Kids Club', time '16:45', true)
    ) as slot(name, at, mondays_only)
   where extract(isodow from day) between 1 and 5
     and (not slot.mondays_only or extract(isodow from day) = 1)
   order by 3;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.insert_timetable(date, date) from public;

-- What regenerate_timetable did.
create type public.timetable_result as (
  deleted integer,
  created integer
);

-- Replaces every class with the template for [p_start, p_end] (admins; bookings and waitlists go
-- with their classes).
create function private.regenerate_timetable(p_start date, p_end date)
returns public.timetable_result
language plpgsql security definer set search_path = ''
as $$
declare
  r public.timetable_result;
begin
  perform private.require_admin();
  if p_start is null or p_end is null or p_end < p_start then
    raise exception 'The end date must not be before the start date'
      using errcode = '22023', hint = 'invalid_period';
  end if;
  if p_end - p_start > 366 then
    raise exception 'The period must be at most 366 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  -- Every row, with a WHERE: hosted Supabase loads pg-safeupdate, which refuses a bare DELETE.
  -- Paid bookings of the removed classes become refunds owed with this reason (classes trigger).
  perform set_config('app.booking_removal', 'timetable_regenerated', true);
  delete from public.classes where id is not null;
  get diagnostics r.deleted = row_count;
  r.created := private.insert_timetable(p_start, p_end);
  return r;
end;
$$;

revoke execute on function private.regenerate_timetable(date, date) from public;
grant execute on function private.regenerate_timetable(date, date) to authenticated;

-- API --------------------------------------------------------------------------------------------

create function public.regenerate_timetable(p_start date, p_end date)
returns public.timetable_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.regenerate_timetable(p_start, p_end) $$;

revoke execute on function public.regenerate_timetable(date, date) from public, anon;
grant execute on function public.regenerate_timetable(date, date) to authenticated;
