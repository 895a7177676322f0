-- Class changes tell people (decision 0042): a class's coach or meeting point changed before it starts reaches
-- everyone booked or waitlisted, by their channels (email, push, text: the class_changed type's
-- wording in each), once per change, and several edits within class_change_quiet_period() become
-- one message. An edit only records the class as members last heard of it (class_changes); the
-- job send_class_changes_at(p_now) tells them once the class has been left alone for the quiet
-- period, comparing that record with the class as it is then (an edit undone tells nobody).
--
-- What is watched is private.class_watched (the coach and the meeting point, decision 0055):
-- watching one more column is one line there and its words in class_change_text. A new start time keeps its own immediate "class moved" email (10_notifications.sql),
-- which carries the free cancellation the move grants.

create table public.class_changes (
  class_id uuid primary key references public.classes (id) on delete cascade,
  -- The watched columns as members last heard of them (class_watched before the first edit).
  was jsonb not null,
  first_changed_at timestamptz not null,
  last_changed_at timestamptz not null
);

comment on table public.class_changes is
  'Class edits not told yet, one row per class. Written by the classes_record_change trigger; sent by send_class_changes_at.';

alter table public.class_changes enable row level security;

revoke all on public.class_changes from public, anon, authenticated;

grant all on public.class_changes to service_role;

-- Rules, named once ----------------------------------------------------------------------------------
-- How long a class must be left alone before its members are told (edits within it are one message).
create function private.class_change_quiet_period()
returns interval
language sql immutable set search_path = ''
as $$ select interval '5 minutes' $$;

revoke execute on function private.class_change_quiet_period() from public;

-- What members are told about when it changes: one line per watched column.
create function private.class_watched(p_class public.classes)
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

-- What changed, in members' words, from the record to the class now; null when nothing did.
create function private.class_change_text(p_was jsonb, p_class public.classes)
returns text
language sql stable set search_path = ''
as $$
  select nullif(concat_ws(E'\n',
    case when p_was ->> 'trainer' is distinct from p_class.trainer
      then 'Coach: ' || p_class.trainer || ' (was ' || coalesce(p_was ->> 'trainer', 'not set') || ')' end,
    case when p_was ->> 'meeting_point_id' is distinct from p_class.meeting_point_id::text
      then 'Where: ' || private.class_where(p_class) end), '')
$$;

revoke execute on function private.class_change_text(jsonb, public.classes) from public;

-- Recording -----------------------------------------------------------------------------------------
-- An edit of a watched column of a class not started yet: the first edit records the class as it
-- was; later ones only move last_changed_at (the quiet period starts again).
create function private.classes_record_change()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.start_time <= now() or private.class_watched(old) is not distinct from private.class_watched(new) then
    return null;
  end if;
  insert into public.class_changes (class_id, was, first_changed_at, last_changed_at)
  values (new.id, private.class_watched(old), now(), now())
  on conflict (class_id) do update set last_changed_at = excluded.last_changed_at;
  return null;
end;
$$;

revoke execute on function private.classes_record_change() from public;

-- Telling -------------------------------------------------------------------------------------------
-- As of p_now: every class left alone for the quiet period is told to each member with a confirmed
-- place (one message however many places) and each member on its waitlist, by email (the
-- class_changed wording of enqueue_class_email, which brings its push and text), once per change
-- (the key: the class and the time of its last edit). Classes started meanwhile, or edits undone,
-- tell nobody. Returns how many members were told.
create function private.send_class_changes_at(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_change public.class_changes;
  v_class public.classes;
  v_text text;
  v_member record;
  v_count integer := 0;
begin
  for v_change in
    select * from public.class_changes c
     where c.last_changed_at <= p_now - private.class_change_quiet_period()
     order by c.last_changed_at
     for update skip locked
  loop
    delete from public.class_changes c where c.class_id = v_change.class_id;
    select * into v_class from public.classes c where c.id = v_change.class_id;
    v_text := private.class_change_text(v_change.was, v_class);
    if v_class.id is null or v_class.start_time <= p_now or v_text is null then
      continue;
    end if;
    for v_member in
      select distinct on (b.member_id) b.member_id, b.id as booking_id
        from public.bookings b
       where b.class_id = v_class.id and b.payment_status = 'completed'
      union all
      select w.member_id, null from public.class_waitlist w
       where w.class_id = v_class.id
         and not exists (select 1 from public.bookings b
                          where b.class_id = v_class.id and b.member_id = w.member_id and b.payment_status = 'completed')
    loop
      if private.enqueue_class_email('class_changed', v_member.member_id, v_class.id, v_member.booking_id, false,
                                     'class_changed:' || v_class.id || ':' || v_member.member_id || ':'
                                       || extract(epoch from v_change.last_changed_at),
                                     v_text) is not null then
        v_count := v_count + 1;
      end if;
    end loop;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.send_class_changes_at(timestamptz) from public;

grant execute on function private.send_class_changes_at(timestamptz) to service_role;

create function public.send_class_changes_at(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.send_class_changes_at(p_now) $$;

revoke execute on function public.send_class_changes_at(timestamptz) from public, anon, authenticated;

grant execute on function public.send_class_changes_at(timestamptz) to service_role;

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
-- No column list or WHEN here: what is watched is class_watched alone.
create trigger classes_record_change
  after update on public.classes
  for each row execute function private.classes_record_change();
