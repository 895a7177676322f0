-- The audit trail (decision 0045) covers the tables that landed beside it: meeting points and the
-- template's meeting points, coach pay rates, pause rules and membership pauses (a rate is a
-- trainer's change, a pause a plan's), and names a template slot's row by its slot.
create or replace function private.audit_kind(p_table text, p_changed text[])
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

create or replace function private.audit_change()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_actor record;
  v_old jsonb := case when tg_op in ('UPDATE', 'DELETE') then to_jsonb(old) end;
  v_new jsonb := case when tg_op in ('INSERT', 'UPDATE') then to_jsonb(new) end;
  v_row jsonb := coalesce(v_new, v_old);
  v_before jsonb := v_old;
  v_after jsonb := v_new;
  v_changed text[];
  v_member_id uuid;
  v_class_id uuid;
  v_subject text;
begin
  select * into v_actor from private.audit_actor();
  if not found then
    return null;
  end if;
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

create trigger audit_trail
  after insert or update or delete on public.meeting_points
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.timetable_slot_meeting_points
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.coach_pay_rates
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.pause_rules
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.membership_pauses
  for each row execute function private.audit_change();
