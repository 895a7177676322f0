-- Web Push (decision 0023): notifications on a member's devices, beside the emails.
--
-- A member turns pushes on per device (public.push_subscriptions, declared with the deliveries in
-- 10_notifications.sql: the browser's push endpoint and the keys its payloads are encrypted with), chooses which kinds they want in the one preferences grid
-- (notification_preferences, channel 'push', decision 0091), and when reminders come and their
-- quiet hours (push_preferences: one row per member; no row = the defaults). Pushes are
-- queued as deliveries of the notification pipeline (channel 'push', decision 0040), one per event and
-- device, in the same transaction as the email about the same event: a waitlist promotion, a class moved, a class cancelled or a studio closure, a
-- payment that failed (email stays the record for money: the push only points to it), and a
-- reminder before an early class. A sender (netlify/lib/push) takes due rows with
-- dequeue_pushes(p_now), which holds back what falls in the member's quiet hours and drops what is
-- no longer worth saying, encrypts each for its device and posts it to the push service. A device
-- the push service no longer knows (404 or 410) is removed with its queued pushes.

-- Where pushes may go ------------------------------------------------------------------------------
-- The sender POSTs each push to its device's endpoint, which a member's browser hands over through
-- save_push_subscription: any address accepted here is one the studio's functions will request, so
-- a member could aim them at an address of their choosing. Only the push services browsers
-- subscribe through are accepted: Google's FCM (Chrome, Edge on Android, Samsung Internet, Opera),
-- Mozilla's autopush (Firefox), Apple's (Safari), Microsoft's WNS (Edge on Windows). The local
-- stack's own push service listens on loopback (supabase/local/push); loopback is accepted only
-- where private.push_settings says so, which the stack writes on every start
-- (supabase/local/gateway.sql, never applied to hosted) and no API role can write. The sender
-- keeps the same list (netlify/lib/push/push-endpoint.ts).
create table private.push_settings (
  id boolean primary key default true check (id),
  -- True only on the local stack: its push service at http://127.0.0.1:<port>/push/v1/send/<id>.
  local_push_service boolean not null default false
);

revoke all on private.push_settings from public, anon, authenticated, service_role;

insert into private.push_settings default values;

create function private.push_endpoint_allowed(p_endpoint text)
returns boolean
language sql stable set search_path = ''
as $$
  select coalesce(
    char_length(p_endpoint) <= 2000
    and (p_endpoint ~ '^https://(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com|web\.push\.apple\.com|[a-z0-9-]+\.notify\.windows\.com)/'
         or (p_endpoint ~ '^https?://(127\.0\.0\.1|localhost)(:[0-9]{1,5})?/'
             and (select s.local_push_service from private.push_settings s))),
    false)
$$;

revoke execute on function private.push_endpoint_allowed(text) from public;

-- Preferences --------------------------------------------------------------------------------------
-- When pushes come; whether they come at all is the grid's (notification_preferences).
create table public.push_preferences (
  member_id uuid primary key references public.members (id) on delete cascade,
  -- How long before an early class (push_early_class_before) the reminder comes; null = the
  -- default lead (push_default_reminder_minutes). Whether it comes: the grid's push reminders cell.
  reminder_minutes integer default 60
    constraint push_preferences_reminder_minutes_check check (reminder_minutes in (30, 60, 120, 720)),
  -- London times between which nothing is pushed (overnight when from > until); both or neither.
  quiet_from time,
  quiet_until time,
  updated_at timestamptz not null default now(),
  constraint push_preferences_quiet_hours_check
    check ((quiet_from is null and quiet_until is null)
           or (quiet_from is not null and quiet_until is not null and quiet_from <> quiet_until))
);

comment on table public.push_preferences is
  'When a member''s pushes come (reminder lead, quiet hours). Written by set_push_preferences; no row = the defaults.';

alter table public.push_preferences enable row level security;

revoke all on public.push_preferences from public, anon, authenticated;

grant select on public.push_preferences to authenticated;

grant all on public.push_preferences to service_role;

-- The pushes as the push outbox used to hold them (read-only: written through enqueue_push).
create view public.push_outbox with (security_invoker = true) as
  select d.id, d.subscription_id, e.member_id, e.type as kind, d.subject as title, d.body_text as body,
         d.links -> 0 ->> 'path' as path, e.class_id, e.booking_id,
         e.idempotency_key || ':' || d.subscription_id::text as dedupe_key, d.created_at, d.next_attempt_at,
         d.expires_at, d.sent_at, d.attempts, d.last_error, d.failed_at, d.event_id
    from public.notification_deliveries d
    join public.notification_events e on e.id = d.event_id
   where d.channel = 'push';

revoke all on public.push_outbox from public, anon, authenticated;

grant select on public.push_outbox to service_role;

-- Rules, named once ------------------------------------------------------------------------------
-- An early class: one starting before this London time (the 06:00 Breakfast Club and the like).
create function private.push_early_class_before()
returns time
language sql immutable set search_path = ''
as $$ select time '09:00' $$;

revoke execute on function private.push_early_class_before() from public;

-- The reminder lead of a member without preferences.
create function private.push_default_reminder_minutes()
returns integer
language sql immutable set search_path = ''
as $$ select 60 $$;

revoke execute on function private.push_default_reminder_minutes() from public;

-- How far ahead the reminders job queues (its period: hourly); each waits for its own time.
create function private.push_reminder_horizon()
returns interval
language sql immutable set search_path = ''
as $$ select interval '1 hour' $$;

revoke execute on function private.push_reminder_horizon() from public;

-- When the quiet hours around p_now end (London), or null when p_now is not in them.
create function private.quiet_hours_end(p_from time, p_until time, p_now timestamptz)
returns timestamptz
language sql stable set search_path = ''
as $$
  with l as (select (p_now at time zone 'Europe/London') as at_london)
  select case
           when p_from is null or p_until is null then null
           when (p_from < p_until and l.at_london::time >= p_from and l.at_london::time < p_until)
             or (p_from > p_until and (l.at_london::time >= p_from or l.at_london::time < p_until))
           then (l.at_london::date + p_until
                 + case when p_until <= l.at_london::time then interval '1 day' else interval '0' end)
                at time zone 'Europe/London'
         end
    from l
$$;

revoke execute on function private.quiet_hours_end(time, time, timestamptz) from public;

-- Texts wake people: without quiet hours of their own, a member gets none between these London times.
create function private.sms_quiet_from()
returns time
language sql immutable set search_path = ''
as $$ select time '21:00' $$;

revoke execute on function private.sms_quiet_from() from public;

create function private.sms_quiet_until()
returns time
language sql immutable set search_path = ''
as $$ select time '08:00' $$;

revoke execute on function private.sms_quiet_until() from public;

-- As of p_now, before a channel's sender takes its due deliveries (pushes, texts): one in its
-- member's quiet hours waits for their end (texts: the studio's quiet hours when the member chose
-- none, sms_quiet_from to sms_quiet_until); one whose class starts before it could go, or a reminder whose booking
-- is no longer confirmed, is dropped (failed, 'expired: ...'; not an admin's to retry).
create function private.hold_and_expire_deliveries(p_channel text, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  update public.notification_deliveries o
     set next_attempt_at = q.ends
    from public.notification_events e
    left join public.push_preferences p on p.member_id = e.member_id
    cross join lateral (
      select private.quiet_hours_end(
               case when p.quiet_from is null and p_channel = 'sms' then private.sms_quiet_from() else p.quiet_from end,
               case when p.quiet_from is null and p_channel = 'sms' then private.sms_quiet_until() else p.quiet_until end,
               p_now) as ends) q
   where e.id = o.event_id and o.channel = p_channel
     and o.sent_at is null and o.failed_at is null and o.next_attempt_at <= p_now
     and q.ends is not null;

  update public.notification_deliveries o
     set failed_at = p_now,
         last_error = case when o.expires_at <= p_now then 'expired: the class has started'
                           else 'expired: the class starts before the quiet hours end' end
   where o.channel = p_channel and o.sent_at is null and o.failed_at is null and o.expires_at is not null
     and (o.expires_at <= p_now or o.next_attempt_at >= o.expires_at);

  update public.notification_deliveries o
     set failed_at = p_now, last_error = 'expired: the booking is no longer confirmed'
    from public.notification_events e
   where e.id = o.event_id and e.type = 'class_reminder' and o.channel = p_channel
     and o.sent_at is null and o.failed_at is null and o.next_attempt_at <= p_now
     and not exists (select 1 from public.bookings b where b.id = e.booking_id and b.payment_status = 'completed');
end;
$$;

revoke execute on function private.hold_and_expire_deliveries(text, timestamptz) from public;

-- Queues the push delivery of an event for every device of its member, if they want pushes of its
-- type: one per event and device, ever (a second call queues nothing). Returns how many devices
-- it was queued for.
create function private.enqueue_push_for_event(
  p_event_id uuid,
  p_title text,
  p_body text,
  p_path text,
  p_send_at timestamptz default null,
  p_expires_at timestamptz default null
)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_event public.notification_events;
  v_count integer;
begin
  select * into v_event from public.notification_events e where e.id = p_event_id;
  if v_event.member_id is null or not private.notification_wanted(v_event.member_id, 'push', v_event.type) then
    return 0;
  end if;
  insert into public.notification_deliveries (event_id, channel, subscription_id, subject, body_text, links,
                                              next_attempt_at, expires_at)
  select v_event.id, 'push', s.id, left(p_title, 120), left(p_body, 300), jsonb_build_array(jsonb_build_object('path', p_path)),
         coalesce(p_send_at, now()), p_expires_at
    from public.push_subscriptions s
   where s.member_id = v_event.member_id
   order by s.created_at
  on conflict (event_id, channel, recipient) do nothing;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_push_for_event(uuid, text, text, text, timestamptz, timestamptz) from public;

-- A push that is its own event (a reminder, a class removed), keyed p_event_key. Nothing is
-- recorded for a member without devices.
create function private.enqueue_push(
  p_kind text,
  p_member_id uuid,
  p_title text,
  p_body text,
  p_path text,
  p_event_key text,
  p_class_id uuid default null,
  p_booking_id uuid default null,
  p_send_at timestamptz default null,
  p_expires_at timestamptz default null
)
returns integer
language plpgsql security definer set search_path = ''
as $$
begin
  if p_member_id is null or not private.notification_wanted(p_member_id, 'push', p_kind)
     or not exists (select 1 from public.push_subscriptions s where s.member_id = p_member_id) then
    return 0;
  end if;
  return private.enqueue_push_for_event(
    private.notification_event(p_kind, p_member_id, p_class_id, p_booking_id, p_event_key),
    p_title, p_body, p_path, p_send_at, p_expires_at);
end;
$$;

revoke execute on function private.enqueue_push(text, uuid, text, text, text, text, uuid, uuid, timestamptz, timestamptz) from public;

-- Pushes beside the emails ------------------------------------------------------------------------
-- Every email about a waitlist promotion, a moved class or a failed payment brings its push: the
-- same event, its push wording, in the same transaction (so never for a change rolled back).
create function private.notification_deliveries_push()
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

-- A class the studio removes (an admin, a closure, a regeneration) tells each member with a
-- confirmed place, as classes_tell_members_removed emails them: a closure when the studio is
-- closed that London date, otherwise a cancellation with the reason. BEFORE DELETE, while the
-- bookings are readable.
create function private.classes_push_members_removed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking record;
  v_closed boolean;
begin
  if old.start_time <= now() then
    return old;
  end if;
  v_closed := exists (select 1 from public.studio_closures c
                       where c.closed_on = (old.start_time at time zone 'Europe/London')::date);
  for v_booking in
    select b.id, b.member_id from public.bookings b
     where b.class_id = old.id and b.payment_status = 'completed'
     order by b.booked_at
  loop
    if v_closed then
      perform private.enqueue_push('studio_closure', v_booking.member_id,
        'The studio is closed on ' || private.london_date_text(old.start_time),
        old.name || ' at ' || to_char(old.start_time at time zone 'Europe/London', 'FMHH12:MI AM')
          || ' is cancelled. It does not count against your plan.',
        '/mybookings', 'class_removed:' || v_booking.id, old.id, v_booking.id, null, old.start_time);
    else
      perform private.enqueue_push('class_cancelled', v_booking.member_id, 'Class cancelled: ' || old.name,
        private.london_time_text(old.start_time) || ': ' || private.class_removal_why() || '.',
        '/mybookings', 'class_removed:' || v_booking.id, old.id, v_booking.id, null, old.start_time);
    end if;
  end loop;
  return old;
end;
$$;

revoke execute on function private.classes_push_members_removed() from public;

-- Reminders (the jobs and new bookings) ----------------------------------------------------------
-- As of p_now: a reminder for every confirmed booking of an early class (or only p_booking_id)
-- whose reminder time (the class start less the member's lead) falls before the next run, queued
-- for that time, or at once when it has passed. Once per booking (the outbox key), however often
-- it runs. Returns how many pushes (devices) were queued by this call.
create function private.queue_push_reminders(p_now timestamptz, p_booking_id uuid)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer := 0;
  v_row record;
begin
  for v_row in
    select b.id as booking_id, b.member_id, c.id as class_id, c.name, c.trainer, c.start_time, l.minutes,
           private.class_meet_at(c) as meet_at
      from public.bookings b
      join public.classes c on c.id = b.class_id
      left join public.push_preferences p on p.member_id = b.member_id
      cross join lateral (select coalesce(p.reminder_minutes, private.push_default_reminder_minutes()) as minutes) l
     where (p_booking_id is null or b.id = p_booking_id)
       and b.payment_status = 'completed'
       and c.start_time > p_now
       and c.start_time <= p_now + interval '13 hours'
       and (c.start_time at time zone 'Europe/London')::time < private.push_early_class_before()
       and private.notification_wanted(b.member_id, 'push', 'class_reminder')
       and c.start_time - make_interval(mins => l.minutes) < p_now + private.push_reminder_horizon()
       and exists (select 1 from public.push_subscriptions s where s.member_id = b.member_id)
     order by c.start_time, b.id
  loop
    v_count := v_count + private.enqueue_push('class_reminder', v_row.member_id,
      'Reminder: ' || v_row.name || ' at ' || to_char(v_row.start_time at time zone 'Europe/London', 'FMHH12:MI AM'),
      'With ' || v_row.trainer || ', ' || private.london_time_text(v_row.start_time)
        || '.' || v_row.meet_at || ' Cannot make it? Cancel from My Bookings.',
      '/mybookings', 'class_reminder:' || v_row.booking_id, v_row.class_id, v_row.booking_id,
      greatest(v_row.start_time - make_interval(mins => v_row.minutes), p_now), v_row.start_time);
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.queue_push_reminders(timestamptz, uuid) from public;

-- The hourly job: every booking's reminder due before the next run.
create function private.enqueue_push_reminders_at(p_now timestamptz)
returns integer
language sql security definer set search_path = ''
as $$ select private.queue_push_reminders(p_now, null) $$;

revoke execute on function private.enqueue_push_reminders_at(timestamptz) from public;

grant execute on function private.enqueue_push_reminders_at(timestamptz) to service_role;

create function public.enqueue_push_reminders_at(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_push_reminders_at(p_now) $$;

revoke execute on function public.enqueue_push_reminders_at(timestamptz) from public, anon, authenticated;

grant execute on function public.enqueue_push_reminders_at(timestamptz) to service_role;

-- Delivery (service role) ----------------------------------------------------------------------------
-- What a sender gets for each push: the message and the device it goes to.
create type public.outbox_push as (
  id uuid,
  kind text,
  subscription_id uuid,
  endpoint text,
  p256dh text,
  auth text,
  title text,
  body text,
  path text,
  -- A later push about the same class replaces the earlier notification on the device.
  tag text,
  attempts integer,
  expires_at timestamptz
);

-- Takes up to p_limit pushes due at p_now and marks them sent (take_deliveries: two senders never
-- take the same row). First, as of p_now, hold_and_expire_deliveries: a push in its member's quiet
-- hours waits for their end; a reminder whose booking is gone, or a push whose class starts before
-- it could go, is dropped.
create function private.dequeue_pushes(p_limit integer, p_now timestamptz)
returns setof public.outbox_push
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.hold_and_expire_deliveries('push', p_now);
  return query
    select t.id, e.type, s.id, s.endpoint, s.p256dh, s.auth, t.subject, t.body_text, coalesce(t.links -> 0 ->> 'path', '/'),
           coalesce('class:' || e.class_id::text, e.type || ':' || t.id::text), t.attempts, t.expires_at
      from private.take_deliveries('push', p_limit, p_now) t
      join public.notification_events e on e.id = t.event_id
      join public.push_subscriptions s on s.id = t.subscription_id
     order by t.created_at, t.id;
end;
$$;

revoke execute on function private.dequeue_pushes(integer, timestamptz) from public;

grant execute on function private.dequeue_pushes(integer, timestamptz) to service_role;

create function public.dequeue_pushes(p_now timestamptz, p_limit integer default 50)
returns setof public.outbox_push
language sql volatile security invoker set search_path = ''
as $$ select * from private.dequeue_pushes(p_limit, p_now) $$;

revoke execute on function public.dequeue_pushes(timestamptz, integer) from public, anon, authenticated;

grant execute on function public.dequeue_pushes(timestamptz, integer) to service_role;


-- The push service says the device is gone (404, 410): it is removed with its queued pushes.
-- Returns whether there was one to remove.
create function private.remove_gone_push_subscription(p_subscription_id uuid)
returns boolean
language sql security definer set search_path = ''
as $$
  with gone as (delete from public.push_subscriptions s where s.id = p_subscription_id returning 1)
  select exists (select 1 from gone)
$$;

revoke execute on function private.remove_gone_push_subscription(uuid) from public;

grant execute on function private.remove_gone_push_subscription(uuid) to service_role;

create function public.remove_gone_push_subscription(p_subscription_id uuid)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.remove_gone_push_subscription(p_subscription_id) $$;

revoke execute on function public.remove_gone_push_subscription(uuid) from public, anon, authenticated;

grant execute on function public.remove_gone_push_subscription(uuid) to service_role;

-- Members: devices and preferences ---------------------------------------------------------------
-- Saves this browser's subscription for the signed-in member. A browser has one endpoint whoever
-- signs in on it: saving it moves it to this member (the previous member's pushes stop there).
-- Only a push service's endpoint (push_endpoint_allowed) is saved.
create function private.save_push_subscription(p_endpoint text, p_p256dh text, p_auth text, p_device text)
returns public.push_subscriptions
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := private.current_member_id();
  v_row public.push_subscriptions;
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  if v_member_id is null then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if not private.push_endpoint_allowed(p_endpoint) then
    raise exception 'This browser gave an address for notifications that we cannot use.'
      using errcode = '22023', hint = 'invalid_push_subscription';
  end if;
  begin
    insert into public.push_subscriptions as s (member_id, endpoint, p256dh, auth, device)
    values (v_member_id, p_endpoint, p_p256dh, p_auth, coalesce(nullif(left(btrim(coalesce(p_device, '')), 120), ''), 'This device'))
    on conflict (endpoint) do update
      set member_id = excluded.member_id, p256dh = excluded.p256dh, auth = excluded.auth, device = excluded.device
    returning * into v_row;
  exception when check_violation or not_null_violation then
    raise exception 'This browser gave an address for notifications that we cannot use.'
      using errcode = '22023', hint = 'invalid_push_subscription';
  end;
  return v_row;
end;
$$;

revoke execute on function private.save_push_subscription(text, text, text, text) from public;

grant execute on function private.save_push_subscription(text, text, text, text) to authenticated;

create function public.save_push_subscription(p_endpoint text, p_p256dh text, p_auth text, p_device text default null)
returns public.push_subscriptions
language sql volatile security invoker set search_path = ''
as $$ select * from private.save_push_subscription(p_endpoint, p_p256dh, p_auth, p_device) $$;

revoke execute on function public.save_push_subscription(text, text, text, text) from public, anon;

grant execute on function public.save_push_subscription(text, text, text, text) to authenticated;

-- Saves when the member's pushes come: the reminder lead and quiet hours (which pushes come is the
-- preferences grid's). A changed lead takes effect for reminders not sent yet: they are queued
-- again with the new lead, at once those due before the next run.
create function private.set_push_preferences(p_reminder_minutes integer, p_quiet_from time, p_quiet_until time, p_now timestamptz)
returns public.push_preferences
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := private.current_member_id();
  v_row public.push_preferences;
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  if v_member_id is null then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if p_reminder_minutes is null or p_reminder_minutes not in (30, 60, 120, 720) then
    raise exception 'Choose when the reminder comes' using errcode = '22023', hint = 'invalid_preference';
  end if;
  if (p_quiet_from is null) <> (p_quiet_until is null) or p_quiet_from = p_quiet_until then
    raise exception 'Quiet hours need a start and a different end' using errcode = '22023', hint = 'invalid_quiet_hours';
  end if;
  insert into public.push_preferences as p (member_id, reminder_minutes, quiet_from, quiet_until, updated_at)
  values (v_member_id, p_reminder_minutes, p_quiet_from, p_quiet_until, p_now)
  on conflict (member_id) do update
    set reminder_minutes = excluded.reminder_minutes, quiet_from = excluded.quiet_from,
        quiet_until = excluded.quiet_until, updated_at = excluded.updated_at
  returning * into v_row;
  perform private.requeue_push_reminders(v_member_id, p_now);
  return v_row;
end;
$$;

revoke execute on function private.set_push_preferences(integer, time, time, timestamptz) from public;

grant execute on function private.set_push_preferences(integer, time, time, timestamptz) to authenticated;

create function public.set_push_preferences(p_reminder_minutes integer, p_quiet_from time default null, p_quiet_until time default null)
returns public.push_preferences
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_push_preferences(p_reminder_minutes, p_quiet_from, p_quiet_until, now()) $$;

revoke execute on function public.set_push_preferences(integer, time, time) from public, anon;

grant execute on function public.set_push_preferences(integer, time, time) to authenticated;

-- A member's push reminders not sent yet, queued again as of p_now (after a new lead, or push
-- reminders turned on or off in the grid): those due before the next run of the jobs at once
-- (at once when their time has passed; that run may come after the class), none when turned off.
create function private.requeue_push_reminders(p_member_id uuid, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  delete from public.notification_deliveries o
   using public.notification_events e
   where e.id = o.event_id and e.member_id = p_member_id and e.type = 'class_reminder' and o.channel = 'push'
     and o.sent_at is null and o.failed_at is null;
  perform private.queue_push_reminders(p_now, b.id)
     from public.bookings b
     join public.classes c on c.id = b.class_id
    where b.member_id = p_member_id and b.payment_status = 'completed' and c.start_time > p_now;
end;
$$;

revoke execute on function private.requeue_push_reminders(uuid, timestamptz) from public;

-- A booking confirmed between two runs of the jobs whose reminder is due before the next run (a
-- 06:00 class booked at 05:20 with a one-hour lead) gets it now, or at its time within the hour:
-- the next run would come after the class. Quiet hours still hold it at dequeue; the outbox key
-- keeps it once if the job queues it too. Cheap for a member without devices (no query of classes).
create function private.bookings_push_reminder()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (select 1 from public.push_subscriptions s where s.member_id = new.member_id) then
    perform private.queue_push_reminders(now(), new.id);
  end if;
  return null;
end;
$$;

revoke execute on function private.bookings_push_reminder() from public;

-- Row-level security and triggers ----------------------------------------------------------------
create policy "Members read their own push preferences"
  on public.push_preferences for select to authenticated
  using (member_id = (select private.current_member_id()));

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger notification_deliveries_push
  after insert on public.notification_deliveries
  for each row when (new.channel = 'email')
  execute function private.notification_deliveries_push();

create trigger classes_push_members_removed
  before delete on public.classes
  for each row execute function private.classes_push_members_removed();

create trigger bookings_push_reminder_on_insert
  after insert on public.bookings
  for each row when (new.payment_status = 'completed')
  execute function private.bookings_push_reminder();

create trigger bookings_push_reminder_on_confirm
  after update of payment_status on public.bookings
  for each row when (new.payment_status = 'completed' and old.payment_status is distinct from new.payment_status)
  execute function private.bookings_push_reminder();
