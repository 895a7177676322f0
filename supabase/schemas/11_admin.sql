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

-- The analytics figures. payg_members counts payg and trial members; bookings_this_month counts
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

create function private.admin_stats()
returns public.admin_figures
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_month_start timestamptz := private.allowance_month_start(now());
  v_this_week date := date_trunc('week', now() at time zone 'Europe/London')::date;
  r public.admin_figures;
begin
  perform private.require_admin();
  r.total_members := (select count(*) from public.members);
  r.total_classes := (select count(*) from public.classes);
  r.total_bookings := (select count(*) from public.bookings);
  r.upcoming_classes := (select count(*) from public.classes where start_time >= now());
  r.premium_members := (select count(*) from public.members where membership_tier = 'premium');
  r.standard_members := (select count(*) from public.members where membership_tier = 'standard');
  r.payg_members := (select count(*) from public.members where membership_tier not in ('premium', 'standard'));
  r.bookings_this_month := (select count(*) from public.bookings where booked_at >= v_month_start);
  r.weekly := array(
    select (w.week_start, w.classes, w.capacity, w.bookings,
            case when w.capacity > 0 then round(w.bookings::numeric / w.capacity, 4) end,
            w.attended, w.no_show,
            case when w.attended + w.no_show > 0 then round(w.attended::numeric / (w.attended + w.no_show), 4) end
           )::public.admin_week
      from (
        select weeks.week_start::date as week_start,
               count(c.id)::int as classes,
               coalesce(sum(c.capacity), 0)::int as capacity,
               coalesce(sum(c.current_bookings), 0)::int as bookings,
               coalesce(sum(a.attended), 0)::int as attended,
               coalesce(sum(a.no_show), 0)::int as no_show
          from generate_series(v_this_week - 7 * (private.stats_weeks() - 1), v_this_week, interval '7 days')
                 as weeks(week_start)
          left join public.classes c
            on date_trunc('week', c.start_time at time zone 'Europe/London')::date = weeks.week_start::date
          left join lateral (
            select count(*) filter (where b.attendance = 'attended') as attended,
                   count(*) filter (where b.attendance = 'no_show') as no_show
              from public.bookings b where b.class_id = c.id
          ) a on true
         group by weeks.week_start
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

-- The list's search: bookings whose member name or email, or class name, contains p_term
-- (case-insensitive; LIKE wildcards in the term are literal). PostgREST cannot OR filters across
-- joined tables, and an OR over the view's joined columns scans every booking; this finds the
-- matching members and classes first and reaches their bookings through the member_id and
-- class_id indexes. Called as GET/POST /rpc/admin_bookings_search with order, range and
-- count=exact like a table. security invoker (the default): the caller's row-level security applies.
-- The view's columns, listed (PostgREST 12.0 orders an RPC's rows only by columns in `select`,
-- which the list always includes).
create function public.admin_bookings_search(p_term text)
returns table (
  id uuid, booked_at timestamptz, class_id uuid, member_id uuid, member_name text, member_email text,
  class_name text, class_start_time timestamptz, class_trainer text
)
language sql stable
set search_path = ''
as $$
  select v.id, v.booked_at, v.class_id, v.member_id, v.member_name, v.member_email, v.class_name, v.class_start_time, v.class_trainer
  from public.admin_bookings v
  where v.member_id in (select m.id from public.members m
                         where m.name ilike private.like_pattern(p_term) or m.email ilike private.like_pattern(p_term))
  union
  select v.id, v.booked_at, v.class_id, v.member_id, v.member_name, v.member_email, v.class_name, v.class_start_time, v.class_trainer
  from public.admin_bookings v
  where v.class_id in (select c.id from public.classes c where c.name ilike private.like_pattern(p_term))
$$;

revoke execute on function public.admin_bookings_search(text) from public, anon;

grant execute on function public.admin_bookings_search(text) to authenticated, service_role;
