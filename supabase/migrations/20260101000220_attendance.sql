-- Attendance: admins mark each booking attended or no-show from a class's roster; Analytics gains
-- the weekly attendance rate and fill rate.

alter table public.bookings
  add column attendance text constraint bookings_attendance_check check (attendance in ('attended', 'no_show')),
  add column attendance_marked_at timestamptz;

comment on column public.bookings.attendance is 'Set by an admin through mark_attendance; null = not marked.';

-- How early before the start a roster may be marked (members check in at the door).
create function private.attendance_opens_before()
returns interval
language sql immutable set search_path = ''
as $$ select interval '1 hour' $$;

revoke execute on function private.attendance_opens_before() from public;

-- Admin only. p_status 'attended' | 'no_show', or null to clear the mark. Returns
-- { booking_id, class_id, attendance, attendance_marked_at }.
create function public.mark_attendance(p_booking_id uuid, p_status text)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_start timestamptz;
begin
  perform private.require_admin();
  if p_status is not null and p_status not in ('attended', 'no_show') then
    raise exception 'Unknown attendance status' using errcode = '22023', hint = 'invalid_attendance';
  end if;
  select b.* into v_booking from public.bookings b where b.id = p_booking_id for update;
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002', hint = 'booking_not_found';
  end if;
  select c.start_time into v_start from public.classes c where c.id = v_booking.class_id;
  if now() < v_start - private.attendance_opens_before() then
    raise exception 'Attendance can be marked from 1 hour before the class starts'
      using errcode = 'P0001', hint = 'attendance_too_early';
  end if;
  update public.bookings
     set attendance = p_status,
         attendance_marked_at = case when p_status is null then null else now() end
   where id = v_booking.id
  returning * into v_booking;
  return json_build_object('booking_id', v_booking.id, 'class_id', v_booking.class_id,
                           'attendance', v_booking.attendance,
                           'attendance_marked_at', v_booking.attendance_marked_at);
end;
$$;

revoke execute on function public.mark_attendance(uuid, text) from public, anon, authenticated;
grant execute on function public.mark_attendance(uuid, text) to authenticated;

-- How many ISO weeks (Monday 00:00 London) admin_stats reports, the current one included.
create function private.stats_weeks()
returns integer
language sql immutable set search_path = ''
as $$ select 8 $$;

revoke execute on function private.stats_weeks() from public;

-- admin_stats: the same keys plus `weekly`, oldest week first:
-- [{ week_start: 'YYYY-MM-DD' (Monday, London), classes, capacity, bookings, fill_rate,
--    attended, no_show, attendance_rate }]
-- fill_rate = bookings / capacity of the week's classes (null without classes);
-- attendance_rate = attended / (attended + no_show) (null when nothing was marked).
-- Both are fractions rounded to 4 places.
create or replace function public.admin_stats()
returns json
language plpgsql stable security definer set search_path = ''
as $$
declare
  -- The current month starts on day 1 at 00:00 in the studio's time zone.
  v_month_start timestamptz :=
    date_trunc('month', now() at time zone 'Europe/London') at time zone 'Europe/London';
  v_this_week date := date_trunc('week', now() at time zone 'Europe/London')::date;
begin
  perform private.require_admin();
  return (
    select json_build_object(
      'total_members', (select count(*) from public.members)::int,
      'total_classes', (select count(*) from public.classes)::int,
      'total_bookings', (select count(*) from public.bookings)::int,
      'upcoming_classes', (select count(*) from public.classes where start_time >= now())::int,
      'premium_members', (select count(*) from public.members where membership_tier = 'premium')::int,
      'standard_members', (select count(*) from public.members where membership_tier = 'standard')::int,
      'payg_members',
        (select count(*) from public.members where membership_tier not in ('premium', 'standard'))::int,
      'bookings_this_month', (select count(*) from public.bookings where booked_at >= v_month_start)::int,
      'weekly', (
        select json_agg(json_build_object(
                 'week_start', to_char(w.week_start, 'YYYY-MM-DD'),
                 'classes', w.classes, 'capacity', w.capacity, 'bookings', w.bookings,
                 'fill_rate', case when w.capacity > 0 then round(w.bookings::numeric / w.capacity, 4) end,
                 'attended', w.attended, 'no_show', w.no_show,
                 'attendance_rate',
                   case when w.attended + w.no_show > 0
                        then round(w.attended::numeric / (w.attended + w.no_show), 4) end)
               order by w.week_start)
          from (
            select weeks.week_start,
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
          ) w)
    )
  );
end;
$$;
