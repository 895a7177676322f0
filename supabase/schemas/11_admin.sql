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

-- The analytics figures. Members are accounts whose email is confirmed (decision 0070: a sign-up that
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

-- The bookings list, its total and its search list every place in a class, a child's and a guest's
-- included: they live with the place model (24_places.sql).

