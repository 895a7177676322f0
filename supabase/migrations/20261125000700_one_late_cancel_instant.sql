-- One late-cancel instant (issue 25): cancel_booking and schedule_facts ask
-- private.late_cancel_from instead of computing start_time - late_cancel_window themselves, so the
-- rule that decides `late` and the instant the screens show cannot drift apart. Same signatures;
-- the definitions are copied from supabase/schemas/03_bookings.sql and 05_schedule.sql.

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
        and now() >= private.late_cancel_from(v_class);
  if r.late then
    insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
    values (v_booking.member_id, v_booking.class_id, v_booking.id, v_booking.type, v_booking.booked_at, v_class.start_time);
  end if;

  -- A member's own cancellation owes no refund; an admin's does (bookings_record_refund_owed).
  if v_booking.member_id = private.current_member_id() then
    perform set_config('app.booking_removal', 'member_cancelled', true);
  end if;
  delete from public.bookings where id = v_booking.id;
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

create or replace function private.schedule_facts(p_class public.classes, p_member public.members, p_signed_in boolean)
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

  select * into v_booking from public.bookings b where b.member_id = p_member.id and b.class_id = p_class.id;
  if found then
    r.my_booking_id := v_booking.id;
    r.my_payment_status := v_booking.payment_status;
    r.my_hold_expires_at := v_booking.hold_expires_at;
  end if;
  select w.seq into v_seq from public.class_waitlist w where w.member_id = p_member.id and w.class_id = p_class.id;
  if found then
    r.my_waitlist_position := private.waitlist_position(p_class.id, v_seq);
  end if;
  return r;
end;
$$;
