-- Generating the timetable keeps the past (issue 31, improving on spec section 2's "all existing
-- classes are deleted"): regenerate_timetable replaces only the classes inside the chosen period
-- that have not started, emails the members whose booking goes (as a closure does), owes back
-- what was paid by card (the classes trigger, reason timetable_regenerated), and creates the
-- template only for times still ahead. Classes that started, and their bookings and attendance,
-- are never touched.
--
-- Replaced here (create or replace, same signatures): private.insert_timetable,
-- private.regenerate_timetable.

-- The spec's recurring timetable (section 9) for [p_start, p_end] at London wall-clock times
-- (06:00 in London in summer too), except on studio closure dates, for times after p_from.
create function private.insert_timetable_from(p_start date, p_end date, p_from timestamptz)
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
     and not exists (select 1 from public.studio_closures sc where sc.closed_on = day::date)
     and (day::date + slot.at) at time zone 'Europe/London' > p_from
   order by 3;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;
revoke execute on function private.insert_timetable_from(date, date, timestamptz) from public;

-- The whole template for [p_start, p_end], past days included (the demo seed's history).
create or replace function private.insert_timetable(p_start date, p_end date)
returns integer
language sql security definer set search_path = ''
as $$ select private.insert_timetable_from(p_start, p_end, '-infinity') $$;

-- Replaces the classes of [p_start, p_end] (London days) that have not started with the template
-- (admins). Two runs at once (a double click) run one after the other.
create or replace function private.regenerate_timetable(p_start date, p_end date)
returns public.timetable_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
  v_booking record;
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
  if p_end < (now() at time zone 'Europe/London')::date then
    raise exception 'The period has already ended' using errcode = '22023', hint = 'invalid_period';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('regenerate_timetable', 0));
  v_from := greatest(p_start::timestamp at time zone 'Europe/London', now());
  v_to := (p_end + 1)::timestamp at time zone 'Europe/London';

  -- The period's classes first, as every booking path locks them, so no booking slips in meanwhile.
  perform 1 from public.classes c where c.start_time > v_from and c.start_time < v_to for update;
  for v_booking in
    select b.* from public.bookings b join public.classes c on c.id = b.class_id
     where c.start_time > v_from and c.start_time < v_to and b.payment_status = 'completed'
     order by c.start_time, b.booked_at
  loop
    perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, v_booking.class_id,
                                        v_booking.id, false, null, 'the timetable was changed');
  end loop;

  -- Paid bookings of the removed classes become refunds owed with this reason (classes trigger).
  perform set_config('app.booking_removal', 'timetable_regenerated', true);
  delete from public.classes c where c.start_time > v_from and c.start_time < v_to;
  get diagnostics r.deleted = row_count;
  perform set_config('app.booking_removal', '', true);
  r.created := private.insert_timetable_from(p_start, p_end, v_from);
  return r;
end;
$$;

-- How many paid bookings a regeneration of [p_start, p_end] would turn into refunds owed (admins;
-- the warning before it).
create function private.paid_bookings_in_period(p_start date, p_end date)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select count(*)::int
            from public.bookings b
            join public.classes c on c.id = b.class_id
            join public.payments p on p.booking_id = b.id and p.status = 'paid' and p.kind = 'class'
           where c.start_time > greatest(p_start::timestamp at time zone 'Europe/London', now())
             and c.start_time < (p_end + 1)::timestamp at time zone 'Europe/London');
end;
$$;

create function public.paid_bookings_in_period(p_start date, p_end date)
returns integer
language sql stable security invoker set search_path = ''
as $$ select private.paid_bookings_in_period(p_start, p_end) $$;

revoke execute on function private.paid_bookings_in_period(date, date) from public;
grant execute on function private.paid_bookings_in_period(date, date) to authenticated;
revoke execute on function public.paid_bookings_in_period(date, date) from public, anon;
grant execute on function public.paid_bookings_in_period(date, date) to authenticated;
