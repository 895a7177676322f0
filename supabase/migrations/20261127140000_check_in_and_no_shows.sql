-- Check-in, no-shows and the business reports (issue 28, decision 0022).
--
-- Attendance lives on the booking (bookings.attendance, 03_bookings.sql): an admin marks it from
-- the roster or the check-in screen with mark_attendance; a member marks their own booking
-- attended with the day's door code (check_in_with_code) from 30 minutes before the start until 30
-- minutes after it; and the job mark_no_shows(p_now) marks every booking still unmarked 30 minutes
-- after its start a no-show. None of them ever creates a booking.

-- Check-in -------------------------------------------------------------------------------------------
-- One door code per London day, made the first time an admin asks for it.
create table public.door_codes (
  day date primary key,
  code text not null check (code ~ '^[0-9]{4}$'),
  created_at timestamptz not null default now()
);

comment on table public.door_codes is
  'The studio''s daily door code (Europe/London day): members enter it on their phone to check in.';

alter table public.door_codes enable row level security;

revoke all on public.door_codes from public, anon, authenticated;

grant all on public.door_codes to service_role;

-- How early before the start a member may check in with the door code.
create function private.self_check_in_opens_before()
returns interval
language sql immutable set search_path = ''
as $$ select interval '30 minutes' $$;

revoke execute on function private.self_check_in_opens_before() from public;

-- How long after the start an unmarked booking becomes a no-show (and self check-in closes).
create function private.no_show_after()
returns interval
language sql immutable set search_path = ''
as $$ select interval '30 minutes' $$;

revoke execute on function private.no_show_after() from public;

-- The door code of the London day p_now falls in, made (four random digits) if there is none yet.
create function private.door_code_at(p_now timestamptz)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_day date := (p_now at time zone 'Europe/London')::date;
  v_code text;
begin
  insert into public.door_codes (day, code)
  values (v_day, lpad(floor(random() * 10000)::int::text, 4, '0'))
  on conflict (day) do nothing;
  select d.code into v_code from public.door_codes d where d.day = v_day;
  return v_code;
end;
$$;

revoke execute on function private.door_code_at(timestamptz) from public;

-- Admin only: today's door code, to show on the check-in screen.
create function private.todays_door_code()
returns text
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.door_code_at(now());
end;
$$;

revoke execute on function private.todays_door_code() from public;

grant execute on function private.todays_door_code() to authenticated;

create function public.todays_door_code()
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.todays_door_code() $$;

revoke execute on function public.todays_door_code() from public, anon, authenticated;

grant execute on function public.todays_door_code() to authenticated;

create type public.check_in_result as (
  booking_id uuid,
  class_id uuid,
  class_name text,
  start_time timestamptz
);

-- A member checks in to their own booked class starting within the window with today's door code.
-- Refusals: check_in_wrong_code (not today's code), check_in_no_booking (no booked class in the
-- window; checking in never books). Checking in twice answers the same class.
create function private.check_in_with_code(p_code text)
returns public.check_in_result
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_now timestamptz := now();
  v_result public.check_in_result;
begin
  if not exists (select 1 from public.door_codes d
                  where d.day = (v_now at time zone 'Europe/London')::date and d.code = btrim(coalesce(p_code, ''))) then
    raise exception 'That is not today''s door code. Check the code at the door and try again.'
      using errcode = 'P0001', hint = 'check_in_wrong_code';
  end if;
  select b.id, c.id, c.name, c.start_time into v_result
    from public.bookings b join public.classes c on c.id = b.class_id
   where b.member_id = v_member.id and b.payment_status = 'completed'
     and c.start_time between v_now - private.no_show_after() and v_now + private.self_check_in_opens_before()
   order by abs(extract(epoch from c.start_time - v_now)), c.start_time
   limit 1;
  if v_result.booking_id is null then
    raise exception 'You have no booking for a class starting now. Book the class first, then check in.'
      using errcode = 'P0001', hint = 'check_in_no_booking';
  end if;
  update public.bookings
     set attendance = 'attended', attendance_marked_at = v_now
   where id = v_result.booking_id and attendance is distinct from 'attended';
  return v_result;
end;
$$;

revoke execute on function private.check_in_with_code(text) from public;

grant execute on function private.check_in_with_code(text) to authenticated;

create function public.check_in_with_code(p_code text)
returns public.check_in_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.check_in_with_code(p_code) $$;

revoke execute on function public.check_in_with_code(text) from public, anon, authenticated;

grant execute on function public.check_in_with_code(text) to authenticated;

-- No-shows -------------------------------------------------------------------------------------------
-- How far back the job looks: it runs hourly, so two days covers missed runs without reaching into
-- the history from before self check-in existed (decision 0022).
create function private.no_show_lookback()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 days' $$;

revoke execute on function private.no_show_lookback() from public;

-- Every confirmed booking still unmarked no_show_after() past its class's start (within the
-- lookback) becomes a no-show as of p_now. Marked bookings are never touched, so a second run at
-- the same time changes nothing. Answers how many it marked.
create function private.mark_no_shows(p_now timestamptz)
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  update public.bookings b
     set attendance = 'no_show', attendance_marked_at = p_now
    from public.classes c
   where c.id = b.class_id
     and c.start_time <= p_now - private.no_show_after()
     and c.start_time > p_now - private.no_show_after() - private.no_show_lookback()
     and b.attendance is null
     and b.payment_status = 'completed';
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.mark_no_shows(timestamptz) from public;

grant execute on function private.mark_no_shows(timestamptz) to service_role;

create function public.mark_no_shows(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.mark_no_shows(p_now) $$;

revoke execute on function public.mark_no_shows(timestamptz) from public, anon, authenticated;

grant execute on function public.mark_no_shows(timestamptz) to service_role;
