-- The portal at ten years of data (issue 29, decision 0029): per-class tallies kept by triggers,
-- Analytics and the reports read them; trigram and covering indexes for the admin searches; no
-- JIT for the admin reads. Writers wait while the tallies are filled, so no booking slips between
-- the count and its trigger.
lock table public.classes, public.bookings, public.guest_places in share row exclusive mode;

create table private.class_tallies (
  class_id uuid primary key references public.classes (id) on delete cascade,
  -- The class's start_time and capacity, followed by classes_tally, and what the reports group
  -- by, worked out once from the start in London time: its month and ISO week (first days), ISO
  -- weekday (1 = Monday) and start 'HH:MI'.
  start_time timestamptz not null,
  london_month date not null,
  london_week date not null,
  weekday smallint not null,
  slot text not null,
  capacity integer not null,
  -- Every booking row (pending holds included), and the confirmed ones.
  bookings integer not null default 0,
  confirmed integer not null default 0,
  attended integer not null default 0,
  no_shows integer not null default 0,
  confirmed_attended integer not null default 0,
  confirmed_no_shows integer not null default 0,
  -- Guest places (public.guest_places, 14_guests.sql).
  guests integer not null default 0
);

comment on table private.class_tallies is
  'Per class: bookings, confirmed, attendance marks and guest places, kept by triggers (decision 0029).';

create index class_tallies_start_time_idx on private.class_tallies (start_time);

alter table private.class_tallies enable row level security;

revoke all on private.class_tallies from public, anon, authenticated;

create function private.classes_tally()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into private.class_tallies (class_id, start_time, london_month, london_week, weekday, slot, capacity)
    select new.id, new.start_time, date_trunc('month', l.t)::date, date_trunc('week', l.t)::date,
           extract(isodow from l.t)::smallint, to_char(l.t, 'HH24:MI'), new.capacity
      from (select new.start_time at time zone 'Europe/London' as t) l;
  else
    update private.class_tallies
       set start_time = new.start_time, london_month = date_trunc('month', l.t)::date, london_week = date_trunc('week', l.t)::date,
           weekday = extract(isodow from l.t)::smallint, slot = to_char(l.t, 'HH24:MI'), capacity = new.capacity
      from (select new.start_time at time zone 'Europe/London' as t) l
     where class_id = new.id;
  end if;
  return null;
end;
$$;

revoke execute on function private.classes_tally() from public;

create function private.bookings_tally()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    update private.class_tallies t
       set bookings = t.bookings - 1,
           confirmed = t.confirmed - (old.payment_status = 'completed')::int,
           attended = t.attended - (old.attendance is not distinct from 'attended')::int,
           no_shows = t.no_shows - (old.attendance is not distinct from 'no_show')::int,
           confirmed_attended = t.confirmed_attended - (old.payment_status = 'completed' and old.attendance is not distinct from 'attended')::int,
           confirmed_no_shows = t.confirmed_no_shows - (old.payment_status = 'completed' and old.attendance is not distinct from 'no_show')::int
     where t.class_id = old.class_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update private.class_tallies t
       set bookings = t.bookings + 1,
           confirmed = t.confirmed + (new.payment_status = 'completed')::int,
           attended = t.attended + (new.attendance is not distinct from 'attended')::int,
           no_shows = t.no_shows + (new.attendance is not distinct from 'no_show')::int,
           confirmed_attended = t.confirmed_attended + (new.payment_status = 'completed' and new.attendance is not distinct from 'attended')::int,
           confirmed_no_shows = t.confirmed_no_shows + (new.payment_status = 'completed' and new.attendance is not distinct from 'no_show')::int
     where t.class_id = new.class_id;
  end if;
  return null;
end;
$$;

revoke execute on function private.bookings_tally() from public;

create function private.guest_places_tally()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update private.class_tallies set guests = guests + 1 where class_id = new.class_id;
  else
    update private.class_tallies set guests = guests - 1 where class_id = old.class_id;
  end if;
  return null;
end;
$$;

revoke execute on function private.guest_places_tally() from public;

insert into private.class_tallies
  (class_id, start_time, london_month, london_week, weekday, slot, capacity,
   bookings, confirmed, attended, no_shows, confirmed_attended, confirmed_no_shows, guests)
select c.id, c.start_time, date_trunc('month', c.start_time at time zone 'Europe/London')::date,
       date_trunc('week', c.start_time at time zone 'Europe/London')::date,
       extract(isodow from c.start_time at time zone 'Europe/London')::smallint,
       to_char(c.start_time at time zone 'Europe/London', 'HH24:MI'), c.capacity,
       coalesce(b.bookings, 0), coalesce(b.confirmed, 0), coalesce(b.attended, 0), coalesce(b.no_shows, 0),
       coalesce(b.confirmed_attended, 0), coalesce(b.confirmed_no_shows, 0), coalesce(gp.guests, 0)
  from public.classes c
  left join (
    select bk.class_id, count(*)::int as bookings,
           count(*) filter (where bk.payment_status = 'completed')::int as confirmed,
           count(*) filter (where bk.attendance = 'attended')::int as attended,
           count(*) filter (where bk.attendance = 'no_show')::int as no_shows,
           count(*) filter (where bk.payment_status = 'completed' and bk.attendance = 'attended')::int as confirmed_attended,
           count(*) filter (where bk.payment_status = 'completed' and bk.attendance = 'no_show')::int as confirmed_no_shows
      from public.bookings bk group by bk.class_id
  ) b on b.class_id = c.id
  left join (select gpl.class_id, count(*)::int as guests from public.guest_places gpl group by gpl.class_id) gp on gp.class_id = c.id;

-- After bookings_count_spots (name order): the class row is locked first.
create trigger bookings_tally
  after insert or delete or update of class_id, payment_status, attendance on public.bookings
  for each row execute function private.bookings_tally();

create trigger classes_tally
  after insert or update of start_time, capacity on public.classes
  for each row execute function private.classes_tally();

-- The class's guest count in its tally (decision 0029), after guest_places_count_spots locked the class row.
create trigger guest_places_tally
  after insert or delete on public.guest_places
  for each row execute function private.guest_places_tally();

create or replace function private.admin_stats()
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
    from public.members m;
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

create or replace function public.admin_bookings_search(p_term text)
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
                         where m.name ilike private.like_pattern(p_term) or m.email::text ilike private.like_pattern(p_term))
  union
  select v.id, v.booked_at, v.class_id, v.member_id, v.member_name, v.member_email, v.class_name, v.class_start_time, v.class_trainer
  from public.admin_bookings v
  where v.class_id in (select c.id from public.classes c where c.name ilike private.like_pattern(p_term))
$$;

create or replace function private.report_attendance(p_from date, p_to date)
returns setof public.attendance_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  bounds as (select min(starts) as starts, least(max(ends), now()) as ends from months),
  -- The classes' tallies (private.class_tallies, decision 0029): confirmed bookings and their marks.
  counted as (
    select t.london_month as month, sum(t.confirmed)::int as bookings,
           sum(t.confirmed_attended)::int as attended,
           sum(t.confirmed_no_shows)::int as no_shows,
           sum(t.confirmed - t.confirmed_attended - t.confirmed_no_shows)::int as unmarked
      from bounds bd
      join private.class_tallies t on t.start_time >= bd.starts and t.start_time < bd.ends
     group by 1),
  late_counted as (
    select date_trunc('month', l.class_start_time at time zone 'Europe/London')::date as month, count(*)::int as late_cancels
      from bounds bd join public.late_cancellations l on l.class_start_time >= bd.starts and l.class_start_time < bd.ends
     group by 1),
  per_month as (
    select mo.month, coalesce(c.bookings, 0) as bookings, coalesce(c.attended, 0) as attended, coalesce(c.no_shows, 0) as no_shows,
           coalesce(c.unmarked, 0) as unmarked, coalesce(l.late_cancels, 0) as late_cancels
      from months mo left join counted c on c.month = mo.month left join late_counted l on l.month = mo.month)
  select r.month, r.bookings, r.attended, r.no_shows, r.unmarked, r.late_cancels,
         round(100.0 * r.no_shows / nullif(r.bookings, 0), 1),
         round(100.0 * r.late_cancels / nullif(r.bookings + r.late_cancels, 0), 1)
    from (select * from per_month
          union all
          select null, sum(bookings)::int, sum(attended)::int, sum(no_shows)::int, sum(unmarked)::int, sum(late_cancels)::int from per_month) r
   order by r.month nulls last
$$;

create or replace function private.report_fill(p_from date, p_to date)
returns setof public.fill_row
language sql stable security definer set search_path = ''
as $$
  with range as (select min(starts) as starts, max(ends) as ends from private.report_months(p_from, p_to)),
  -- Each class's tally (decision 0029): confirmed bookings and guest places.
  per_slot as (
    select t.weekday::int as weekday, t.slot,
           count(*)::int as classes, sum(t.capacity)::int as places, sum(t.confirmed + t.guests)::int as taken
      from range r join private.class_tallies t on t.start_time >= r.starts and t.start_time < least(r.ends, now())
     group by t.weekday, t.slot)
  select weekday, slot, classes, places, taken, round(100.0 * taken / nullif(places, 0), 1)
    from per_slot
   order by weekday, slot
$$;

create or replace function private.admin_reports(p_from date, p_to date)
returns public.admin_reports
language sql stable security definer set search_path = '' set jit = off
as $$
  select array(select r from private.report_revenue(p_from, p_to) r),
         array(select r from private.report_mrr(p_from, p_to) r),
         array(select r from private.report_trials(p_from, p_to) r),
         array(select r from private.report_attendance(p_from, p_to) r),
         array(select r from private.report_fill(p_from, p_to) r)
$$;

create extension if not exists pg_trgm with schema extensions;

-- Members search (name, email) and the bookings search (admin_bookings_search: member name or
-- email, class name). The email is citext: the index and the search read it as text.
create index members_name_trgm_idx on public.members using gin (name extensions.gin_trgm_ops);

create index members_email_trgm_idx on public.members using gin ((email::text) extensions.gin_trgm_ops);

create index classes_name_trgm_idx on public.classes using gin (name extensions.gin_trgm_ops);

-- A member's bookings, newest first, with what the bookings search and "my bookings" read from the
-- row: the search reaches a matching member's bookings without a visit to each booking's heap row.
create index bookings_member_booked_at_idx on public.bookings (member_id, booked_at desc) include (id, class_id);
