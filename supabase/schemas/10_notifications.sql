-- Notifications (decision 0040): one pipeline for every channel. Something the studio tells a
-- member (a booking confirmed, a class moved, a reminder, a receipt, a come-back offer) is one
-- row of notification_events, of one type from notification_types (its category: service or
-- marketing). Each event is delivered by one row of notification_deliveries per channel and
-- recipient (an email address, a push device, a mobile number), written in the same transaction
-- as the change it reports: so nothing is sent for a change rolled back, nor lost for one that
-- was committed. A small sender per channel (SMTP email, web push, SMS) takes its due rows, and
-- every channel shares the one retry with backoff, the one failed state admins see and retry, and
-- the one idempotency key (an event's key; one delivery per event, channel and recipient).
--
-- Deliveries are rendered here (subject, plain-text body) except absolute URLs: the database does
-- not know the site's address, so `links` holds paths ('/mybookings') the sender prefixes with
-- SITE_URL. A new type is one row below plus its wording per channel (the enqueue functions).
create table public.notification_types (
  type text primary key check (type ~ '^[a-z_]{1,40}$'),
  -- Service messages (about bookings, classes, money, documents) need no consent; marketing does.
  category text not null check (category in ('service', 'marketing')),
  -- What the member sees in the preferences grid.
  label text not null check (char_length(label) between 1 and 80),
  -- The channels its wording exists for (the enqueue functions and the push and text triggers):
  -- the grid on Edit Profile offers a choice only there.
  channels text[] not null default '{email}'
    constraint notification_types_channels_check check (channels <@ array['email', 'push', 'sms'] and cardinality(channels) >= 1),
  -- Whether members may turn its email off (reminders, announcements, marketing). The others are
  -- the record of a booking, a payment or a document and always go by email (decision 0091).
  email_optional boolean not null default false
);

comment on table public.notification_types is
  'Every kind of notification, with its category. A new type is a row here plus its wording per channel.';

alter table public.notification_types enable row level security;

revoke all on public.notification_types from public, anon, authenticated;

grant select on public.notification_types to authenticated;

grant all on public.notification_types to service_role;

create policy "Members and admins read the notification types"
  on public.notification_types for select to authenticated
  using (true);

create table public.notification_events (
  id uuid primary key default gen_random_uuid(),
  type text not null references public.notification_types (type),
  member_id uuid references public.members (id) on delete set null,
  -- The class and booking it is about; no foreign keys, a cancelled class's or booking's row is gone.
  class_id uuid,
  booking_id uuid,
  -- Makes an event idempotent (one reminder per booking, one receipt per payment); null = none.
  idempotency_key text unique,
  created_at timestamptz not null default now()
);

comment on table public.notification_events is
  'What the studio tells people, once per key. Delivered by notification_deliveries, one row per channel and recipient.';

create index notification_events_member_id_idx on public.notification_events (member_id);

create index notification_events_class_id_idx on public.notification_events (class_id);

alter table public.notification_events enable row level security;

revoke all on public.notification_events from public, anon, authenticated;

grant all on public.notification_events to service_role;

-- Push devices ------------------------------------------------------------------------------------------
-- A member's browsers that receive pushes: a recipient of the push channel, declared here beside
-- the deliveries that point at it (saved and sent from 20_push.sql).
create table public.push_subscriptions (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  -- The push service's URL for this browser (https; the local stack's push service on loopback).
  endpoint text not null unique
    constraint push_subscriptions_endpoint_check
    check (char_length(endpoint) <= 2000
           and (endpoint ~ '^https://' or endpoint ~ '^http://(127\.0\.0\.1|localhost)(:[0-9]+)?/')),
  -- The browser's P-256 public key (65 bytes) and auth secret (16 bytes), base64url (RFC 8291).
  p256dh text not null constraint push_subscriptions_p256dh_check check (p256dh ~ '^[A-Za-z0-9_-]{86,88}$'),
  auth text not null constraint push_subscriptions_auth_check check (auth ~ '^[A-Za-z0-9_-]{22,24}$'),
  -- What the member sees in their list of devices (the browser's own description, shortened).
  device text not null default 'This device' check (char_length(device) between 1 and 120),
  created_at timestamptz not null default now()
);

comment on table public.push_subscriptions is
  'A member''s devices that receive pushes. Saved by save_push_subscription; members read and delete their own.';

create index push_subscriptions_member_id_idx on public.push_subscriptions (member_id);

alter table public.push_subscriptions enable row level security;

revoke all on public.push_subscriptions from public, anon, authenticated;

grant select, delete on public.push_subscriptions to authenticated;

grant all on public.push_subscriptions to service_role;

create policy "Members read their own devices"
  on public.push_subscriptions for select to authenticated
  using (member_id = (select private.current_member_id()));

create policy "Members remove their own devices"
  on public.push_subscriptions for delete to authenticated
  using (member_id = (select private.current_member_id()));

create table public.notification_deliveries (
  id uuid primary key default gen_random_uuid(),
  event_id uuid not null references public.notification_events (id) on delete cascade,
  channel text not null check (channel in ('email', 'push', 'sms')),
  -- The recipient, one per channel: an address, a device (push_subscriptions), a mobile (E.164).
  to_email extensions.citext,
  subscription_id uuid constraint notification_deliveries_subscription_id_fkey
    references public.push_subscriptions (id) on delete cascade,
  to_phone text constraint notification_deliveries_to_phone_check check (to_phone ~ '^\+[1-9][0-9]{7,14}$'),
  -- One delivery per event, channel and recipient, ever.
  recipient text not null generated always as (coalesce(subscription_id::text, to_phone, lower(to_email::text))) stored,
  -- Where a reply goes (the visitor who wrote through Contact Us).
  reply_to extensions.citext,
  -- The email's subject or the push's title (a text has none).
  subject text check (char_length(subject) between 1 and 300),
  body_text text not null check (char_length(body_text) >= 1),
  -- [{ "label": "Manage or cancel your booking", "path": "/mybookings" }, ...]; a push opens the first.
  links jsonb not null default '[]'::jsonb check (jsonb_typeof(links) = 'array'),
  -- The member's unsubscribe token, on emails members may turn off (reminders, marketing).
  unsubscribe_token text,
  created_at timestamptz not null default now(),
  -- Not handed out before this time (its send time, quiet hours, or requeue_notification's backoff).
  next_attempt_at timestamptz not null default now(),
  -- Not worth sending from this time on (the class has started).
  expires_at timestamptz,
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text,
  -- Given up on after delivery_max_attempts() failed deliveries (or expired); an admin may retry it.
  failed_at timestamptz,
  -- The provider's id for the message (an SMS's), for its status callbacks.
  provider_id text,
  constraint notification_deliveries_once unique (event_id, channel, recipient),
  constraint notification_deliveries_recipient_check check (
    (channel = 'email' and to_email is not null and subscription_id is null and to_phone is null)
    or (channel = 'push' and subscription_id is not null and to_email is null and to_phone is null and subject is not null)
    or (channel = 'sms' and to_phone is not null and to_email is null and subscription_id is null)),
  constraint notification_deliveries_failed_not_sent check (failed_at is null or sent_at is null)
);

-- Triggers other domains add to public.notification_deliveries: notification_deliveries_push
-- (20_push.sql), notification_deliveries_sms (25_sms.sql).

comment on table public.notification_deliveries is
  'Each event by each channel to each recipient. Taken by the channel senders (dequeue_notifications, dequeue_pushes, dequeue_texts).';

create index notification_deliveries_subscription_id_idx on public.notification_deliveries (subscription_id);

create index notification_deliveries_due_idx on public.notification_deliveries (channel, next_attempt_at, created_at)
  where sent_at is null and failed_at is null;

create index notification_deliveries_failed_idx on public.notification_deliveries (failed_at) where failed_at is not null;

create index notification_deliveries_provider_id_idx on public.notification_deliveries (provider_id) where provider_id is not null;

-- Service role only: members' addresses and mail are nobody else's business.
alter table public.notification_deliveries enable row level security;

revoke all on public.notification_deliveries from public, anon, authenticated;

grant all on public.notification_deliveries to service_role;

-- The emails as the one email outbox used to hold them (read-only: written through enqueue_email).
create view public.notification_outbox with (security_invoker = true) as
  select d.id, e.type as kind, d.to_email, e.member_id, e.class_id, e.booking_id, d.subject, d.body_text, d.links,
         e.idempotency_key as dedupe_key, d.created_at, d.sent_at, d.attempts, d.last_error, d.next_attempt_at,
         d.failed_at, d.reply_to, d.unsubscribe_token, d.event_id
    from public.notification_deliveries d
    join public.notification_events e on e.id = d.event_id
   where d.channel = 'email';

revoke all on public.notification_outbox from public, anon, authenticated;

grant select on public.notification_outbox to service_role;

-- The one list of types ------------------------------------------------------------------------------
insert into public.notification_types (type, category, label) values
  ('booking_confirmed', 'service', 'Booking confirmed'),
  ('booking_cancelled', 'service', 'Booking cancelled'),
  ('waitlist_promoted', 'service', 'A place from the waitlist'),
  ('waitlist_cancelled', 'service', 'A waitlisted class cancelled'),
  ('class_reminder', 'service', 'Class reminders'),
  ('class_moved', 'service', 'Class moved'),
  ('class_changed', 'service', 'Class changes (coach, time)'),
  ('class_cancelled', 'service', 'Class cancelled'),
  ('studio_closure', 'service', 'Studio closed'),
  ('contact_message', 'service', 'Contact Us messages'),
  ('renewal_receipt', 'service', 'Renewal receipts'),
  ('payment_failed', 'service', 'Failed payments'),
  ('membership_ended', 'service', 'Membership ended'),
  ('trial_ending', 'service', 'Trial ending'),
  ('renewal_reminder', 'service', 'Renewal reminders'),
  ('credits_expiring', 'service', 'Credits expiring'),
  ('payment_receipt', 'service', 'Payment receipts'),
  ('refund_receipt', 'service', 'Refund receipts'),
  ('guest_invited', 'service', 'Guest invitations'),
  ('guest_cancelled', 'service', 'Guest place cancelled'),
  ('host_guest_cancelled', 'service', 'Your guest cancelled'),
  ('studio_message', 'service', 'Messages from the studio'),
  ('document_updated', 'service', 'New versions of the studio''s documents'),
  ('membership_paused', 'service', 'Membership paused'),
  ('pause_ending', 'service', 'Your pause ends soon'),
  ('attendance_incident', 'service', 'Late cancellation and no-show fees'),
  ('referral_reward', 'service', 'Referral rewards'),
  ('direct_debit_notice', 'service', 'Direct Debit advance notices'),
  ('direct_debit_mandate_cancelled', 'service', 'Direct Debit cancelled'),
  ('direct_debit_charged_back', 'service', 'Direct Debit returned by the bank'),
  ('system_alert', 'service', 'System alerts to the studio'),
  ('import_card_request', 'service', 'A card for an imported plan'),
  ('announcement', 'service', 'Studio announcements'),
  ('review_request', 'service', 'How was your class? (review requests)'),
  ('gift_voucher', 'service', 'Gift vouchers'),
  ('win_back', 'marketing', 'Come-back offers'),
  ('marketing_announcement', 'marketing', 'News and offers');

-- Where each type is told beyond email, and which emails members may turn off (decision 0091).
update public.notification_types set channels = '{email,push}' where type in ('waitlist_promoted', 'class_moved', 'payment_failed');

update public.notification_types set channels = '{email,push,sms}' where type in ('class_reminder', 'class_changed', 'announcement', 'marketing_announcement');

update public.notification_types set channels = '{push,sms}' where type = 'class_cancelled';

update public.notification_types set channels = '{push}' where type = 'studio_closure';

update public.notification_types set email_optional = true
 where type in ('class_reminder', 'announcement', 'win_back', 'marketing_announcement', 'review_request');

-- Email delivery (decision 0008): the outbox gets retries with backoff and a failed
-- state; members choose whether they get reminder emails (and can unsubscribe from the email
-- itself); the Contact Us form is stored and emailed to the studio through the same outbox; a
-- changed login email is copied to members.email. Every time-dependent function takes "now".

-- Outbox: retries, failures, reply-to, unsubscribe ---------------------------------------------
-- No NOTIFY here: a transaction that notifies takes a lock for the whole database at commit, so
-- every booking's email would serialise the bookings' commits. Production sends on a
-- schedule; the local stack wakes its sender from its own trigger (supabase/local/gateway.sql).

-- The event of p_type with key p_key: the one already recorded under that key, else a new one
-- (no key: always a new one). Every channel's deliveries of one happening hang on it.
create function private.notification_event(p_type text, p_member_id uuid, p_class_id uuid, p_booking_id uuid, p_key text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  if p_key is not null then
    select e.id into v_id from public.notification_events e where e.idempotency_key = p_key;
    if v_id is not null then
      return v_id;
    end if;
  end if;
  insert into public.notification_events (type, member_id, class_id, booking_id, idempotency_key)
  values (p_type, p_member_id, p_class_id, p_booking_id, p_key)
  -- Two transactions recording the same key at once: the second gets the first's event.
  on conflict (idempotency_key) do update set idempotency_key = excluded.idempotency_key
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.notification_event(text, uuid, uuid, uuid, text) from public;

-- Queues one email (rendered by the caller) as the email delivery of its event. Returns the
-- delivery's id, or null when the event already has its email (or the member turned it off).
create function private.enqueue_email(
  p_kind text,
  p_to_email text,
  p_member_id uuid,
  p_class_id uuid,
  p_booking_id uuid,
  p_subject text,
  p_body text,
  p_links jsonb,
  p_dedupe_key text,
  p_reply_to text default null,
  p_send_at timestamptz default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  insert into public.notification_deliveries (event_id, channel, to_email, reply_to, subject, body_text, links, next_attempt_at)
  values (private.notification_event(p_kind, p_member_id, p_class_id, p_booking_id, p_dedupe_key), 'email', p_to_email,
          p_reply_to, p_subject, p_body, coalesce(p_links, '[]'::jsonb), coalesce(p_send_at, now()))
  on conflict (event_id, channel, recipient) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.enqueue_email(text, text, uuid, uuid, uuid, text, text, jsonb, text, text, timestamptz) from public;

-- Queues one email about a member's booking of a class. Returns the outbox row id, or null when
-- the member or class no longer exists or the dedupe key was already used.
create function private.enqueue_class_email(
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
  -- The class's meeting point (with its directions) or the hall (decision 0055).
  v_where := private.class_where(v_class) || private.class_directions_line(v_class);
  v_hello := private.greeting(v_member.name);

  case p_kind
    when 'booking_confirmed' then
      v_subject := 'Booking confirmed: ' || v_class.name || ', ' || v_when;
      -- Every place booked together, each person named (a family's: private.booking_confirmed_line).
      v_body := concat_ws(E'\n\n', v_hello,
        private.booking_confirmed_line(p_booking_id, v_class),
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

-- Booking emails from triggers ----------------------------------------------------------------
-- Confirmation email when a pay-as-you-go hold is paid (the payments RPC flips the status).
create function private.bookings_confirm_on_payment()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- One email for a family's places paid together: the payment's first place sends it.
  if old.payment_status = 'pending' and new.payment_status = 'completed'
     and (new.family_payment_id is null
          or new.id = (select p.booking_id from public.payments p where p.id = new.family_payment_id)) then
    perform private.enqueue_class_email('booking_confirmed', new.member_id, new.class_id, new.id);
  end if;
  return null;
end;
$$;

revoke execute on function private.bookings_confirm_on_payment() from public;

-- A class the studio moves or removes tells its members ------------------------------------
-- Moving a class that has not started emails everyone with a confirmed place the old and the new
-- time. Editing a class that already ran (a correction of the record) tells nobody.
create function private.classes_tell_members_moved()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking record;
begin
  if old.start_time <= now() then
    return null;
  end if;
  for v_booking in
    select b.id, b.member_id from public.bookings b
     where b.class_id = new.id and b.payment_status = 'completed'
     order by b.booked_at
  loop
    perform private.enqueue_class_email('class_moved', v_booking.member_id, new.id, v_booking.id,
                                        p_was => old.start_time);
  end loop;
  return null;
end;
$$;

revoke execute on function private.classes_tell_members_moved() from public;

-- Why the classes being deleted in this transaction go, in the members' words; set by the path
-- that deletes them (a closure, a regeneration). Unset means an admin deleted the class.
create function private.class_removal_why()
returns text
language sql stable set search_path = ''
as $$ select coalesce(nullif(current_setting('app.class_removal_why', true), ''), 'the studio cancelled the class') $$;

revoke execute on function private.class_removal_why() from public;

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
create function private.classes_tell_members_removed()
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

-- Delivery and reminders (service role; private code) -----------------------------------------
-- Delivery itself (dequeue, requeue with backoff, failures) follows below.

-- Queues a reminder for every confirmed booking of a class starting within the next
-- p_within_hours hours. Idempotent: one reminder per booking, however often it runs (the
-- scheduled function runs it hourly). Returns how many reminders were queued by this call.
create function private.enqueue_class_reminders(p_within_hours integer)
returns integer
language sql security definer set search_path = ''
as $$ select private.enqueue_class_reminders_at(p_within_hours, now()) $$;

revoke execute on function private.enqueue_class_reminders(integer) from public;

grant execute on function private.enqueue_class_reminders(integer) to service_role;

-- API (service role only: the sender and the scheduled reminders function) ------------------------
create function public.enqueue_class_reminders(p_within_hours integer default 24)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_class_reminders(p_within_hours) $$;

revoke execute on function public.enqueue_class_reminders(integer) from public, anon, authenticated;

grant execute on function public.enqueue_class_reminders(integer) to service_role;

-- Attempts at one delivery (any channel) before it is marked failed, and the wait before the next
-- attempt (1, 2, 4, 8, 16 minutes: about half an hour of provider trouble is ridden out).
create function private.delivery_max_attempts()
returns integer
language sql immutable set search_path = ''
as $$ select 6 $$;

revoke execute on function private.delivery_max_attempts() from public;

create function private.delivery_retry_delay(p_attempts integer)
returns interval
language sql immutable set search_path = ''
as $$ select make_interval(mins => least(60, power(2, greatest(coalesce(p_attempts, 1), 1) - 1)::integer)) $$;

revoke execute on function private.delivery_retry_delay(integer) from public;

-- What a sender gets for each email: the row plus the class it is about, ready to render.
create type public.outbox_email as (
  id uuid,
  kind text,
  to_email text,
  reply_to text,
  subject text,
  body_text text,
  links jsonb,
  attempts integer,
  sent_at timestamptz,
  created_at timestamptz,
  class_name text,
  class_trainer text,
  class_starts_at timestamptz,
  -- 'Monday 6 October 2025, 6:00 AM' (London), as the text body prints it.
  class_when text,
  unsubscribe_token text,
  -- Where the class meets (private.class_where), its directions and map link when not in the hall.
  class_where text,
  class_directions text,
  class_map_url text
);

-- Takes up to p_limit deliveries of one channel due at p_now, oldest first, and marks them sent
-- (sent_at = p_now, one more attempt) in the same statement. FOR UPDATE SKIP LOCKED: two senders
-- running at once never take the same row, so nothing goes out twice. A sender whose delivery
-- fails gives the row back with requeue_notification. Every channel's dequeue takes through here.
create function private.take_deliveries(p_channel text, p_limit integer, p_now timestamptz)
returns setof public.notification_deliveries
language sql security definer set search_path = ''
as $$
  update public.notification_deliveries o
     set sent_at = p_now, attempts = o.attempts + 1
   where o.id in (
     select q.id from public.notification_deliveries q
      where q.channel = p_channel and q.sent_at is null and q.failed_at is null and q.next_attempt_at <= p_now
      order by q.next_attempt_at, q.created_at, q.id
      limit greatest(1, least(coalesce(p_limit, 50), 500))
      for update skip locked)
  returning o.*
$$;

revoke execute on function private.take_deliveries(text, integer, timestamptz) from public;

-- The emails due at p_now, ready to render (with the class they are about).
create function private.dequeue_notifications(p_limit integer, p_now timestamptz)
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

create function public.dequeue_notifications(p_limit integer default 50, p_now timestamptz default now())
returns setof public.outbox_email
language sql volatile security invoker set search_path = ''
as $$ select * from private.dequeue_notifications(p_limit, p_now) $$;

revoke execute on function public.dequeue_notifications(integer, timestamptz) from public, anon, authenticated;

grant execute on function public.dequeue_notifications(integer, timestamptz) to service_role;

-- Admins: undelivered notifications, and a retry ----------------------------------------------
-- A delivery given up on (any channel), as admins see it: to_email is whom it was for (an
-- address, a device, a mobile number).
create type public.undelivered_email as (
  id uuid,
  kind text,
  to_email text,
  subject text,
  attempts integer,
  last_error text,
  created_at timestamptz,
  failed_at timestamptz,
  channel text
);

create function private.undelivered_emails()
returns setof public.undelivered_email
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    -- Not what expired unsent (a reminder after its class started): there is nothing to retry.
    select o.id, e.type, coalesce(o.to_email::text, o.to_phone, s.device, 'a removed device'),
           coalesce(o.subject, left(o.body_text, 120)), o.attempts, o.last_error, o.created_at, o.failed_at, o.channel
      from public.notification_deliveries o
      join public.notification_events e on e.id = o.event_id
      left join public.push_subscriptions s on s.id = o.subscription_id
     where o.failed_at is not null and coalesce(o.last_error, '') not like 'expired:%'
     order by o.failed_at desc, o.id
     limit 200;
end;
$$;

revoke execute on function private.undelivered_emails() from public;

grant execute on function private.undelivered_emails() to authenticated, service_role;

create function public.undelivered_emails()
returns setof public.undelivered_email
language sql stable security invoker set search_path = ''
as $$ select * from private.undelivered_emails() $$;

revoke execute on function public.undelivered_emails() from public, anon;

grant execute on function public.undelivered_emails() to authenticated, service_role;

-- Email unsubscribe tokens ---------------------------------------------------------------------
-- One row per member who has been sent an email they may stop from the email itself (a reminder,
-- a marketing email). Which emails they get is notification_preferences' (25_sms.sql, decision
-- 0091); this holds only the secret of the one-click unsubscribe link.
create table public.email_preferences (
  member_id uuid primary key references public.members (id) on delete cascade,
  -- The secret in reminder emails' unsubscribe link (64 hex characters); the email is the credential.
  unsubscribe_token text not null unique default encode(extensions.gen_random_bytes(32), 'hex')
    constraint email_preferences_token_format check (unsubscribe_token ~ '^[0-9a-f]{64}$'),
  updated_at timestamptz not null default now()
);

comment on table public.email_preferences is
  'Each member''s one-click unsubscribe token (their choices are in notification_preferences).';

alter table public.email_preferences enable row level security;

revoke all on public.email_preferences from public, anon, authenticated;

-- Not the token: it is only ever read by the sender (service role).
grant select (member_id, updated_at) on public.email_preferences to authenticated;

grant all on public.email_preferences to service_role;

-- Every email delivery passes here: an email members may turn off (email_optional: a reminder,
-- an announcement, marketing) is not queued for a member who does not want it by email
-- (notification_wanted: their choice, and marketing only with consent); enqueue_class_reminders
-- counts it as not queued and will ask again next hour, so turning reminders back on before the
-- class still brings one. Reminders and marketing emails carry the member's unsubscribe token for
-- the List-Unsubscribe header and the footer link.
create function private.notification_deliveries_prepare()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_event public.notification_events;
  v_type public.notification_types;
begin
  select * into v_event from public.notification_events e where e.id = new.event_id;
  select * into v_type from public.notification_types t where t.type = v_event.type;
  if v_event.member_id is null then
    return new;
  end if;
  if v_type.email_optional and not private.notification_wanted(v_event.member_id, 'email', v_type.type) then
    return null;
  end if;
  if v_type.type = 'class_reminder' or v_type.category = 'marketing' then
    insert into public.email_preferences (member_id) values (v_event.member_id) on conflict (member_id) do nothing;
    select p.unsubscribe_token into new.unsubscribe_token from public.email_preferences p where p.member_id = v_event.member_id;
  end if;
  return new;
end;
$$;

revoke execute on function private.notification_deliveries_prepare() from public;

-- Marketing consent (UK PECR and UK GDPR) ---------------------------------------------------------
-- What each member agreed to about news and offers, when, where and in which words: append-only,
-- the latest row is their choice (notification_wanted reads it for every marketing message). Service emails (about
-- bookings and money) need no consent and are not recorded here.
create table public.marketing_consents (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  granted boolean not null,
  -- The words the member ticked or unticked (marketing_consent_wording at the time).
  wording text not null check (char_length(wording) between 1 and 500),
  -- Where: a sign-up form, Edit Profile, or an email's unsubscribe link.
  source text not null check (source in ('sign_up', 'free_trial', 'profile', 'unsubscribe')),
  recorded_at timestamptz not null default now()
);

comment on table public.marketing_consents is
  'Each member''s choices about news and offers, with the wording and the time (append-only; the latest is current).';

create index marketing_consents_member_id_recorded_at_idx on public.marketing_consents (member_id, recorded_at desc);

alter table public.marketing_consents enable row level security;

revoke all on public.marketing_consents from public, anon, authenticated;

grant select on public.marketing_consents to authenticated;

grant all on public.marketing_consents to service_role;

create policy "Members read their own consents; admins read all"
  on public.marketing_consents for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- The words of the choice, as the sign-up forms and Edit Profile show them
-- (src/config/consent.ts holds the same words; a test holds the two equal).
create function private.marketing_consent_wording()
returns text
language sql immutable set search_path = ''
as $$ select 'Send me news and offers' $$;

revoke execute on function private.marketing_consent_wording() from public;

-- Records a member's choice; every marketing message follows it (notification_wanted).
create function private.record_marketing_consent(p_member_id uuid, p_granted boolean, p_source text)
returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.marketing_consents (member_id, granted, wording, source)
  values (p_member_id, p_granted, private.marketing_consent_wording(), p_source);
  return p_granted;
end;
$$;

revoke execute on function private.record_marketing_consent(uuid, boolean, text) from public;

-- Edit Profile: the signed-in member's own choice.
create function private.set_marketing_consent(p_granted boolean)
returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  if p_granted is null then
    raise exception 'Choose yes or no' using errcode = '22023', hint = 'invalid_consent';
  end if;
  return private.record_marketing_consent((private.require_member()).id, p_granted, 'profile');
end;
$$;

revoke execute on function private.set_marketing_consent(boolean) from public;

grant execute on function private.set_marketing_consent(boolean) to authenticated;

create function public.set_marketing_consent(p_granted boolean)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.set_marketing_consent(p_granted) $$;

revoke execute on function public.set_marketing_consent(boolean) from public, anon, authenticated;

grant execute on function public.set_marketing_consent(boolean) to authenticated;

-- Contact Us -----------------------------------------------------------------------------------
create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 200),
  email extensions.citext not null check (char_length(email) <= 320),
  phone text check (char_length(phone) <= 40),
  message text not null check (char_length(message) between 1 and 1500),
  -- What the enquiry is about (the plan whose Contact Us button was pressed).
  topic text check (char_length(topic) <= 200),
  created_at timestamptz not null default now(),
  handled_at timestamptz,
  handled_by uuid references public.members (id) on delete set null,
  -- The sender's address as the API saw it (the per-client rate limit counts by it).
  client_address text
);

comment on table public.contact_messages is
  'Contact Us messages. Written by submit_contact_message; admins read them and mark them handled.';

create index contact_messages_created_at_idx on public.contact_messages (created_at desc);

-- The per-address rate limit counts recent messages of one address.
create index contact_messages_email_idx on public.contact_messages (email, created_at);

create index contact_messages_handled_by_idx on public.contact_messages (handled_by);

alter table public.contact_messages enable row level security;

revoke all on public.contact_messages from public, anon, authenticated;

grant select on public.contact_messages to authenticated;

grant all on public.contact_messages to service_role;

create index contact_messages_client_idx on public.contact_messages (client_address, created_at);

-- Messages one address may send per window; one more is refused with contact_rate_limited.
create function private.contact_rate_limit()
returns integer
language sql immutable set search_path = ''
as $$ select 3 $$;

revoke execute on function private.contact_rate_limit() from public;

create function private.contact_rate_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '1 hour' $$;

revoke execute on function private.contact_rate_window() from public;

-- Admins mark a message handled (or not handled again). Returns the message.
create function private.mark_contact_message_handled(p_id uuid, p_handled boolean, p_now timestamptz)
returns public.contact_messages
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.contact_messages;
begin
  perform private.require_admin();
  update public.contact_messages
     set handled_at = case when p_handled then coalesce(handled_at, p_now) end,
         handled_by = case when p_handled then coalesce(handled_by, private.current_member_id()) end
   where id = p_id
  returning * into v_row;
  if v_row.id is null then
    raise exception 'Message not found' using errcode = 'P0002', hint = 'message_not_found';
  end if;
  return v_row;
end;
$$;

revoke execute on function private.mark_contact_message_handled(uuid, boolean, timestamptz) from public;

grant execute on function private.mark_contact_message_handled(uuid, boolean, timestamptz) to authenticated, service_role;

create function public.mark_contact_message_handled(p_id uuid, p_handled boolean default true)
returns public.contact_messages
language sql volatile security invoker set search_path = ''
as $$ select * from private.mark_contact_message_handled(p_id, coalesce(p_handled, true), now()) $$;

revoke execute on function public.mark_contact_message_handled(uuid, boolean) from public;

revoke execute on function public.mark_contact_message_handled(uuid, boolean) from anon;

grant execute on function public.mark_contact_message_handled(uuid, boolean) to authenticated, service_role;

-- A changed login email reaches the member row --------------------------------------------------
-- GoTrue writes auth.users.email once the change is confirmed; the member row (which emails and
-- the admin lists use) follows. If another member row already holds the address, the login change
-- still succeeds and the member row keeps the old address (logged), rather than failing sign-in.
create function private.members_on_auth_email_changed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.email is not null and new.email is distinct from old.email then
    begin
      update public.members set email = new.email
       where user_id = new.id and email is distinct from new.email::extensions.citext;
    exception when unique_violation then
      raise warning 'members.email not updated for user %: % is already used by another member', new.id, new.email;
    end;
  end if;
  return null;
end;
$$;

revoke execute on function private.members_on_auth_email_changed() from public;

-- Types ----------------------------------------------------------------------------------------
-- A failed delivery given back: 'retrying' (due again at next_attempt_at) or 'failed' (given up
-- on after delivery_max_attempts(); next_attempt_at null).
create type public.outbox_requeue as (
  id uuid,
  status text,
  attempts integer,
  next_attempt_at timestamptz
);

-- A failed email an admin queued again (due at once, fresh attempts).
create type public.email_retry as (
  id uuid,
  next_attempt_at timestamptz
);

-- Whose reminders an unsubscribe link turned off.
create type public.reminders_unsubscribed as (
  email text,
  class_reminders boolean
);

-- What a visitor who wrote through Contact Us is told: always 'received' (a bot's honeypot too).
create type public.contact_receipt as (
  status text
);

-- Delivery: a failed one back --------------------------------------------------------------------
-- A failed delivery (any channel: the one retry of every sender): the row waits
-- delivery_retry_delay(attempts) and goes out again, or, after delivery_max_attempts() attempts, is
-- marked failed (admins see it and may retry). Idempotent: a row that is not out for delivery is
-- left alone (no row returned).
create function private.requeue_notification(p_id uuid, p_error text, p_now timestamptz)
returns setof public.outbox_requeue
rows 1
language sql security definer set search_path = ''
as $$
  update public.notification_deliveries o
     set sent_at = null,
         last_error = left(coalesce(nullif(btrim(p_error), ''), 'unknown error'), 2000),
         failed_at = case when o.attempts >= private.delivery_max_attempts() then p_now end,
         next_attempt_at = case when o.attempts >= private.delivery_max_attempts() then o.next_attempt_at
                                else p_now + private.delivery_retry_delay(o.attempts) end
   where o.id = p_id and o.sent_at is not null and o.failed_at is null
  returning o.id,
            case when o.failed_at is null then 'retrying' else 'failed' end,
            o.attempts,
            case when o.failed_at is null then o.next_attempt_at end
$$;

revoke execute on function private.requeue_notification(uuid, text, timestamptz) from public;

grant execute on function private.requeue_notification(uuid, text, timestamptz) to service_role;

create function public.requeue_notification(p_id uuid, p_error text, p_now timestamptz default now())
returns setof public.outbox_requeue
rows 1
language sql volatile security invoker set search_path = ''
as $$ select * from private.requeue_notification(p_id, p_error, p_now) $$;

revoke execute on function public.requeue_notification(uuid, text, timestamptz) from public, anon, authenticated;

grant execute on function public.requeue_notification(uuid, text, timestamptz) to service_role;

-- Admins: a retry ----------------------------------------------------------------------------------
-- Puts a failed delivery (any channel) back in the queue, due at p_now with a fresh set of attempts.
create function private.retry_email(p_id uuid, p_now timestamptz)
returns public.email_retry
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  perform private.require_admin();
  update public.notification_deliveries
     set failed_at = null, sent_at = null, attempts = 0, next_attempt_at = p_now
   where id = p_id and failed_at is not null and coalesce(last_error, '') not like 'expired:%'
  returning id into v_id;
  if v_id is null then
    raise exception 'This email is not waiting for a retry' using errcode = 'P0002', hint = 'email_not_failed';
  end if;
  return (v_id, p_now)::public.email_retry;
end;
$$;

revoke execute on function private.retry_email(uuid, timestamptz) from public;

grant execute on function private.retry_email(uuid, timestamptz) to authenticated, service_role;

create function public.retry_email(p_id uuid)
returns public.email_retry
language sql volatile security invoker set search_path = ''
as $$ select * from private.retry_email(p_id, now()) $$;

revoke execute on function public.retry_email(uuid) from public, anon;

grant execute on function public.retry_email(uuid) to authenticated, service_role;

-- One-click unsubscribe ---------------------------------------------------------------------------
-- The one-click unsubscribe of a reminder email (the unsubscribe function, service role): the
-- member's reminder emails are turned off (their cell of the preferences grid). Unknown or
-- malformed tokens change nothing and raise invalid_unsubscribe_token.
create function private.unsubscribe_reminders(p_token text)
returns public.reminders_unsubscribed
language plpgsql security definer set search_path = ''
as $$
declare
  v_email text;
  v_member_id uuid;
begin
  select m.id, m.email::text into v_member_id, v_email
    from public.email_preferences p join public.members m on m.id = p.member_id
   where p.unsubscribe_token = p_token and p_token ~ '^[0-9a-f]{64}$';
  if v_email is null then
    raise exception 'This unsubscribe link is not valid. Sign in and turn reminder emails off on Edit Profile instead.'
      using errcode = 'P0002', hint = 'invalid_unsubscribe_token';
  end if;
  insert into public.notification_preferences as n (member_id, channel, topic, enabled)
  values (v_member_id, 'email', 'class_reminder', false)
  on conflict (member_id, channel, topic) do update set enabled = false, updated_at = now();
  return (v_email, false)::public.reminders_unsubscribed;
end;
$$;

revoke execute on function private.unsubscribe_reminders(text) from public;

grant execute on function private.unsubscribe_reminders(text) to service_role;

-- The one-click unsubscribe of a come-back email: the same token, the other list, recorded as the
-- member withdrawing marketing consent. Returns the member's email; unknown or malformed tokens
-- change nothing.
create function private.unsubscribe_win_back(p_token text)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_email text;
  v_member_id uuid;
begin
  select m.id, m.email::text into v_member_id, v_email
    from public.email_preferences p join public.members m on m.id = p.member_id
   where p.unsubscribe_token = p_token and p_token ~ '^[0-9a-f]{64}$';
  if v_email is null then
    raise exception 'This unsubscribe link is not valid. Sign in and turn reminder emails off on Edit Profile instead.'
      using errcode = 'P0002', hint = 'invalid_unsubscribe_token';
  end if;
  perform private.record_marketing_consent(v_member_id, false, 'unsubscribe');
  return v_email;
end;
$$;

revoke execute on function private.unsubscribe_win_back(text) from public;

grant execute on function private.unsubscribe_win_back(text) to service_role;

create function public.unsubscribe_win_back(p_token text)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.unsubscribe_win_back(p_token) $$;

revoke execute on function public.unsubscribe_win_back(text) from public, anon, authenticated;

grant execute on function public.unsubscribe_win_back(text) to service_role;

create function public.unsubscribe_reminders(p_token text)
returns public.reminders_unsubscribed
language sql volatile security invoker set search_path = ''
as $$ select * from private.unsubscribe_reminders(p_token) $$;

revoke execute on function public.unsubscribe_reminders(text) from public, anon;

revoke execute on function public.unsubscribe_reminders(text) from authenticated;

grant execute on function public.unsubscribe_reminders(text) to service_role;

-- Contact Us -------------------------------------------------------------------------------------
-- Stores a message and queues an email to the studio (reply-to the visitor) in one transaction.
-- A filled honeypot (p_website, a field people never see) answers exactly like a success but
-- stores and sends nothing, so a bot learns nothing. Limits: contact_rate_limit() per address and
-- per client in contact_rate_window(), contact_studio_rate_limit() for everyone together. The
-- address must be a plain mailbox (no mailto parameters such as ?cc= or &body=). Returns
-- a contact_receipt ('received').
create function private.submit_contact_message(
  p_name text, p_email text, p_phone text, p_message text, p_topic text, p_website text, p_now timestamptz
)
returns public.contact_receipt
language plpgsql security definer set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_phone text := nullif(btrim(coalesce(p_phone, '')), '');
  v_message text := btrim(coalesce(p_message, ''));
  v_topic text := nullif(btrim(coalesce(p_topic, '')), '');
  v_client text := private.request_client_address();
  v_received public.contact_receipt := row('received')::public.contact_receipt;
begin
  if nullif(btrim(coalesce(p_website, '')), '') is not null then
    return v_received;
  end if;
  if v_name = '' then
    raise exception 'Name is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_email = '' then
    raise exception 'Email is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_email !~ '^[a-z0-9._+''-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$' or char_length(v_email) > 320 then
    raise exception 'Please enter a valid email address' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_message = '' then
    raise exception 'Message is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if char_length(v_name) > 200 or char_length(v_message) > 1500 or char_length(v_phone) > 40 or char_length(v_topic) > 200 then
    raise exception 'Your message is too long (at most 1500 characters)' using errcode = '22023', hint = 'invalid_contact';
  end if;

  -- One submission at a time: the counts below cannot both pass for two at once.
  perform pg_advisory_xact_lock(hashtextextended('contact_messages', 0));
  if (select count(*) from public.contact_messages c
       where (c.email = v_email::extensions.citext or c.client_address is not distinct from coalesce(v_client, '-'))
         and c.created_at > p_now - private.contact_rate_window() and c.created_at <= p_now) >= private.contact_rate_limit() then
    raise exception 'You have sent us several messages in the last hour. Please wait a little before sending another.'
      using errcode = 'P0001', hint = 'contact_rate_limited';
  end if;
  if (select count(*) from public.contact_messages c
       where c.created_at > p_now - private.contact_rate_window() and c.created_at <= p_now) >= private.contact_studio_rate_limit() then
    raise exception 'We are receiving a lot of messages right now. Please try again in a little while, or call us.'
      using errcode = 'P0001', hint = 'contact_rate_limited';
  end if;

  insert into public.contact_messages (name, email, phone, message, topic, created_at, client_address)
  values (v_name, v_email, v_phone, v_message, v_topic, p_now, v_client);

  perform private.enqueue_email(
    'contact_message',
    private.studio_email(),
    null,
    null,
    null,
    left('Contact Us: ' || coalesce(v_topic || ' enquiry', 'enquiry') || ' from ' || v_name, 300),
    concat_ws(E'\n\n',
      v_message,
      concat_ws(E'\n', 'Name: ' || v_name, 'Email: ' || v_email, 'Phone: ' || v_phone, 'About: ' || v_topic,
                'Sent: ' || private.london_time_text(p_now) || ' (London time)'),
      'Reply to this email to answer ' || v_name || '.'),
    jsonb_build_array(jsonb_build_object('label', 'Open Messages in the admin portal', 'path', '/admin/messages')),
    null,
    v_email,
    p_now
  );
  return v_received;
end;
$$;

revoke execute on function private.submit_contact_message(text, text, text, text, text, text, timestamptz) from public;

grant execute on function private.submit_contact_message(text, text, text, text, text, text, timestamptz) to anon, authenticated, service_role;

create function public.submit_contact_message(
  p_name text, p_email text, p_message text, p_phone text default null, p_topic text default null, p_website text default null
)
returns public.contact_receipt
language sql volatile security invoker set search_path = ''
as $$ select * from private.submit_contact_message(p_name, p_email, p_phone, p_message, p_topic, p_website, now()) $$;

revoke execute on function public.submit_contact_message(text, text, text, text, text, text) from public;

grant execute on function public.submit_contact_message(text, text, text, text, text, text) to anon, authenticated, service_role;

-- Contact Us: limited per client and for the whole studio --------------------------------------
-- Messages the whole studio may receive per window (every sender together): the SMTP quota is
-- shared with sign-up and reset emails, so a flood cannot use it up.
create function private.contact_studio_rate_limit()
returns integer
language sql immutable set search_path = ''
as $$ select 20 $$;

revoke execute on function private.contact_studio_rate_limit() from public;

-- The client's address as the API gateway gives it (the first x-forwarded-for hop), or null
-- outside an API request (SQL run by the jobs or tests).
create function private.request_client_address()
returns text
language sql stable set search_path = ''
as $$
  select nullif(btrim(split_part(
           coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for', ''), ',', 1)), '')
$$;

revoke execute on function private.request_client_address() from public;

create function private.payments_send_receipt()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.enqueue_membership_email('payment_receipt', new.member_id,
    'Receipt: ' || new.description,
    array['Thank you: we received ' || private.gbp(new.amount) || ' for ' || new.description || ' on '
            || private.london_date_text(coalesce(new.paid_at, now())) || '.',
          'Keep this email as your receipt. Every payment is also listed under Billing history.'],
    jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
    'payment_receipt:' || new.id);
  return null;
end;
$$;

revoke execute on function private.payments_send_receipt() from public;

create function private.refunds_send_receipt()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if coalesce(new.member_email, '') = '' then
    return null;
  end if;
  perform private.enqueue_email('refund_receipt', new.member_email, new.member_id, null, null,
          'Refund: ' || new.description,
          array_to_string(array[private.greeting(new.member_name),
            'We have refunded ' || private.gbp(new.amount) || ' for ' || new.description || '.',
            -- A Direct Debit payment is refunded through GoCardless to the bank account it came from (decision 0103).
            case when exists (select 1 from public.payments p where p.id = new.payment_id and p.collected_by = 'direct_debit')
                 then 'It is paid back to the bank account your Direct Debit is taken from, usually within 5 working days.'
                 else 'A card refund usually reaches your account within 5 to 10 working days.' end], E'\n\n'),
          jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
          'refund_receipt:' || new.id);
  return null;
end;
$$;

revoke execute on function private.refunds_send_receipt() from public;

-- Row-level security, triggers and replication ------------------------------------------------

create policy "Members read their own email preferences, admins all"
  on public.email_preferences for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create trigger notification_deliveries_prepare
  before insert on public.notification_deliveries
  for each row when (new.channel = 'email') execute function private.notification_deliveries_prepare();

create policy "Admins read contact messages"
  on public.contact_messages for select to authenticated
  using ((select private.is_admin()));

create trigger members_on_auth_email_changed
  after update of email on auth.users
  for each row execute function private.members_on_auth_email_changed();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger classes_tell_members_moved
  after update of start_time on public.classes
  for each row when (old.start_time is distinct from new.start_time)
  execute function private.classes_tell_members_moved();

create trigger classes_tell_members_removed
  before delete on public.classes
  for each row execute function private.classes_tell_members_removed();

create trigger bookings_confirm_on_payment
  after update of payment_status on public.bookings
  for each row execute function private.bookings_confirm_on_payment();

-- A gift voucher's receipt states its delivery date and expiry: payments_issue_gift_voucher
-- (29_gift_vouchers.sql) sends it, to members and visitors alike.
create trigger payments_send_receipt
  after update of status on public.payments
  for each row
  when (new.status = 'paid' and old.status is distinct from 'paid' and not new.needs_refund
        and new.member_id is not null and new.billing_reason is distinct from 'renewal' and new.kind <> 'gift_voucher')
  execute function private.payments_send_receipt();

create trigger refunds_send_receipt
  after update of refunded_at on public.refunds_owed
  for each row when (old.refunded_at is null and new.refunded_at is not null)
  execute function private.refunds_send_receipt();
