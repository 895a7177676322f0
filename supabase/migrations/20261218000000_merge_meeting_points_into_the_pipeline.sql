-- Merges meeting points (20261213000000) into the one notification pipeline (20261210000000):
-- the class and guest emails, the email dequeue and the push texts of the pipeline say where the
-- class meets (private.class_where), and a new meeting point is a class change members are told
-- of, like a new coach (private.class_watched, decision 0042).
create or replace function private.enqueue_class_email(
  p_kind text,
  p_member_id uuid,
  p_class_id uuid,
  p_booking_id uuid,
  p_late boolean default false,
  p_dedupe_key text default null,
  -- Why the studio cancelled the booking or the class (a cancellation email), e.g. 'the studio is closed'.
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
  v_where text;
  v_hello text;
  v_subject text;
  v_body text;
  v_links jsonb;
  v_manage jsonb := jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings');
  v_refund numeric;
  v_type text;
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
  -- The class's meeting point (with its directions) or the hall (issue 42).
  v_where := private.class_where(v_class) || private.class_directions_line(v_class);
  v_hello := private.greeting(v_member.name);

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
      select bc.booking_type::text into v_type from public.booking_cancellations bc where bc.booking_id = p_booking_id;
      -- What this cancellation owes the member back (recorded by the refunds triggers just now).
      select sum(ro.amount) into v_refund
        from public.refunds_owed ro join public.payments p on p.id = ro.payment_id
       where p.member_id = v_member.id and p.class_id = v_class.id and ro.refunded_at is null and ro.created_at = now();
      v_body := concat_ws(E'\n\n', v_hello,
        'Your booking for ' || v_class.name || ' with ' || v_class.trainer || ' has been cancelled'
          || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        -- What the cancellation cost or gave back, by what the place used (remembered with it).
        case
          when p_late then
            'This was a late cancellation (less than ' || private.interval_text(v_class.late_cancel_window)
              || ' before the start), so '
              || case v_type when 'payg' then 'the payment is kept: no refund is due.'
                             when 'credit' then 'it used your personal-training session.'
                             when 'trial' then 'it used your free trial.'
                             else 'the class still counts against your plan this month.' end
          when v_type = 'credit' then 'Your personal-training session comes back to you.'
          when p_reason is not null and coalesce(v_type, 'paid') = 'paid' then 'It does not count against your plan.'
        end,
        'The ' || private.gbp(v_refund) || ' you paid by card will be refunded to your card; you will get a receipt when it is.');
      v_links := jsonb_build_array(v_manage,
        jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'waitlist_cancelled' then
      -- A member waiting for a place in a class the studio removed (p_booking_id is null).
      v_subject := 'Class cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The class you were on the waitlist for, ' || v_class.name || ' with ' || v_class.trainer
          || ', has been cancelled' || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'You are no longer on its waitlist.');
      v_links := jsonb_build_array(jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'class_moved' then
      v_subject := 'Class moved: ' || v_class.name || ' is now ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has moved ' || v_class.name || ' with ' || v_class.trainer || '. Your place is kept.',
        'Was: ' || private.london_time_text(p_was) || E'\n' || 'Now: ' || v_when || ' (London time)'
          || E'\n' || 'Where: ' || v_where,
        'If the new time does not suit you, cancel from My Bookings: as the studio moved the class, '
          || 'cancelling is free at any time before it starts, and anything you paid or used for it comes back.');
      v_links := jsonb_build_array(v_manage);
    when 'class_changed' then
      -- p_reason: what changed, one line each (class_change_text, 26_class_changes.sql).
      v_subject := 'Class changed: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has changed ' || v_class.name || ':' || E'\n' || p_reason,
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        case when p_booking_id is null then 'You are still on its waitlist.'
             else 'Your place is kept. If the change does not suit you, cancel from My Bookings.' end);
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

  return private.enqueue_email(p_kind, v_member.email, v_member.id, v_class.id, p_booking_id, v_subject, v_body, v_links,
                               p_dedupe_key);
end;
$$;

revoke execute on function private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text, timestamptz) from public;

create or replace function private.dequeue_notifications(p_limit integer, p_now timestamptz)
returns setof public.outbox_email
language sql security definer set search_path = ''
as $$
  select t.id, e.type, t.to_email::text, t.reply_to::text, t.subject, t.body_text, t.links, t.attempts,
         t.sent_at, t.created_at, c.name, c.trainer, c.start_time, private.london_time_text(c.start_time),
         t.unsubscribe_token, case when c.id is not null then private.class_where(c) end, nullif(btrim(mp.directions), ''),
         mp.map_url
    from private.take_deliveries('email', p_limit, p_now) t
    join public.notification_events e on e.id = t.event_id
    left join public.classes c on c.id = e.class_id
    left join public.meeting_points mp on mp.id = c.meeting_point_id
   order by t.created_at, t.id
$$;

revoke execute on function private.dequeue_notifications(integer, timestamptz) from public;

grant execute on function private.dequeue_notifications(integer, timestamptz) to service_role;
create or replace function private.enqueue_guest_email(p_kind text, p_place public.guest_places)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_host_member public.members;
  v_host text;
  v_when text;
  v_to text := p_place.guest_email;
  v_member_id uuid;
  v_subject text;
  v_body text;
  v_links jsonb := '[]'::jsonb;
  v_late text;
  v_paid numeric;
  v_refund numeric;
begin
  select * into v_class from public.classes where id = p_place.class_id;
  if not found then
    return null;
  end if;
  select * into v_host_member from public.members m where m.id = p_place.host_member_id;
  v_host := coalesce(nullif(btrim(v_host_member.name), ''), 'A member');
  v_when := private.london_time_text(v_class.start_time);
  case p_kind
    when 'guest_invited' then
      v_subject := 'You are booked on ' || v_class.name || ' as ' || v_host || '''s guest, ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        v_host || ' has booked you a place on ' || v_class.name || ' with ' || v_class.trainer || ' as their guest.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.class_where(v_class) || private.class_directions_line(v_class),
        'Please arrive 10 minutes early. Cannot come? Cancel with the link below so someone else can have the place.');
      v_links := jsonb_build_array(jsonb_build_object('label', 'Cancel my guest place',
                                                      'path', '/guest/cancel?token=' || p_place.cancel_token));
      -- The studio's waiver, when it has one (17_consent.sql): the guest signs it from this link
      -- before the class (the same token), unless they already signed this version as a guest.
      if not private.guest_waiver_signed(p_place.guest_email) then
        v_body := v_body || E'\n\n' || 'Before the class, please read and sign the studio''s waiver with the link below: '
          || 'you cannot take part until you have signed it.';
        v_links := jsonb_build_array(jsonb_build_object('label', 'Sign the waiver', 'path', '/guest/waiver?token=' || p_place.cancel_token))
          || v_links;
      end if;
    when 'guest_cancelled' then
      v_subject := 'Guest place cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        'Your guest place on ' || v_class.name || ' (' || v_when || ', London time) with ' || v_host || ' has been cancelled.');
    when 'host_guest_cancelled' then
      if v_host_member.id is null then
        return null;
      end if;
      v_to := v_host_member.email::text;
      v_member_id := v_host_member.id;
      v_late := 'They cancelled less than ' || private.interval_text(v_class.late_cancel_window) || ' before the start, so ';
      select p.amount into v_paid from public.payments p where p.id = p_place.payment_id;
      select sum(ro.amount) into v_refund from public.refunds_owed ro
       where ro.payment_id = p_place.payment_id and ro.refunded_at is null;
      v_subject := 'Your guest ' || btrim(p_place.guest_name) || ' cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || coalesce(nullif(btrim(v_host_member.name), ''), 'there') || ',',
        btrim(p_place.guest_name) || ' has cancelled their guest place on ' || v_class.name || ' with ' || v_class.trainer
          || ' with the link in their email. Your own booking is unchanged.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.class_where(v_class) || private.class_directions_line(v_class),
        case
          when p_place.credit_id is null then null
          when exists (select 1 from public.credits cr where cr.id = p_place.credit_id and cr.used_at is null)
            then 'Your guest pass is back: you can bring someone else.'
          else v_late || 'the guest pass stays used.'
        end,
        case
          when v_paid is null then null
          when v_refund > 0
            then 'The ' || private.gbp(v_refund) || ' you paid for their place will be refunded to your card; you will get a receipt when it is.'
          else v_late || 'the ' || private.gbp(v_paid) || ' you paid for their place is not refunded.'
        end);
      v_links := jsonb_build_array(jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings'));
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;
  return private.enqueue_email(p_kind, v_to, v_member_id, v_class.id, null, v_subject, v_body, v_links,
                               p_kind || ':' || p_place.id);
end;
$$;

revoke execute on function private.enqueue_guest_email(text, public.guest_places) from public;
create or replace function private.notification_deliveries_push()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_event public.notification_events;
  v_class public.classes;
begin
  select * into v_event from public.notification_events e where e.id = new.event_id;
  if v_event.member_id is null then
    return null;
  end if;
  select * into v_class from public.classes where id = v_event.class_id;
  case v_event.type
    when 'waitlist_promoted' then
      if v_class.id is not null then
        perform private.enqueue_push_for_event(v_event.id, 'A spot opened: you are booked',
          v_class.name || ' with ' || v_class.trainer || ', ' || private.london_time_text(v_class.start_time) || '.'
            || private.class_meet_at(v_class),
          '/mybookings', null, v_class.start_time);
      end if;
    when 'class_moved' then
      if v_class.id is not null then
        perform private.enqueue_push_for_event(v_event.id, 'Class moved: ' || v_class.name,
          'Now ' || private.london_time_text(v_class.start_time) || '. Your place is kept.' || private.class_meet_at(v_class),
          '/mybookings', null, v_class.start_time);
      end if;
    when 'class_changed' then
      if v_class.id is not null then
        perform private.enqueue_push_for_event(v_event.id, 'Class changed: ' || v_class.name,
          'With ' || v_class.trainer || ', ' || private.london_time_text(v_class.start_time) || '.'
            || private.class_meet_at(v_class),
          '/mybookings', null, v_class.start_time);
      end if;
    when 'payment_failed' then
      perform private.enqueue_push_for_event(v_event.id, new.subject,
        'The details are in the email we sent to ' || new.to_email || '.',
        coalesce(new.links -> 0 ->> 'path', '/membership'));
    else
      null;
  end case;
  return null;
end;
$$;

revoke execute on function private.notification_deliveries_push() from public;
create or replace function private.class_watched(p_class public.classes)
returns jsonb
language sql stable set search_path = ''
as $$
  select jsonb_build_object(
    'trainer', p_class.trainer,
    'trainer_id', p_class.trainer_id,
    'meeting_point_id', p_class.meeting_point_id
  )
$$;

revoke execute on function private.class_watched(public.classes) from public;

create or replace function private.class_change_text(p_was jsonb, p_class public.classes)
returns text
language sql stable set search_path = ''
as $$
  select nullif(concat_ws(E'\n',
    case when p_was ->> 'trainer' is distinct from p_class.trainer
      then 'Coach: ' || p_class.trainer || ' (was ' || coalesce(p_was ->> 'trainer', 'not set') || ')' end,
    case when p_was ->> 'meeting_point_id' is distinct from p_class.meeting_point_id::text
      then 'Where: ' || private.class_where(p_class) end), '')
$$;

revoke execute on function private.class_change_text(jsonb, public.classes) from public;
