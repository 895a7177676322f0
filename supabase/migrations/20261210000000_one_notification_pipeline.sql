-- One notification pipeline (decision 0040): events of one type list, one delivery queue for
-- email, push and SMS with one retry, one failed state and one idempotency key. Every queued,
-- failed and sent email and push moves across with its id; the two outboxes become read-only views.

create table public.notification_types (
  type text primary key check (type ~ '^[a-z_]{1,40}$'),
  -- Service messages (about bookings, classes, money, documents) need no consent; marketing does.
  category text not null check (category in ('service', 'marketing')),
  -- What the member sees in the preferences grid.
  label text not null check (char_length(label) between 1 and 80)
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

create table public.notification_deliveries (
  id uuid primary key default gen_random_uuid(),
  event_id uuid not null references public.notification_events (id) on delete cascade,
  channel text not null check (channel in ('email', 'push', 'sms')),
  -- The recipient, one per channel: an address, a device (push_subscriptions), a mobile (E.164).
  to_email extensions.citext,
  subscription_id uuid,
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

-- Keys and triggers other domains add to public.notification_deliveries: the device key
-- notification_deliveries_subscription_id_fkey and the trigger notification_deliveries_push (20_push.sql).

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
  ('announcement', 'service', 'Studio announcements'),
  ('win_back', 'marketing', 'Come-back offers'),
  ('marketing_announcement', 'marketing', 'News and offers');

alter table public.notification_deliveries
  add constraint notification_deliveries_subscription_id_fkey
  foreign key (subscription_id) references public.push_subscriptions (id) on delete cascade;

-- Every email: its own event (the row's id, its dedupe key), its email delivery (the row's id).
insert into public.notification_events (id, type, member_id, class_id, booking_id, idempotency_key, created_at)
select o.id, o.kind, o.member_id, o.class_id, o.booking_id, o.dedupe_key, o.created_at
  from public.notification_outbox o;

insert into public.notification_deliveries (id, event_id, channel, to_email, reply_to, subject, body_text, links,
                                            unsubscribe_token, created_at, next_attempt_at, sent_at, attempts,
                                            last_error, failed_at)
select o.id, o.id, 'email', o.to_email, o.reply_to, o.subject, o.body_text, o.links, o.unsubscribe_token, o.created_at,
       o.next_attempt_at, o.sent_at, o.attempts, o.last_error, o.failed_at
  from public.notification_outbox o;

-- Every push: the event of the email it was queued with ('<kind>:<email id>:<device>'), else the
-- event of its key without the device (a reminder shares the email reminder's), else a new one.
insert into public.notification_events (type, member_id, class_id, booking_id, idempotency_key, created_at)
select distinct on (k.event_key) p.kind, p.member_id, p.class_id, p.booking_id, k.event_key, p.created_at
  from public.push_outbox p
  cross join lateral (select regexp_replace(p.dedupe_key, ':[0-9a-f-]{36}$', '') as event_key) k
 where not exists (select 1 from public.notification_events e
                    where e.idempotency_key = k.event_key
                       or (p.kind in ('waitlist_promoted', 'class_moved', 'payment_failed')
                           and e.id::text = substring(k.event_key from '^[a-z_]+:([0-9a-f-]{36})$')))
 order by k.event_key, p.created_at;

insert into public.notification_deliveries (id, event_id, channel, subscription_id, subject, body_text, links,
                                            created_at, next_attempt_at, expires_at, sent_at, attempts, last_error,
                                            failed_at)
select p.id, coalesce(by_email.id, by_key.id), 'push', p.subscription_id, p.title, p.body,
       jsonb_build_array(jsonb_build_object('path', p.path)), p.created_at, p.next_attempt_at, p.expires_at, p.sent_at,
       p.attempts, p.last_error, p.failed_at
  from public.push_outbox p
  cross join lateral (select regexp_replace(p.dedupe_key, ':[0-9a-f-]{36}$', '') as event_key) k
  left join public.notification_events by_email
    on p.kind in ('waitlist_promoted', 'class_moved', 'payment_failed')
   and by_email.id::text = substring(k.event_key from '^[a-z_]+:([0-9a-f-]{36})$')
  left join public.notification_events by_key on by_key.idempotency_key = k.event_key;

drop table public.push_outbox;

drop table public.notification_outbox;

drop function private.notification_outbox_prepare();

drop function private.notification_outbox_push();

drop function public.requeue_push(uuid, text, timestamptz);

drop function private.requeue_push(uuid, text, timestamptz);

create view public.notification_outbox with (security_invoker = true) as
  select d.id, e.type as kind, d.to_email, e.member_id, e.class_id, e.booking_id, d.subject, d.body_text, d.links,
         e.idempotency_key as dedupe_key, d.created_at, d.sent_at, d.attempts, d.last_error, d.next_attempt_at,
         d.failed_at, d.reply_to, d.unsubscribe_token, d.event_id
    from public.notification_deliveries d
    join public.notification_events e on e.id = d.event_id
   where d.channel = 'email';

revoke all on public.notification_outbox from public, anon, authenticated;

grant select on public.notification_outbox to service_role;

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

alter type public.undelivered_email add attribute channel text;

create or replace function private.delivery_max_attempts()
returns integer
language sql immutable set search_path = ''
as $$ select 6 $$;

revoke execute on function private.delivery_max_attempts() from public;

create or replace function private.delivery_retry_delay(p_attempts integer)
returns interval
language sql immutable set search_path = ''
as $$ select make_interval(mins => least(60, power(2, greatest(coalesce(p_attempts, 1), 1) - 1)::integer)) $$;

revoke execute on function private.delivery_retry_delay(integer) from public;

create or replace function private.notification_event(p_type text, p_member_id uuid, p_class_id uuid, p_booking_id uuid, p_key text)
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

create or replace function private.enqueue_email(
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

create or replace function private.take_deliveries(p_channel text, p_limit integer, p_now timestamptz)
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

create or replace function private.dequeue_notifications(p_limit integer, p_now timestamptz)
returns setof public.outbox_email
language sql security definer set search_path = ''
as $$
  select t.id, e.type, t.to_email::text, t.reply_to::text, t.subject, t.body_text, t.links, t.attempts,
         t.sent_at, t.created_at, c.name, c.trainer, c.start_time, private.london_time_text(c.start_time),
         t.unsubscribe_token
    from private.take_deliveries('email', p_limit, p_now) t
    join public.notification_events e on e.id = t.event_id
    left join public.classes c on c.id = e.class_id
   order by t.created_at, t.id
$$;

revoke execute on function private.dequeue_notifications(integer, timestamptz) from public;

grant execute on function private.dequeue_notifications(integer, timestamptz) to service_role;

create or replace function private.undelivered_emails()
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

create or replace function private.notification_deliveries_prepare()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_event public.notification_events;
begin
  select * into v_event from public.notification_events e where e.id = new.event_id;
  if v_event.type in ('class_reminder', 'win_back') and v_event.member_id is not null then
    -- A member without a row has the defaults: reminders on, marketing off until they consent.
    insert into public.email_preferences (member_id) values (v_event.member_id) on conflict (member_id) do nothing;
    if exists (select 1 from public.email_preferences p
                where p.member_id = v_event.member_id
                  and not (case v_event.type when 'win_back' then p.win_back else p.class_reminders end)) then
      return null;
    end if;
    select p.unsubscribe_token into new.unsubscribe_token from public.email_preferences p where p.member_id = v_event.member_id;
  end if;
  return new;
end;
$$;

revoke execute on function private.notification_deliveries_prepare() from public;

create or replace function private.requeue_notification(p_id uuid, p_error text, p_now timestamptz)
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

create or replace function private.retry_email(p_id uuid, p_now timestamptz)
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

create or replace function private.submit_contact_message(
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

create or replace function private.refunds_send_receipt()
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
            'A card refund usually reaches your account within 5 to 10 working days.'], E'\n\n'),
          jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
          'refund_receipt:' || new.id);
  return null;
end;
$$;

revoke execute on function private.refunds_send_receipt() from public;

create or replace function private.enqueue_membership_email(
  p_kind text, p_member_id uuid, p_subject text, p_paragraphs text[], p_links jsonb, p_dedupe_key text
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
begin
  select * into v_member from public.members where id = p_member_id;
  if not found then
    return null;
  end if;
  return private.enqueue_email(p_kind, v_member.email, v_member.id, null, null, p_subject,
                               array_to_string(array[private.greeting(v_member.name)] || p_paragraphs, E'\n\n'),
                               p_links, p_dedupe_key);
end;
$$;

revoke execute on function private.enqueue_membership_email(text, uuid, text, text[], jsonb, text) from public;

create or replace function private.enqueue_class_reminders_at(p_within_hours integer, p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer := 0;
  v_row record;
begin
  if p_within_hours is null or p_within_hours < 1 or p_within_hours > 168 then
    raise exception 'The reminder window must be 1 to 168 hours' using errcode = '22023', hint = 'invalid_window';
  end if;
  for v_row in
    select b.id, b.member_id, b.class_id
      from public.bookings b
      join public.classes c on c.id = b.class_id
     where b.payment_status = 'completed'
       and c.start_time > p_now
       and c.start_time <= p_now + make_interval(hours => p_within_hours)
       and not exists (select 1 from public.notification_events e
                        join public.notification_deliveries d on d.event_id = e.id and d.channel = 'email'
                        where e.idempotency_key = 'class_reminder:' || b.id)
     order by c.start_time
  loop
    if private.enqueue_class_email('class_reminder', v_row.member_id, v_row.class_id, v_row.id,
                                   false, 'class_reminder:' || v_row.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_class_reminders_at(integer, timestamptz) from public;

grant execute on function private.enqueue_class_reminders_at(integer, timestamptz) to service_role;

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
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.studio_address(),
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
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.studio_address(),
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

create or replace function private.sms_quiet_from()
returns time
language sql immutable set search_path = ''
as $$ select time '21:00' $$;

revoke execute on function private.sms_quiet_from() from public;

create or replace function private.sms_quiet_until()
returns time
language sql immutable set search_path = ''
as $$ select time '08:00' $$;

revoke execute on function private.sms_quiet_until() from public;

create or replace function private.hold_and_expire_deliveries(p_channel text, p_now timestamptz)
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

create or replace function private.enqueue_push_for_event(
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
  if v_event.member_id is null or not private.push_wanted(v_event.member_id, v_event.type) then
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

create or replace function private.enqueue_push(
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
  if p_member_id is null or not private.push_wanted(p_member_id, p_kind)
     or not exists (select 1 from public.push_subscriptions s where s.member_id = p_member_id) then
    return 0;
  end if;
  return private.enqueue_push_for_event(
    private.notification_event(p_kind, p_member_id, p_class_id, p_booking_id, p_event_key),
    p_title, p_body, p_path, p_send_at, p_expires_at);
end;
$$;

revoke execute on function private.enqueue_push(text, uuid, text, text, text, text, uuid, uuid, timestamptz, timestamptz) from public;

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

create or replace function private.dequeue_pushes(p_limit integer, p_now timestamptz)
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

create or replace function private.set_push_preferences(
  p_waitlist_promoted boolean,
  p_class_changes boolean,
  p_studio_closures boolean,
  p_payment_failed boolean,
  p_reminder_minutes integer,
  p_quiet_from time,
  p_quiet_until time,
  p_now timestamptz
)
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
  if p_waitlist_promoted is null or p_class_changes is null or p_studio_closures is null or p_payment_failed is null then
    raise exception 'Choose which notifications you want' using errcode = '22023', hint = 'invalid_preference';
  end if;
  if p_reminder_minutes is not null and p_reminder_minutes not in (30, 60, 120, 720) then
    raise exception 'Choose when the reminder comes' using errcode = '22023', hint = 'invalid_preference';
  end if;
  if (p_quiet_from is null) <> (p_quiet_until is null) or p_quiet_from = p_quiet_until then
    raise exception 'Quiet hours need a start and a different end' using errcode = '22023', hint = 'invalid_quiet_hours';
  end if;
  insert into public.push_preferences as p
    (member_id, waitlist_promoted, class_changes, studio_closures, payment_failed, reminder_minutes, quiet_from, quiet_until, updated_at)
  values (v_member_id, p_waitlist_promoted, p_class_changes, p_studio_closures, p_payment_failed, p_reminder_minutes,
          p_quiet_from, p_quiet_until, p_now)
  on conflict (member_id) do update
    set waitlist_promoted = excluded.waitlist_promoted, class_changes = excluded.class_changes,
        studio_closures = excluded.studio_closures, payment_failed = excluded.payment_failed,
        reminder_minutes = excluded.reminder_minutes, quiet_from = excluded.quiet_from,
        quiet_until = excluded.quiet_until, updated_at = excluded.updated_at
  returning * into v_row;
  delete from public.notification_deliveries o
   using public.notification_events e
   where e.id = o.event_id and e.member_id = v_member_id and e.type = 'class_reminder' and o.channel = 'push'
     and o.sent_at is null and o.failed_at is null;
  -- Those due before the next run of the jobs are queued again at once for the lead now chosen
  -- (at once when its time has passed): that run may come after the class.
  perform private.queue_push_reminders(p_now, b.id)
     from public.bookings b
     join public.classes c on c.id = b.class_id
    where b.member_id = v_member_id and b.payment_status = 'completed' and c.start_time > p_now;
  return v_row;
end;
$$;

revoke execute on function private.set_push_preferences(boolean, boolean, boolean, boolean, integer, time, time, timestamptz) from public;

grant execute on function private.set_push_preferences(boolean, boolean, boolean, boolean, integer, time, time, timestamptz) to authenticated;

drop function private.email_max_attempts();

drop function private.email_retry_delay(integer);

create trigger notification_deliveries_prepare
  before insert on public.notification_deliveries
  for each row when (new.channel = 'email') execute function private.notification_deliveries_prepare();

create trigger notification_deliveries_push
  after insert on public.notification_deliveries
  for each row when (new.channel = 'email')
  execute function private.notification_deliveries_push();
