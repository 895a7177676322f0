-- Issue 30 (decision 0023): saving push preferences dropped the member's unsent reminders and left
-- them to the next hourly run, which comes after the class when the reminder was due within the
-- hour (a lead changed, or any switch saved, at 5:25 before a 6:00 class with a 5:30 reminder): no
-- reminder at all. set_push_preferences now queues those due before the next run again at once.
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
  delete from public.push_outbox o
   where o.member_id = v_member_id and o.kind = 'class_reminder' and o.sent_at is null and o.failed_at is null;
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
