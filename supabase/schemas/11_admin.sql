-- Admin reads: the analytics figures (admin_stats) and the paged, searchable bookings list.

-- Analytics ------------------------------------------------------------------------------------
-- How many ISO weeks (Monday 00:00 London) admin_stats reports, the current one included.
create function private.stats_weeks()
returns integer
language sql immutable set search_path = ''
as $$ select 8 $$;

revoke execute on function private.stats_weeks() from public;

-- One ISO week (Monday, London) of admin_stats.weekly. fill_rate = bookings / capacity of the
-- week's classes (null without classes); attendance_rate = attended / (attended + no_show) (null
-- when nothing was marked). Both are fractions rounded to 4 places.
create type public.admin_week as (
  week_start date,
  classes integer,
  capacity integer,
  bookings integer,
  fill_rate numeric,
  attended integer,
  no_show integer,
  attendance_rate numeric
);

-- The analytics figures. Members are accounts whose email is confirmed (issue 38: a sign-up that
-- never confirmed is not a member). payg_members counts payg and trial members; bookings_this_month counts
-- bookings made since day 1 00:00 London; weekly is oldest week first.
create type public.admin_figures as (
  total_members integer,
  total_classes integer,
  total_bookings integer,
  upcoming_classes integer,
  premium_members integer,
  standard_members integer,
  payg_members integer,
  bookings_this_month integer,
  weekly public.admin_week[]
);

-- At ten years of data (decision 0029) the class figures come from private.class_tallies (one
-- narrow row per class, kept by triggers): total_bookings is the sum of every class's bookings,
-- the weekly rows read the tallies of the weeks' classes by start_time. bookings_this_month counts
-- the month's bookings by the booked_at index. jit off: these are short index reads that
-- PostgreSQL's JIT would spend far longer compiling than running.
create function private.admin_stats()
returns public.admin_figures
language plpgsql stable security definer set search_path = '' set jit = off
as $$
declare
  v_month_start timestamptz := private.allowance_month_start(now());
  v_this_week date := date_trunc('week', now() at time zone 'Europe/London')::date;
  v_first_week date := v_this_week - 7 * (private.stats_weeks() - 1);
  r public.admin_figures;
begin
  perform private.require_admin();
  select count(*)::int,
         count(*) filter (where m.membership_tier = 'premium')::int,
         count(*) filter (where m.membership_tier = 'standard')::int,
         count(*) filter (where m.membership_tier not in ('premium', 'standard'))::int
    into r.total_members, r.premium_members, r.standard_members, r.payg_members
    from public.members m
   where not m.awaiting_confirmation;
  select count(*)::int, coalesce(sum(t.bookings), 0)::int, count(*) filter (where t.start_time >= now())::int
    into r.total_classes, r.total_bookings, r.upcoming_classes
    from private.class_tallies t;
  r.bookings_this_month := (select count(*) from public.bookings where booked_at >= v_month_start);
  r.weekly := array(
    select (w.week_start, w.classes, w.capacity, w.bookings,
            case when w.capacity > 0 then round(w.bookings::numeric / w.capacity, 4) end,
            w.attended, w.no_show,
            case when w.attended + w.no_show > 0 then round(w.attended::numeric / (w.attended + w.no_show), 4) end
           )::public.admin_week
      from (
        select weeks.week_start::date as week_start,
               coalesce(t.classes, 0) as classes, coalesce(t.capacity, 0) as capacity, coalesce(t.bookings, 0) as bookings,
               coalesce(t.attended, 0) as attended, coalesce(t.no_show, 0) as no_show
          from generate_series(v_first_week, v_this_week, interval '7 days') as weeks(week_start)
          left join (
            select t.london_week as week_start,
                   count(*)::int as classes,
                   sum(t.capacity)::int as capacity,
                   -- As classes.current_bookings counts them: booking rows and guest places.
                   sum(t.bookings + t.guests)::int as bookings,
                   sum(t.attended)::int as attended,
                   sum(t.no_shows)::int as no_show
              from private.class_tallies t
             where t.start_time >= (v_first_week::timestamp at time zone 'Europe/London')
               and t.start_time < ((v_this_week + 7)::timestamp at time zone 'Europe/London')
             group by 1
          ) t on t.week_start = weeks.week_start::date
      ) w
     order by w.week_start);
  return r;
end;
$$;

revoke execute on function private.admin_stats() from public;

grant execute on function private.admin_stats() to authenticated;

-- API
create function public.admin_stats()
returns public.admin_figures
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_stats() $$;

revoke execute on function public.admin_stats() from public, anon;

grant execute on function public.admin_stats() to authenticated;

-- How many bookings there are (every row, as the admin_bookings list shows them), from the class
-- tallies (decision 0029): the list's total without counting a million rows on every page.
create function private.admin_bookings_total()
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select coalesce(sum(t.bookings), 0)::int from private.class_tallies t);
end;
$$;

revoke execute on function private.admin_bookings_total() from public;

grant execute on function private.admin_bookings_total() to authenticated;

create function public.admin_bookings_total()
returns integer
language sql stable security invoker set search_path = ''
as $$ select private.admin_bookings_total() $$;

revoke execute on function public.admin_bookings_total() from public, anon;

grant execute on function public.admin_bookings_total() to authenticated;

-- Bookings list (SECURITY INVOKER: the caller's row-level security decides) -------------------
-- Bookings with the member and class columns the list shows. member_id and class_id are NOT NULL
-- foreign keys (cascading deletes), so every booking has both and the left joins hide nothing
-- (spec section 3: rows missing either join are hidden). Left rather than inner joins let the
-- planner drop the joins when PostgREST counts the rows (count=exact), so the total is a count
-- of bookings alone. security_invoker: the caller's row-level security applies (admins read all).
create view public.admin_bookings with (security_invoker = true) as
select
  b.id,
  b.booked_at,
  b.class_id,
  b.member_id,
  m.name as member_name,
  m.email as member_email,
  c.name as class_name,
  c.start_time as class_start_time,
  c.trainer as class_trainer
from public.bookings b
left join public.members m on m.id = b.member_id
left join public.classes c on c.id = b.class_id;

comment on view public.admin_bookings is 'Bookings with member and class, for the admin list (paged with count=exact).';

revoke all on public.admin_bookings from anon, authenticated;

grant select on public.admin_bookings to authenticated;

grant select on public.admin_bookings to service_role;

-- One row of the bookings list as the search returns it: the view's columns.
create type public.admin_booking as (
  id uuid,
  booked_at timestamptz,
  class_id uuid,
  member_id uuid,
  member_name text,
  member_email text,
  class_name text,
  class_start_time timestamptz,
  class_trainer text
);

-- A page of the search and how many bookings match in all.
create type public.admin_bookings_found as (
  total integer,
  rows public.admin_booking[]
);

-- The list's search (admins only): one page of the bookings whose member name or email, or class
-- name, contains p_term (case-insensitive; LIKE wildcards in the term are literal), newest first
-- (then by id, so pages never overlap), with the exact number of matches. p_offset below 0 reads
-- as 0; p_limit is kept within 1..1000 (hosted's max rows). Only the page's rows are joined to
-- their member and class (decision 0033). How it stays fast at ten years of data whatever the
-- term matches (decision 0034):
-- - The count: when at most half the members match, their bookings are counted through the
--   member_id index and the matching classes' through their tallies, less the bookings on both
--   sides; when most match (a one-letter search), it is every booking (the tallies) less the
--   other members' bookings of classes that do not match. Either way it reads the smaller side.
-- - The page: when matches are common, the booked_at index is walked newest first until the page
--   is full; when they are rare, they are gathered through the member_id and class_id indexes and
--   sorted. The choice compares the rows each would read (the walk counted four times over, as
--   matches need not be spread evenly in time).
-- jit off: the plan's cost over the bookings table started PostgreSQL's JIT, which compiled for
-- longer than the search runs (decision 0029).
create function private.admin_bookings_search(p_term text, p_offset integer, p_limit integer)
returns public.admin_bookings_found
language plpgsql stable security definer set search_path = '' set jit = off
as $$
declare
  v_pattern text := private.like_pattern(p_term);
  v_offset integer := greatest(coalesce(p_offset, 0), 0);
  v_limit integer := least(greatest(coalesce(p_limit, 50), 1), 1000);
  v_members uuid[];
  v_total integer;
  v_ids uuid[];
begin
  perform private.require_admin();
  v_members := array(select m.id from public.members m where m.name ilike v_pattern or m.email::text ilike v_pattern);
  if cardinality(v_members) * 2 <= (select count(*) from public.members) then
    -- Few members match: their bookings, plus the matching classes' (their tallies), less the
    -- bookings counted on both sides.
    v_total := (select coalesce(sum(t.bookings), 0) from private.class_tallies t
                 join public.classes c on c.id = t.class_id where c.name ilike v_pattern);
    if cardinality(v_members) > 0 then
      v_total := v_total + (
        select count(*) - count(*) filter (where b.class_id in (select c.id from public.classes c where c.name ilike v_pattern))
          from public.bookings b where b.member_id = any (v_members));
    end if;
  else
    -- Most members match: every booking, less the other members' bookings of other classes.
    v_total := (select coalesce(sum(t.bookings), 0) from private.class_tallies t)
             - (select count(*) from public.bookings b join public.classes c on c.id = b.class_id
                 where b.member_id in (select m.id from public.members m
                                        where not (coalesce(m.name ilike v_pattern, false) or m.email::text ilike v_pattern))
                   and not c.name ilike v_pattern);
  end if;

  if v_total = 0 or v_offset >= v_total then
    v_ids := '{}';
  elsif (v_offset + v_limit) * 4 * greatest((select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.bookings'::regclass), v_total)
        < v_total::numeric * v_total then
    -- Common matches: walk every booking newest first until the page is full (a few pages'
    -- worth of rows read, not every match).
    v_ids := array(
      select b.id from public.bookings b
       where b.member_id in (select unnest(v_members))
          -- A lookup per row read (a scalar subquery), not a hash of every matching class.
          or (select c.name from public.classes c where c.id = b.class_id) ilike v_pattern
       order by b.booked_at desc, b.id desc
      offset v_offset limit v_limit);
  else
    -- Rare matches: gather them through the member_id and class_id indexes, then sort.
    v_ids := array(
      select m.id from (
        select b.id, b.booked_at from public.bookings b where b.member_id = any (v_members)
        union
        select b.id, b.booked_at from public.bookings b
         where b.class_id in (select c.id from public.classes c where c.name ilike v_pattern)
      ) m
       order by m.booked_at desc, m.id desc
      offset v_offset limit v_limit);
  end if;

  return row(
    v_total,
    array(
      select row(v.id, v.booked_at, v.class_id, v.member_id, v.member_name, v.member_email,
                 v.class_name, v.class_start_time, v.class_trainer)::public.admin_booking
        from public.admin_bookings v where v.id = any (v_ids)
       order by v.booked_at desc, v.id desc
    )
  )::public.admin_bookings_found;
end;
$$;

revoke execute on function private.admin_bookings_search(text, integer, integer) from public;

grant execute on function private.admin_bookings_search(text, integer, integer) to authenticated;

create function public.admin_bookings_search(p_term text, p_offset integer default 0, p_limit integer default 50)
returns public.admin_bookings_found
language sql stable security invoker set search_path = ''
as $$ select private.admin_bookings_search(p_term, p_offset, p_limit) $$;

revoke execute on function public.admin_bookings_search(text, integer, integer) from public, anon;

grant execute on function public.admin_bookings_search(text, integer, integer) to authenticated;
