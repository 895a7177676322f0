-- The no-show job marks every unmarked place of a class since check-in began, however long the
-- job was stopped (or however far `npm run jobs -- --at` jumps), instead of a two-day look-back
-- that left the days of a longer gap unmarked for ever. Partial indexes keep it to unmarked places.
create function private.attendance_recorded_from()
returns timestamptz
language sql immutable set search_path = ''
as $$ select timestamptz '2026-11-27 14:00:00+00' $$;

revoke execute on function private.attendance_recorded_from() from public;

create or replace function private.mark_no_shows(p_now timestamptz)
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_count integer;
  v_guests integer;
begin
  update public.bookings b
     set attendance = 'no_show', attendance_marked_at = p_now
    from public.classes c
   where c.id = b.class_id
     and c.start_time <= p_now - private.no_show_after()
     and c.start_time >= private.attendance_recorded_from()
     and b.attendance is null
     and b.payment_status = 'completed';
  get diagnostics v_count = row_count;
  -- Every kind of place (decision 0035): a guest nobody checked in is a no-show too.
  update public.guest_places g
     set attendance = 'no_show', attendance_marked_at = p_now
    from public.classes c
   where c.id = g.class_id
     and c.start_time <= p_now - private.no_show_after()
     and c.start_time >= private.attendance_recorded_from()
     and g.attendance is null
     and g.payment_status = 'completed';
  get diagnostics v_guests = row_count;
  return v_count + v_guests;
end;
$$;

revoke execute on function private.mark_no_shows(timestamptz) from public;

grant execute on function private.mark_no_shows(timestamptz) to service_role;

drop function private.no_show_lookback();

-- Places nobody has marked yet (upcoming, or past and waiting for mark_no_shows, 19_reports.sql).
create index bookings_unmarked_idx on public.bookings (class_id) where attendance is null and payment_status = 'completed';

-- Places nobody has marked yet (upcoming, or past and waiting for mark_no_shows, 19_reports.sql).
create index guest_places_unmarked_idx on public.guest_places (class_id) where attendance is null and payment_status = 'completed';
