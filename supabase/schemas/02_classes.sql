-- Classes: the timetable. Anyone reads it; admins write it (directly, and by regenerating it
-- from the studio's recurring template) and close the studio on chosen dates.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Studio defaults, in one place ------------------------------------------------------------------
create function private.default_waitlist_closes_before()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 hours' $$;

revoke execute on function private.default_waitlist_closes_before() from public;

-- Column defaults run as the inserting role (an admin creating a class).
grant execute on function private.default_waitlist_closes_before() to authenticated, service_role;

create function private.default_late_cancel_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '12 hours' $$;

revoke execute on function private.default_late_cancel_window() from public;

grant execute on function private.default_late_cancel_window() to authenticated, service_role;

-- Trainers ---------------------------------------------------------------------------------------
-- The studio's trainers as records (decision 0020): name, a short bio and a photo. Every class names
-- its trainer by trainer_id; classes.trainer keeps the trainer's name as the timetable, emails and
-- exports show it (kept in step by the triggers below). Anyone reads them; admins write them.
create table public.trainers (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 200),
  bio text not null default '' check (char_length(bio) <= 600),
  photo_url text check (photo_url ~ '^(https?://|/)'),
  created_at timestamptz not null default now()
);

comment on table public.trainers is
  'The studio''s trainers (name, short bio, photo). classes.trainer_id names a class''s trainer; classes.trainer repeats the name for display.';

alter table public.trainers enable row level security;

revoke all on public.trainers from anon, authenticated;

grant select on public.trainers to anon, authenticated;

grant insert (name, bio, photo_url), update (name, bio, photo_url) on public.trainers to authenticated;

grant all on public.trainers to service_role;

-- Meeting points ---------------------------------------------------------------------------------
-- Places other than the hall where a class meets (decision 0055): a park gate, a beach car park. A class
-- (and a timetable template slot, 05_schedule.sql) may name one; none = the hall, the studio's
-- address (private.studio_address). Every email, calendar entry, class card and push about a class
-- says where it is through private.class_where. Anyone reads them; admins write them. A point in
-- use by a class or a slot cannot be deleted (the foreign keys restrict).
create table public.meeting_points (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 120),
  -- One line, as emails print it: 'Old Ford Road, London E3 5DS'.
  address text not null check (char_length(btrim(address)) between 1 and 300),
  -- How to find the exact spot: 'Meet at the gate by the cafe; look for the orange flag.'
  directions text not null default '' check (char_length(directions) <= 600),
  map_url text check (map_url ~ '^https://'),
  created_at timestamptz not null default now()
);

comment on table public.meeting_points is
  'Places other than the hall where a class meets (name, address, directions, map link); classes.meeting_point_id names one, null = the hall.';

alter table public.meeting_points enable row level security;

revoke all on public.meeting_points from anon, authenticated;

grant select on public.meeting_points to anon, authenticated;

grant insert (name, address, directions, map_url), update (name, address, directions, map_url), delete
  on public.meeting_points to authenticated;

grant all on public.meeting_points to service_role;

-- Table ------------------------------------------------------------------------------------------
create table public.classes (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(btrim(name)) between 1 and 200),
  description text check (char_length(description) <= 4000),
  duration integer not null default 45 check (duration between 15 and 180),
  start_time timestamptz not null,
  trainer text not null check (char_length(btrim(trainer)) between 1 and 200),
  -- The trainer's record (classes.trainer is its name, kept in step by classes_link_trainer, which
  -- fills it from the name: callers may send either, hence a check rather than NOT NULL).
  trainer_id uuid references public.trainers (id),
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
  -- When the studio last moved the class before it started (classes_keep_spots sets it; never a
  -- client): a place booked before then may be cancelled free until the start, whatever the new
  -- time (booking_late_cancel_from), since the member never agreed to it.
  studio_changed_at timestamptz,
  -- The recurring template's slot this class was generated for, and the start the template gave
  -- it (private.timetable_slots, 05_schedule.sql). Generating a period again finds the template's
  -- own classes by these and touches no other class (decision 0037). Null on a class added by
  -- hand or made by another generator (One-to-One sessions); an admin's edit, a move included,
  -- keeps them.
  template_slot text,
  template_start timestamptz,
  -- A class for children (family accounts, 21_families.sql): the youngest and oldest age on the
  -- class date a child may be booked in; both null = adults only.
  min_age integer constraint classes_min_age_range check (min_age between 0 and 99),
  max_age integer constraint classes_max_age_range check (max_age between 0 and 99),
  -- Where the class meets when not in the hall (decision 0055); null = the hall, the studio's address.
  meeting_point_id uuid references public.meeting_points (id),
  constraint classes_age_range_order check (min_age <= max_age),
  constraint classes_trainer_recorded check (trainer_id is not null),
  constraint classes_one_to_one_capacity check (type <> 'One-to-One' or capacity = 1),
  constraint classes_bookings_within_capacity check (current_bookings between 0 and capacity),
  constraint classes_spots_left_consistent check (spots_left = capacity - current_bookings),
  constraint classes_template_occurrence check ((template_slot is null) = (template_start is null))
);

-- Triggers other domains add to public.classes: classes_tally (03_bookings.sql),
--  classes_promote_waitlist (04_waitlist.sql), classes_record_refunds_owed (08_refunds.sql),
--  classes_one_to_one_price (09_credits.sql), classes_tell_members_moved (10_notifications.sql),
--  classes_tell_members_removed (10_notifications.sql), classes_push_members_removed (20_push.sql),
--  classes_text_members_removed (25_sms.sql), classes_record_change (26_class_changes.sql),
--  classes_close_cover_requests (28_cover_requests.sql).

comment on column public.classes.min_age is
  'Youngest age (on the class date) a child may be booked in; null with max_age null = adults only (no children).';

comment on column public.classes.max_age is 'Oldest age (on the class date) a child may be booked in; null = no upper limit.';

-- The admin searches by class name (decision 0029).
create index classes_name_trgm_idx on public.classes using gin (name extensions.gin_trgm_ops);

-- One One-to-One session per trainer and start: what makes generating them idempotent (16_personal_training.sql).
create unique index classes_one_to_one_slot_idx on public.classes (trainer_id, start_time) where type = 'One-to-One';

comment on column public.classes.waitlist_closes_before is
  'Nobody joins or is promoted from the waitlist later than start_time minus this.';

comment on column public.classes.late_cancel_window is
  'A member cancelling later than start_time minus this still has the class counted against their plan.';

create index classes_start_time_idx on public.classes (start_time);

create index classes_trainer_id_idx on public.classes (trainer_id, start_time);

-- Deleting a meeting point checks no class names it.
create index classes_meeting_point_id_idx on public.classes (meeting_point_id) where meeting_point_id is not null;

-- One class per template slot and start: what makes generating a period twice create nothing twice.
create unique index classes_template_occurrence_idx on public.classes (template_slot, template_start)
  where template_slot is not null;

comment on column public.classes.template_slot is
  'The recurring template''s slot the class was generated for (e.g. ''Breakfast Club 06:00''); null when added by hand or a One-to-One session.';

comment on column public.classes.template_start is
  'The start the template gave the class (its start_time may since have been moved); set with template_slot.';

-- Row-level security -----------------------------------------------------------------------------
alter table public.classes enable row level security;

revoke all on public.classes from anon, authenticated;

grant select on public.classes to anon, authenticated;

grant insert (name, description, duration, start_time, trainer, trainer_id, type, capacity, is_premium,
              unlock_for_standard, price_payg, checkout_url, waitlist_closes_before, late_cancel_window, min_age, max_age, meeting_point_id)
  on public.classes to authenticated;

grant update (name, description, duration, start_time, trainer, trainer_id, type, capacity, is_premium,
              unlock_for_standard, price_payg, checkout_url, waitlist_closes_before, late_cancel_window, min_age, max_age, meeting_point_id)
  on public.classes to authenticated;

grant delete on public.classes to authenticated;

grant all on public.classes to service_role;

-- New classes start empty; spots_left always follows capacity - current_bookings; a move of a class
-- that has not started is remembered (studio_changed_at). An admin's
-- edit (through the API, as `authenticated`) cannot create or move a class into the past, nor
-- set a capacity below the places already booked; both are said in words the form can show.
-- The seed and the jobs write as other roles (the demo history is in the past).
create function private.classes_keep_spots()
returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.current_bookings := 0;
    new.studio_changed_at := null;
  elsif new.start_time is distinct from old.start_time and old.start_time > now() then
    new.studio_changed_at := now();
  else
    new.studio_changed_at := old.studio_changed_at;
  end if;
  -- Only an admin's write gets this far (the row policies refuse anyone else, after this trigger).
  if current_user = 'authenticated' and new.start_time <= now()
     and (tg_op = 'INSERT' or new.start_time is distinct from old.start_time) and (select private.is_admin()) then
    raise exception 'The class must start in the future' using errcode = '22023', hint = 'class_in_past';
  end if;
  if new.capacity < new.current_bookings then
    raise exception '% booked on this class, so the capacity cannot be less than %',
      case new.current_bookings when 1 then '1 member is' else new.current_bookings || ' members are' end,
      new.current_bookings
      using errcode = '23514', hint = 'capacity_below_bookings';
  end if;
  new.spots_left := new.capacity - new.current_bookings;
  return new;
end;
$$;

revoke execute on function private.classes_keep_spots() from public;

-- A class names its trainer by record or by name: a trainer_id set (or changed) writes the
-- trainer's name into classes.trainer; a name given without a new trainer_id (the class form,
-- the timetable generator, older callers) finds the trainer of that name, or records a new one.
create function private.classes_link_trainer()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.trainer_id is not null and (tg_op = 'INSERT' or new.trainer_id is distinct from old.trainer_id) then
    select t.name into new.trainer from public.trainers t where t.id = new.trainer_id;
  elsif new.trainer is not null and (tg_op = 'INSERT' or new.trainer is distinct from old.trainer) then
    insert into public.trainers (name) values (new.trainer) on conflict (name) do nothing;
    select t.id into new.trainer_id from public.trainers t where t.name = new.trainer;
  end if;
  return new;
end;
$$;

revoke execute on function private.classes_link_trainer() from public;

-- A trainer renamed is renamed on their classes.
create function private.trainers_rename_classes()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.classes set trainer = new.name where trainer_id = new.id and trainer <> new.name;
  return null;
end;
$$;

revoke execute on function private.trainers_rename_classes() from public;

-- Where a class meets ------------------------------------------------------------------------------
-- The one answer to "where is this class" (decision 0055): its meeting point's name and address, or the
-- hall (the studio's address). Every email's 'Where: ', the calendar feed's LOCATION and pushes
-- read it, so an outdoor class never says the hall anywhere.
create function private.class_where(p_class public.classes)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  return coalesce((select mp.name || ', ' || mp.address from public.meeting_points mp where mp.id = p_class.meeting_point_id),
                  private.studio_address());
end;
$$;

revoke execute on function private.class_where(public.classes) from public;

-- my_bookings (security invoker) reads it too: it says only what the public tables and emails say.
grant execute on function private.class_where(public.classes) to authenticated, service_role;

-- The meeting point's directions as a line under 'Where: ' (E'\nDirections: ...'), or '' when the
-- class is in the hall or the point has none.
create function private.class_directions_line(p_class public.classes)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  return coalesce((select E'\nDirections: ' || nullif(btrim(mp.directions), '')
                     from public.meeting_points mp where mp.id = p_class.meeting_point_id), '');
end;
$$;

revoke execute on function private.class_directions_line(public.classes) from public;

-- A push's short sentence for a class away from the hall (' Meet at <class_where>.'), '' in the
-- hall: pushes about hall classes never named the place, and stay as short.
create function private.class_meet_at(p_class public.classes)
returns text
language sql stable security definer set search_path = ''
as $$
  select case when p_class.meeting_point_id is null then '' else ' Meet at ' || private.class_where(p_class) || '.' end
$$;

revoke execute on function private.class_meet_at(public.classes) from public;

-- Studio closures ----------------------------------------------------------------------------------
-- Dates the studio is closed (a bank holiday, the hall booked by someone else): no class runs, and
-- timetable generation skips them. Everyone reads them; admins write them through the RPCs below.
create table public.studio_closures (
  id uuid primary key default gen_random_uuid(),
  closed_on date not null unique,
  reason text not null default '' check (char_length(reason) <= 200),
  created_at timestamptz not null default now()
);

comment on table public.studio_closures is 'Dates the studio is closed (London dates); written by add_studio_closure / remove_studio_closure.';

alter table public.studio_closures enable row level security;

revoke all on public.studio_closures from anon, authenticated;

grant select on public.studio_closures to anon, authenticated;

grant all on public.studio_closures to service_role;

-- Timetable generation -------------------------------------------------------------------------
-- The spec's recurring timetable (section 9) for [p_start, p_end], at London wall-clock times
-- (06:00 in London in summer too), except on studio closure dates. Used by regenerate_timetable
-- and by the demo seed.
-- The whole template for [p_start, p_end], past days included (the demo seed's history).
create function private.insert_timetable(p_start date, p_end date)
returns integer
language sql security definer set search_path = ''
as $$ select private.insert_timetable_from(p_start, p_end, '-infinity') $$;

revoke execute on function private.insert_timetable(date, date) from public;

-- What regenerate_timetable did: the template's classes it replaced (deleted) and created.
create type public.timetable_result as (
  deleted integer,
  created integer
);

-- The periods Generate Classes accepts: p_start to p_end (London days), at most 366 days, not
-- already over. The form checks the first two itself (timetablePeriodError) before asking.
create function private.check_timetable_period(p_start date, p_end date)
returns void
language plpgsql stable set search_path = ''
as $$
begin
  if p_start is null or p_end is null or p_end < p_start then
    raise exception 'The end date must not be before the start date'
      using errcode = '22023', hint = 'invalid_period';
  end if;
  if p_end - p_start > 366 then
    raise exception 'The period must be at most 366 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  if p_end < (now() at time zone 'Europe/London')::date then
    raise exception 'The period has already ended' using errcode = '22023', hint = 'invalid_period';
  end if;
end;
$$;

revoke execute on function private.check_timetable_period(date, date) from public;

-- Brings the London days [p_start, p_end] in line with the recurring template (admins; decision
-- 0037): removes the template's own classes there that it no longer makes
-- (private.timetable_replaced: the template changed since they were generated), then creates the
-- template's classes the period lacks, for times still ahead. Every other class stays as it is,
-- with its bookings: classes added by hand, premium ones, One-to-One sessions (made from trainers'
-- availability, decision 0020), classes that started, and the template's classes already in
-- place, edited or moved or not. So running it again changes nothing. Two runs at once (a double
-- click) run one after the other.
create function private.regenerate_timetable(p_start date, p_end date)
returns public.timetable_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_replaced uuid[];
  r public.timetable_result;
begin
  perform private.require_admin();
  perform private.check_timetable_period(p_start, p_end);
  perform pg_advisory_xact_lock(hashtextextended('regenerate_timetable', 0));

  -- The classes it replaces first, locked in id order as every booking path locks a class, so no
  -- booking slips in meanwhile.
  select coalesce(array_agg(c.id order by c.id), '{}') into v_replaced from private.timetable_replaced(p_start, p_end) c;
  perform 1 from public.classes c where c.id = any (v_replaced) order by c.id for update;

  -- Paid bookings of the removed classes become refunds owed with this reason, and everyone in
  -- them is emailed why (the classes triggers).
  perform set_config('app.booking_removal', 'timetable_regenerated', true);
  perform set_config('app.class_removal_why', 'the timetable was changed', true);
  delete from public.classes c where c.id = any (v_replaced);
  get diagnostics r.deleted = row_count;
  perform set_config('app.booking_removal', '', true);
  perform set_config('app.class_removal_why', '', true);
  r.created := private.insert_timetable_from(p_start, p_end, greatest(p_start::timestamp at time zone 'Europe/London', now()));
  return r;
end;
$$;

revoke execute on function private.regenerate_timetable(date, date) from public;

grant execute on function private.regenerate_timetable(date, date) to authenticated;

-- Closing a date -------------------------------------------------------------------------------
-- What add_studio_closure did.
create type public.closure_result as (
  closure_id uuid,
  cancelled_classes integer,
  affected_bookings integer
);

-- Records a closure (admins) and cancels that London date's classes not yet started (a closure
-- of today keeps what already ran): members with a confirmed booking get a cancellation email
-- with the reason, a class paid by card becomes a refund owed, and the classes go with their
-- bookings (no late cancellation is recorded, so the allowance is freed) and waitlists (a cascade
-- from a deleted class promotes nobody). Dates already past in London are refused.
create function private.add_studio_closure(p_closed_on date, p_reason text)
returns public.closure_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := btrim(coalesce(p_reason, ''));
  v_from timestamptz := greatest(p_closed_on::timestamp at time zone 'Europe/London', now());
  v_to timestamptz := (p_closed_on + 1)::timestamp at time zone 'Europe/London';
  r public.closure_result;
begin
  perform private.require_admin();
  if p_closed_on is null then
    raise exception 'Choose the date the studio is closed' using errcode = '22023', hint = 'invalid_closure';
  end if;
  if p_closed_on < (now() at time zone 'Europe/London')::date then
    raise exception 'The closure date is in the past' using errcode = '22023', hint = 'closure_in_past';
  end if;
  if char_length(v_reason) > 200 then
    raise exception 'The reason must be at most 200 characters' using errcode = '22023', hint = 'invalid_closure';
  end if;

  insert into public.studio_closures (closed_on, reason) values (p_closed_on, v_reason)
  on conflict (closed_on) do nothing
  returning id into r.closure_id;
  if r.closure_id is null then
    raise exception 'The studio is already closed on %', to_char(p_closed_on, 'FMDay FMDD FMMonth YYYY')
      using errcode = '23505', hint = 'already_closed';
  end if;

  -- The day's classes first, as every booking path locks them, so no booking slips in meanwhile.
  perform 1 from public.classes c where c.start_time >= v_from and c.start_time < v_to for update;
  select count(*) into r.affected_bookings
    from public.bookings b join public.classes c on c.id = b.class_id
   where c.start_time >= v_from and c.start_time < v_to;

  -- Deleting the classes records what was paid by card as refunds owed (reason class_deleted),
  -- emails members with a confirmed place the reason (an unpaid hold was never confirmed: it just
  -- goes), and takes their bookings and waitlists with them (the classes triggers).
  perform set_config('app.class_removal_why',
                     'the studio is closed' || coalesce(' (' || nullif(v_reason, '') || ')', ''), true);
  delete from public.classes c where c.start_time >= v_from and c.start_time < v_to;
  get diagnostics r.cancelled_classes = row_count;
  perform set_config('app.class_removal_why', '', true);
  return r;
end;
$$;

revoke execute on function private.add_studio_closure(date, text) from public;

grant execute on function private.add_studio_closure(date, text) to authenticated;

-- Reopens a date (admins); cancelled classes are not restored (regenerate or add them again).
create function private.remove_studio_closure(p_id uuid)
returns public.studio_closures
language plpgsql security definer set search_path = ''
as $$
declare
  v_closure public.studio_closures;
begin
  perform private.require_admin();
  delete from public.studio_closures where id = p_id returning * into v_closure;
  if v_closure.id is null then
    raise exception 'Closure not found' using errcode = 'P0002', hint = 'closure_not_found';
  end if;
  return v_closure;
end;
$$;

revoke execute on function private.remove_studio_closure(uuid) from public;

grant execute on function private.remove_studio_closure(uuid) to authenticated;

-- API --------------------------------------------------------------------------------------------
create function public.regenerate_timetable(p_start date, p_end date)
returns public.timetable_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.regenerate_timetable(p_start, p_end) $$;

revoke execute on function public.regenerate_timetable(date, date) from public, anon;

grant execute on function public.regenerate_timetable(date, date) to authenticated;

create function public.add_studio_closure(p_closed_on date, p_reason text default '')
returns public.closure_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.add_studio_closure(p_closed_on, p_reason) $$;

revoke execute on function public.add_studio_closure(date, text) from public, anon;

grant execute on function public.add_studio_closure(date, text) to authenticated;

create function public.remove_studio_closure(p_id uuid)
returns public.studio_closures
language sql volatile security invoker set search_path = ''
as $$ select * from private.remove_studio_closure(p_id) $$;

revoke execute on function public.remove_studio_closure(uuid) from public, anon;

grant execute on function public.remove_studio_closure(uuid) to authenticated;

-- Row-level security, triggers and replication ------------------------------------------------
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

create trigger classes_keep_spots
  before insert or update on public.classes
  for each row execute function private.classes_keep_spots();

create trigger classes_link_trainer
  before insert or update of trainer, trainer_id on public.classes
  for each row execute function private.classes_link_trainer();

create policy "Anyone reads trainers"
  on public.trainers for select to anon, authenticated
  using (true);

create policy "Admins add trainers"
  on public.trainers for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins edit trainers"
  on public.trainers for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create trigger trainers_rename_classes
  after update of name on public.trainers
  for each row execute function private.trainers_rename_classes();

create policy "Anyone reads meeting points"
  on public.meeting_points for select to anon, authenticated
  using (true);

create policy "Admins add meeting points"
  on public.meeting_points for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins edit meeting points"
  on public.meeting_points for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins delete meeting points"
  on public.meeting_points for delete to authenticated
  using ((select private.is_admin()));

create policy "Anyone reads studio closures"
  on public.studio_closures for select to anon, authenticated
  using (true);
