-- A class the studio removes tells the members waiting for a place in it: their waitlist place
-- went with the class (nobody is promoted into a class that goes) and nobody told them. Outbox
-- kind waitlist_cancelled ('Class cancelled: <class>, <when>', why, "You are no longer on its
-- waitlist.", a link to book another class), once per member, none to a member already told as
-- booked.
--
-- Replaced (same signatures): private.enqueue_class_email, private.classes_tell_members_removed.

alter table public.notification_outbox drop constraint notification_outbox_kind_check;

alter table public.notification_outbox add constraint notification_outbox_kind_check
  check (kind in ('booking_confirmed', 'booking_cancelled', 'waitlist_promoted', 'class_reminder', 'contact_message',
                  'renewal_receipt', 'payment_failed', 'membership_ended', 'trial_ending', 'renewal_reminder',
                  'credits_expiring', 'payment_receipt', 'refund_receipt', 'class_moved', 'guest_invited',
                  'guest_cancelled', 'studio_message', 'win_back', 'waitlist_cancelled'));

-- Queues one email about a member's booking of a class. Returns the outbox row id, or null when
-- the member or class no longer exists or the dedupe key was already used.
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
        'If the new time does not suit you, cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the new start still counts against your plan.');
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

-- Deleting a class that has not started (by an admin, a closure or a regeneration) tells everyone
-- in it why (decision 0037). Each member with a confirmed place gets one email, however many
-- places they had (a parent booked with their children: what they paid that is owed back is
-- summed in it), and each place is kept for their Cancelled tab. Each member waiting for a place
-- is told they are off its waitlist (nobody is promoted into a class that goes). Each guest with a
-- confirmed place gets the guest's own cancellation email (enqueue_guest_email, 14_guests.sql: no
-- cancel link, the class is gone). It is sent from here because the guest places go by cascade
-- only once the class row is gone, when the guests' own trigger can no longer read the class to
-- write it; its dedupe key keeps it to one. BEFORE DELETE, while the class, its bookings, waitlist
-- and guest places are readable; the trigger's name sorts after classes_record_refunds_owed, so
-- the refund it records is already there to mention.
create or replace function private.classes_tell_members_removed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_told uuid[] := '{}';
begin
  if old.start_time <= now() then
    return old;
  end if;
  for v_booking in
    select b.* from public.bookings b
     where b.class_id = old.id and b.payment_status = 'completed'
     order by b.booked_at, b.id
  loop
    if not v_booking.member_id = any (v_told) then
      perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, old.id, v_booking.id,
                                          p_reason => private.class_removal_why());
      v_told := v_told || v_booking.member_id;
    end if;
    perform private.remember_cancellation(v_booking, old, 'studio', private.class_removal_why());
  end loop;
  perform private.enqueue_class_email('waitlist_cancelled', w.member_id, old.id, null,
                                      p_reason => private.class_removal_why())
     from public.class_waitlist w
    where w.class_id = old.id and not w.member_id = any (v_told);
  perform private.enqueue_guest_email('guest_cancelled', g)
     from public.guest_places g
    where g.class_id = old.id and g.payment_status = 'completed';
  return old;
end;
$$;

revoke execute on function private.classes_tell_members_removed() from public;
