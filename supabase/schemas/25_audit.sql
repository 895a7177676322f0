-- The audit trail (decision 0045): every change an admin or a coach makes to the
-- studio's data, recorded by the database itself, so a change made through the app, a Netlify
-- function or the API directly is recorded alike. Who (the signed-in member behind the request's
-- JWT), when, what (table, row, a kind), and before and after (for an update, only the columns that
-- changed). A member's own changes are not recorded, nor the service role's scheduled jobs (the
-- system health log says what they did: 26_health.sql).
--
-- Append-only: no role may insert, update or delete through the API (grants), row-level security
-- lets admins read it, and a trigger refuses every update and delete, for the owner too, but for
-- the retention job's purge of rows past their period (private.purge_audit_events).

create table public.audit_events (
  id bigint generated always as identity primary key,
  at timestamptz not null default now(),
  -- Who: the member behind the JWT, and their name then (kept as it was if the member leaves).
  actor_member_id uuid,
  actor_name text not null,
  actor_role text not null constraint audit_events_actor_role_check check (actor_role in ('admin', 'coach')),
  -- What: the table and row, the verb, and the area of the studio it belongs to.
  table_name text not null,
  row_id text,
  action text not null constraint audit_events_action_check check (action in ('insert', 'update', 'delete')),
  kind text not null
    constraint audit_events_kind_check
    check (kind in ('class', 'closure', 'trainer', 'booking', 'attendance', 'waitlist', 'member', 'plan', 'price',
                    'payment', 'refund', 'credit', 'document', 'settings')),
  -- Which member and which class it concerns (for the filters), and a readable name of the row.
  member_id uuid,
  class_id uuid,
  subject text,
  -- The row before and after; for an update only the columns that changed.
  before jsonb,
  after jsonb
);

comment on table public.audit_events is
  'Append-only record of every change an admin or coach made: who, when, what, before and after (decision 0045).';

create index audit_events_at_idx on public.audit_events (at desc, id desc);

create index audit_events_member_idx on public.audit_events (member_id, at desc) where member_id is not null;

create index audit_events_class_idx on public.audit_events (class_id, at desc) where class_id is not null;

create index audit_events_kind_idx on public.audit_events (kind, at desc);

alter table public.audit_events enable row level security;

revoke all on public.audit_events from public, anon, authenticated, service_role;

grant select on public.audit_events to authenticated, service_role;

-- Who is acting ----------------------------------------------------------------------------------
-- The staff member behind the request, as (member id, name, role), or no row: no JWT, the service
-- role, or a member who is neither an admin nor a coach.
create function private.audit_actor()
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

-- The area of the studio a change belongs to: the table's, except that a booking whose only change
-- is its attendance is an attendance mark.
create function private.audit_kind(p_table text, p_changed text[])
returns text
language sql immutable set search_path = ''
as $$
  select case p_table
    when 'classes' then 'class'
    when 'studio_closures' then 'closure'
    when 'trainers' then 'trainer'
    when 'trainer_accounts' then 'trainer'
    when 'trainer_availability' then 'trainer'
    when 'trainer_one_off_slots' then 'trainer'
    when 'bookings' then
      case when p_changed is not null and p_changed <@ array['attendance', 'attendance_marked_at'] then 'attendance' else 'booking' end
    when 'guest_places' then 'booking'
    when 'class_waitlist' then 'waitlist'
    when 'members' then 'member'
    when 'dependants' then 'member'
    when 'memberships' then 'plan'
    when 'plans' then 'price'
    when 'payments' then 'payment'
    when 'refunds_owed' then 'refund'
    when 'credits' then 'credit'
    when 'coach_pay_rates' then 'trainer'
    when 'membership_pauses' then 'plan'
    when 'document_versions' then 'document'
    when 'document_acceptances' then 'document'
    else 'settings'
  end
$$;

revoke execute on function private.audit_kind(text, text[]) from public;

-- Records one row's change when a staff member made it (trigger on each audited table, below).
create function private.audit_change()
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

-- Nothing changes a recorded event; only the retention job's purge removes old ones.
create function private.audit_events_append_only()
returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'DELETE' and current_setting('app.audit_purge', true) = 'on' then
    return old;
  end if;
  raise exception 'The activity log cannot be changed' using errcode = '42501', hint = 'audit_append_only';
end;
$$;

revoke execute on function private.audit_events_append_only() from public;

-- How long the trail is kept: as long as the payments it may explain (HMRC: 6 years).
create function private.audit_retention()
returns interval
language sql immutable set search_path = ''
as $$ select interval '6 years' $$;

revoke execute on function private.audit_retention() from public;

-- Removes events older than their retention as of p_now (run by the retention job). Returns how many.
create function private.purge_audit_events(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  perform set_config('app.audit_purge', 'on', true);
  delete from public.audit_events where at < p_now - private.audit_retention();
  get diagnostics v_count = row_count;
  perform set_config('app.audit_purge', '', true);
  return v_count;
end;
$$;

revoke execute on function private.purge_audit_events(timestamptz) from public;

-- Row-level security and triggers -------------------------------------------------------------------
create policy "Admins read the activity log"
  on public.audit_events for select to authenticated
  using ((select private.is_admin()));

create trigger audit_events_append_only
  before update or delete on public.audit_events
  for each row execute function private.audit_events_append_only();

create trigger audit_events_no_truncate
  before truncate on public.audit_events
  for each statement execute function private.audit_events_append_only();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
-- One trigger, audit_trail, on every table an admin or coach changes; audit_change records the
-- change only when the request's JWT is a staff member's.
create trigger audit_trail
  after insert or update or delete on public.classes
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.studio_closures
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.trainers
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.trainer_accounts
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.trainer_availability
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.trainer_one_off_slots
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.bookings
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.guest_places
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.class_waitlist
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.members
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.dependants
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.memberships
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.plans
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.payments
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.refunds_owed
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.credits
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.document_versions
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.document_acceptances
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.door_codes
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on private.studio_settings
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.meeting_points
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.timetable_slot_meeting_points
  for each row execute function private.audit_change();
