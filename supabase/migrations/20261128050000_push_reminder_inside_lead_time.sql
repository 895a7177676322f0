-- Issue 30: a reminder for a booking confirmed inside the member's reminder lead time (or otherwise
-- due before the next hourly run) was never pushed; the email still went. The reminder query moves
-- into private.queue_push_reminders(p_now, p_booking_id), which the job calls for every booking and
-- a new trigger on bookings calls for the booking just confirmed (as of now()). Decision 0023.

-- Reminders (the jobs and new bookings) ----------------------------------------------------------
-- As of p_now: a reminder for every confirmed booking of an early class (or only p_booking_id)
-- whose reminder time (the class start less the member's lead) falls before the next run, queued
-- for that time, or at once when it has passed. Once per booking (the outbox key), however often
-- it runs. Returns how many pushes (devices) were queued by this call.
create function private.queue_push_reminders(p_now timestamptz, p_booking_id uuid)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer := 0;
  v_row record;
begin
  for v_row in
    select b.id as booking_id, b.member_id, c.id as class_id, c.name, c.trainer, c.start_time, l.minutes
      from public.bookings b
      join public.classes c on c.id = b.class_id
      left join public.push_preferences p on p.member_id = b.member_id
      cross join lateral (select case when p.member_id is null then private.push_default_reminder_minutes()
                                      else p.reminder_minutes end as minutes) l
     where (p_booking_id is null or b.id = p_booking_id)
       and b.payment_status = 'completed'
       and c.start_time > p_now
       and c.start_time <= p_now + interval '13 hours'
       and (c.start_time at time zone 'Europe/London')::time < private.push_early_class_before()
       and l.minutes is not null
       and c.start_time - make_interval(mins => l.minutes) < p_now + private.push_reminder_horizon()
       and exists (select 1 from public.push_subscriptions s where s.member_id = b.member_id)
     order by c.start_time, b.id
  loop
    v_count := v_count + private.enqueue_push('class_reminder', v_row.member_id,
      'Reminder: ' || v_row.name || ' at ' || to_char(v_row.start_time at time zone 'Europe/London', 'FMHH12:MI AM'),
      'With ' || v_row.trainer || ', ' || private.london_time_text(v_row.start_time)
        || '. Cannot make it? Cancel from My Bookings.',
      '/mybookings', 'class_reminder:' || v_row.booking_id, v_row.class_id, v_row.booking_id,
      greatest(v_row.start_time - make_interval(mins => v_row.minutes), p_now), v_row.start_time);
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.queue_push_reminders(timestamptz, uuid) from public;

-- The hourly job: every booking's reminder due before the next run.
create or replace function private.enqueue_push_reminders_at(p_now timestamptz)
returns integer
language sql security definer set search_path = ''
as $$ select private.queue_push_reminders(p_now, null) $$;

revoke execute on function private.enqueue_push_reminders_at(timestamptz) from public;

grant execute on function private.enqueue_push_reminders_at(timestamptz) to service_role;

-- A booking confirmed between two runs of the jobs whose reminder is due before the next run (a
-- 06:00 class booked at 05:20 with a one-hour lead) gets it now, or at its time within the hour:
-- the next run would come after the class. Quiet hours still hold it at dequeue; the outbox key
-- keeps it once if the job queues it too. Cheap for a member without devices (no query of classes).
create function private.bookings_push_reminder()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (select 1 from public.push_subscriptions s where s.member_id = new.member_id) then
    perform private.queue_push_reminders(now(), new.id);
  end if;
  return null;
end;
$$;

revoke execute on function private.bookings_push_reminder() from public;

create trigger bookings_push_reminder_on_insert
  after insert on public.bookings
  for each row when (new.payment_status = 'completed')
  execute function private.bookings_push_reminder();

create trigger bookings_push_reminder_on_confirm
  after update of payment_status on public.bookings
  for each row when (new.payment_status = 'completed' and old.payment_status is distinct from new.payment_status)
  execute function private.bookings_push_reminder();
