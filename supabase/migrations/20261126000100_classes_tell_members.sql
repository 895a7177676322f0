-- A class the studio moves or removes tells its members (issue 31). Moving a class that has not
-- started emails every member with a confirmed place the old and new time (class_moved); deleting
-- one (an admin, a closure, a regeneration) emails why and what is refunded, from one classes
-- trigger instead of each path's own loop. An admin's class edit through the API cannot start in
-- the past or drop the capacity below the places booked, in words the form shows; generated
-- classes carry a description, so the form (which requires one) can edit them.
-- Definitions are copied from supabase/schemas/02_classes.sql, 05_schedule.sql, 10_notifications.sql.

alter table public.notification_outbox drop constraint notification_outbox_kind_check;

alter table public.notification_outbox add constraint notification_outbox_kind_check
  check (kind in ('booking_confirmed', 'booking_cancelled', 'waitlist_promoted', 'class_reminder', 'contact_message',
                  'renewal_receipt', 'payment_failed', 'membership_ended', 'trial_ending', 'renewal_reminder',
                  'credits_expiring', 'payment_receipt', 'refund_receipt', 'class_moved'));

-- A new last parameter (p_was); callers pass the earlier ones by position or name as before.
drop function private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text);

create function private.enqueue_class_email(
  p_kind text,
  p_member_id uuid,
  p_class_id uuid,
  p_booking_id uuid,
  p_late boolean default false,
  p_dedupe_key text default null,
  -- Why the studio cancelled the booking (a cancellation email), e.g. 'the studio is closed'.
  p_reason text default null,
  -- The class's start before the studio moved it (a class_moved email).
  p_was timestamptz default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_when text;
  v_where text := private.studio_address();
  v_hello text;
  v_subject text;
  v_body text;
  v_links jsonb;
  v_manage jsonb := jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings');
  v_refund numeric;
  v_id uuid;
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
  v_hello := 'Hi ' || coalesce(nullif(btrim(v_member.name), ''), 'there') || ',';

  case p_kind
    when 'booking_confirmed' then
      v_subject := 'Booking confirmed: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'You are booked on ' || v_class.name || ' with ' || v_class.trainer || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Plans change? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    when 'waitlist_promoted' then
      v_subject := 'A spot opened: you are booked on ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'A spot opened on ' || v_class.name || ' with ' || v_class.trainer
          || ' and you were next on the waitlist, so you are now booked.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it any more? Cancel from My Bookings so the next person on the waitlist gets the spot.');
      v_links := jsonb_build_array(v_manage);
    when 'booking_cancelled' then
      v_subject := 'Booking cancelled: ' || v_class.name || ', ' || v_when;
      -- What this cancellation owes the member back (recorded by the refunds triggers just now).
      select sum(ro.amount) into v_refund
        from public.refunds_owed ro join public.payments p on p.id = ro.payment_id
       where p.member_id = v_member.id and p.class_id = v_class.id and ro.refunded_at is null and ro.created_at = now();
      v_body := concat_ws(E'\n\n', v_hello,
        'Your booking for ' || v_class.name || ' with ' || v_class.trainer || ' has been cancelled'
          || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        case
          when p_late then
            'This was a late cancellation (less than ' || private.interval_text(v_class.late_cancel_window)
              || ' before the start), so the class still counts against your plan this month.'
          when p_reason is not null then 'It does not count against your plan.'
        end,
        'The ' || private.gbp(v_refund) || ' you paid by card will be refunded to your card; you will get a receipt when it is.');
      v_links := jsonb_build_array(v_manage,
        jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'class_moved' then
      v_subject := 'Class moved: ' || v_class.name || ' is now ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has moved ' || v_class.name || ' with ' || v_class.trainer || '. Your place is kept.',
        'Was: ' || private.london_time_text(p_was) || E'\n' || 'Now: ' || v_when || ' (London time)'
          || E'\n' || 'Where: ' || v_where,
        'If the new time does not suit you, cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the new start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    when 'class_reminder' then
      v_subject := 'Reminder: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'See you soon at ' || v_class.name || ' with ' || v_class.trainer || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;

  insert into public.notification_outbox (kind, to_email, member_id, class_id, booking_id, subject, body_text, links, dedupe_key)
  values (p_kind, v_member.email, v_member.id, v_class.id, p_booking_id, v_subject, v_body, v_links, p_dedupe_key)
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text, timestamptz) from public;

create function private.classes_tell_members_moved()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking record;
begin
  if old.start_time <= now() then
    return null;
  end if;
  for v_booking in
    select b.id, b.member_id from public.bookings b
     where b.class_id = new.id and b.payment_status = 'completed'
     order by b.booked_at
  loop
    perform private.enqueue_class_email('class_moved', v_booking.member_id, new.id, v_booking.id,
                                        p_was => old.start_time);
  end loop;
  return null;
end;
$$;

revoke execute on function private.classes_tell_members_moved() from public;

create function private.class_removal_why()
returns text
language sql stable set search_path = ''
as $$ select coalesce(nullif(current_setting('app.class_removal_why', true), ''), 'the studio cancelled the class') $$;

revoke execute on function private.class_removal_why() from public;

-- Deleting a class that has not started (by an admin, a closure or a regeneration) emails every
-- member with a confirmed place why, and what they paid that is owed back. BEFORE DELETE, while
-- the class and its bookings are readable; the trigger's name sorts after
-- classes_record_refunds_owed, so the refund it records is already there to mention.
create function private.classes_tell_members_removed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking record;
begin
  if old.start_time <= now() then
    return old;
  end if;
  for v_booking in
    select b.id, b.member_id from public.bookings b
     where b.class_id = old.id and b.payment_status = 'completed'
     order by b.booked_at
  loop
    perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, old.id, v_booking.id,
                                        p_reason => private.class_removal_why());
  end loop;
  return old;
end;
$$;

revoke execute on function private.classes_tell_members_removed() from public;

create trigger classes_tell_members_moved
  after update of start_time on public.classes
  for each row when (old.start_time is distinct from new.start_time)
  execute function private.classes_tell_members_moved();

create trigger classes_tell_members_removed
  before delete on public.classes
  for each row execute function private.classes_tell_members_removed();

create or replace function private.regenerate_timetable(p_start date, p_end date)
returns public.timetable_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_from timestamptz;
  v_to timestamptz;
  r public.timetable_result;
begin
  perform private.require_admin();
  if p_start is null or p_end is null or p_end < p_start then
    raise exception 'The end date must not be before the start date'
      using errcode = '22023', hint = 'invalid_period';
  end if;
  if p_end - p_start > 366 then
    raise exception 'The period must be at most 366 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  if p_end < (now() at time zone 'Europe/London')::date then
    raise exception 'The period has already ended' using errcode = '22023', hint = 'invalid_period';
  end if;
  perform pg_advisory_xact_lock(hashtextextended('regenerate_timetable', 0));
  v_from := greatest(p_start::timestamp at time zone 'Europe/London', now());
  v_to := (p_end + 1)::timestamp at time zone 'Europe/London';

  -- The period's classes first, as every booking path locks them, so no booking slips in meanwhile.
  perform 1 from public.classes c where c.start_time > v_from and c.start_time < v_to for update;

  -- Paid bookings of the removed classes become refunds owed with this reason, and their members
  -- are emailed why (the classes triggers).
  perform set_config('app.booking_removal', 'timetable_regenerated', true);
  perform set_config('app.class_removal_why', 'the timetable was changed', true);
  delete from public.classes c where c.start_time > v_from and c.start_time < v_to;
  get diagnostics r.deleted = row_count;
  perform set_config('app.booking_removal', '', true);
  perform set_config('app.class_removal_why', '', true);
  r.created := private.insert_timetable_from(p_start, p_end, v_from);
  return r;
end;
$$;

revoke execute on function private.regenerate_timetable(date, date) from public;

grant execute on function private.regenerate_timetable(date, date) to authenticated;

create or replace function private.add_studio_closure(p_closed_on date, p_reason text)
returns public.closure_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := btrim(coalesce(p_reason, ''));
  v_from timestamptz := greatest(p_closed_on::timestamp at time zone 'Europe/London', now());
  v_to timestamptz := (p_closed_on + 1)::timestamp at time zone 'Europe/London';
  r public.closure_result;
begin
  perform private.require_admin();
  if p_closed_on is null then
    raise exception 'Choose the date the studio is closed' using errcode = '22023', hint = 'invalid_closure';
  end if;
  if p_closed_on < (now() at time zone 'Europe/London')::date then
    raise exception 'The closure date is in the past' using errcode = '22023', hint = 'closure_in_past';
  end if;
  if char_length(v_reason) > 200 then
    raise exception 'The reason must be at most 200 characters' using errcode = '22023', hint = 'invalid_closure';
  end if;

  insert into public.studio_closures (closed_on, reason) values (p_closed_on, v_reason)
  on conflict (closed_on) do nothing
  returning id into r.closure_id;
  if r.closure_id is null then
    raise exception 'The studio is already closed on %', to_char(p_closed_on, 'FMDay FMDD FMMonth YYYY')
      using errcode = '23505', hint = 'already_closed';
  end if;

  -- The day's classes first, as every booking path locks them, so no booking slips in meanwhile.
  perform 1 from public.classes c where c.start_time >= v_from and c.start_time < v_to for update;
  select count(*) into r.affected_bookings
    from public.bookings b join public.classes c on c.id = b.class_id
   where c.start_time >= v_from and c.start_time < v_to;

  -- Deleting the classes records what was paid by card as refunds owed (reason class_deleted),
  -- emails members with a confirmed place the reason (an unpaid hold was never confirmed: it just
  -- goes), and takes their bookings and waitlists with them (the classes triggers).
  perform set_config('app.class_removal_why',
                     'the studio is closed' || coalesce(' (' || nullif(v_reason, '') || ')', ''), true);
  delete from public.classes c where c.start_time >= v_from and c.start_time < v_to;
  get diagnostics r.cancelled_classes = row_count;
  perform set_config('app.class_removal_why', '', true);
  return r;
end;
$$;

revoke execute on function private.add_studio_closure(date, text) from public;

grant execute on function private.add_studio_closure(date, text) to authenticated;

create or replace function private.classes_keep_spots()
returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.current_bookings := 0;
  end if;
  if current_user = 'authenticated' and new.start_time <= now()
     and (tg_op = 'INSERT' or new.start_time is distinct from old.start_time) then
    raise exception 'The class must start in the future' using errcode = '22023', hint = 'class_in_past';
  end if;
  if new.capacity < new.current_bookings then
    raise exception '% booked on this class, so the capacity cannot be less than %',
      case new.current_bookings when 1 then '1 member is' else new.current_bookings || ' members are' end,
      new.current_bookings
      using errcode = '23514', hint = 'capacity_below_bookings';
  end if;
  new.spots_left := new.capacity - new.current_bookings;
  return new;
end;
$$;

revoke execute on function private.classes_keep_spots() from public;

create function private.timetable_description(p_name text)
returns text
language sql immutable set search_path = ''
as $$
  select case p_name
    when 'Breakfast Club' then 'A 45-minute full-body session to start the day: strength, conditioning and mobility, scaled to every level.'
    when 'Kids Club' then 'Games, movement and coordination for children, led by a qualified coach.'
  end
$$;

revoke execute on function private.timetable_description(text) from public;

create or replace function private.insert_timetable_from(p_start date, p_end date, p_from timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg,
                              is_premium, unlock_for_standard)
  select slot.name, private.timetable_description(slot.name), 45,
         (day::date + slot.at) at time zone 'Europe/London', 'Coach Alex', 'Group', 12, 10.00, false, '3 days'
    from generate_series(p_start, p_end, interval '1 day') as day
    cross join (values
      ('Breakfast Club', time '06:00', false),
      ('Breakfast Club', time '07:15', false),
      ('Breakfast Club', time '08:30', false),
      ('Breakfast Club', time '10:00', false),
      ('Kids Club', time '16:45', true)
    ) as slot(name, at, mondays_only)
   where extract(isodow from day) between 1 and 5
     and (not slot.mondays_only or extract(isodow from day) = 1)
     and not exists (select 1 from public.studio_closures sc where sc.closed_on = day::date)
     and (day::date + slot.at) at time zone 'Europe/London' > p_from
   order by 3;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.insert_timetable_from(date, date, timestamptz) from public;

-- Generated classes still to come get the description the timetable now gives them.
update public.classes
   set description = private.timetable_description(name)
 where coalesce(btrim(description), '') = '' and private.timetable_description(name) is not null and start_time > now();
