-- Self check-in with back-to-back classes: the door code checks in to the booking not yet marked
-- attended (nearest first), so a second class in the window is reachable (issue 28).
create or replace function private.check_in_with_code(p_code text)
returns public.check_in_result
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_now timestamptz := now();
  v_result public.check_in_result;
begin
  if not exists (select 1 from public.door_codes d
                  where d.day = (v_now at time zone 'Europe/London')::date and d.code = btrim(coalesce(p_code, ''))) then
    raise exception 'That is not today''s door code. Check the code at the door and try again.'
      using errcode = 'P0001', hint = 'check_in_wrong_code';
  end if;
  select b.id, c.id, c.name, c.start_time into v_result
    from public.bookings b join public.classes c on c.id = b.class_id
   where b.member_id = v_member.id and b.payment_status = 'completed'
     and c.start_time between v_now - private.no_show_after() and v_now + private.self_check_in_opens_before()
   -- Back-to-back classes: the code checks in to the one not yet marked, the nearest first.
   order by b.attendance is not distinct from 'attended', abs(extract(epoch from c.start_time - v_now)), c.start_time
   limit 1;
  if v_result.booking_id is null then
    raise exception 'You have no booking for a class starting now. Book the class first, then check in.'
      using errcode = 'P0001', hint = 'check_in_no_booking';
  end if;
  update public.bookings
     set attendance = 'attended', attendance_marked_at = v_now
   where id = v_result.booking_id and attendance is distinct from 'attended';
  return v_result;
end;
$$;
