-- An admin's move of a One-to-One session respects the package's weekly cap in the new week, with
-- a message naming that week's sessions (issue 26; decision 0020 said the admin decided).
create or replace function private.admin_move_session(p_booking_id uuid, p_to_class_id uuid)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_from public.classes;
  v_to public.classes;
  v_credit public.credits;
  v_week timestamptz;
  v_week_count integer;
  v_week_sessions text;
begin
  perform private.require_admin();
  select * into v_booking from public.bookings where id = p_booking_id;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002', hint = 'booking_not_found';
  end if;
  perform 1 from public.classes c where c.id in (v_booking.class_id, p_to_class_id) order by c.id for update;
  select * into v_booking from public.bookings where id = p_booking_id;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002', hint = 'booking_not_found';
  end if;
  select * into v_from from public.classes where id = v_booking.class_id;
  select * into v_to from public.classes where id = p_to_class_id;
  if v_to.id is null then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  perform 1 from public.members where id = v_booking.member_id for no key update;
  if v_from.type <> 'One-to-One' or v_to.type <> 'One-to-One' then
    raise exception 'Only One-to-One sessions are moved here' using errcode = 'P0001', hint = 'not_one_to_one';
  end if;
  if v_from.start_time <= now() then
    raise exception 'This session has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  if v_to.id = v_from.id then
    raise exception 'The booking is already on this session' using errcode = '22023', hint = 'same_session';
  end if;
  if v_to.start_time <= now() then
    raise exception 'The new session has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  if v_to.spots_left <= 0 then
    raise exception 'The new session is already booked' using errcode = 'P0001', hint = 'class_full';
  end if;
  if v_booking.payment_status <> 'completed' then
    raise exception 'This booking is waiting for its payment' using errcode = 'P0001', hint = 'payment_pending';
  end if;
  select * into v_credit from public.credits where booking_id = v_booking.id;
  if v_credit.id is not null and v_credit.expires_at <= v_to.start_time then
    raise exception 'The session''s credit expires on %, before the new time', private.london_date_text(v_credit.expires_at)
      using errcode = 'P0001', hint = 'credit_expires_before';
  end if;
  -- The package's weekly cap holds for the new week too (the sessions already there are named).
  if v_credit.weekly_cap is not null then
    v_week := private.london_week_start(v_to.start_time);
    select count(*), string_agg(to_char(k.start_time at time zone 'Europe/London', 'Dy FMDD Mon HH24:MI'), ', ' order by k.start_time)
      into v_week_count, v_week_sessions
      from public.credits u join public.bookings b on b.id = u.booking_id join public.classes k on k.id = b.class_id
     where u.grant_key = v_credit.grant_key and u.kind = v_credit.kind and b.id <> v_booking.id
       and k.start_time >= v_week and k.start_time < v_week + interval '7 days';
    if v_week_count >= v_credit.weekly_cap then
      raise exception 'The package allows % sessions a week, and that week the member has booked %', v_credit.weekly_cap, v_week_sessions
        using errcode = 'P0001', hint = 'weekly_cap_reached';
    end if;
  end if;

  update public.bookings set class_id = v_to.id where id = v_booking.id;
  perform private.enqueue_class_email('class_moved', v_booking.member_id, v_to.id, v_booking.id,
                                      p_dedupe_key => 'session_moved:' || v_booking.id || ':' || v_to.id,
                                      p_was => v_from.start_time);
  return v_booking.id;
end;
$$;

revoke execute on function private.admin_move_session(uuid, uuid) from public;

grant execute on function private.admin_move_session(uuid, uuid) to authenticated, service_role;
