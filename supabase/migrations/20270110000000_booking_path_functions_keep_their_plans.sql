-- Decision 0109: the functions a booking calls keep their query plans. A SQL-language function
-- that cannot be inlined (every one of ours: each sets search_path) is parsed, analysed and
-- planned again on every call; on the bench's PostgreSQL load that was over a third of the
-- server's CPU per booking. These functions are the same queries and expressions in PL/pgSQL,
-- whose plans are kept for the connection's life. Same results: a composite that finds no row is
-- still null (not a row of nulls), a query that may find several rows still gives the first.
-- audit_change makes its JSON copies of the row only when a staff member is acting.

create or replace function private.interval_text(p_interval interval)
returns text
language plpgsql immutable set search_path = ''
as $$
declare
  s bigint := extract(epoch from p_interval)::bigint;
begin
  return case
    when s % 86400 = 0 then (s / 86400) || case when s = 86400 then ' day' else ' days' end
    when s % 3600 = 0 then (s / 3600) || case when s = 3600 then ' hour' else ' hours' end
    else (s / 60) || case when s = 60 then ' minute' else ' minutes' end
  end;
end;
$$;

revoke execute on function private.interval_text(interval) from public;

create or replace function private.london_time_text(p_at timestamptz)
returns text
language plpgsql stable set search_path = ''
as $$
begin
  return to_char(p_at at time zone 'Europe/London', 'FMDay FMDD FMMonth YYYY, FMHH12:MI AM');
end;
$$;

revoke execute on function private.london_time_text(timestamptz) from public;

create or replace function private.greeting(p_name text)
returns text
language plpgsql immutable set search_path = ''
as $$
begin
  return 'Hi ' || coalesce(nullif(split_part(btrim(coalesce(p_name, '')), ' ', 1), ''), 'there') || ',';
end;
$$;

revoke execute on function private.greeting(text) from public;

create or replace function private.studio_address()
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  -- One row at most (studio_settings' key is true).
  return (select address from private.studio_settings);
end;
$$;

revoke execute on function private.studio_address() from public;

create or replace function private.months_after(p_anchor timestamptz, p_months integer)
returns timestamptz
language plpgsql stable set search_path = ''
as $$
begin
  return ((p_anchor at time zone 'Europe/London') + make_interval(months => p_months)) at time zone 'Europe/London';
end;
$$;

revoke execute on function private.months_after(timestamptz, integer) from public;

create or replace function private.class_where(p_class public.classes)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  return coalesce((select mp.name || ', ' || mp.address from public.meeting_points mp where mp.id = p_class.meeting_point_id),
                  private.studio_address());
end;
$$;

revoke execute on function private.class_where(public.classes) from public;

create or replace function private.class_directions_line(p_class public.classes)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  return coalesce((select E'\nDirections: ' || nullif(btrim(mp.directions), '')
                     from public.meeting_points mp where mp.id = p_class.meeting_point_id), '');
end;
$$;

revoke execute on function private.class_directions_line(public.classes) from public;

create or replace function private.premium_unlocks_at(p_start_time timestamptz, p_unlock_window text)
returns timestamptz
language plpgsql immutable set search_path = ''
as $$
begin
  return p_start_time - p_unlock_window::interval;
end;
$$;

revoke execute on function private.premium_unlocks_at(timestamptz, text) from public;

create or replace function private.is_class_locked(
  p_tier public.membership_tier, p_is_premium boolean, p_start_time timestamptz, p_unlock_window text, p_at timestamptz
)
returns boolean
language plpgsql immutable set search_path = ''
as $$
begin
  return p_is_premium
     and p_tier in ('standard', 'payg')
     and p_at < private.premium_unlocks_at(p_start_time, p_unlock_window);
end;
$$;

revoke execute on function private.is_class_locked(public.membership_tier, boolean, timestamptz, text, timestamptz) from public;

create or replace function private.allowance_month_start(p_at timestamptz)
returns timestamptz
language plpgsql immutable set search_path = ''
as $$
begin
  return date_trunc('month', p_at at time zone 'Europe/London') at time zone 'Europe/London';
end;
$$;

revoke execute on function private.allowance_month_start(timestamptz) from public;

create or replace function private.trial_available(p_member public.members)
returns boolean
language plpgsql stable security definer set search_path = ''
as $$
begin
  return case
    when not (p_member.membership_tier = 'trial' or (p_member.membership_tier = 'payg' and not p_member.has_used_trial)) then false
    else not exists (select 1 from public.bookings b
                      where b.member_id = p_member.id and b.dependant_id is null and b.type = 'trial')
  end;
end;
$$;

revoke execute on function private.trial_available(public.members) from public;

create or replace function private.allowance_used(p_member_id uuid, p_at timestamptz)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  -- One row: a member has one membership at most (memberships.member_id is unique).
  return (
    select case
      when ms.id is null then
        (select count(*)::int from public.bookings b
          where b.member_id = p_member_id and b.type = 'paid' and b.booked_at >= private.allowance_month_start(p_at))
        + (select count(*)::int from public.late_cancellations l
            where l.member_id = p_member_id and l.booking_type = 'paid' and l.booked_at >= private.allowance_month_start(p_at))
      else coalesce(private.plan_classes_in(p_member_id, private.plan_period_of(ms, p_at)), 0)
    end
    from (select 1) one
    left join public.memberships ms on ms.member_id = p_member_id and ms.tier <> 'trial');
end;
$$;

revoke execute on function private.allowance_used(uuid, timestamptz) from public;

create or replace function private.booking_type_refusal(p_member public.members, p_booking_type public.booking_type)
returns text
language plpgsql stable set search_path = ''
as $$
begin
  return case p_booking_type
    when 'paid' then
      case
        when private.plan_allowance(p_member.membership_tier) is null then 'plan_required'
        when private.allowance_used(p_member.id, now()) >= private.plan_allowance(p_member.membership_tier) then 'allowance_used'
      end
    when 'trial' then case when not private.trial_available(p_member) then 'trial_unavailable' end
  end;
end;
$$;

revoke execute on function private.booking_type_refusal(public.members, public.booking_type) from public;

create or replace function private.booking_type_for(p_member public.members, p_booking_type public.booking_type)
returns public.booking_type
language plpgsql stable set search_path = ''
as $$
begin
  return case
    when p_booking_type is not null then p_booking_type
    when private.booking_type_refusal(p_member, 'paid') is null then 'paid'
    when private.trial_available(p_member) then 'trial'
    else 'payg'
  end;
end;
$$;

revoke execute on function private.booking_type_for(public.members, public.booking_type) from public;

create or replace function private.membership_paid(p_membership public.memberships)
returns boolean
language plpgsql immutable set search_path = ''
as $$
begin
  return p_membership.period_number >= p_membership.anchor_period;
end;
$$;

revoke execute on function private.membership_paid(public.memberships) from public;

create or replace function private.plan_period_of(p_membership public.memberships, p_at timestamptz)
returns tstzrange
language plpgsql stable set search_path = ''
as $$
begin
  return case
    when p_membership.id is null or p_membership.ended_at is not null or not private.membership_paid(p_membership)
         or p_membership.status not in ('active', 'past_due', 'cancelled') then null
    when p_at < p_membership.period_end then tstzrange(p_membership.period_start, p_membership.period_end)
    when p_membership.renews
         and p_at < private.months_after(p_membership.anchor_at, p_membership.period_number - p_membership.anchor_period + 2)
      then tstzrange(p_membership.period_end,
                     private.months_after(p_membership.anchor_at, p_membership.period_number - p_membership.anchor_period + 2))
  end;
end;
$$;

revoke execute on function private.plan_period_of(public.memberships, timestamptz) from public;

create or replace function private.plan_classes_in(p_member_id uuid, p_window tstzrange)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (select count(*)::int from public.bookings b join public.classes c on c.id = b.class_id
           where b.member_id = p_member_id and b.type = 'paid' and c.start_time <@ p_window)
       + (select count(*)::int from public.late_cancellations l
           where l.member_id = p_member_id and l.booking_type = 'paid' and l.class_start_time <@ p_window);
end;
$$;

revoke execute on function private.plan_classes_in(uuid, tstzrange) from public;

create or replace function private.pause_at(p_member_id uuid, p_at timestamptz)
returns public.membership_pauses
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_pause public.membership_pauses;
begin
  select * into v_pause from public.membership_pauses p
   where p.member_id = p_member_id and p.withdrawn_at is null and private.pause_range(p) @> p_at
   limit 1;
  -- No pause: null, not a row of nulls.
  if not found then
    return null;
  end if;
  return v_pause;
end;
$$;

revoke execute on function private.pause_at(uuid, timestamptz) from public;

create or replace function private.current_documents()
returns setof public.document_versions
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query select distinct on (d.kind) d.* from public.document_versions d order by d.kind, d.version desc;
end;
$$;

revoke execute on function private.current_documents() from public;

create or replace function private.missing_documents(p_member_id uuid)
returns public.document_kind[]
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (
    select coalesce(array_agg(d.kind order by array_position(private.booking_document_kinds(), d.kind)), '{}')
      from private.current_documents() d
     where d.kind = any (private.booking_document_kinds())
       and not case d.kind
         when 'parq' then exists (select 1 from public.health_answers h where h.member_id = p_member_id and h.document_id = d.id)
         else exists (select 1 from public.document_acceptances a where a.member_id = p_member_id and a.document_id = d.id)
       end);
end;
$$;

revoke execute on function private.missing_documents(uuid) from public;

create or replace function private.admitted(p_kind text)
returns uuid
language plpgsql stable set search_path = ''
as $$
begin
  return case when split_part(current_setting('studio.admitting', true), ':', 1) = p_kind
              then nullif(split_part(current_setting('studio.admitting', true), ':', 2), '')::uuid end;
end;
$$;

revoke execute on function private.admitted(text) from public;

create or replace function private.audit_actor()
returns table (member_id uuid, name text, role text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query
  select m.id, coalesce(nullif(btrim(m.name), ''), m.email::text),
         case when m.is_admin then 'admin' else 'coach' end
    from public.members m
   where m.user_id = (select auth.uid())
     and coalesce((select auth.role()), '') <> 'service_role'
     and (m.is_admin or exists (select 1 from public.trainer_accounts ta where ta.member_id = m.id));
end;
$$;

revoke execute on function private.audit_actor() from public;

create or replace function private.audit_change()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_actor record;
  v_old jsonb;
  v_new jsonb;
  v_row jsonb;
  v_before jsonb;
  v_after jsonb;
  v_changed text[];
  v_member_id uuid;
  v_class_id uuid;
  v_subject text;
begin
  select * into v_actor from private.audit_actor();
  if not found then
    return null;
  end if;
  -- The rows as JSON only once a staff member is acting: most changes are members' own (bookings).
  v_old := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  v_new := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  v_row := coalesce(v_new, v_old);
  v_before := v_old;
  v_after := v_new;
  v_member_id := case tg_table_name
    when 'members' then (v_row ->> 'id')::uuid
    when 'dependants' then (v_row ->> 'parent_member_id')::uuid
    when 'guest_places' then (v_row ->> 'host_member_id')::uuid
    else (v_row ->> 'member_id')::uuid end;
  v_class_id := case tg_table_name when 'classes' then (v_row ->> 'id')::uuid else (v_row ->> 'class_id')::uuid end;
  -- A coach's own bookings and profile are a member's own changes.
  if v_actor.role = 'coach' and v_member_id is not distinct from v_actor.member_id then
    return null;
  end if;
  if tg_op = 'UPDATE' then
    select array_agg(n.key order by n.key), jsonb_object_agg(n.key, o.value), jsonb_object_agg(n.key, n.value)
      into v_changed, v_before, v_after
      from jsonb_each(v_new) n
      join jsonb_each(v_old) o on o.key = n.key
     where n.value is distinct from o.value;
    if v_changed is null then
      return null;
    end if;
  end if;
  v_subject := coalesce(
    case tg_table_name
      when 'classes' then (v_row ->> 'name') || ', ' || private.london_time_text((v_row ->> 'start_time')::timestamptz)
      when 'members' then coalesce(nullif(v_row ->> 'name', ''), v_row ->> 'email')
      when 'dependants' then v_row ->> 'name'
      when 'trainers' then v_row ->> 'name'
      when 'plans' then v_row ->> 'name'
      when 'studio_closures' then v_row ->> 'closed_on'
      when 'document_versions' then v_row ->> 'title'
    end,
    (select coalesce(nullif(btrim(m.name), ''), m.email::text) from public.members m where m.id = v_member_id),
    (select c.name || ', ' || private.london_time_text(c.start_time) from public.classes c where c.id = v_class_id));
  insert into public.audit_events (actor_member_id, actor_name, actor_role, table_name, row_id, action, kind,
                                   member_id, class_id, subject, before, after)
  values (v_actor.member_id, v_actor.name, v_actor.role, tg_table_name,
          coalesce(v_row ->> 'id', v_row ->> 'slug', v_row ->> 'slot', v_row ->> 'day', v_row ->> 'trainer_id'),
          lower(tg_op), private.audit_kind(tg_table_name, v_changed), v_member_id, v_class_id, v_subject,
          v_before, v_after);
  return null;
end;
$$;

revoke execute on function private.audit_change() from public;

create or replace function private.class_watched(p_class public.classes)
returns jsonb
language plpgsql stable set search_path = ''
as $$
begin
  return jsonb_build_object(
    'trainer', p_class.trainer,
    'trainer_id', p_class.trainer_id,
    'meeting_point_id', p_class.meeting_point_id
  );
end;
$$;

revoke execute on function private.class_watched(public.classes) from public;

create or replace function private.attendance_policy_at(p_at timestamptz)
returns public.attendance_policies
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_policy public.attendance_policies;
begin
  select p.* into v_policy from public.attendance_policies p where p.valid_from <= p_at order by p.valid_from desc limit 1;
  -- No policy yet: null, not a row of nulls.
  if not found then
    return null;
  end if;
  return v_policy;
end;
$$;

revoke execute on function private.attendance_policy_at(timestamptz) from public;

create or replace function private.booking_blocked_until(p_member_id uuid, p_now timestamptz)
returns timestamptz
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (
    with policy as (select * from private.attendance_policy_at(p_now) where strike_limit is not null),
    recent as (
      select i.occurred_at
        from policy, public.attendance_incidents i
       where i.member_id = p_member_id and i.waived_at is null and i.occurred_at <= p_now
         and i.occurred_at > p_now - make_interval(days => policy.block_days) - interval '30 days')
    select max(r.occurred_at + make_interval(days => policy.block_days))
      from policy, recent r
     where r.occurred_at + make_interval(days => policy.block_days) > p_now
       and (select count(*) from recent s where s.occurred_at > r.occurred_at - interval '30 days'
                                           and s.occurred_at <= r.occurred_at) >= policy.strike_limit);
end;
$$;

revoke execute on function private.booking_blocked_until(uuid, timestamptz) from public;

