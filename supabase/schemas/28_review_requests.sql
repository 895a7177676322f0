-- Review requests (decision 0088): after a member's Nth attended class (N set by the studio), one
-- email through the notification pipeline (type review_request) asks how it went and offers the
-- studio's review link, at most once in M months. Every member who reaches N gets the same
-- words and the same link: nothing asks first whether they were happy (review gating, against
-- Google's policy and the UK's rules on fake and misleading reviews), nothing is offered for a
-- review. A member turns these off like any other type (set_notification_preference('email',
-- 'review_request', false)); the studio turns them off by clearing N.
--
-- The job send_review_requests_at(p_now) counts the member's own attended classes (not their
-- children's) since their last request; run twice with the same "now", or at once, it sends once
-- (one review_requests row per member and class, and the event's key).

-- Tables ------------------------------------------------------------------------------------------
create table private.review_request_settings (
  id boolean primary key default true check (id),
  -- Attended classes before a request; null = the studio sends none.
  after_classes integer check (after_classes between 1 and 100),
  -- At most one request per member in this many months.
  once_in_months integer not null default 6 check (once_in_months between 1 and 24),
  -- The studio's public review page (a Google Business Profile's review link, say).
  review_url text check (char_length(review_url) <= 500 and review_url ~ '^https://[^\s<>"]+$'),
  updated_at timestamptz not null default now(),
  constraint review_request_settings_url_when_on check (after_classes is null or review_url is not null)
);

revoke all on private.review_request_settings from public, anon, authenticated;

insert into private.review_request_settings (after_classes, once_in_months, review_url) values (null, 6, null);

-- One row per request sent: the member, the class that made the count, and when.
create table public.review_requests (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  class_id uuid not null references public.classes (id) on delete cascade,
  attended integer not null check (attended >= 1),
  requested_at timestamptz not null,
  constraint review_requests_once_per_class unique (member_id, class_id)
);

comment on table public.review_requests is
  'Review requests sent (send_review_requests_at): the member, the attended class that made the count, when.';

create index review_requests_class_id_idx on public.review_requests (class_id);

create index review_requests_member_requested_idx on public.review_requests (member_id, requested_at);

alter table public.review_requests enable row level security;

revoke all on public.review_requests from public, anon, authenticated;

grant all on public.review_requests to service_role;

-- Rules, named once ----------------------------------------------------------------------------------
-- How recent the Nth class must be for "how did it go" to make sense: turning requests on does not
-- ask members about classes of months ago.
create function private.review_request_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '7 days' $$;

revoke execute on function private.review_request_window() from public;

-- The job -------------------------------------------------------------------------------------------
-- As of p_now: every member with at least after_classes attended classes (their own places,
-- started by p_now) since their last request, the latest within review_request_window(), and no
-- request in the last once_in_months months, who has not turned review requests off, gets one
-- email. Returns how many were queued.
create function private.send_review_requests_at(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_settings private.review_request_settings;
  v_due record;
  v_member public.members;
  v_class public.classes;
  v_count integer := 0;
begin
  select * into v_settings from private.review_request_settings;
  if v_settings.after_classes is null or p_now is null then
    return 0;
  end if;
  for v_due in
    with last_request as (
      select r.member_id, max(r.requested_at) as at from public.review_requests r group by r.member_id
    )
    select b.member_id, count(*)::int as attended,
           (array_agg(c.id order by c.start_time desc, c.id))[1] as class_id
      from public.bookings b
      join public.classes c on c.id = b.class_id
      left join last_request l on l.member_id = b.member_id
     where b.attendance = 'attended' and b.dependant_id is null
       and c.start_time <= p_now
       and (l.at is null or c.start_time > l.at)
     group by b.member_id, l.at
    having count(*) >= v_settings.after_classes
       and max(c.start_time) > p_now - private.review_request_window()
       and (l.at is null or l.at <= p_now - make_interval(months => v_settings.once_in_months))
  loop
    if not private.notification_wanted(v_due.member_id, 'email', 'review_request') then
      continue;
    end if;
    select * into v_member from public.members m where m.id = v_due.member_id;
    select * into v_class from public.classes c where c.id = v_due.class_id;
    -- A run at the same time as this one recorded it first: it sends, this one does not.
    insert into public.review_requests (member_id, class_id, attended, requested_at)
    values (v_due.member_id, v_due.class_id, v_due.attended, p_now)
    on conflict (member_id, class_id) do nothing;
    if not found then
      continue;
    end if;
    if private.enqueue_email('review_request', v_member.email, v_member.id, v_class.id, null,
         'How was ' || v_class.name || '?',
         concat_ws(E'\n\n', private.greeting(v_member.name),
           'Thank you for coming to ' || v_class.name || ' with ' || v_class.trainer || ' on '
             || private.london_time_text(v_class.start_time) || '. How did it go?',
           'If you have a moment, you can tell other people about the studio with a review: '
             || v_settings.review_url,
           'Everyone who comes to ' || v_settings.after_classes || ' classes gets this same message, '
             || 'whatever they thought; a review is entirely up to you, and nothing depends on it. '
             || 'To tell the studio something directly, use Contact Us on the Membership page.',
           'Prefer not to get these? Turn off review requests on Edit Profile.'),
         jsonb_build_array(jsonb_build_object('label', 'Contact the studio', 'path', '/membership'),
                           jsonb_build_object('label', 'Turn review requests off', 'path', '/edit-profile')),
         'review_request:' || v_member.id || ':' || v_class.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.send_review_requests_at(timestamptz) from public;

grant execute on function private.send_review_requests_at(timestamptz) to service_role;

-- Admins ----------------------------------------------------------------------------------------------
create type public.review_request_settings as (
  after_classes integer,
  once_in_months integer,
  review_url text
);

comment on type public.review_request_settings is 'The studio''s review requests: after how many classes, how often, which link.';

create function private.admin_review_request_settings()
returns public.review_request_settings
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select (s.after_classes, s.once_in_months, s.review_url)::public.review_request_settings
            from private.review_request_settings s);
end;
$$;

revoke execute on function private.admin_review_request_settings() from public;

grant execute on function private.admin_review_request_settings() to authenticated;

-- Saves the settings whole. p_after_classes null turns requests off (the link may stay).
-- Refusals: not_admin, invalid_review_settings (N outside 1-100, M outside 1-24, a link that is
-- not https, or requests on without a link).
create function private.set_review_request_settings(p_after_classes integer, p_once_in_months integer, p_review_url text)
returns public.review_request_settings
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_url text := nullif(btrim(coalesce(p_review_url, '')), '');
begin
  perform private.require_admin();
  if p_after_classes is not null and p_after_classes not between 1 and 100 then
    raise exception 'Choose between 1 and 100 classes' using errcode = '22023', hint = 'invalid_review_settings';
  end if;
  if p_once_in_months is null or p_once_in_months not between 1 and 24 then
    raise exception 'Choose between 1 and 24 months' using errcode = '22023', hint = 'invalid_review_settings';
  end if;
  if v_url is not null and (char_length(v_url) > 500 or v_url !~ '^https://[^\s<>"]+$') then
    raise exception 'The review link must be a web address starting https://' using errcode = '22023', hint = 'invalid_review_settings';
  end if;
  if p_after_classes is not null and v_url is null then
    raise exception 'Add the studio''s review link first' using errcode = '22023', hint = 'invalid_review_settings';
  end if;
  update private.review_request_settings
     set after_classes = p_after_classes, once_in_months = p_once_in_months, review_url = v_url, updated_at = now()
   where id;
  return (p_after_classes, p_once_in_months, v_url)::public.review_request_settings;
end;
$$;

revoke execute on function private.set_review_request_settings(integer, integer, text) from public;

grant execute on function private.set_review_request_settings(integer, integer, text) to authenticated;

-- API ------------------------------------------------------------------------------------------
create function public.send_review_requests_at(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.send_review_requests_at(p_now) $$;

revoke execute on function public.send_review_requests_at(timestamptz) from public, anon, authenticated;

grant execute on function public.send_review_requests_at(timestamptz) to service_role;

create function public.admin_review_request_settings()
returns public.review_request_settings
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_review_request_settings() $$;

revoke execute on function public.admin_review_request_settings() from public, anon, authenticated;

grant execute on function public.admin_review_request_settings() to authenticated;

create function public.set_review_request_settings(p_after_classes integer, p_once_in_months integer, p_review_url text)
returns public.review_request_settings
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_review_request_settings(p_after_classes, p_once_in_months, p_review_url) $$;

revoke execute on function public.set_review_request_settings(integer, integer, text) from public, anon, authenticated;

grant execute on function public.set_review_request_settings(integer, integer, text) to authenticated;
