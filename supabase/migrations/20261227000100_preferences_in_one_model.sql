-- One model of preferences (decision 0091): email and push read notification_preferences, the
-- table texts already read, through the one rule private.notification_wanted. Every member's
-- current choices are copied first (email reminders off, a come-back offer refused while consent
-- is yes, each push switch off); then the old columns and their readers and setters go.
-- email_preferences keeps only the unsubscribe token; push_preferences only when pushes come.

-- Types: the channels each is sent by, and which emails members may turn off --------------------
alter table public.notification_types
  add column channels text[] not null default '{email}'
    constraint notification_types_channels_check check (channels <@ array['email', 'push', 'sms'] and cardinality(channels) >= 1),
  add column email_optional boolean not null default false;

update public.notification_types set channels = '{email,push}' where type in ('waitlist_promoted', 'class_moved', 'payment_failed');

update public.notification_types set channels = '{email,push,sms}' where type in ('class_reminder', 'class_changed', 'announcement', 'marketing_announcement');

update public.notification_types set channels = '{push,sms}' where type = 'class_cancelled';

update public.notification_types set channels = '{push}' where type = 'studio_closure';

update public.notification_types set email_optional = true where type in ('class_reminder', 'announcement', 'win_back', 'marketing_announcement');

-- Every member's choices, copied -----------------------------------------------------------------
insert into public.notification_preferences (member_id, channel, topic, enabled)
select p.member_id, 'email', 'class_reminder', false from public.email_preferences p where not p.class_reminders
on conflict (member_id, channel, topic) do nothing;

-- Marketing follows consent; a member who said yes but had come-back emails off keeps them off.
insert into public.notification_preferences (member_id, channel, topic, enabled)
select p.member_id, 'email', 'win_back', false
  from public.email_preferences p
 where not p.win_back
   and coalesce((select c.granted from public.marketing_consents c where c.member_id = p.member_id
                  order by c.recorded_at desc, c.id limit 1), false)
on conflict (member_id, channel, topic) do nothing;

-- The "class changes" push switch covered a class cancelled, moved or changed.
insert into public.notification_preferences (member_id, channel, topic, enabled)
select pp.member_id, 'push', x.topic, false
  from public.push_preferences pp
 cross join lateral (values ('waitlist_promoted', pp.waitlist_promoted), ('class_cancelled', pp.class_changes),
                            ('class_moved', pp.class_changes), ('class_changed', pp.class_changes),
                            ('studio_closure', pp.studio_closures), ('payment_failed', pp.payment_failed),
                            ('class_reminder', pp.reminder_minutes is not null)) as x(topic, wanted)
 where not x.wanted
on conflict (member_id, channel, topic) do nothing;

-- The old readers and setters, then the old columns -------------------------------------------------
drop function public.set_email_preferences(boolean);

drop function private.set_email_preferences(boolean);

drop type public.reminder_preference;

drop function public.set_push_preferences(boolean, boolean, boolean, boolean, integer, time, time);

drop function private.set_push_preferences(boolean, boolean, boolean, boolean, integer, time, time, timestamptz);

drop function private.push_wanted(uuid, text);

alter table public.email_preferences drop column class_reminders, drop column win_back;

alter table public.push_preferences
  drop column waitlist_promoted, drop column class_changes, drop column studio_closures, drop column payment_failed;

comment on table public.email_preferences is
  'Each member''s one-click unsubscribe token (their choices are in notification_preferences).';

comment on table public.push_preferences is
  'When a member''s pushes come (reminder lead, quiet hours). Written by set_push_preferences; no row = the defaults.';

-- The one rule and its readers ------------------------------------------------------------------------
create or replace function private.notification_wanted(p_member_id uuid, p_channel text, p_type text)
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

create or replace function private.notification_deliveries_prepare()
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

create or replace function private.record_marketing_consent(p_member_id uuid, p_granted boolean, p_source text)
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

create or replace function private.unsubscribe_reminders(p_token text)
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

create or replace function private.queue_push_reminders(p_now timestamptz, p_booking_id uuid)
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

create or replace function private.requeue_push_reminders(p_member_id uuid, p_now timestamptz)
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

create or replace function private.set_push_preferences(p_reminder_minutes integer, p_quiet_from time, p_quiet_until time, p_now timestamptz)
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

create or replace function public.set_push_preferences(p_reminder_minutes integer, p_quiet_from time default null, p_quiet_until time default null)
returns public.push_preferences
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_push_preferences(p_reminder_minutes, p_quiet_from, p_quiet_until, now()) $$;

revoke execute on function public.set_push_preferences(integer, time, time) from public, anon;

grant execute on function public.set_push_preferences(integer, time, time) to authenticated;

create or replace function private.set_notification_preference(p_channel text, p_topic text, p_enabled boolean)
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

create or replace function private.my_data_export(p_now timestamptz)
returns public.member_data_export
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  r public.member_data_export;
begin
  r.exported_at := p_now;
  r.profile := to_jsonb(v_member) - 'user_id';
  r.membership := (select to_jsonb(ms) from public.memberships ms where ms.member_id = v_member.id);
  r.bookings := (select coalesce(jsonb_agg(to_jsonb(b) || jsonb_build_object('class_name', c.name, 'class_start_time', c.start_time,
                                                                                'trainer', c.trainer)
                                           order by c.start_time), '[]')
                   from public.bookings b join public.classes c on c.id = b.class_id where b.member_id = v_member.id);
  r.waitlist := (select coalesce(jsonb_agg(to_jsonb(w) || jsonb_build_object('class_name', c.name, 'class_start_time', c.start_time)
                                           order by c.start_time), '[]')
                   from public.class_waitlist w join public.classes c on c.id = w.class_id where w.member_id = v_member.id);
  r.payments := (select coalesce(jsonb_agg(to_jsonb(p) - 'provider_checkout_id' order by p.created_at), '[]')
                   from public.payments p where p.member_id = v_member.id);
  r.credits := (select coalesce(jsonb_agg(to_jsonb(cr) order by cr.created_at), '[]')
                  from public.credits cr where cr.member_id = v_member.id);
  r.documents_signed := (select coalesce(jsonb_agg(jsonb_build_object('document', d.title, 'kind', d.kind, 'version', d.version,
                                                                       'accepted_at', a.accepted_at) order by a.accepted_at), '[]')
                           from public.document_acceptances a join public.document_versions d on d.id = a.document_id
                          where a.member_id = v_member.id);
  r.health_answers := (select to_jsonb(h) from public.health_answers h where h.member_id = v_member.id);
  r.preferences := jsonb_build_object(
    'notifications', (select coalesce(jsonb_agg(to_jsonb(np) order by np.channel, np.topic), '[]')
                        from public.notification_preferences np where np.member_id = v_member.id),
    'push', (select to_jsonb(pp) from public.push_preferences pp where pp.member_id = v_member.id),
    'sms', (select to_jsonb(sn) from public.sms_numbers sn where sn.member_id = v_member.id),
    'marketing_consents', (select coalesce(jsonb_agg(to_jsonb(mc) order by mc.recorded_at), '[]')
                             from public.marketing_consents mc where mc.member_id = v_member.id));
  r.family := (select coalesce(jsonb_agg(to_jsonb(d) || jsonb_build_object(
                 'documents_signed', (select coalesce(jsonb_agg(to_jsonb(da) order by da.accepted_at), '[]')
                                        from public.dependant_acceptances da where da.dependant_id = d.id),
                 'health_answers', (select to_jsonb(dh) from public.dependant_health_answers dh where dh.dependant_id = d.id))
               order by d.created_at), '[]')
                 from public.dependants d where d.parent_member_id = v_member.id);
  r.guest_places := (select coalesce(jsonb_agg(to_jsonb(g) - 'cancel_token' || jsonb_build_object('class_name', c.name,
                                                                                                   'class_start_time', c.start_time)
                                               order by c.start_time), '[]')
                       from public.guest_places g join public.classes c on c.id = g.class_id where g.host_member_id = v_member.id);
  return r;
end;
$$;

revoke execute on function private.my_data_export(timestamptz) from public;

grant execute on function private.my_data_export(timestamptz) to authenticated, service_role;

-- The grid ---------------------------------------------------------------------------------------
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

create or replace function private.my_notification_preferences()
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

create or replace function public.my_notification_preferences()
returns setof public.notification_choice
language sql stable security invoker set search_path = ''
as $$ select * from private.my_notification_preferences() $$;

revoke execute on function public.my_notification_preferences() from public, anon;

grant execute on function public.my_notification_preferences() to authenticated;

