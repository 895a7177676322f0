-- A coach or an admin could mark a booking a no-show before its class started (from an hour
-- before, as for attended), while the member may still be on their way. 'no_show' is now refused
-- until the start (no_show_too_early); 'attended' and clearing a mark still open
-- attendance_opens_before() before it. One rule for both paths: require_attendance_open.

-- When a roster mark may be given (mark_attendance, and a coach's coach_mark_attendance in
-- 22_coaches.sql): 'attended', or clearing a mark, from attendance_opens_before() before the start,
-- as people arrive; 'no_show' only once the class has started, because until then the member may
-- still come (and mark_no_shows waits no_show_after() past the start for the same reason).
create function private.require_attendance_open(p_start_time timestamptz, p_status text)
returns void
language plpgsql stable set search_path = ''
as $$
begin
  if now() < p_start_time - private.attendance_opens_before() then
    raise exception 'Attendance can be marked from 1 hour before the class starts'
      using errcode = 'P0001', hint = 'attendance_too_early';
  end if;
  if p_status = 'no_show' and now() < p_start_time then
    raise exception 'A no-show can be marked once the class has started'
      using errcode = 'P0001', hint = 'no_show_too_early';
  end if;
end;
$$;

revoke execute on function private.require_attendance_open(timestamptz, text) from public;

-- Admin only. p_status 'attended' | 'no_show' (text, so an unknown value gets the contract's
-- refusal), or null to clear the mark; when, require_attendance_open says.
create or replace function private.mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_start timestamptz;
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('attended', 'no_show') then
    raise exception 'Unknown attendance status' using errcode = '22023', hint = 'invalid_attendance';
  end if;
  select b.* into v_booking from public.bookings b where b.id = p_booking_id for update;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002', hint = 'booking_not_found';
  end if;
  select c.start_time into v_start from public.classes c where c.id = v_booking.class_id;
  perform private.require_attendance_open(v_start, p_status);
  update public.bookings
     set attendance = p_status::public.attendance_status,
         attendance_marked_at = case when p_status is null then null else now() end
   where id = v_booking.id
  returning * into v_booking;
  return (v_booking.id, v_booking.class_id, v_booking.attendance, v_booking.attendance_marked_at)::public.attendance_mark;
end;
$$;

-- mark_attendance's rules (require_attendance_open: 'attended' or null to clear from
-- attendance_opens_before() before the start, 'no_show' once it started; never books) for a
-- booking in a class the caller coaches.
create or replace function private.coach_mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_class public.classes;
begin
  perform private.require_coach();
  if p_status is not null and p_status not in ('attended', 'no_show') then
    raise exception 'Unknown attendance status' using errcode = '22023', hint = 'invalid_attendance';
  end if;
  select b.* into v_booking from public.bookings b where b.id = p_booking_id;
  if not found then
    raise exception 'This is not one of your classes' using errcode = '42501', hint = 'not_your_class';
  end if;
  v_class := private.require_coach_of(v_booking.class_id);
  select b.* into v_booking from public.bookings b where b.id = p_booking_id for update;
  perform private.require_attendance_open(v_class.start_time, p_status);
  update public.bookings
     set attendance = p_status::public.attendance_status,
         attendance_marked_at = case when p_status is null then null else now() end
   where id = v_booking.id
  returning * into v_booking;
  return (v_booking.id, v_booking.class_id, v_booking.attendance, v_booking.attendance_marked_at)::public.attendance_mark;
end;
$$;
