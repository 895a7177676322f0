-- Generate Classes replaces only the classes the recurring template made. It deleted every class
-- of the chosen period that had not started: a premium class added by hand, One-to-One sessions
-- made from trainers' availability (decision 0020) with their bookings, and every booking of the
-- template's own classes, to create the same classes again. A class now names the template slot
-- it was generated for (classes.template_slot, with the start the template gave it), and a
-- generation replaces only those classes of the period that the template no longer makes, and
-- creates the template's classes the period lacks: run twice, it changes nothing the second time.
-- The classes already in the future that the template would have made (its name, London time and
-- weekday, a group class not premium) are linked to their slot here, each slot and start once.
--
-- New: private.check_timetable_period, private.timetable_slots, private.timetable_occurrences,
-- private.timetable_makes, private.timetable_replaced. Replaced (same signatures):
-- private.insert_timetable_from, private.regenerate_timetable, private.paid_bookings_in_period.

alter table public.classes add column template_slot text;

alter table public.classes add column template_start timestamptz;

alter table public.classes add constraint classes_template_occurrence
  check ((template_slot is null) = (template_start is null));

-- One class per template slot and start: what makes generating a period twice create nothing twice.
create unique index classes_template_occurrence_idx on public.classes (template_slot, template_start)
  where template_slot is not null;

comment on column public.classes.template_slot is
  'The recurring template''s slot the class was generated for (e.g. ''Breakfast Club 06:00''); null when added by hand or a One-to-One session.';

comment on column public.classes.template_start is
  'The start the template gave the class (its start_time may since have been moved); set with template_slot.';

-- The periods Generate Classes accepts: p_start to p_end (London days), at most 366 days, not
-- already over. The form checks the same (timetablePeriodError) before asking.
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

-- The future classes the template would have made, linked to their slot (the earliest created
-- when an admin added a twin at the same time).
update public.classes c
   set template_slot = m.slot, template_start = c.start_time
  from (select distinct on (s.slot, k.start_time) k.id, s.slot
          from public.classes k
          join private.timetable_slots() s
            on s.name = k.name
           and (k.start_time at time zone 'Europe/London')::time = s.wall_time
           and extract(isodow from k.start_time at time zone 'Europe/London')::int = any (s.weekdays)
         where k.start_time > now() and k.type = 'Group' and not k.is_premium and k.template_slot is null
         order by s.slot, k.start_time, k.created_at, k.id) m
 where c.id = m.id;

-- Creates the template's classes of [p_start, p_end] that start after p_from and that are not
-- there yet (a class generated for the same slot and start, wherever an admin has moved it since,
-- counts as there), each linked to its slot. Returns how many it created.
create or replace function private.insert_timetable_from(p_start date, p_end date, p_from timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg,
                              is_premium, unlock_for_standard, template_slot, template_start)
  select o.name, private.timetable_description(o.name), 45, o.start_time, 'Coach Alex', 'Group', 12, 10.00,
         false, '3 days', o.slot, o.start_time
    from private.timetable_occurrences(p_start, p_end) o
   where o.start_time > p_from
     and not exists (select 1 from public.classes c where c.template_slot = o.slot and c.template_start = o.start_time)
   order by o.start_time, o.slot;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.insert_timetable_from(date, date, timestamptz) from public;

-- Brings the London days [p_start, p_end] in line with the recurring template (admins): removes
-- the template's own classes there that it no longer makes (private.timetable_replaced: the
-- template changed since they were generated), then creates the template's classes the period
-- lacks, for times still ahead. Every other class stays as it is with its bookings: classes added
-- by hand, premium ones, One-to-One sessions (made from trainers' availability, decision 0020),
-- classes that started, and the template's classes already in place, edited or moved or not. So
-- running it again changes nothing. Two runs at once (a double click) run one after the other.
create or replace function private.regenerate_timetable(p_start date, p_end date)
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

-- How many paid bookings a generation of [p_start, p_end] would turn into refunds owed: the card
-- payments of the classes it replaces, each once (admins; the warning before it).
create or replace function private.paid_bookings_in_period(p_start date, p_end date)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select count(distinct p.id)::int
            from private.timetable_replaced(p_start, p_end) c
            join public.bookings b on b.class_id = c.id
            join public.payments p on (p.booking_id = b.id or p.id = b.family_payment_id)
                                  and p.status = 'paid' and p.kind = 'class');
end;
$$;

revoke execute on function private.paid_bookings_in_period(date, date) from public;

grant execute on function private.paid_bookings_in_period(date, date) to authenticated;
