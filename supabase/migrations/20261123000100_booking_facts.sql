-- Booking facts for the member's own screens (issue 12: "the server states the facts; the UI
-- shows them"). My Bookings and the dashboard read the member's bookings with what the rules say
-- about each (when a cancellation starts to count, the hold's expiry) from here; the schedule's
-- facts (class_schedule) now release lapsed holds first, as book_class does, so a class is "full"
-- on the screen exactly when book_class would say so; and its upcoming-classes filter is a range
-- on the start_time index. Nothing here copies a rule: it calls the private helpers book_class,
-- join_waitlist and cancel_booking use.

-- Late cancellation ------------------------------------------------------------------------------

-- From this instant a member's own cancellation of a confirmed booking still counts against their
-- plan (decision 0005). cancel_booking's `late` and the schedule's `late_cancel_from` are this
-- instant (cancel_booking and schedule_facts still compute it inline; the parity tests hold all three to the same instant).
create function private.late_cancel_from(p_class public.classes)
returns timestamptz
language sql immutable set search_path = ''
as $$ select p_class.start_time - p_class.late_cancel_window $$;

revoke execute on function private.late_cancel_from(public.classes) from public;
grant execute on function private.late_cancel_from(public.classes) to authenticated, service_role;

-- The member's bookings ----------------------------------------------------------------------------

create type public.my_booking as (
  id uuid,
  class_id uuid,
  -- paid | trial | payg, and completed | pending (a pay-as-you-go hold waiting for the card payment).
  type text,
  payment_status text,
  booked_at timestamptz,
  -- Until when a pending hold keeps the spot; it disappears from this list once lapsed.
  hold_expires_at timestamptz,
  class_name text,
  trainer text,
  start_time timestamptz,
  duration integer,
  description text,
  -- From then on cancelling still counts against the plan; null when it never does (a hold).
  late_cancel_from timestamptz
);

comment on type public.my_booking is 'One of the caller''s bookings with its class and what cancelling it means (my_bookings).';

-- Every booking of the caller, newest class first (so a very long history loses its oldest rows
-- first to the API's row cap), lapsed holds left out: they are gone as far as the member is
-- concerned (book_class and the hold job delete them). RLS applies: a member reads only their own.
create function public.my_bookings()
returns setof public.my_booking
language sql stable security invoker set search_path = ''
as $$
  select b.id, b.class_id, b.type::text, b.payment_status::text, b.booked_at, b.hold_expires_at,
         c.name, c.trainer, c.start_time, c.duration, c.description,
         case when b.payment_status = 'completed' then private.late_cancel_from(c) end
    from public.bookings b
    join public.classes c on c.id = b.class_id
   where b.member_id = (select private.current_member_id())
     and (b.payment_status = 'completed' or b.hold_expires_at > now())
   order by c.start_time desc, b.id
$$;

revoke execute on function public.my_bookings() from public, anon;
grant execute on function public.my_bookings() to authenticated, service_role;

-- The schedule ----------------------------------------------------------------------------------

-- The page of classes, then each row's facts for the caller. Lapsed payment holds are released
-- first, exactly as book_class and join_waitlist do before deciding, so "full", "already booked"
-- and the waitlist read here are what those calls then find (hence volatile: PostgREST calls RPCs
-- with POST, as supabase-js does). Upcoming classes are a range on classes_start_time_idx; the
-- other filters (London days, search, trainer, type) run on that range only.
create or replace function private.class_schedule(
  p_search text, p_day text, p_trainer text, p_premium boolean, p_limit integer, p_offset integer, p_class_id uuid
)
returns setof public.schedule_class
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_now timestamptz := now();
  v_member public.members;
begin
  if p_day is not null and p_day not in ('all', 'today', 'tomorrow', 'week') then
    raise exception 'Unknown date filter' using errcode = '22023', hint = 'invalid_filter';
  end if;
  perform private.release_expired_holds();
  if v_uid is not null then
    select * into v_member from public.members m where m.user_id = v_uid;
  end if;
  if p_class_id is not null then
    -- One class whatever its time (the booking form says why a started class cannot be booked).
    return query
      select f.* from public.classes c
       cross join lateral private.schedule_facts(c, v_member, v_uid is not null) f
       where c.id = p_class_id;
    return;
  end if;
  -- The page first, then the facts of its rows only (lateral: one call per class, not per column).
  return query
    select f.*
      from (select c
              from public.classes c
             where c.start_time >= v_now
               and private.schedule_matches(c, v_now, p_search, p_day, p_trainer, p_premium)
             order by c.start_time, c.id
             limit least(greatest(coalesce(p_limit, 50), 1), 200)
            offset greatest(coalesce(p_offset, 0), 0)) page
     cross join lateral private.schedule_facts(page.c, v_member, v_uid is not null) f
     order by f.start_time, f.id;
end;
$$;

create or replace function public.class_schedule(
  p_search text default null, p_day text default 'all', p_trainer text default null,
  p_premium boolean default null, p_limit integer default 50, p_offset integer default 0,
  p_class_id uuid default null
)
returns setof public.schedule_class
language sql volatile security invoker set search_path = ''
as $$ select * from private.class_schedule(p_search, p_day, p_trainer, p_premium, p_limit, p_offset, p_class_id) $$;

-- The tiles for the same filters, on the same start_time range.
create or replace function public.class_schedule_summary(
  p_search text default null, p_day text default 'all', p_trainer text default null, p_premium boolean default null
)
returns public.schedule_summary
language sql stable security invoker set search_path = ''
as $$
  select count(*)::int,
         coalesce(sum(c.spots_left), 0)::int,
         count(distinct c.trainer)::int,
         (select coalesce(array_agg(distinct u.trainer order by u.trainer), '{}')
            from public.classes u where u.start_time >= now())
    from public.classes c
   where c.start_time >= now()
     and private.schedule_matches(c, now(), p_search, p_day, p_trainer, p_premium)
$$;
