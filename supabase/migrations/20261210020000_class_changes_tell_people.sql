-- Class changes tell people (decision 0042): a new coach reaches everyone booked or waitlisted by
-- their channels, once per change, several edits within the quiet period as one message. The
-- class_changed type's wording by email, push and text.

create table public.class_changes (
  class_id uuid primary key references public.classes (id) on delete cascade,
  -- The watched columns as members last heard of them (class_watched before the first edit).
  was jsonb not null,
  first_changed_at timestamptz not null,
  last_changed_at timestamptz not null
);

comment on table public.class_changes is
  'Class edits not told yet, one row per class. Written by the classes_record_change trigger; sent by send_class_changes_at.';

alter table public.class_changes enable row level security;

revoke all on public.class_changes from public, anon, authenticated;

grant all on public.class_changes to service_role;

-- Rules, named once ----------------------------------------------------------------------------------
-- How long a class must be left alone before its members are told (edits within it are one message).
create function private.class_change_quiet_period()
returns interval
language sql immutable set search_path = ''
as $$ select interval '5 minutes' $$;

revoke execute on function private.class_change_quiet_period() from public;

-- What members are told about when it changes: one line per watched column.
create function private.class_watched(p_class public.classes)
returns jsonb
language sql stable set search_path = ''
as $$
  select jsonb_build_object(
    'trainer', p_class.trainer,
    'trainer_id', p_class.trainer_id
  )
$$;

revoke execute on function private.class_watched(public.classes) from public;

-- What changed, in members' words, from the record to the class now; null when nothing did.
create function private.class_change_text(p_was jsonb, p_class public.classes)
returns text
language sql stable set search_path = ''
as $$
  select nullif(concat_ws(E'\n',
    case when p_was ->> 'trainer' is distinct from p_class.trainer
      then 'Coach: ' || p_class.trainer || ' (was ' || coalesce(p_was ->> 'trainer', 'not set') || ')' end), '')
$$;

revoke execute on function private.class_change_text(jsonb, public.classes) from public;

-- Recording -----------------------------------------------------------------------------------------
-- An edit of a watched column of a class not started yet: the first edit records the class as it
-- was; later ones only move last_changed_at (the quiet period starts again).
create function private.classes_record_change()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.start_time <= now() or private.class_watched(old) is not distinct from private.class_watched(new) then
    return null;
  end if;
  insert into public.class_changes (class_id, was, first_changed_at, last_changed_at)
  values (new.id, private.class_watched(old), now(), now())
  on conflict (class_id) do update set last_changed_at = excluded.last_changed_at;
  return null;
end;
$$;

revoke execute on function private.classes_record_change() from public;

-- Telling -------------------------------------------------------------------------------------------
-- As of p_now: every class left alone for the quiet period is told to each member with a confirmed
-- place (one message however many places) and each member on its waitlist, by email (the
-- class_changed wording of enqueue_class_email, which brings its push and text), once per change
-- (the key: the class and the time of its last edit). Classes started meanwhile, or edits undone,
-- tell nobody. Returns how many members were told.
create function private.send_class_changes_at(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_change public.class_changes;
  v_class public.classes;
  v_text text;
  v_member record;
  v_count integer := 0;
begin
  for v_change in
    select * from public.class_changes c
     where c.last_changed_at <= p_now - private.class_change_quiet_period()
     order by c.last_changed_at
     for update skip locked
  loop
    delete from public.class_changes c where c.class_id = v_change.class_id;
    select * into v_class from public.classes c where c.id = v_change.class_id;
    v_text := private.class_change_text(v_change.was, v_class);
    if v_class.id is null or v_class.start_time <= p_now or v_text is null then
      continue;
    end if;
    for v_member in
      select distinct on (b.member_id) b.member_id, b.id as booking_id
        from public.bookings b
       where b.class_id = v_class.id and b.payment_status = 'completed'
      union all
      select w.member_id, null from public.class_waitlist w
       where w.class_id = v_class.id
         and not exists (select 1 from public.bookings b
                          where b.class_id = v_class.id and b.member_id = w.member_id and b.payment_status = 'completed')
    loop
      if private.enqueue_class_email('class_changed', v_member.member_id, v_class.id, v_member.booking_id, false,
                                     'class_changed:' || v_class.id || ':' || v_member.member_id || ':'
                                       || extract(epoch from v_change.last_changed_at),
                                     v_text) is not null then
        v_count := v_count + 1;
      end if;
    end loop;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.send_class_changes_at(timestamptz) from public;

grant execute on function private.send_class_changes_at(timestamptz) to service_role;

create function public.send_class_changes_at(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.send_class_changes_at(p_now) $$;

revoke execute on function public.send_class_changes_at(timestamptz) from public, anon, authenticated;

grant execute on function public.send_class_changes_at(timestamptz) to service_role;

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
-- No column list or WHEN here: what is watched is class_watched alone.
create trigger classes_record_change
  after update on public.classes
  for each row execute function private.classes_record_change();

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
  v_type text;
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
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

create or replace function private.push_wanted(p_member_id uuid, p_kind text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select coalesce(
    (select case p_kind
              when 'waitlist_promoted' then p.waitlist_promoted
              when 'class_cancelled' then p.class_changes
              when 'class_moved' then p.class_changes
              when 'class_changed' then p.class_changes
              when 'studio_closure' then p.studio_closures
              when 'payment_failed' then p.payment_failed
              when 'class_reminder' then p.reminder_minutes is not null
            end
       from public.push_preferences p where p.member_id = p_member_id),
    true)
$$;

revoke execute on function private.push_wanted(uuid, text) from public;

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
          v_class.name || ' with ' || v_class.trainer || ', ' || private.london_time_text(v_class.start_time) || '.',
          '/mybookings', null, v_class.start_time);
      end if;
    when 'class_moved' then
      if v_class.id is not null then
        perform private.enqueue_push_for_event(v_event.id, 'Class moved: ' || v_class.name,
          'Now ' || private.london_time_text(v_class.start_time) || '. Your place is kept.',
          '/mybookings', null, v_class.start_time);
      end if;
    when 'class_changed' then
      if v_class.id is not null then
        perform private.enqueue_push_for_event(v_event.id, 'Class changed: ' || v_class.name,
          'With ' || v_class.trainer || ', ' || private.london_time_text(v_class.start_time) || '.',
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

create or replace function private.notification_deliveries_sms()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_event public.notification_events;
  v_class public.classes;
begin
  select * into v_event from public.notification_events e where e.id = new.event_id;
  select * into v_class from public.classes c where c.id = v_event.class_id;
  if v_event.member_id is null or v_class.id is null then
    return null;
  end if;
  case v_event.type
    when 'class_reminder' then
      perform private.enqueue_sms_for_event(v_event.id,
        'Reminder: ' || v_class.name || ' with ' || v_class.trainer || ', ' || private.london_time_text(v_class.start_time)
          || '. Cannot make it? Cancel in My Bookings.',
        null, v_class.start_time);
    when 'class_changed' then
      perform private.enqueue_sms_for_event(v_event.id,
        'Changed: ' || v_class.name || ', ' || private.london_time_text(v_class.start_time) || ': now with '
          || v_class.trainer || '.',
        null, v_class.start_time);
    else
      null;
  end case;
  return null;
end;
$$;

revoke execute on function private.notification_deliveries_sms() from public;
