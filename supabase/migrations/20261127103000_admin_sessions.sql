-- Admins book a member into a One-to-One session with their credit, and move a session (the
-- credit follows the booking) (issue 26). Definitions from supabase/schemas/16_personal_training.sql.

-- Admins: booking a member into a session, moving a session ------------------------------------
-- An admin books a member into a One-to-One session with the member's personal-training credit
-- that expires first (the member's own rules: started, already booked, full, the package's weekly
-- cap; no credit: the price, to be paid by the member on Personal training). Class row first, then
-- the member row, as every booking path locks them. The member is emailed as for their own booking.
create function private.admin_book_one_to_one(p_member_id uuid, p_class_id uuid)
returns public.booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_refusal text;
  v_choice public.credit_choice;
  r public.booking_result;
begin
  perform private.require_admin();
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_class.type <> 'One-to-One' then
    raise exception 'Credits are for One-to-One sessions' using errcode = 'P0001', hint = 'credit_not_for_class';
  end if;
  v_refusal := private.booking_refusal(v_member, v_class, 'payg');
  if v_refusal = 'already_booked' then
    raise exception 'The member is already booked on this session' using errcode = '23505', hint = v_refusal;
  elsif v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;
  v_choice := private.credit_for(v_member.id, v_class);
  if v_choice.credit_id is null then
    raise exception '%', case v_choice.refusal
        when 'no_credit' then 'The member has no personal-training session to use for this session: it is '
                              || private.gbp(v_class.price_payg) || ', paid by the member on Personal training.'
        else v_choice.message end
      using errcode = 'P0001', hint = v_choice.refusal;
  end if;

  r.booking_id := private.create_booking(v_member.id, v_class.id, 'credit');
  update public.credits set booking_id = r.booking_id, used_at = now() where id = v_choice.credit_id;
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_id);

  r.status := 'booked';
  r.class_id := v_class.id;
  r.booking_type := 'credit';
  r.payment_status := 'completed';
  r.needs_payment := false;
  r.price_payg := v_class.price_payg;
  r.previous_tier := v_member.membership_tier;
  r.tier := v_member.membership_tier;
  r.trial_used := v_member.has_used_trial;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.admin_book_one_to_one(uuid, uuid) from public;

grant execute on function private.admin_book_one_to_one(uuid, uuid) to authenticated, service_role;

-- An admin moves a member's One-to-One session to another free session (another time or
-- trainer). The booking itself moves, so the credit that paid for it (or the card payment)
-- follows it; the credit must still be valid at the new time. Both class rows are locked in id
-- order (no deadlock with a move the other way), then the member row. The member is emailed the
-- new time. Returns the moved booking's id.
create function private.admin_move_session(p_booking_id uuid, p_to_class_id uuid)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_from public.classes;
  v_to public.classes;
  v_credit public.credits;
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

  update public.bookings set class_id = v_to.id where id = v_booking.id;
  perform private.enqueue_class_email('class_moved', v_booking.member_id, v_to.id, v_booking.id,
                                      p_dedupe_key => 'session_moved:' || v_booking.id || ':' || v_to.id,
                                      p_was => v_from.start_time);
  return v_booking.id;
end;
$$;

revoke execute on function private.admin_move_session(uuid, uuid) from public;

grant execute on function private.admin_move_session(uuid, uuid) to authenticated, service_role;

create function public.admin_book_one_to_one(p_member_id uuid, p_class_id uuid)
returns public.booking_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_book_one_to_one(p_member_id, p_class_id) $$;

revoke execute on function public.admin_book_one_to_one(uuid, uuid) from public, anon;

grant execute on function public.admin_book_one_to_one(uuid, uuid) to authenticated, service_role;

create function public.admin_move_session(p_booking_id uuid, p_to_class_id uuid)
returns uuid
language sql volatile security invoker set search_path = ''
as $$ select private.admin_move_session(p_booking_id, p_to_class_id) $$;

revoke execute on function public.admin_move_session(uuid, uuid) from public, anon;

grant execute on function public.admin_move_session(uuid, uuid) to authenticated, service_role;

