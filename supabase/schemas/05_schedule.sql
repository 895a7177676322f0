-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.
-- The member-facing schedule: every upcoming class with what the booking rules decide for the
-- caller (decision 0005: "the server states the facts; the UI shows them"). The facts come from the
-- same private helpers book_class, join_waitlist and cancel_booking use, so a screen can never
-- offer what the server would refuse, nor hide what it would allow. Search, filters, paging and
-- the summary tiles run here too, across every upcoming class rather than the week a page loaded.

-- Filters --------------------------------------------------------------------------------------
-- Filters of the schedule screens, London time (spec: weeks start on Sunday). p_day: 'all',
-- 'today', 'tomorrow' or 'week' (today to Saturday); p_search matches class or trainer name
-- (LIKE wildcards literal); p_premium: true = Premium, false = Standard, null = both.
-- One-to-One sessions are never on the group timetable (members book them under Personal
-- training, 16_personal_training.sql); the booking form still reads one by id (p_class_id).
create function private.schedule_matches(
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

-- Row types ---------------------------------------------------------------------------------------
create type public.schedule_class as (
  id uuid,
  name text,
  description text,
  duration integer,
  start_time timestamptz,
  trainer text,
  type text,
  capacity integer,
  current_bookings integer,
  spots_left integer,
  is_premium boolean,
  unlock_for_standard text,
  price_payg numeric,
  -- What book_class would do for the caller now: bookable, or the hint it would refuse with
  -- (class_started, already_booked, class_locked, class_full, not_authenticated, member_not_found).
  bookable boolean,
  refusal text,
  -- When a premium class opens to the caller (null when it is not locked for them).
  unlocks_at timestamptz,
  -- The booking type the server would record, and whether it goes through the card checkout.
  booking_type public.booking_type,
  needs_payment boolean,
  -- The booking form's choices: why "Member" (paid) or "Free Trial" is not available, or null.
  -- Pay-as-you-go is always open (the class price, no allowance used).
  paid_refusal text,
  trial_refusal text,
  -- Whether join_waitlist would accept the caller, or its refusal hint.
  can_join_waitlist boolean,
  waitlist_refusal text,
  waitlist_closes_at timestamptz,
  -- From this instant a cancellation by the member still counts against their plan; for the
  -- caller's own booking, null when the studio moved the class after it was booked (free to cancel).
  late_cancel_from timestamptz,
  -- The caller's own booking (a confirmed one, or a pending pay-as-you-go hold) and waitlist place.
  my_booking_id uuid,
  my_payment_status public.payment_status,
  my_hold_expires_at timestamptz,
  my_waitlist_position integer,
  waitlist_size integer,
  -- Where the class meets when not in the hall (public.meeting_points; null = the hall): its
  -- name and map link for the card; location is private.class_where (the hall's address when
  -- none), directions the point's, for an 'add to calendar' file.
  meeting_point_id uuid,
  meeting_point_name text,
  meeting_point_map_url text,
  location text,
  directions text,
  -- The class's age range for children (both null: adults only, no child joins it); a parent
  -- with children is asked who is coming before booking a class that takes them.
  min_age integer,
  max_age integer
);

comment on type public.schedule_class is 'A class with what the booking rules decide for the caller (class_schedule).';

-- The summary tiles of class_schedule_summary: how many classes match the filters, their free
-- spots, how many instructors teach them; and every upcoming class's instructor for the filter's options.
create type public.schedule_summary as (
  total_classes integer,
  available_spots integer,
  instructors integer,
  all_instructors text[]
);

-- Facts and the schedule (private) -------------------------------------------------------------
-- The facts for one class and member (null member: a guest).
create function private.schedule_facts(p_class public.classes, p_member public.members, p_signed_in boolean)
returns public.schedule_class
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.schedule_class;
  v_booking public.bookings;
  v_seq bigint;
  v_guest public.members;
begin
  r.id := p_class.id; r.name := p_class.name; r.description := p_class.description;
  r.duration := p_class.duration; r.start_time := p_class.start_time; r.trainer := p_class.trainer;
  r.type := p_class.type; r.capacity := p_class.capacity; r.current_bookings := p_class.current_bookings;
  r.spots_left := p_class.spots_left; r.is_premium := p_class.is_premium;
  r.unlock_for_standard := p_class.unlock_for_standard; r.price_payg := p_class.price_payg;
  r.waitlist_closes_at := private.waitlist_closes_at(p_class);
  r.late_cancel_from := private.late_cancel_from(p_class);
  r.waitlist_size := (select count(*)::int from public.class_waitlist w where w.class_id = p_class.id);
  r.meeting_point_id := p_class.meeting_point_id;
  select mp.name, mp.map_url, nullif(btrim(mp.directions), '') into r.meeting_point_name, r.meeting_point_map_url, r.directions
    from public.meeting_points mp where mp.id = p_class.meeting_point_id;
  r.location := private.class_where(p_class);
  r.min_age := p_class.min_age; r.max_age := p_class.max_age;

  if p_member.id is null then
    -- A guest sees the class as a pay-as-you-go member would (locked, full, started), then
    -- "sign in"; a signed-in user without a member row is told to sign in again.
    v_guest.membership_tier := 'payg';
    v_guest.has_used_trial := true;
    r.refusal := coalesce(private.booking_refusal(v_guest, p_class, null),
                          case when p_signed_in then 'member_not_found' else 'not_authenticated' end);
    r.bookable := false;
    r.can_join_waitlist := false;
    r.waitlist_refusal := r.refusal;
    if r.refusal = 'class_locked' then
      r.unlocks_at := private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard);
    end if;
    return r;
  end if;

  r.refusal := private.booking_refusal(p_member, p_class, null);
  r.bookable := r.refusal is null;
  r.booking_type := private.booking_type_for(p_member, null);
  r.needs_payment := private.needs_payment(r.booking_type, p_class);
  r.paid_refusal := private.booking_type_refusal(p_member, 'paid');
  r.trial_refusal := private.booking_type_refusal(p_member, 'trial');
  if private.is_class_locked(p_member.membership_tier, p_class.is_premium, p_class.start_time,
                             p_class.unlock_for_standard, now()) then
    r.unlocks_at := private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard);
  end if;
  r.waitlist_refusal := private.waitlist_refusal(p_member, p_class);
  r.can_join_waitlist := r.waitlist_refusal is null;

  select * into v_booking from public.bookings b
   where b.member_id = p_member.id and b.class_id = p_class.id and b.dependant_id is null;
  if found then
    r.my_booking_id := v_booking.id;
    r.my_payment_status := v_booking.payment_status;
    r.my_hold_expires_at := v_booking.hold_expires_at;
    -- The caller's own booking may be free to cancel to the end (the studio moved the class).
    r.late_cancel_from := private.booking_late_cancel_from(p_class, v_booking.booked_at);
  end if;
  select w.seq into v_seq from public.class_waitlist w where w.member_id = p_member.id and w.class_id = p_class.id;
  if found then
    r.my_waitlist_position := private.waitlist_position(p_class.id, v_seq);
  end if;
  return r;
end;
$$;

revoke execute on function private.schedule_facts(public.classes, public.members, boolean) from public;

-- The schedule --------------------------------------------------------------------------------
-- Upcoming classes matching the filters, soonest first, a page at a time, with the caller's facts.
-- p_class_id narrows to one class (the booking form), started or not, so the form can say why.
-- The page of classes, then each row's facts for the caller. Lapsed payment holds are released
-- first, exactly as book_class and join_waitlist do before deciding, so "full", "already booked"
-- and the waitlist read here are what those calls then find (hence volatile: PostgREST calls RPCs
-- with POST, as supabase-js does). Upcoming classes are a range on classes_start_time_idx; the
-- other filters (London days, search, trainer, type) run on that range only.
create function private.class_schedule(
  p_search text, p_day text, p_trainer text, p_premium boolean, p_limit integer, p_offset integer, p_class_id uuid
)
returns setof public.schedule_class
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_now timestamptz := now();
  v_member public.members;
begin
  if p_day is not null and p_day not in ('all', 'today', 'tomorrow', 'week') then
    raise exception 'Unknown date filter' using errcode = '22023', hint = 'invalid_filter';
  end if;
  perform private.release_expired_holds();
  if v_uid is not null then
    select * into v_member from public.members m where m.user_id = v_uid;
  end if;
  if p_class_id is not null then
    -- One class whatever its time (the booking form says why a started class cannot be booked).
    return query
      select f.* from public.classes c
       cross join lateral private.schedule_facts(c, v_member, v_uid is not null) f
       where c.id = p_class_id;
    return;
  end if;
  -- The page first, then the facts of its rows only (lateral: one call per class, not per column).
  return query
    select f.*
      from (select c
              from public.classes c
             where c.start_time >= v_now
               and private.schedule_matches(c, v_now, p_search, p_day, p_trainer, p_premium)
             order by c.start_time, c.id
             limit least(greatest(coalesce(p_limit, 50), 1), 200)
            offset greatest(coalesce(p_offset, 0), 0)) page
     cross join lateral private.schedule_facts(page.c, v_member, v_uid is not null) f
     order by f.start_time, f.id;
end;
$$;

revoke execute on function private.class_schedule(text, text, text, boolean, integer, integer, uuid) from public;

grant execute on function private.class_schedule(text, text, text, boolean, integer, integer, uuid) to anon, authenticated, service_role;

-- API --------------------------------------------------------------------------------------------
create function public.class_schedule(
  p_search text default null, p_day text default 'all', p_trainer text default null,
  p_premium boolean default null, p_limit integer default 50, p_offset integer default 0,
  p_class_id uuid default null
)
returns setof public.schedule_class
language sql volatile security invoker set search_path = ''
as $$ select * from private.class_schedule(p_search, p_day, p_trainer, p_premium, p_limit, p_offset, p_class_id) $$;

revoke execute on function public.class_schedule(text, text, text, boolean, integer, integer, uuid) from public;

grant execute on function public.class_schedule(text, text, text, boolean, integer, integer, uuid) to anon, authenticated, service_role;

-- The summary tiles for the same filters as class_schedule, on the same start_time range (RLS
-- applies: classes are public).
create function public.class_schedule_summary(
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

-- Generating the timetable keeps the past (improving on spec section 2's "all existing
-- classes are deleted") and every class it did not make (decision 0037): regenerate_timetable
-- (02_classes.sql) replaces only the template's own classes (classes.template_slot) inside the
-- chosen period that have not started and that the template no longer makes, emails everyone in
-- them (as a closure does), owes back what was paid by card (the classes trigger, reason
-- timetable_regenerated), and creates the template's missing classes only for times still ahead.
-- Classes added by hand, One-to-One sessions (decision 0020), classes that started, and the
-- template's classes already in place, with their bookings and attendance, are never touched.

-- What a generated class says about itself: the admins' class form requires a description, so
-- a generated class must have one to be editable.
create function private.timetable_description(p_name text)
returns text
language sql immutable set search_path = ''
as $$
  select case p_name
    when 'Breakfast Club' then 'A 45-minute full-body session to start the day: strength, conditioning and mobility, scaled to every level.'
    when 'Kids Club' then 'Games, movement and coordination for children, led by a qualified coach.'
  end
$$;

revoke execute on function private.timetable_description(text) from public;

-- The spec's recurring timetable (section 9), one row per slot: its key (what classes.template_slot
-- names), the class's name, its London wall-clock time (06:00 in London in summer too) and its ISO
-- weekdays. src/features/admin/lib/timetable-template.ts describes the same on the Generate page.
create function private.timetable_slots()
returns table (slot text, name text, wall_time time, weekdays integer[])
language sql immutable set search_path = ''
as $$
  values ('Breakfast Club 06:00', 'Breakfast Club', time '06:00', array[1, 2, 3, 4, 5]),
         ('Breakfast Club 07:15', 'Breakfast Club', time '07:15', array[1, 2, 3, 4, 5]),
         ('Breakfast Club 08:30', 'Breakfast Club', time '08:30', array[1, 2, 3, 4, 5]),
         ('Breakfast Club 10:00', 'Breakfast Club', time '10:00', array[1, 2, 3, 4, 5]),
         ('Kids Club 16:45', 'Kids Club', time '16:45', array[1])
$$;

revoke execute on function private.timetable_slots() from public;

-- Whether p_slot is one of the template's slots (the check on timetable_slot_meeting_points).
create function private.is_timetable_slot(p_slot text)
returns boolean
language sql immutable security definer set search_path = ''
as $$ select exists (select 1 from private.timetable_slots() s where s.slot = p_slot) $$;

revoke execute on function private.is_timetable_slot(text) from public;

grant execute on function private.is_timetable_slot(text) to authenticated, service_role;

-- Where a template slot's classes meet when not in the hall (decision 0055): the generator gives each
-- class it makes for the slot this meeting point. No row = the hall. Changing it affects classes
-- generated afterwards; classes already made keep theirs (edit them on Classes). Anyone reads it;
-- admins write it.
create table public.timetable_slot_meeting_points (
  slot text primary key check (private.is_timetable_slot(slot)),
  meeting_point_id uuid not null references public.meeting_points (id),
  updated_at timestamptz not null default now()
);

comment on table public.timetable_slot_meeting_points is
  'The meeting point of a timetable template slot''s generated classes (no row = the hall).';

alter table public.timetable_slot_meeting_points enable row level security;

revoke all on public.timetable_slot_meeting_points from anon, authenticated;

grant select on public.timetable_slot_meeting_points to anon, authenticated;

grant insert (slot, meeting_point_id), update (meeting_point_id), delete on public.timetable_slot_meeting_points to authenticated;

grant all on public.timetable_slot_meeting_points to service_role;

create policy "Anyone reads template meeting points"
  on public.timetable_slot_meeting_points for select to anon, authenticated
  using (true);

create policy "Admins set template meeting points"
  on public.timetable_slot_meeting_points for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins change template meeting points"
  on public.timetable_slot_meeting_points for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins clear template meeting points"
  on public.timetable_slot_meeting_points for delete to authenticated
  using ((select private.is_admin()));

-- Every class the template makes on the London days [p_start, p_end], except on studio closure
-- dates: its slot, name and start.
create function private.timetable_occurrences(p_start date, p_end date)
returns table (slot text, name text, start_time timestamptz)
language sql stable set search_path = ''
as $$
  select s.slot, s.name, (day::date + s.wall_time) at time zone 'Europe/London'
    from generate_series(p_start, p_end, interval '1 day') as day
    cross join private.timetable_slots() s
   where extract(isodow from day)::int = any (s.weekdays)
     and not exists (select 1 from public.studio_closures sc where sc.closed_on = day::date)
$$;

revoke execute on function private.timetable_occurrences(date, date) from public;

-- Whether the template in force still makes the class it generated for p_slot at p_start: the
-- slot is still in it, on that weekday at that time. (A closure removes its date's classes itself.)
create function private.timetable_makes(p_slot text, p_start timestamptz)
returns boolean
language sql stable set search_path = ''
as $$
  select exists (
    select 1 from private.timetable_slots() s
     where s.slot = p_slot
       and extract(isodow from p_start at time zone 'Europe/London')::int = any (s.weekdays)
       and (p_start at time zone 'Europe/London')::time = s.wall_time)
$$;

revoke execute on function private.timetable_makes(text, timestamptz) from public;

-- The classes a generation of [p_start, p_end] replaces: the template's own (template_slot set)
-- starting in the period and not yet started, that the template no longer makes. Matched by the
-- slot and the start the template gave them, so an admin's edit of one (a move included) keeps it.
create function private.timetable_replaced(p_start date, p_end date)
returns setof public.classes
language sql stable set search_path = ''
as $$
  select c.* from public.classes c
   where c.start_time > greatest(p_start::timestamp at time zone 'Europe/London', now())
     and c.start_time < (p_end + 1)::timestamp at time zone 'Europe/London'
     and c.template_slot is not null
     and not private.timetable_makes(c.template_slot, c.template_start)
$$;

revoke execute on function private.timetable_replaced(date, date) from public;

-- The template's classes of [p_start, p_end] that start after p_from and are not there yet: a
-- class generated for the same slot and start, wherever an admin has moved it since, is there.
create function private.timetable_missing(p_start date, p_end date, p_from timestamptz)
returns table (slot text, name text, start_time timestamptz)
language sql stable set search_path = ''
as $$
  select o.slot, o.name, o.start_time
    from private.timetable_occurrences(p_start, p_end) o
   where o.start_time > p_from
     and not exists (select 1 from public.classes c where c.template_slot = o.slot and c.template_start = o.start_time)
$$;

revoke execute on function private.timetable_missing(date, date, timestamptz) from public;

-- Creates the template's missing classes of [p_start, p_end] that start after p_from, each linked
-- to its slot and meeting where the slot meets. Returns how many it created.
create function private.insert_timetable_from(p_start date, p_end date, p_from timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg,
                              is_premium, unlock_for_standard, template_slot, template_start, meeting_point_id)
  select m.name, private.timetable_description(m.name), 45, m.start_time, 'Coach Alex', 'Group', 12, 10.00,
         false, '3 days', m.slot, m.start_time,
         -- The slot's meeting point (decision 0055), or the hall.
         (select sp.meeting_point_id from public.timetable_slot_meeting_points sp where sp.slot = m.slot)
    from private.timetable_missing(p_start, p_end, p_from) m
   order by m.start_time, m.slot;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.insert_timetable_from(date, date, timestamptz) from public;

-- The card payments for places in the classes a generation of [p_start, p_end] replaces, each
-- once: what it turns into refunds owed.
create function private.timetable_paid_bookings(p_start date, p_end date)
returns integer
language sql stable set search_path = ''
as $$
  select count(distinct p.id)::int
    from private.timetable_replaced(p_start, p_end) c
    join public.bookings b on b.class_id = c.id
    join public.payments p on (p.booking_id = b.id or p.id = b.family_payment_id) and p.status = 'paid' and p.kind = 'class'
$$;

revoke execute on function private.timetable_paid_bookings(date, date) from public;

-- How many paid bookings a generation of [p_start, p_end] would turn into refunds owed (admins).
-- Generate Classes now asks timetable_preview, which says this with the rest.
create function private.paid_bookings_in_period(p_start date, p_end date)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.timetable_paid_bookings(p_start, p_end);
end;
$$;

revoke execute on function private.paid_bookings_in_period(date, date) from public;

grant execute on function private.paid_bookings_in_period(date, date) to authenticated;

-- What generating [p_start, p_end] would do, for Generate Classes to say before the admin confirms.
create type public.timetable_preview as (
  -- The template's classes the period lacks, that it creates.
  created integer,
  -- The template's own classes it replaces (the template no longer makes them).
  replaced integer,
  -- The places booked on those: members', their children's, guests', and those held while paying.
  replaced_bookings integer,
  -- The card payments for those places, which become refunds owed.
  paid_bookings integer
);

comment on type public.timetable_preview is 'What regenerate_timetable would do for a period (timetable_preview).';

-- Admins; refuses the periods regenerate_timetable refuses.
create function private.timetable_preview(p_start date, p_end date)
returns public.timetable_preview
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.timetable_preview;
begin
  perform private.require_admin();
  perform private.check_timetable_period(p_start, p_end);
  select count(*)::int into r.created
    from private.timetable_missing(p_start, p_end, greatest(p_start::timestamp at time zone 'Europe/London', now()));
  select count(*)::int, coalesce(sum(c.current_bookings), 0)::int into r.replaced, r.replaced_bookings
    from private.timetable_replaced(p_start, p_end) c;
  r.paid_bookings := private.timetable_paid_bookings(p_start, p_end);
  return r;
end;
$$;

revoke execute on function private.timetable_preview(date, date) from public;

grant execute on function private.timetable_preview(date, date) to authenticated;

create function public.timetable_preview(p_start date, p_end date)
returns public.timetable_preview
language sql stable security invoker set search_path = ''
as $$ select * from private.timetable_preview(p_start, p_end) $$;

revoke execute on function public.timetable_preview(date, date) from public, anon;

grant execute on function public.timetable_preview(date, date) to authenticated;

create function public.paid_bookings_in_period(p_start date, p_end date)
returns integer
language sql stable security invoker set search_path = ''
as $$ select private.paid_bookings_in_period(p_start, p_end) $$;

revoke execute on function public.paid_bookings_in_period(date, date) from public, anon;

grant execute on function public.paid_bookings_in_period(date, date) to authenticated;
