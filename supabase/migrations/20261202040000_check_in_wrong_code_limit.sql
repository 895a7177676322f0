-- The member self check-in's door code had no attempt limit: a phone could try all 10,000 codes in
-- about a minute. Wrong codes are now recorded (public.check_in_attempts, no member access) and
-- answered instead of raised, since raising would roll the record back with it; after
-- check_in_wrong_codes_allowed() (5) within check_in_attempt_window() (15 minutes) every code is
-- refused with too_many_attempts until the window has passed. check_in_result gains the answer's
-- refusal and message.

-- Wrong door codes -------------------------------------------------------------------------------
-- The code is four digits: without a limit a member's phone could try all 10,000 in about a
-- minute. A member may enter check_in_wrong_codes_allowed() wrong codes within
-- check_in_attempt_window(); then every code, the right one too, is refused until the window
-- has passed since the oldest of them (too_many_attempts).
create function private.check_in_wrong_codes_allowed()
returns integer
language sql immutable set search_path = ''
as $$ select 5 $$;

revoke execute on function private.check_in_wrong_codes_allowed() from public;

create function private.check_in_attempt_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '15 minutes' $$;

revoke execute on function private.check_in_attempt_window() from public;

-- Each wrong code a member entered, kept for check_in_attempt_window() (check_in_with_code clears
-- the member's older ones). Nobody but the service role reads or writes it: a member who could
-- would delete their own tries.
create table public.check_in_attempts (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  attempted_at timestamptz not null default now()
);

comment on table public.check_in_attempts is
  'Wrong door codes members entered (check_in_with_code), to refuse more than a few within a window.';

create index check_in_attempts_member_id_attempted_at_idx on public.check_in_attempts (member_id, attempted_at);

alter table public.check_in_attempts enable row level security;

revoke all on public.check_in_attempts from public, anon, authenticated;

grant all on public.check_in_attempts to service_role;

-- Until when the member's wrong codes refuse every code, as of p_now; null when they may try.
-- The limit is reached while the check_in_wrong_codes_allowed()-th latest wrong code is younger
-- than the window, and ends when that one leaves it.
create function private.check_in_locked_until(p_member_id uuid, p_now timestamptz)
returns timestamptz
language sql stable set search_path = ''
as $$
  select a.attempted_at + private.check_in_attempt_window()
    from public.check_in_attempts a
   where a.member_id = p_member_id and a.attempted_at > p_now - private.check_in_attempt_window()
   order by a.attempted_at desc
  offset private.check_in_wrong_codes_allowed() - 1
   limit 1
$$;

revoke execute on function private.check_in_locked_until(uuid, timestamptz) from public;

-- A wrong code is answered, not raised (raising would roll back the record of the try):
-- 'check_in_wrong_code' with its message, and the class fields null. Null when checked in.
alter type public.check_in_result add attribute refusal text, add attribute message text;

-- A member checks in to their own booked class starting within the window with today's door code.
-- A wrong code is recorded and answered as refusal 'check_in_wrong_code' (with its message).
-- Refusals raised: too_many_attempts (check_in_wrong_codes_allowed() wrong codes within
-- check_in_attempt_window(): every code until it has passed), check_in_no_booking (no booked class
-- in the window; checking in never books). Checking in twice answers the same class.
create or replace function private.check_in_with_code(p_code text)
returns public.check_in_result
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_now timestamptz := now();
  v_locked_until timestamptz;
  v_result public.check_in_result;
begin
  -- One member's tries one after the other: requests sent together would otherwise each count the
  -- wrong codes before the others recorded theirs. Only this function takes this lock.
  perform pg_advisory_xact_lock(hashtextextended('check-in:' || v_member.id::text, 0));
  v_locked_until := private.check_in_locked_until(v_member.id, v_now);
  if v_locked_until is not null then
    raise exception 'Too many wrong codes. Please try again in %.',
      private.interval_text(make_interval(mins => greatest(1, ceil(extract(epoch from v_locked_until - v_now) / 60)::integer)))
      using errcode = 'P0001', hint = 'too_many_attempts';
  end if;
  if not exists (select 1 from public.door_codes d
                  where d.day = (v_now at time zone 'Europe/London')::date and d.code = btrim(coalesce(p_code, ''))) then
    delete from public.check_in_attempts
     where member_id = v_member.id and attempted_at <= v_now - private.check_in_attempt_window();
    insert into public.check_in_attempts (member_id, attempted_at) values (v_member.id, v_now);
    v_result.refusal := 'check_in_wrong_code';
    v_result.message := 'That is not today''s door code. Check the code at the door and try again.';
    return v_result;
  end if;
  select b.id, c.id, c.name, c.start_time into v_result
    from public.bookings b join public.classes c on c.id = b.class_id
   where b.member_id = v_member.id and b.payment_status = 'completed'
     and c.start_time between v_now - private.no_show_after() and v_now + private.self_check_in_opens_before()
   -- Back-to-back classes: the code checks in to the one not yet marked, the nearest first.
   order by b.attendance is not distinct from 'attended', abs(extract(epoch from c.start_time - v_now)), c.start_time
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
