-- Issue 38 item 17: a sign-up whose email is not confirmed is not counted as a member in the admin
-- figures, and a new version of a document members must accept is emailed to every active member.
alter table public.members add column awaiting_confirmation boolean not null default false;

create function private.members_confirmation_from_user()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  new.awaiting_confirmation := new.user_id is not null
    and exists (select 1 from auth.users u where u.id = new.user_id and u.email_confirmed_at is null);
  return new;
end;
$$;

revoke execute on function private.members_confirmation_from_user() from public;

create function private.members_sync_email_confirmed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.members m set awaiting_confirmation = (new.email_confirmed_at is null)
   where m.user_id = new.id and m.awaiting_confirmation is distinct from (new.email_confirmed_at is null);
  return null;
end;
$$;

revoke execute on function private.members_sync_email_confirmed() from public;

-- The rows there are now, before the triggers keep them.
update public.members m set awaiting_confirmation = true
  from auth.users u
 where u.id = m.user_id and u.email_confirmed_at is null;

create trigger members_confirmation_from_user
  before insert or update of user_id on public.members
  for each row execute function private.members_confirmation_from_user();

create trigger members_sync_email_confirmed
  after update of email_confirmed_at on auth.users
  for each row execute function private.members_sync_email_confirmed();

-- A new type of the one notification pipeline (decision 0040).
insert into public.notification_types (type, category, label) values
  ('document_updated', 'service', 'New versions of the studio''s documents');

create or replace function private.admin_stats()
returns public.admin_figures
language plpgsql stable security definer set search_path = '' set jit = off
as $$
declare
  v_month_start timestamptz := private.allowance_month_start(now());
  v_this_week date := date_trunc('week', now() at time zone 'Europe/London')::date;
  v_first_week date := v_this_week - 7 * (private.stats_weeks() - 1);
  r public.admin_figures;
begin
  perform private.require_admin();
  select count(*)::int,
         count(*) filter (where m.membership_tier = 'premium')::int,
         count(*) filter (where m.membership_tier = 'standard')::int,
         count(*) filter (where m.membership_tier not in ('premium', 'standard'))::int
    into r.total_members, r.premium_members, r.standard_members, r.payg_members
    from public.members m
   where not m.awaiting_confirmation;
  select count(*)::int, coalesce(sum(t.bookings), 0)::int, count(*) filter (where t.start_time >= now())::int
    into r.total_classes, r.total_bookings, r.upcoming_classes
    from private.class_tallies t;
  r.bookings_this_month := (select count(*) from public.bookings where booked_at >= v_month_start);
  r.weekly := array(
    select (w.week_start, w.classes, w.capacity, w.bookings,
            case when w.capacity > 0 then round(w.bookings::numeric / w.capacity, 4) end,
            w.attended, w.no_show,
            case when w.attended + w.no_show > 0 then round(w.attended::numeric / (w.attended + w.no_show), 4) end
           )::public.admin_week
      from (
        select weeks.week_start::date as week_start,
               coalesce(t.classes, 0) as classes, coalesce(t.capacity, 0) as capacity, coalesce(t.bookings, 0) as bookings,
               coalesce(t.attended, 0) as attended, coalesce(t.no_show, 0) as no_show
          from generate_series(v_first_week, v_this_week, interval '7 days') as weeks(week_start)
          left join (
            select t.london_week as week_start,
                   count(*)::int as classes,
                   sum(t.capacity)::int as capacity,
                   -- As classes.current_bookings counts them: booking rows and guest places.
                   sum(t.bookings + t.guests)::int as bookings,
                   sum(t.attended)::int as attended,
                   sum(t.no_shows)::int as no_show
              from private.class_tallies t
             where t.start_time >= (v_first_week::timestamp at time zone 'Europe/London')
               and t.start_time < ((v_this_week + 7)::timestamp at time zone 'Europe/London')
             group by 1
          ) t on t.week_start = weeks.week_start::date
      ) w
     order by w.week_start);
  return r;
end;
$$;

revoke execute on function private.admin_stats() from public;

grant execute on function private.admin_stats() to authenticated;

create or replace function private.publish_document(p_kind text, p_title text, p_body text, p_summary text, p_questions jsonb)
returns public.document_versions
language plpgsql security definer set search_path = ''
as $$
declare
  v_kind public.document_kind;
  v_row public.document_versions;
begin
  perform private.require_admin();
  if p_kind is null or p_kind not in ('terms', 'privacy', 'cookies', 'waiver', 'parq') then
    raise exception 'Unknown document' using errcode = '22023', hint = 'invalid_document_kind';
  end if;
  v_kind := p_kind::public.document_kind;
  if char_length(btrim(coalesce(p_title, ''))) = 0 or char_length(btrim(coalesce(p_body, ''))) = 0 then
    raise exception 'A document needs a title and text' using errcode = '22023', hint = 'document_empty';
  end if;
  if v_kind = 'parq' and (p_questions is null or jsonb_typeof(p_questions) <> 'array' or jsonb_array_length(p_questions) = 0
       or exists (select 1 from jsonb_array_elements(p_questions) q
                   where jsonb_typeof(q) <> 'string' or char_length(btrim(q #>> '{}')) = 0)) then
    raise exception 'The health questions need at least one question' using errcode = '22023', hint = 'questions_required';
  end if;
  -- One publisher of a kind at a time: the next number is taken once.
  perform pg_advisory_xact_lock(hashtext('document_versions:' || p_kind));
  -- A new booking document and a booking never cross: bookings (and waitlist places) under way
  -- commit first, and those that reach the table after this wait and then see the new version
  -- (decision 0027; supabase/tests/waiver-race.test.ts). Publishing is rare and short.
  if v_kind = any (private.booking_document_kinds()) then
    lock table public.bookings, public.class_waitlist in share row exclusive mode;
  end if;
  insert into public.document_versions (kind, version, title, body, summary, questions, published_by)
  values (v_kind,
          coalesce((select max(d.version) from public.document_versions d where d.kind = v_kind), 0) + 1,
          btrim(p_title), btrim(p_body), nullif(btrim(p_summary), ''),
          case when v_kind = 'parq' then p_questions end,
          private.current_member_id())
  returning * into v_row;
  -- A new version of a document members must accept is emailed to every active member, in this
  -- transaction (issue 38: they found out only when they next booked). The first version is not:
  -- it is part of the studio opening, and every booking asks for it anyway.
  if v_kind = any (private.booking_document_kinds()) and v_row.version > 1 then
    perform private.enqueue_membership_email(
      'document_updated', m.id,
      'We have updated our ' || v_row.title,
      array['We have published a new version of our ' || v_row.title || ' (version ' || v_row.version || ').']
        || case when v_row.summary is not null then array['What changed: ' || v_row.summary] else array[]::text[] end
        || array['Please read and accept it before your next booking: the studio will ask you to when you book.'],
      jsonb_build_array(jsonb_build_object('label', 'Read and accept it', 'path', '/agreements')),
      'document_updated:' || v_row.id || ':' || m.id)
      from public.members m
     where m.status = 'active' and m.user_id is not null and not m.awaiting_confirmation;
  end if;
  return v_row;
end;
$$;

revoke execute on function private.publish_document(text, text, text, text, jsonb) from public;

grant execute on function private.publish_document(text, text, text, text, jsonb) to authenticated;
