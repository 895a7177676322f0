-- Personal training (decision 0020): each trainer's weekly availability and one-off
-- slots, published by admins; the One-to-One sessions generated from them (idempotent, as of a
-- given now, by the hourly jobs and by the admin's Publish); what members see to book them.
-- One-to-One sessions are not on the group timetable (class_schedule, 05_schedule.sql): members
-- find them under Personal training. They are booked with a personal-training credit
-- (book_with_credit) or paid for at their price through the checkout, never on a plan's classes,
-- the free trial, or for nothing (needs_payment, classes_one_to_one_price in 09_credits.sql).
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Availability --------------------------------------------------------------------------------
-- A trainer's weekly window (London wall-clock times) cut into sessions of session_minutes.
create table public.trainer_availability (
  id uuid primary key default gen_random_uuid(),
  trainer_id uuid not null references public.trainers (id) on delete cascade,
  -- ISO weekday: Monday = 1 … Sunday = 7.
  weekday smallint not null check (weekday between 1 and 7),
  starts_at time not null,
  ends_at time not null,
  session_minutes integer not null default 60 check (session_minutes between 15 and 180),
  created_at timestamptz not null default now(),
  constraint trainer_availability_window check (ends_at > starts_at)
);

comment on table public.trainer_availability is
  'Each trainer''s weekly availability for One-to-One sessions (London times), published by admins; generate_one_to_one_slots makes the sessions.';

create index trainer_availability_trainer_idx on public.trainer_availability (trainer_id, weekday);

alter table public.trainer_availability enable row level security;

revoke all on public.trainer_availability from anon, authenticated;

grant select on public.trainer_availability to anon, authenticated;

grant insert (trainer_id, weekday, starts_at, ends_at, session_minutes), delete on public.trainer_availability to authenticated;

grant all on public.trainer_availability to service_role;

-- A single session outside the weekly pattern.
create table public.trainer_one_off_slots (
  id uuid primary key default gen_random_uuid(),
  trainer_id uuid not null references public.trainers (id) on delete cascade,
  start_time timestamptz not null,
  duration integer not null default 60 check (duration between 15 and 180),
  created_at timestamptz not null default now(),
  constraint trainer_one_off_slots_once unique (trainer_id, start_time)
);

comment on table public.trainer_one_off_slots is
  'One-off One-to-One sessions of a trainer, published by admins; generate_one_to_one_slots makes the sessions.';

alter table public.trainer_one_off_slots enable row level security;

revoke all on public.trainer_one_off_slots from anon, authenticated;

grant select on public.trainer_one_off_slots to anon, authenticated;

grant insert (trainer_id, start_time, duration), delete on public.trainer_one_off_slots to authenticated;

grant all on public.trainer_one_off_slots to service_role;

-- Generating the sessions ----------------------------------------------------------------------
-- How far ahead sessions are generated.
create function private.one_to_one_horizon()
returns interval
language sql immutable set search_path = ''
as $$ select interval '28 days' $$;

revoke execute on function private.one_to_one_horizon() from public;

-- What a generated session is called and says.
create function private.one_to_one_name()
returns text
language sql immutable set search_path = ''
as $$ select 'Personal Training'::text $$;

revoke execute on function private.one_to_one_name() from public;

-- As of p_now: the One-to-One sessions of every trainer's weekly availability and one-off slots
-- that start after p_now and before p_now + p_period, except on studio closure dates, each once
-- (running it again, or at another time inside the same period, adds nothing twice). At the
-- studio's personal-training price. Returns how many sessions were created.
create function private.generate_one_to_one_slots(p_now timestamptz, p_period interval)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_until timestamptz := p_now + coalesce(p_period, private.one_to_one_horizon());
  v_count integer;
begin
  if p_now is null or v_until <= p_now or v_until > p_now + interval '366 days' then
    raise exception 'The period must be between now and a year ahead' using errcode = '22023', hint = 'invalid_period';
  end if;
  insert into public.classes (name, description, duration, start_time, trainer_id, trainer, type, capacity, price_payg)
  select private.one_to_one_name(), 'A One-to-One session with ' || t.name || ', tailored to your goals.',
         s.duration, s.start_time, t.id, t.name, 'One-to-One', 1, private.personal_training_price()
    from (
      select a.trainer_id, a.session_minutes as duration,
             (d::date + a.starts_at + make_interval(mins => a.session_minutes * n)) at time zone 'Europe/London' as start_time
        from generate_series((p_now at time zone 'Europe/London')::date, (v_until at time zone 'Europe/London')::date, interval '1 day') d
        join public.trainer_availability a on a.weekday = extract(isodow from d)
       cross join lateral generate_series(0, (extract(epoch from a.ends_at - a.starts_at)::int / 60 / a.session_minutes) - 1) n
      union all
      select o.trainer_id, o.duration, o.start_time from public.trainer_one_off_slots o
    ) s
    join public.trainers t on t.id = s.trainer_id
   where s.start_time > p_now and s.start_time < v_until
     and not exists (select 1 from public.studio_closures sc where sc.closed_on = (s.start_time at time zone 'Europe/London')::date)
   order by s.start_time
  on conflict (trainer_id, start_time) where type = 'One-to-One' do nothing;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.generate_one_to_one_slots(timestamptz, interval) from public;

grant execute on function private.generate_one_to_one_slots(timestamptz, interval) to service_role;

-- Admins publish: the sessions of the coming weeks from what is published now.
create function private.publish_one_to_one_slots()
returns integer
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.generate_one_to_one_slots(now(), private.one_to_one_horizon());
end;
$$;

revoke execute on function private.publish_one_to_one_slots() from public;

grant execute on function private.publish_one_to_one_slots() to authenticated;

-- Withdrawing availability ---------------------------------------------------------------------
-- Whether a One-to-One session at p_start of p_duration minutes is still published: inside one of
-- the trainer's weekly windows, on its grid of sessions (London wall clock), or a one-off slot.
create function private.one_to_one_covered(p_trainer_id uuid, p_start timestamptz, p_duration integer)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
           select 1
             from public.trainer_availability a
            cross join lateral (select (p_start at time zone 'Europe/London')::time as t) l
            where a.trainer_id = p_trainer_id
              and a.weekday = extract(isodow from p_start at time zone 'Europe/London')
              and a.session_minutes = p_duration
              and l.t >= a.starts_at and l.t + make_interval(mins => a.session_minutes) <= a.ends_at
              and (extract(epoch from l.t - a.starts_at)::int / 60) % a.session_minutes = 0)
      or exists (
           select 1 from public.trainer_one_off_slots o
            where o.trainer_id = p_trainer_id and o.start_time = p_start and o.duration = p_duration)
$$;

revoke execute on function private.one_to_one_covered(uuid, timestamptz, integer) from public;

-- As of p_now: removes the trainer's coming One-to-One sessions that nobody has booked, held or
-- queued for and that no availability publishes any more. Booked sessions stay (the member keeps
-- their place; admin_uncovered_sessions lists them for the admin). Idempotent. Returns how many
-- were removed.
create function private.withdraw_uncovered_one_to_one(p_trainer_id uuid, p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  delete from public.classes c
   where c.trainer_id = p_trainer_id and c.type = 'One-to-One' and c.start_time > p_now
     and not exists (select 1 from public.bookings b where b.class_id = c.id)
     and not exists (select 1 from public.class_waitlist w where w.class_id = c.id)
     and not private.one_to_one_covered(c.trainer_id, c.start_time, c.duration);
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.withdraw_uncovered_one_to_one(uuid, timestamptz) from public;

-- After an admin removes a weekly window or a one-off slot (any path: the portal deletes the row).
create function private.availability_withdrawn()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.withdraw_uncovered_one_to_one(old.trainer_id, now());
  return null;
end;
$$;

revoke execute on function private.availability_withdrawn() from public;

-- A booked coming One-to-One session that no availability publishes any more, and who booked it.
create type public.uncovered_session as (
  class_id uuid,
  start_time timestamptz,
  duration integer,
  member_name text
);

comment on type public.uncovered_session is 'A booked One-to-One session outside its trainer''s published availability (admin_uncovered_sessions).';

-- Admins: the trainer's booked sessions from p_now on that withdrawn availability left standing.
create function private.admin_uncovered_sessions(p_trainer_id uuid, p_now timestamptz)
returns setof public.uncovered_session
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select c.id, c.start_time, c.duration, m.name
      from public.classes c
      join public.bookings b on b.class_id = c.id
      join public.members m on m.id = b.member_id
     where c.trainer_id = p_trainer_id and c.type = 'One-to-One' and c.start_time > p_now
       and not private.one_to_one_covered(c.trainer_id, c.start_time, c.duration)
     order by c.start_time;
end;
$$;

revoke execute on function private.admin_uncovered_sessions(uuid, timestamptz) from public;

grant execute on function private.admin_uncovered_sessions(uuid, timestamptz) to authenticated;

-- What members see ------------------------------------------------------------------------------
-- A One-to-One session a member can book (Personal training), with what a booking would use:
-- the credit that expires first (and when), or the price and why no credit (credit_for's words).
create type public.training_slot as (
  id uuid,
  trainer_id uuid,
  trainer text,
  start_time timestamptz,
  duration integer,
  price numeric,
  spots_left integer,
  my_booking_id uuid,
  credit_id uuid,
  credit_expires_at timestamptz,
  credit_refusal text,
  credit_message text
);

comment on type public.training_slot is 'A One-to-One session and what booking it would use for the caller (personal_training_slots).';

-- The caller's bookable One-to-One sessions of the next p_days (1 to 56) days, of one trainer or
-- all, soonest first: free ones, and ones the caller has booked.
create function private.personal_training_slots(p_trainer_id uuid, p_days integer)
returns setof public.training_slot
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
begin
  if p_days is null or p_days < 1 or p_days > 56 then
    raise exception 'Choose 1 to 56 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  perform private.release_expired_holds();
  return query
    select c.id, c.trainer_id, c.trainer, c.start_time, c.duration,
           coalesce(nullif(c.price_payg, 0), private.personal_training_price()), c.spots_left, b.id,
           f.credit_id, f.expires_at, f.refusal, f.message
      from public.classes c
      left join public.bookings b on b.class_id = c.id and b.member_id = v_member.id
     cross join lateral private.credit_for(v_member.id, c) f
     where c.type = 'One-to-One' and c.start_time > now() and c.start_time < now() + make_interval(days => p_days)
       and (p_trainer_id is null or c.trainer_id = p_trainer_id)
       and (c.spots_left > 0 or b.id is not null)
     order by c.start_time, c.id;
end;
$$;

revoke execute on function private.personal_training_slots(uuid, integer) from public;

grant execute on function private.personal_training_slots(uuid, integer) to authenticated, service_role;

-- Admins: booking a member into a session, moving a session ------------------------------------
-- An admin books a member into a One-to-One session with the member's personal-training credit
-- that expires first (the member's own rules: started, already booked, full, the package's weekly
-- cap; no credit: the price, to be paid by the member on Personal training). Class row first, then
-- the member row, as every booking path locks them. The member is emailed as for their own booking.
create function private.admin_book_one_to_one(p_member_id uuid, p_class_id uuid)
returns public.booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_refusal text;
  v_choice public.credit_choice;
  r public.booking_result;
begin
  perform private.require_admin();
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_class.type <> 'One-to-One' then
    raise exception 'Credits are for One-to-One sessions' using errcode = 'P0001', hint = 'credit_not_for_class';
  end if;
  v_refusal := private.booking_refusal(v_member, v_class, 'payg');
  if v_refusal = 'already_booked' then
    raise exception 'The member is already booked on this session' using errcode = '23505', hint = v_refusal;
  elsif v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;
  v_choice := private.credit_for(v_member.id, v_class);
  if v_choice.credit_id is null then
    raise exception '%', case v_choice.refusal
        when 'no_credit' then 'The member has no personal-training session to use for this session: it is '
                              || private.gbp(v_class.price_payg) || ', paid by the member on Personal training.'
        else v_choice.message end
      using errcode = 'P0001', hint = v_choice.refusal;
  end if;

  r.booking_id := private.create_booking(v_member.id, v_class.id, 'credit');
  update public.credits set booking_id = r.booking_id, used_at = now() where id = v_choice.credit_id;
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_id);

  r.status := 'booked';
  r.class_id := v_class.id;
  r.booking_type := 'credit';
  r.payment_status := 'completed';
  r.needs_payment := false;
  r.price_payg := v_class.price_payg;
  r.previous_tier := v_member.membership_tier;
  r.tier := v_member.membership_tier;
  r.trial_used := v_member.has_used_trial;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.admin_book_one_to_one(uuid, uuid) from public;

grant execute on function private.admin_book_one_to_one(uuid, uuid) to authenticated, service_role;

-- An admin moves a member's One-to-One session to another free session (another time or
-- trainer). The booking itself moves, so the credit that paid for it (or the card payment)
-- follows it; the credit must still be valid at the new time. Both class rows are locked in id
-- order (no deadlock with a move the other way), then the member row. A package's weekly cap
-- holds in the new week (weekly_cap_reached names that week's sessions). The member is emailed
-- the new time. Returns the moved booking's id.
create function private.admin_move_session(p_booking_id uuid, p_to_class_id uuid)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_from public.classes;
  v_to public.classes;
  v_credit public.credits;
  v_week timestamptz;
  v_week_count integer;
  v_week_sessions text;
begin
  perform private.require_admin();
  select * into v_booking from public.bookings where id = p_booking_id;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002', hint = 'booking_not_found';
  end if;
  perform 1 from public.classes c where c.id in (v_booking.class_id, p_to_class_id) order by c.id for update;
  select * into v_booking from public.bookings where id = p_booking_id;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002', hint = 'booking_not_found';
  end if;
  select * into v_from from public.classes where id = v_booking.class_id;
  select * into v_to from public.classes where id = p_to_class_id;
  if v_to.id is null then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  perform 1 from public.members where id = v_booking.member_id for no key update;
  if v_from.type <> 'One-to-One' or v_to.type <> 'One-to-One' then
    raise exception 'Only One-to-One sessions are moved here' using errcode = 'P0001', hint = 'not_one_to_one';
  end if;
  if v_from.start_time <= now() then
    raise exception 'This session has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  if v_to.id = v_from.id then
    raise exception 'The booking is already on this session' using errcode = '22023', hint = 'same_session';
  end if;
  if v_to.start_time <= now() then
    raise exception 'The new session has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  if v_to.spots_left <= 0 then
    raise exception 'The new session is already booked' using errcode = 'P0001', hint = 'class_full';
  end if;
  if v_booking.payment_status <> 'completed' then
    raise exception 'This booking is waiting for its payment' using errcode = 'P0001', hint = 'payment_pending';
  end if;
  select * into v_credit from public.credits where booking_id = v_booking.id;
  if v_credit.id is not null and v_credit.expires_at <= v_to.start_time then
    raise exception 'The session''s credit expires on %, before the new time', private.london_date_text(v_credit.expires_at)
      using errcode = 'P0001', hint = 'credit_expires_before';
  end if;
  -- The package's weekly cap holds for the new week too (the sessions already there are named).
  if v_credit.weekly_cap is not null then
    v_week := private.london_week_start(v_to.start_time);
    select count(*), string_agg(to_char(k.start_time at time zone 'Europe/London', 'Dy FMDD Mon HH24:MI'), ', ' order by k.start_time)
      into v_week_count, v_week_sessions
      from public.credits u join public.bookings b on b.id = u.booking_id join public.classes k on k.id = b.class_id
     where u.grant_key = v_credit.grant_key and u.kind = v_credit.kind and b.id <> v_booking.id
       and k.start_time >= v_week and k.start_time < v_week + interval '7 days';
    if v_week_count >= v_credit.weekly_cap then
      raise exception 'The package allows % sessions a week, and that week the member has booked %', v_credit.weekly_cap, v_week_sessions
        using errcode = 'P0001', hint = 'weekly_cap_reached';
    end if;
  end if;

  update public.bookings set class_id = v_to.id where id = v_booking.id;
  perform private.enqueue_class_email('class_moved', v_booking.member_id, v_to.id, v_booking.id,
                                      p_dedupe_key => 'session_moved:' || v_booking.id || ':' || v_to.id,
                                      p_was => v_from.start_time);
  return v_booking.id;
end;
$$;

revoke execute on function private.admin_move_session(uuid, uuid) from public;

grant execute on function private.admin_move_session(uuid, uuid) to authenticated, service_role;

-- API --------------------------------------------------------------------------------------------
-- The jobs (service role): sessions up to the horizon as of p_now.
create function public.generate_one_to_one_slots(p_now timestamptz, p_period interval default null)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.generate_one_to_one_slots(p_now, p_period) $$;

revoke execute on function public.generate_one_to_one_slots(timestamptz, interval) from public, anon, authenticated;

grant execute on function public.generate_one_to_one_slots(timestamptz, interval) to service_role;

create function public.publish_one_to_one_slots()
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.publish_one_to_one_slots() $$;

revoke execute on function public.publish_one_to_one_slots() from public, anon;

grant execute on function public.publish_one_to_one_slots() to authenticated;

create function public.personal_training_slots(p_trainer_id uuid default null, p_days integer default 28)
returns setof public.training_slot
language sql volatile security invoker set search_path = ''
as $$ select * from private.personal_training_slots(p_trainer_id, p_days) $$;

revoke execute on function public.personal_training_slots(uuid, integer) from public, anon;

grant execute on function public.personal_training_slots(uuid, integer) to authenticated, service_role;

create function public.admin_book_one_to_one(p_member_id uuid, p_class_id uuid)
returns public.booking_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_book_one_to_one(p_member_id, p_class_id) $$;

revoke execute on function public.admin_book_one_to_one(uuid, uuid) from public, anon;

grant execute on function public.admin_book_one_to_one(uuid, uuid) to authenticated, service_role;

create function public.admin_move_session(p_booking_id uuid, p_to_class_id uuid)
returns uuid
language sql volatile security invoker set search_path = ''
as $$ select private.admin_move_session(p_booking_id, p_to_class_id) $$;

revoke execute on function public.admin_move_session(uuid, uuid) from public, anon;

grant execute on function public.admin_move_session(uuid, uuid) to authenticated, service_role;

create function public.admin_uncovered_sessions(p_trainer_id uuid)
returns setof public.uncovered_session
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_uncovered_sessions(p_trainer_id, now()) $$;

revoke execute on function public.admin_uncovered_sessions(uuid) from public, anon;

grant execute on function public.admin_uncovered_sessions(uuid) to authenticated;

-- Row-level security -------------------------------------------------------------------------
create policy "Anyone reads trainer availability"
  on public.trainer_availability for select to anon, authenticated
  using (true);

create policy "Admins publish trainer availability"
  on public.trainer_availability for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins withdraw trainer availability"
  on public.trainer_availability for delete to authenticated
  using ((select private.is_admin()));

create policy "Anyone reads one-off slots"
  on public.trainer_one_off_slots for select to anon, authenticated
  using (true);

create policy "Admins add one-off slots"
  on public.trainer_one_off_slots for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins remove one-off slots"
  on public.trainer_one_off_slots for delete to authenticated
  using ((select private.is_admin()));

-- A one-off session is in the future and new (a past one was accepted and never shown,
-- and adding it again answered with the unique constraint's raw text). Two admins adding the same
-- one at once still meet trainer_one_off_slots_once; the portal words that 23505 the same way.
create function private.trainer_one_off_slots_check()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.start_time <= now() then
    raise exception 'That time has passed: a one-off session must be in the future' using errcode = 'P0001', hint = 'one_off_in_past';
  end if;
  if exists (select 1 from public.trainer_one_off_slots o where o.trainer_id = new.trainer_id and o.start_time = new.start_time) then
    raise exception 'This trainer already has a one-off session at that time' using errcode = 'P0001', hint = 'one_off_exists';
  end if;
  return new;
end;
$$;

revoke execute on function private.trainer_one_off_slots_check() from public;

create trigger trainer_one_off_slots_check
  before insert on public.trainer_one_off_slots
  for each row execute function private.trainer_one_off_slots_check();

-- Withdrawn availability takes its unbooked sessions with it (decision 0020).
create trigger trainer_availability_withdrawn
  after delete on public.trainer_availability
  for each row execute function private.availability_withdrawn();

create trigger trainer_one_off_slots_withdrawn
  after delete on public.trainer_one_off_slots
  for each row execute function private.availability_withdrawn();
