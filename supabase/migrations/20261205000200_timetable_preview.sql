-- Generate Classes says before the admin confirms what generating a period does: how many of the
-- template's classes it creates, how many it replaces and the bookings on them, and how many paid
-- bookings become refunds owed (timetable_preview). paid_bookings_in_period stays for screens
-- loaded before this deploy.
--
-- New: private.timetable_missing, private.timetable_paid_bookings, type public.timetable_preview,
-- private.timetable_preview, public.timetable_preview. Replaced (same signatures):
-- private.insert_timetable_from, private.paid_bookings_in_period.

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
-- to its slot. Returns how many it created.
create or replace function private.insert_timetable_from(p_start date, p_end date, p_from timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg,
                              is_premium, unlock_for_standard, template_slot, template_start)
  select m.name, private.timetable_description(m.name), 45, m.start_time, 'Coach Alex', 'Group', 12, 10.00,
         false, '3 days', m.slot, m.start_time
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
create or replace function private.paid_bookings_in_period(p_start date, p_end date)
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
