-- Announcements (decision 0090): an admin writes to a segment of the members through the one
-- notification pipeline (decision 0040). An announcement is a row here: its words, its type
-- ('announcement', a service message such as "the hall is closed", or 'marketing_announcement',
-- news and offers), its segment and when it goes (send_at). Until then it can be previewed (how
-- many members, by which channel) and cancelled. The job send_announcements_at(p_now) queues each
-- due announcement once: one event per member, keyed by the announcement and the member, with an
-- email, push and text delivery by the member's preferences (notification_wanted: marketing only
-- with consent, by every channel; a service announcement whatever the marketing choice). The
-- preview and the job read the same list (announcement_recipients), so what the admin saw is
-- what is queued when nothing changed in between. Sending is throttled: the deliveries are due
-- announcement_rate_per_minute() members a minute apart, so a large segment does not swamp the
-- mail provider's quota, which sign-up and booking emails share.

create table public.announcements (
  id uuid primary key default gen_random_uuid(),
  type text not null references public.notification_types (type)
    constraint announcements_type_check check (type in ('announcement', 'marketing_announcement')),
  subject text not null check (char_length(subject) between 1 and 200),
  body text not null check (char_length(body) between 1 and 5000),
  -- Who it is for, as of its sending: see announcement_recipients.
  segment text not null
    constraint announcements_segment_check
    check (segment in ('active', 'plan', 'class', 'lapsed', 'trial_ended', 'consent')),
  plan_slug text references public.plans (slug),
  -- The class whose attendees it is for; no foreign key: a class removed later keeps the record.
  class_id uuid,
  lapsed_days integer check (lapsed_days between 1 and 365),
  send_at timestamptz not null,
  created_by uuid references public.members (id) on delete set null,
  created_at timestamptz not null default now(),
  -- When its deliveries were queued, and how many: members, and of those by email, push, text.
  sent_at timestamptz,
  recipients integer,
  emails integer,
  pushes integer,
  texts integer,
  cancelled_at timestamptz,
  constraint announcements_segment_fields check (
    (segment = 'plan') = (plan_slug is not null)
    and (segment = 'class') = (class_id is not null)
    and (segment = 'lapsed') = (lapsed_days is not null)),
  constraint announcements_sent_or_cancelled check (sent_at is null or cancelled_at is null)
);

comment on table public.announcements is
  'Messages admins send to a segment of members. Written by create_announcement and cancel_announcement; sent by send_announcements_at.';

create index announcements_due_idx on public.announcements (send_at) where sent_at is null and cancelled_at is null;

create index announcements_created_by_idx on public.announcements (created_by);

create index announcements_plan_slug_idx on public.announcements (plan_slug);

alter table public.announcements enable row level security;

revoke all on public.announcements from public, anon, authenticated;

grant select on public.announcements to authenticated;

grant all on public.announcements to service_role;

create policy "Admins read announcements"
  on public.announcements for select to authenticated
  using ((select private.is_admin()));

-- Rules, named once ----------------------------------------------------------------------------------
-- Members whose deliveries fall due in the same minute (every channel): about the SMTP provider's
-- per-minute quota, with room left for the booking emails queued meanwhile.
create function private.announcement_rate_per_minute()
returns integer
language sql immutable set search_path = ''
as $$ select 60 $$;

revoke execute on function private.announcement_rate_per_minute() from public;

-- Who is in an announcement's segment as of p_now (members with a confirmed account, not the
-- studio's admins), and by which channels each would get it: email and push by their preferences,
-- push only with a device, a text only with a number that has not replied STOP and texts on.
--   active       a plan or a free trial that has not ended
--   plan         a membership of that plan that has not ended
--   class        a confirmed place in that class
--   lapsed       a membership (not a trial) that lapsed or was cancelled and ended in the last N days
--   trial_ended  a free trial that ended without a plan bought (the row is replaced when one is)
--   consent      whoever's latest marketing choice is yes
-- A member is listed even when no channel would reach them (the preview shows them as unreachable).
create function private.announcement_recipients(p_announcement public.announcements, p_now timestamptz)
returns table (member_id uuid, email boolean, push_devices integer, sms boolean)
language sql stable security definer set search_path = ''
as $$
  with segment as (
    select ms.member_id from public.memberships ms
     where p_announcement.segment = 'active' and ms.ended_at is null
    union
    select ms.member_id from public.memberships ms
     where p_announcement.segment = 'plan' and ms.plan_slug = p_announcement.plan_slug and ms.ended_at is null
    union
    select b.member_id from public.bookings b
     where p_announcement.segment = 'class' and b.class_id = p_announcement.class_id and b.payment_status = 'completed'
    union
    select ms.member_id from public.memberships ms
     where p_announcement.segment = 'lapsed' and ms.tier <> 'trial' and ms.status in ('lapsed', 'cancelled')
       and ms.ended_at > p_now - make_interval(days => p_announcement.lapsed_days) and ms.ended_at <= p_now
    union
    select ms.member_id from public.memberships ms
     where p_announcement.segment = 'trial_ended' and ms.tier = 'trial' and ms.ended_at is not null and ms.ended_at <= p_now
    union
    select c.member_id from (
      select distinct on (mc.member_id) mc.member_id, mc.granted
        from public.marketing_consents mc
       where p_announcement.segment = 'consent'
       order by mc.member_id, mc.recorded_at desc, mc.id desc
    ) c
     where c.granted
  )
  select m.id,
         private.notification_wanted(m.id, 'email', p_announcement.type),
         case when private.notification_wanted(m.id, 'push', p_announcement.type)
              then (select count(*)::integer from public.push_subscriptions s where s.member_id = m.id) else 0 end,
         private.notification_wanted(m.id, 'sms', p_announcement.type)
    from segment s
    join public.members m on m.id = s.member_id
   where not m.is_admin and m.status = 'active' and not m.awaiting_confirmation
   order by m.id
$$;

revoke execute on function private.announcement_recipients(public.announcements, timestamptz) from public;

-- An announcement as an admin described it, checked: bad input is refused with a clear message.
create function private.announcement_draft(
  p_type text, p_subject text, p_body text, p_segment text, p_plan_slug text, p_class_id uuid, p_lapsed_days integer
)
returns public.announcements
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_row public.announcements;
begin
  perform private.require_admin();
  if p_type is null or p_type not in ('announcement', 'marketing_announcement') then
    raise exception 'Choose a studio announcement or news and offers' using errcode = '22023', hint = 'invalid_announcement';
  end if;
  if nullif(btrim(coalesce(p_subject, '')), '') is null or char_length(btrim(p_subject)) > 200 then
    raise exception 'Write a subject (at most 200 characters).' using errcode = '22023', hint = 'invalid_announcement';
  end if;
  if nullif(btrim(coalesce(p_body, '')), '') is null or char_length(btrim(p_body)) > 5000 then
    raise exception 'Write a message (at most 5000 characters).' using errcode = '22023', hint = 'invalid_announcement';
  end if;
  if p_segment is null or p_segment not in ('active', 'plan', 'class', 'lapsed', 'trial_ended', 'consent') then
    raise exception 'Choose who it is for' using errcode = '22023', hint = 'invalid_segment';
  end if;
  if p_segment = 'plan' and not exists (select 1 from public.plans p where p.slug = p_plan_slug and p.category = 'membership') then
    raise exception 'Choose a membership plan' using errcode = '22023', hint = 'invalid_segment';
  end if;
  if p_segment = 'class' and not exists (select 1 from public.classes c where c.id = p_class_id) then
    raise exception 'Choose a class' using errcode = '22023', hint = 'invalid_segment';
  end if;
  if p_segment = 'lapsed' and (p_lapsed_days is null or p_lapsed_days not between 1 and 365) then
    raise exception 'Choose how many days back, from 1 to 365' using errcode = '22023', hint = 'invalid_segment';
  end if;
  v_row.type := p_type;
  v_row.subject := btrim(p_subject);
  v_row.body := btrim(p_body);
  v_row.segment := p_segment;
  v_row.plan_slug := case when p_segment = 'plan' then p_plan_slug end;
  v_row.class_id := case when p_segment = 'class' then p_class_id end;
  v_row.lapsed_days := case when p_segment = 'lapsed' then p_lapsed_days end;
  return v_row;
end;
$$;

revoke execute on function private.announcement_draft(text, text, text, text, text, uuid, integer) from public;

-- How many an announcement would reach as of p_now: members, and of those by each channel.
create type public.announcement_preview as (
  recipients integer,
  emails integer,
  pushes integer,
  texts integer,
  -- In the segment but reached by no channel (marketing without consent, everything turned off).
  unreachable integer
);

create function private.announcement_counts(p_announcement public.announcements, p_now timestamptz)
returns public.announcement_preview
language sql stable security definer set search_path = ''
as $$
  select count(*) filter (where r.email or r.push_devices > 0 or r.sms)::integer,
         count(*) filter (where r.email)::integer,
         count(*) filter (where r.push_devices > 0)::integer,
         count(*) filter (where r.sms)::integer,
         count(*) filter (where not (r.email or r.push_devices > 0 or r.sms))::integer
    from private.announcement_recipients(p_announcement, p_now) r
$$;

revoke execute on function private.announcement_counts(public.announcements, timestamptz) from public;

create function private.preview_announcement(
  p_type text, p_segment text, p_plan_slug text, p_class_id uuid, p_lapsed_days integer, p_now timestamptz
)
returns public.announcement_preview
language sql stable security definer set search_path = ''
as $$
  select private.announcement_counts(
    private.announcement_draft(p_type, 'Preview', 'Preview', p_segment, p_plan_slug, p_class_id, p_lapsed_days), p_now)
$$;

revoke execute on function private.preview_announcement(text, text, text, uuid, integer, timestamptz) from public;

grant execute on function private.preview_announcement(text, text, text, uuid, integer, timestamptz) to authenticated, service_role;

-- An admin saves an announcement to go at p_send_at (null or past: at p_now, sent at once).
create function private.create_announcement(
  p_type text, p_subject text, p_body text, p_segment text, p_plan_slug text, p_class_id uuid, p_lapsed_days integer,
  p_send_at timestamptz, p_now timestamptz
)
returns public.announcements
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.announcements := private.announcement_draft(p_type, p_subject, p_body, p_segment, p_plan_slug,
                                                           p_class_id, p_lapsed_days);
begin
  if p_send_at > p_now + interval '90 days' then
    raise exception 'Schedule it at most 90 days ahead' using errcode = '22023', hint = 'invalid_send_at';
  end if;
  insert into public.announcements (type, subject, body, segment, plan_slug, class_id, lapsed_days, send_at, created_by, created_at)
  values (v_row.type, v_row.subject, v_row.body, v_row.segment, v_row.plan_slug, v_row.class_id, v_row.lapsed_days,
          greatest(coalesce(p_send_at, p_now), p_now), private.current_member_id(), p_now)
  returning * into v_row;
  if v_row.send_at <= p_now then
    perform private.send_announcement(v_row, p_now);
    select * into v_row from public.announcements a where a.id = v_row.id;
  end if;
  return v_row;
end;
$$;

revoke execute on function private.create_announcement(text, text, text, text, text, uuid, integer, timestamptz, timestamptz) from public;

grant execute on function private.create_announcement(text, text, text, text, text, uuid, integer, timestamptz, timestamptz) to authenticated, service_role;

-- An admin cancels an announcement not sent yet. Cancelling one already cancelled changes nothing.
create function private.cancel_announcement(p_id uuid, p_now timestamptz)
returns public.announcements
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.announcements;
begin
  perform private.require_admin();
  select * into v_row from public.announcements a where a.id = p_id for update;
  if v_row.id is null then
    raise exception 'Announcement not found' using errcode = 'P0002', hint = 'announcement_not_found';
  end if;
  if v_row.sent_at is not null then
    raise exception 'This announcement has already been sent' using errcode = 'P0001', hint = 'announcement_sent';
  end if;
  update public.announcements a set cancelled_at = coalesce(a.cancelled_at, p_now) where a.id = p_id returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.cancel_announcement(uuid, timestamptz) from public;

grant execute on function private.cancel_announcement(uuid, timestamptz) to authenticated, service_role;

-- Sending --------------------------------------------------------------------------------------------
-- Queues one announcement (its row locked by the caller or just inserted) as of p_now: an event per
-- member (key 'announcement:<id>:<member>') with a delivery per wanted channel, the k-th member's due
-- k / announcement_rate_per_minute() minutes after p_now; then records what was queued. A marketing
-- email carries the member's unsubscribe token (notification_deliveries_prepare) for its one-click
-- unsubscribe and footer link. Returns how many members it was queued for.
create function private.send_announcement(p_announcement public.announcements, p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_r record;
  v_member public.members;
  v_event uuid;
  v_at timestamptz;
  v_k integer := 0;
  v_counts public.announcement_preview := (0, 0, 0, 0, 0)::public.announcement_preview;
  v_paragraphs text[] := regexp_split_to_array(p_announcement.body, E'\n{2,}');
  v_links jsonb := case p_announcement.type
                     when 'marketing_announcement' then jsonb_build_array(jsonb_build_object('label', 'See the timetable', 'path', '/schedule'))
                     else jsonb_build_array(jsonb_build_object('label', 'My bookings', 'path', '/mybookings')) end;
begin
  for v_r in select * from private.announcement_recipients(p_announcement, p_now) loop
    if not (v_r.email or v_r.push_devices > 0 or v_r.sms) then
      v_counts.unreachable := v_counts.unreachable + 1;
      continue;
    end if;
    select * into v_member from public.members m where m.id = v_r.member_id;
    v_at := p_now + make_interval(mins => v_k / private.announcement_rate_per_minute());
    v_k := v_k + 1;
    v_event := private.notification_event(p_announcement.type, v_member.id, p_announcement.class_id, null,
                                          'announcement:' || p_announcement.id || ':' || v_member.id);
    if v_r.email and private.enqueue_email(p_announcement.type, v_member.email, v_member.id, p_announcement.class_id, null,
         p_announcement.subject,
         array_to_string(array[private.greeting(v_member.name)] || v_paragraphs, E'\n\n'),
         v_links, 'announcement:' || p_announcement.id || ':' || v_member.id, null, v_at) is not null then
      v_counts.emails := v_counts.emails + 1;
    end if;
    if v_r.push_devices > 0 and private.enqueue_push_for_event(v_event, left(p_announcement.subject, 120),
         left(v_paragraphs[1], 300), (v_links -> 0 ->> 'path'), v_at) > 0 then
      v_counts.pushes := v_counts.pushes + 1;
    end if;
    if v_r.sms and private.enqueue_sms_for_event(v_event, left(p_announcement.subject || ': ' || p_announcement.body, 250),
                                                 v_at) is not null then
      v_counts.texts := v_counts.texts + 1;
    end if;
    v_counts.recipients := v_counts.recipients + 1;
  end loop;
  update public.announcements a
     set sent_at = p_now, recipients = v_counts.recipients, emails = v_counts.emails, pushes = v_counts.pushes,
         texts = v_counts.texts
   where a.id = p_announcement.id;
  return v_counts.recipients;
end;
$$;

revoke execute on function private.send_announcement(public.announcements, timestamptz) from public;

-- The job (every minute, and the hourly jobs): every announcement due at p_now not sent or cancelled,
-- each once (FOR UPDATE SKIP LOCKED: two runs at once never take the same one; a second run finds
-- it sent). Returns how many members were queued for.
create function private.send_announcements_at(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.announcements;
  v_count integer := 0;
begin
  for v_row in
    select * from public.announcements a
     where a.sent_at is null and a.cancelled_at is null and a.send_at <= p_now
     order by a.send_at, a.id
     for update skip locked
  loop
    v_count := v_count + private.send_announcement(v_row, p_now);
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.send_announcements_at(timestamptz) from public;

grant execute on function private.send_announcements_at(timestamptz) to service_role;

-- API ---------------------------------------------------------------------------------------------
create function public.preview_announcement(
  p_type text, p_segment text, p_plan_slug text default null, p_class_id uuid default null, p_lapsed_days integer default null
)
returns public.announcement_preview
language sql stable security invoker set search_path = ''
as $$ select * from private.preview_announcement(p_type, p_segment, p_plan_slug, p_class_id, p_lapsed_days, now()) $$;

revoke execute on function public.preview_announcement(text, text, text, uuid, integer) from public, anon;

grant execute on function public.preview_announcement(text, text, text, uuid, integer) to authenticated, service_role;

create function public.create_announcement(
  p_type text, p_subject text, p_body text, p_segment text, p_plan_slug text default null, p_class_id uuid default null,
  p_lapsed_days integer default null, p_send_at timestamptz default null
)
returns public.announcements
language sql volatile security invoker set search_path = ''
as $$
  select * from private.create_announcement(p_type, p_subject, p_body, p_segment, p_plan_slug, p_class_id, p_lapsed_days,
                                             p_send_at, now())
$$;

revoke execute on function public.create_announcement(text, text, text, text, text, uuid, integer, timestamptz) from public, anon;

grant execute on function public.create_announcement(text, text, text, text, text, uuid, integer, timestamptz) to authenticated, service_role;

create function public.cancel_announcement(p_id uuid)
returns public.announcements
language sql volatile security invoker set search_path = ''
as $$ select * from private.cancel_announcement(p_id, now()) $$;

revoke execute on function public.cancel_announcement(uuid) from public, anon;

grant execute on function public.cancel_announcement(uuid) to authenticated, service_role;

create function public.send_announcements_at(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.send_announcements_at(p_now) $$;

revoke execute on function public.send_announcements_at(timestamptz) from public, anon, authenticated;

grant execute on function public.send_announcements_at(timestamptz) to service_role;
