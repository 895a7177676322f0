-- A member cancelling a place locks its payment before the place, as applying the payment does: a
-- place given from the waitlist charged while its member cancelled it deadlocked (decision 0081).
create or replace function private.cancel_booking(p_booking_id uuid)
returns public.cancellation_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_class public.classes;
  r public.cancellation_result;
begin
  perform private.require_user_id();
  -- The place's payment before the place, as applying a payment takes them (a place given from the
  -- waitlist charged while the member cancels it deadlocked otherwise: decision 0081).
  perform 1 from public.payments p where p.booking_id = p_booking_id for update;
  select b.* into v_booking from public.bookings b where b.id = p_booking_id for update;
  if not found
     or not (v_booking.member_id = private.current_member_id() or private.is_admin()) then
    -- Same answer for "not yours" and "not there": nothing to learn about others' bookings.
    raise exception 'Could not cancel this booking (permission).' using errcode = '42501', hint = 'not_permitted';
  end if;
  select * into v_class from public.classes where id = v_booking.class_id;

  -- Late only for the member's own confirmed booking: an admin cancelling (the studio's call) or
  -- a member dropping an unpaid hold does not use up the plan.
  r.late := v_booking.member_id = private.current_member_id()
        and v_booking.payment_status = 'completed'
        and coalesce(now() >= private.booking_late_cancel_from(v_class, v_booking.booked_at), false);
  if r.late then
    insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
    values (v_booking.member_id, v_booking.class_id, v_booking.id, v_booking.type, v_booking.booked_at, v_class.start_time);
    -- Under an attendance policy it is a strike, and its fee is charged (28_attendance_policy.sql).
    perform private.record_attendance_incident(v_booking.member_id, v_booking.id, 'late_cancel', v_class,
                                               v_booking.booked_at, now(), now());
  end if;

  -- A member's own cancellation owes no refund; an admin's does (bookings_record_refund_owed).
  if v_booking.member_id = private.current_member_id() then
    perform set_config('app.booking_removal', 'member_cancelled', true);
  end if;
  -- A place held for a family's payment goes with the others held for it: all places or none.
  delete from public.bookings
   where id = v_booking.id
      or (v_booking.payment_status = 'pending' and family_payment_id = v_booking.family_payment_id and payment_status = 'pending');
  perform set_config('app.booking_removal', '', true);

  if v_booking.payment_status = 'completed' then
    perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, v_booking.class_id,
                                        v_booking.id, r.late);
  end if;

  r.booking_id := v_booking.id;
  r.class_id := v_booking.class_id;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_booking.class_id);
  return r;
end;
$$;

revoke execute on function private.cancel_booking(uuid) from public;

grant execute on function private.cancel_booking(uuid) to authenticated;
