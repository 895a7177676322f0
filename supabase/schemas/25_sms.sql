-- Texts (SMS, decision 0041): the third channel of the notification pipeline (decision 0040).
--
-- A member gives a mobile number for texts (sms_numbers, E.164) and turns texts on per type or
-- category (notification_preferences, channel 'sms'); with no number, or after the number replied
-- STOP, nothing is texted. Class reminders and class cancellations are texted beside the email
-- (the same event), ending "Reply STOP to opt out"; a text waits out the member's quiet hours (the
-- studio's, sms_quiet_from to sms_quiet_until, when they chose none) and no member gets more than
-- sms_daily_cap() texts in a London day. A sender (netlify/lib/sms) takes due texts with
-- dequeue_texts and posts them to the SMS provider (Twilio's Messages API; the local stack's fake).

-- Mobile numbers -------------------------------------------------------------------------------------
create table public.sms_numbers (
  member_id uuid primary key references public.members (id) on delete cascade,
  -- E.164, normalised by private.normalise_mobile (07700 900123 -> +447700900123).
  phone text not null constraint sms_numbers_phone_check check (phone ~ '^\+[1-9][0-9]{7,14}$'),
  created_at timestamptz not null default now(),
  -- The number replied STOP (the provider's inbound webhook): no texts until the member saves it again.
  stopped_at timestamptz
);

comment on table public.sms_numbers is
  'The mobile number each member gets texts on. Written by set_sms_number and the STOP webhook.';

create index sms_numbers_phone_idx on public.sms_numbers (phone);

alter table public.sms_numbers enable row level security;

revoke all on public.sms_numbers from public, anon, authenticated;

grant select on public.sms_numbers to authenticated;

grant all on public.sms_numbers to service_role;

create policy "Members read their own mobile number"
  on public.sms_numbers for select to authenticated
  using (member_id = (select private.current_member_id()));

-- Preferences ---------------------------------------------------------------------------------------
-- (member, channel, type or category) -> on or off. No row: the category's default
-- (notification_wanted). A type's row wins over its category's.
create table public.notification_preferences (
  member_id uuid not null references public.members (id) on delete cascade,
  channel text not null check (channel in ('email', 'push', 'sms')),
  -- A notification type, or a category: 'service' or 'marketing'.
  topic text not null check (topic ~ '^[a-z_]{1,40}$'),
  enabled boolean not null,
  updated_at timestamptz not null default now(),
  primary key (member_id, channel, topic)
);

comment on table public.notification_preferences is
  'Each member''s choices per channel and type or category. Written by set_notification_preference and STOP.';

alter table public.notification_preferences enable row level security;

revoke all on public.notification_preferences from public, anon, authenticated;

grant select on public.notification_preferences to authenticated;

grant all on public.notification_preferences to service_role;

create policy "Members read their own notification preferences"
  on public.notification_preferences for select to authenticated
  using (member_id = (select private.current_member_id()));

-- Rules, named once ----------------------------------------------------------------------------------
-- Texts one member may be sent in a London day (a reminder and a cancellation or two fit).
create function private.sms_daily_cap()
returns integer
language sql immutable set search_path = ''
as $$ select 5 $$;

revoke execute on function private.sms_daily_cap() from public;

-- The end of every text (UK PECR and the carriers: the member can always refuse more).
create function private.sms_stop_line()
returns text
language sql immutable set search_path = ''
as $$ select 'Reply STOP to opt out' $$;

revoke execute on function private.sms_stop_line() from public;

-- A mobile number in E.164, or null when it is not one: spaces, dashes, dots and brackets go; a UK
-- number written 07... becomes +447...; 00 becomes +. A UK number must be a mobile (+447 and 9
-- digits): a landline cannot receive texts.
create function private.normalise_mobile(p_phone text)
returns text
language sql immutable set search_path = ''
as $$
  with cleaned as (select regexp_replace(coalesce(p_phone, ''), '[\s().-]', '', 'g') as n),
  e164 as (
    select case
             when n ~ '^07[0-9]{9}$' then '+44' || substr(n, 2)
             when n ~ '^447[0-9]{9}$' then '+' || n
             when n ~ '^00[1-9]' then '+' || substr(n, 3)
             else n
           end as n
      from cleaned
  )
  select case
           when n !~ '^\+[1-9][0-9]{7,14}$' then null
           when n ~ '^\+44' and n !~ '^\+447[0-9]{9}$' then null
           else n
         end
    from e164
$$;

revoke execute on function private.normalise_mobile(text) from public;

-- Whether the member wants this type by this channel: the one reader of the preferences, for every
-- channel (decision 0091). Marketing needs their consent by every channel (the latest
-- marketing_consents row). A text needs a number that has not replied STOP and the member's own
-- choice (texts are off by default). An email that is the record of a booking, a payment or a
-- document (not email_optional) always goes. Otherwise the type's row, else its category's row,
-- else the category's default: service on, marketing on only with consent.
create function private.notification_wanted(p_member_id uuid, p_channel text, p_type text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  with t as (select nt.category, nt.email_optional from public.notification_types nt where nt.type = p_type),
  consent as (
    select coalesce((select c.granted from public.marketing_consents c
                      where c.member_id = p_member_id order by c.recorded_at desc, c.id limit 1), false) as granted
  ),
  choice as (
    select p.enabled from public.notification_preferences p, t
     where p.member_id = p_member_id and p.channel = p_channel and p.topic in (p_type, t.category)
     order by (p.topic = p_type) desc
     limit 1
  )
  select coalesce((select t.category from t) = 'service' or (select granted from consent), false)
     and case p_channel
           when 'sms' then exists (select 1 from public.sms_numbers n where n.member_id = p_member_id and n.stopped_at is null)
                           and coalesce((select enabled from choice), false)
           when 'email' then not coalesce((select t.email_optional from t), true) or coalesce((select enabled from choice), true)
           else coalesce((select enabled from choice), true)
         end
$$;

revoke execute on function private.notification_wanted(uuid, text, text) from public;

-- Queuing -------------------------------------------------------------------------------------------
-- Queues the text of an event to its member's number, if they want it and are under today's cap.
-- p_body is the type's text wording; the stop line is added here. Once per event (the delivery's
-- key). Returns the delivery's id, or null when nothing was queued.
create function private.enqueue_sms_for_event(
  p_event_id uuid,
  p_body text,
  p_send_at timestamptz default null,
  p_expires_at timestamptz default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_event public.notification_events;
  v_phone text;
  v_today date := (coalesce(p_send_at, now()) at time zone 'Europe/London')::date;
  v_id uuid;
begin
  select * into v_event from public.notification_events e where e.id = p_event_id;
  if v_event.member_id is null or not private.notification_wanted(v_event.member_id, 'sms', v_event.type) then
    return null;
  end if;
  select n.phone into v_phone from public.sms_numbers n where n.member_id = v_event.member_id;
  -- One member's texts are counted one at a time, so two at once cannot both pass the cap.
  perform pg_advisory_xact_lock(hashtextextended('sms_cap:' || v_event.member_id::text, 0));
  if (select count(*) from public.notification_deliveries d
        join public.notification_events e on e.id = d.event_id
       where d.channel = 'sms' and e.member_id = v_event.member_id
         and (d.next_attempt_at at time zone 'Europe/London')::date = v_today) >= private.sms_daily_cap() then
    return null;
  end if;
  insert into public.notification_deliveries (event_id, channel, to_phone, body_text, next_attempt_at, expires_at)
  values (v_event.id, 'sms', v_phone, left(p_body, 300) || E'\n' || private.sms_stop_line(), coalesce(p_send_at, now()),
          p_expires_at)
  on conflict (event_id, channel, recipient) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.enqueue_sms_for_event(uuid, text, timestamptz, timestamptz) from public;

-- A class reminder or a class change emailed is texted too (the same event): the text wording of
-- each type. (A class the studio removes is texted by classes_text_members_removed.)
create function private.notification_deliveries_sms()
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

-- A class the studio removes before it starts is texted to each member with a confirmed place
-- (the event the push of the same removal uses: 'class_removed:<booking>'). BEFORE DELETE, while
-- the bookings are readable.
create function private.classes_text_members_removed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking record;
begin
  if old.start_time <= now() then
    return old;
  end if;
  for v_booking in
    select b.id, b.member_id from public.bookings b
     where b.class_id = old.id and b.payment_status = 'completed'
       and exists (select 1 from public.sms_numbers n where n.member_id = b.member_id and n.stopped_at is null)
     order by b.booked_at
  loop
    perform private.enqueue_sms_for_event(
      private.notification_event('class_cancelled', v_booking.member_id, old.id, v_booking.id, 'class_removed:' || v_booking.id),
      'Cancelled: ' || old.name || ', ' || private.london_time_text(old.start_time) || ': ' || private.class_removal_why()
        || '. It does not count against your plan.',
      null, old.start_time);
  end loop;
  return old;
end;
$$;

revoke execute on function private.classes_text_members_removed() from public;

-- Members: number and choices -----------------------------------------------------------------------
-- Saves the signed-in member's mobile number for texts (normalised to E.164), or removes it (null
-- or blank: texts stop). Saving a number again clears a STOP. A number that is not a mobile is
-- refused and changes nothing.
create function private.set_sms_number(p_phone text)
returns public.sms_numbers
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := (private.require_member()).id;
  v_phone text := private.normalise_mobile(p_phone);
  v_row public.sms_numbers;
begin
  if nullif(btrim(coalesce(p_phone, '')), '') is null then
    delete from public.sms_numbers n where n.member_id = v_member_id returning * into v_row;
    return v_row;
  end if;
  if v_phone is null then
    raise exception 'Enter a mobile number that can receive texts, like 07700 900123 or +44 7700 900123'
      using errcode = '22023', hint = 'invalid_mobile';
  end if;
  insert into public.sms_numbers as n (member_id, phone) values (v_member_id, v_phone)
  on conflict (member_id) do update set phone = excluded.phone, created_at = now(), stopped_at = null
  returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.set_sms_number(text) from public;

grant execute on function private.set_sms_number(text) to authenticated;

create function public.set_sms_number(p_phone text)
returns public.sms_numbers
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_sms_number(p_phone) $$;

revoke execute on function public.set_sms_number(text) from public, anon;

grant execute on function public.set_sms_number(text) to authenticated;

-- One cell of the member's preferences grid: a channel and a type or category, on or off. Texts
-- need a number first; marketing needs consent (given on Edit Profile), which this does not give.
-- A type is chosen only by the channels it is sent by; emails kind by kind, and only those members
-- may turn off (email_optional). Push reminders on or off are queued again at once.
create function private.set_notification_preference(p_channel text, p_topic text, p_enabled boolean)
returns public.notification_preferences
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := (private.require_member()).id;
  v_type public.notification_types;
  v_row public.notification_preferences;
begin
  if p_channel is null or p_channel not in ('email', 'push', 'sms') then
    raise exception 'Choose email, push or text' using errcode = '22023', hint = 'invalid_preference';
  end if;
  if p_topic is null or not (p_topic in ('service', 'marketing')
                             or exists (select 1 from public.notification_types t where t.type = p_topic)) then
    raise exception 'Choose a kind of message' using errcode = '22023', hint = 'invalid_preference';
  end if;
  if p_enabled is null then
    raise exception 'Choose on or off' using errcode = '22023', hint = 'invalid_preference';
  end if;
  select * into v_type from public.notification_types t where t.type = p_topic;
  if p_channel = 'email' and (v_type.type is null or not v_type.email_optional) then
    raise exception 'Emails about your bookings, payments and documents always come' using errcode = '22023', hint = 'email_always_sent';
  end if;
  if v_type.type is not null and not p_channel = any (v_type.channels) then
    raise exception 'This kind of message is not sent that way' using errcode = '22023', hint = 'invalid_preference';
  end if;
  if p_channel = 'sms' and p_enabled
     and not exists (select 1 from public.sms_numbers n where n.member_id = v_member_id) then
    raise exception 'Add your mobile number first' using errcode = '22023', hint = 'no_mobile';
  end if;
  insert into public.notification_preferences as p (member_id, channel, topic, enabled)
  values (v_member_id, p_channel, p_topic, p_enabled)
  on conflict (member_id, channel, topic) do update set enabled = excluded.enabled, updated_at = now()
  returning * into v_row;
  if p_channel = 'push' and p_topic in ('class_reminder', 'service') then
    perform private.requeue_push_reminders(v_member_id, now());
  end if;
  return v_row;
end;
$$;

revoke execute on function private.set_notification_preference(text, text, boolean) from public;

grant execute on function private.set_notification_preference(text, text, boolean) to authenticated;

create function public.set_notification_preference(p_channel text, p_topic text, p_enabled boolean)
returns public.notification_preferences
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_notification_preference(p_channel, p_topic, p_enabled) $$;

revoke execute on function public.set_notification_preference(text, text, boolean) from public, anon;

grant execute on function public.set_notification_preference(text, text, boolean) to authenticated;

-- The signed-in member's preferences grid: a row per type a member has a choice about (sent by
-- push or text, or an email they may turn off) and per channel it is sent by, with whether it
-- would reach them now (notification_wanted, the rule the senders follow) and whether they can
-- change it here, else why not.
create type public.notification_choice as (
  type text,
  label text,
  category text,
  channel text,
  enabled boolean,
  changeable boolean,
  -- Why the cell cannot be changed: 'always' (the record of a booking or payment), 'no_mobile',
  -- 'stopped' (the number replied STOP), 'no_consent' (marketing without a yes); null when it can.
  blocked_by text
);

create function private.my_notification_preferences()
returns setof public.notification_choice
language sql stable security definer set search_path = ''
as $$
  with me as (select (private.require_member()).id as member_id),
  consent as (
    select coalesce((select c.granted from public.marketing_consents c, me
                      where c.member_id = me.member_id order by c.recorded_at desc, c.id limit 1), false) as granted
  ),
  cells as (
    select t.type, t.label, t.category, ch.channel, ch.ord,
           case
             when ch.channel = 'email' and not t.email_optional then 'always'
             when t.category = 'marketing' and not (select granted from consent) then 'no_consent'
             when ch.channel = 'sms' and not exists (select 1 from public.sms_numbers n, me where n.member_id = me.member_id) then 'no_mobile'
             when ch.channel = 'sms' and exists (select 1 from public.sms_numbers n, me where n.member_id = me.member_id
                                                                                        and n.stopped_at is not null) then 'stopped'
           end as blocked_by
      from public.notification_types t
      cross join lateral unnest(t.channels) with ordinality as ch(channel, ord)
     where t.email_optional or t.channels && array['push', 'sms']
  )
  select c.type, c.label, c.category, c.channel, private.notification_wanted(me.member_id, c.channel, c.type),
         c.blocked_by is null, c.blocked_by
    from cells c, me
   order by c.category desc, c.label, c.ord
$$;

revoke execute on function private.my_notification_preferences() from public;

grant execute on function private.my_notification_preferences() to authenticated;

create function public.my_notification_preferences()
returns setof public.notification_choice
language sql stable security invoker set search_path = ''
as $$ select * from private.my_notification_preferences() $$;

revoke execute on function public.my_notification_preferences() from public, anon;

grant execute on function public.my_notification_preferences() to authenticated;

-- Delivery (service role) ----------------------------------------------------------------------------
-- What the SMS sender gets for each text.
create type public.outbox_text as (
  id uuid,
  kind text,
  to_phone text,
  body text,
  attempts integer
);

-- Takes up to p_limit texts due at p_now (after quiet hours and expiry, hold_and_expire_deliveries)
-- and marks them sent; the sender records the provider's id (text_accepted) or gives one back
-- (requeue_notification).
create function private.dequeue_texts(p_limit integer, p_now timestamptz)
returns setof public.outbox_text
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.hold_and_expire_deliveries('sms', p_now);
  return query
    select t.id, e.type, t.to_phone, t.body_text, t.attempts
      from private.take_deliveries('sms', p_limit, p_now) t
      join public.notification_events e on e.id = t.event_id
     order by t.created_at, t.id;
end;
$$;

revoke execute on function private.dequeue_texts(integer, timestamptz) from public;

grant execute on function private.dequeue_texts(integer, timestamptz) to service_role;

create function public.dequeue_texts(p_now timestamptz, p_limit integer default 50)
returns setof public.outbox_text
language sql volatile security invoker set search_path = ''
as $$ select * from private.dequeue_texts(p_limit, p_now) $$;

revoke execute on function public.dequeue_texts(timestamptz, integer) from public, anon, authenticated;

grant execute on function public.dequeue_texts(timestamptz, integer) to service_role;

-- The provider accepted a text: its message id, for the status callbacks.
create function private.text_accepted(p_id uuid, p_provider_id text)
returns boolean
language sql security definer set search_path = ''
as $$
  with done as (
    update public.notification_deliveries d set provider_id = p_provider_id
     where d.id = p_id and d.channel = 'sms' and d.sent_at is not null
    returning 1)
  select exists (select 1 from done)
$$;

revoke execute on function private.text_accepted(uuid, text) from public;

grant execute on function private.text_accepted(uuid, text) to service_role;

create function public.text_accepted(p_id uuid, p_provider_id text)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.text_accepted(p_id, p_provider_id) $$;

revoke execute on function public.text_accepted(uuid, text) from public, anon, authenticated;

grant execute on function public.text_accepted(uuid, text) to service_role;

-- The provider's status callback: a text it could not deliver ('failed', 'undelivered') is marked
-- failed with the carrier's error, for the admins' list and Retry. Other statuses change nothing.
-- Returns whether a text was marked.
create function private.text_status(p_provider_id text, p_status text, p_error text, p_now timestamptz)
returns boolean
language sql security definer set search_path = ''
as $$
  with done as (
    update public.notification_deliveries d
       set sent_at = null, failed_at = p_now,
           last_error = left('SMS ' || p_status || coalesce(': ' || nullif(btrim(p_error), ''), ''), 2000)
     where d.provider_id = p_provider_id and d.channel = 'sms' and p_status in ('failed', 'undelivered')
       and d.sent_at is not null
    returning 1)
  select exists (select 1 from done)
$$;

revoke execute on function private.text_status(text, text, text, timestamptz) from public;

grant execute on function private.text_status(text, text, text, timestamptz) to service_role;

create function public.text_status(p_provider_id text, p_status text, p_error text default null)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.text_status(p_provider_id, p_status, p_error, now()) $$;

revoke execute on function public.text_status(text, text, text) from public, anon, authenticated;

grant execute on function public.text_status(text, text, text) to service_role;

-- An inbound text from p_from (the provider's webhook, signature checked by the function): STOP
-- (and the carriers' other opt-out words) stops texts to every member on that number; START
-- (or UNSTOP) lets them again. Returns how many members' numbers changed.
create function private.text_received(p_from text, p_body text, p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_phone text := private.normalise_mobile(p_from);
  v_word text := upper(btrim(coalesce(p_body, '')));
  v_count integer := 0;
begin
  if v_phone is null then
    return 0;
  end if;
  if v_word in ('STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT') then
    update public.sms_numbers n set stopped_at = p_now where n.phone = v_phone and n.stopped_at is null;
    get diagnostics v_count = row_count;
    -- Texts already queued to the number are not sent.
    update public.notification_deliveries d
       set failed_at = p_now, last_error = 'expired: the number replied STOP'
     where d.channel = 'sms' and d.to_phone = v_phone and d.sent_at is null and d.failed_at is null;
  elsif v_word in ('START', 'UNSTOP', 'YES') then
    update public.sms_numbers n set stopped_at = null where n.phone = v_phone and n.stopped_at is not null;
    get diagnostics v_count = row_count;
  end if;
  return v_count;
end;
$$;

revoke execute on function private.text_received(text, text, timestamptz) from public;

grant execute on function private.text_received(text, text, timestamptz) to service_role;

create function public.text_received(p_from text, p_body text)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.text_received(p_from, p_body, now()) $$;

revoke execute on function public.text_received(text, text) from public, anon, authenticated;

grant execute on function public.text_received(text, text) to service_role;

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger notification_deliveries_sms
  after insert on public.notification_deliveries
  for each row when (new.channel = 'email')
  execute function private.notification_deliveries_sms();

create trigger classes_text_members_removed
  before delete on public.classes
  for each row execute function private.classes_text_members_removed();
