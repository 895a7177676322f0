-- A change the studio makes costs the member nothing: a class moved before it started may be
-- cancelled free by everyone who booked before the move, whatever the new time (money, session
-- credit and plan class back). Before, a pay-as-you-go member who could not make a class moved to
-- 20 minutes away cancelled "late", and the studio kept the £10.
alter table public.classes add column studio_changed_at timestamptz;

create or replace function private.classes_keep_spots()
returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.current_bookings := 0;
    new.studio_changed_at := null;
  elsif new.start_time is distinct from old.start_time and old.start_time > now() then
    new.studio_changed_at := now();
  else
    new.studio_changed_at := old.studio_changed_at;
  end if;
  -- Only an admin's write gets this far (the row policies refuse anyone else, after this trigger).
  if current_user = 'authenticated' and new.start_time <= now()
     and (tg_op = 'INSERT' or new.start_time is distinct from old.start_time) and (select private.is_admin()) then
    raise exception 'The class must start in the future' using errcode = '22023', hint = 'class_in_past';
  end if;
  if new.capacity < new.current_bookings then
    raise exception '% booked on this class, so the capacity cannot be less than %',
      case new.current_bookings when 1 then '1 member is' else new.current_bookings || ' members are' end,
      new.current_bookings
      using errcode = '23514', hint = 'capacity_below_bookings';
  end if;
  new.spots_left := new.capacity - new.current_bookings;
  return new;
end;
$$;

revoke execute on function private.classes_keep_spots() from public;

create function private.booking_late_cancel_from(p_class public.classes, p_booked_at timestamptz)
returns timestamptz
language sql immutable set search_path = ''
as $$
  select case when p_class.studio_changed_at > p_booked_at then null else private.late_cancel_from(p_class) end
$$;

revoke execute on function private.booking_late_cancel_from(public.classes, timestamptz) from public;

grant execute on function private.booking_late_cancel_from(public.classes, timestamptz) to authenticated, service_role;

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
        and coalesce(now() >= private.booking_late_cancel_from(v_class, v_booking.booked_at), false);
  if r.late then
    insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
    values (v_booking.member_id, v_booking.class_id, v_booking.id, v_booking.type, v_booking.booked_at, v_class.start_time);
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

  select * into v_booking from public.bookings b
   where b.member_id = p_member.id and b.class_id = p_class.id and b.dependant_id is null;
  if found then
    r.my_booking_id := v_booking.id;
    r.my_payment_status := v_booking.payment_status;
    r.my_hold_expires_at := v_booking.hold_expires_at;
    -- The caller's own booking may be free to cancel to the end (the studio moved the class).
    r.late_cancel_from := private.booking_late_cancel_from(p_class, v_booking.booked_at);
  end if;
  select w.seq into v_seq from public.class_waitlist w where w.member_id = p_member.id and w.class_id = p_class.id;
  if found then
    r.my_waitlist_position := private.waitlist_position(p_class.id, v_seq);
  end if;
  return r;
end;
$$;

revoke execute on function private.schedule_facts(public.classes, public.members, boolean) from public;

create or replace function public.my_bookings()
returns setof public.my_booking
language sql stable security invoker set search_path = ''
as $$
  select b.id, b.class_id, b.type::text, b.payment_status::text, b.booked_at, b.hold_expires_at,
         c.name, c.trainer, c.start_time, c.duration, c.description,
         case when b.payment_status = 'completed' then private.booking_late_cancel_from(c, b.booked_at) end,
         b.dependant_id, d.name
    from public.bookings b
    join public.classes c on c.id = b.class_id
    left join public.dependants d on d.id = b.dependant_id
   where b.member_id = (select private.current_member_id())
     and (b.payment_status = 'completed' or b.hold_expires_at > now())
   order by c.start_time desc, b.dependant_id is not null, d.name, b.id
$$;

revoke execute on function public.my_bookings() from public, anon;

grant execute on function public.my_bookings() to authenticated, service_role;

create or replace function private.enqueue_class_email(
  p_kind text,
  p_member_id uuid,
  p_class_id uuid,
  p_booking_id uuid,
  p_late boolean default false,
  p_dedupe_key text default null,
  -- Why the studio cancelled the booking (a cancellation email), e.g. 'the studio is closed'.
  p_reason text default null,
  -- The class's start before the studio moved it (a class_moved email).
  p_was timestamptz default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_when text;
  v_where text := private.studio_address();
  v_hello text;
  v_subject text;
  v_body text;
  v_links jsonb;
  v_manage jsonb := jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings');
  v_refund numeric;
  v_id uuid;
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
  v_hello := 'Hi ' || coalesce(nullif(btrim(v_member.name), ''), 'there') || ',';

  case p_kind
    when 'booking_confirmed' then
      v_subject := 'Booking confirmed: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'You are booked on ' || v_class.name || ' with ' || v_class.trainer || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Plans change? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    when 'waitlist_promoted' then
      v_subject := 'A spot opened: you are booked on ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'A spot opened on ' || v_class.name || ' with ' || v_class.trainer
          || ' and you were next on the waitlist, so you are now booked.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it any more? Cancel from My Bookings so the next person on the waitlist gets the spot.');
      v_links := jsonb_build_array(v_manage);
    when 'booking_cancelled' then
      v_subject := 'Booking cancelled: ' || v_class.name || ', ' || v_when;
      -- What this cancellation owes the member back (recorded by the refunds triggers just now).
      select sum(ro.amount) into v_refund
        from public.refunds_owed ro join public.payments p on p.id = ro.payment_id
       where p.member_id = v_member.id and p.class_id = v_class.id and ro.refunded_at is null and ro.created_at = now();
      v_body := concat_ws(E'\n\n', v_hello,
        'Your booking for ' || v_class.name || ' with ' || v_class.trainer || ' has been cancelled'
          || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        case
          when p_late then
            'This was a late cancellation (less than ' || private.interval_text(v_class.late_cancel_window)
              || ' before the start), so the class still counts against your plan this month.'
          when p_reason is not null then 'It does not count against your plan.'
        end,
        'The ' || private.gbp(v_refund) || ' you paid by card will be refunded to your card; you will get a receipt when it is.');
      v_links := jsonb_build_array(v_manage,
        jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'class_moved' then
      v_subject := 'Class moved: ' || v_class.name || ' is now ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has moved ' || v_class.name || ' with ' || v_class.trainer || '. Your place is kept.',
        'Was: ' || private.london_time_text(p_was) || E'\n' || 'Now: ' || v_when || ' (London time)'
          || E'\n' || 'Where: ' || v_where,
        'If the new time does not suit you, cancel from My Bookings: as the studio moved the class, '
          || 'cancelling is free at any time before it starts, and anything you paid or used for it comes back.');
      v_links := jsonb_build_array(v_manage);
    when 'class_reminder' then
      v_subject := 'Reminder: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'See you soon at ' || v_class.name || ' with ' || v_class.trainer || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;

  insert into public.notification_outbox (kind, to_email, member_id, class_id, booking_id, subject, body_text, links, dedupe_key)
  values (p_kind, v_member.email, v_member.id, v_class.id, p_booking_id, v_subject, v_body, v_links, p_dedupe_key)
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text, timestamptz) from public;
