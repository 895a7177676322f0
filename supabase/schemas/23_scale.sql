-- The portal at ten years of data (decision 0029). The trigram indexes the admin searches read live
-- with their tables (members_name_trgm_idx and members_email_trgm_idx in 01_members.sql,
-- classes_name_trgm_idx in 02_classes.sql, bookings_member_booked_at_idx in 03_bookings.sql; pg_trgm
-- in 00_foundation.sql); the class tallies the counts read are in 03_bookings.sql.


-- Every class's tally counted again from its rows. For loads that run with triggers off (the
-- year-of-history seed, session_replication_role = replica), which write rows no trigger tallied.
-- Idempotent; never called by the app. plpgsql, so the body may name guest_places (14_guests.sql).
create function private.refill_class_tallies()
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  delete from private.class_tallies where true;  -- every row (pg-safeupdate wants a WHERE)
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
end;
$$;

revoke execute on function private.refill_class_tallies() from public;
