-- Every place is marked at the door (decision 0035): a guest's place takes Attended / No-show as a
-- booking does, through one writer (private.mark_place) that the admin's mark_attendance and the
-- coach's coach_mark_attendance share, and the no-show job marks guests nobody checked in.
alter table public.guest_places add column attendance public.attendance_status;

alter table public.guest_places add column attendance_marked_at timestamptz;

grant select (attendance, attendance_marked_at) on public.guest_places to authenticated;

create function private.place_class_id(p_place_id uuid)
returns uuid
language sql stable security definer set search_path = ''
as $$
  select coalesce((select b.class_id from public.bookings b where b.id = p_place_id),
                  (select g.class_id from public.guest_places g where g.id = p_place_id))
$$;

revoke execute on function private.place_class_id(uuid) from public;

create function private.mark_place(p_place_id uuid, p_status text)
returns public.attendance_mark
language plpgsql security definer set search_path = ''
as $$
declare
  v_start timestamptz;
  r public.attendance_mark;
begin
  if p_status is not null and p_status not in ('attended', 'no_show') then
    raise exception 'Unknown attendance status' using errcode = '22023', hint = 'invalid_attendance';
  end if;
  select c.start_time into v_start from public.classes c where c.id = private.place_class_id(p_place_id);
  if not found then
    raise exception 'Booking not found' using errcode = 'P0002', hint = 'booking_not_found';
  end if;
  perform private.require_attendance_open(v_start, p_status);
  update public.bookings
     set attendance = p_status::public.attendance_status,
         attendance_marked_at = case when p_status is null then null else now() end
   where id = p_place_id
  returning id, class_id, attendance, attendance_marked_at into r.booking_id, r.class_id, r.attendance, r.attendance_marked_at;
  if r.booking_id is null then
    update public.guest_places
       set attendance = p_status::public.attendance_status,
           attendance_marked_at = case when p_status is null then null else now() end
     where id = p_place_id
    returning id, class_id, attendance, attendance_marked_at into r.booking_id, r.class_id, r.attendance, r.attendance_marked_at;
  end if;
  return r;
end;
$$;

revoke execute on function private.mark_place(uuid, text) from public;

create or replace function private.class_places(p_class_ids uuid[])
returns setof public.class_place
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query
  select r.place_id, r.kind, r.class_id, r.booking_id, r.guest_place_id, r.member_id, r.dependant_id, r.name, r.contact_name,
         r.email, r.phone, r.emergency_contact_name, r.emergency_contact_phone, r.date_of_birth, r.health_flag, r.health_yes,
         r.health_details, r.medical_notes, r.collected_by, r.documents_current, r.booking_type, r.attendance, r.pending, r.booked_at
    from (
    select b.id as place_id, case when d.id is null then 'member' else 'child' end::public.place_kind as kind, b.class_id,
           b.id as booking_id, null::uuid as guest_place_id, m.id as member_id, d.id as dependant_id,
           coalesce(d.name, private.member_display_name(m)) as name,
           case when d.id is not null then private.member_display_name(m) end as contact_name,
           m.email::text as email, m.phone, m.emergency_contact_name, m.emergency_contact_phone,
           case when d.id is null then m.date_of_birth else d.date_of_birth end as date_of_birth,
           coalesce(private.health_flag(h.answers), false) as health_flag,
           coalesce((select array_agg(q.value #>> '{}' order by q.ordinality)
                       from jsonb_array_elements(v.questions) with ordinality q
                      where h.answers -> (q.ordinality::int - 1) = 'true'::jsonb), '{}') as health_yes,
           h.details as health_details, d.medical_notes, d.collected_by,
           case when d.id is null then cardinality(private.missing_documents(m.id)) = 0
                else cardinality(private.missing_dependant_documents(d.id)) = 0 end as documents_current,
           b.type as booking_type, b.attendance, b.payment_status = 'pending' as pending, b.booked_at,
           -- Families and hosts together: the account holder, then the people they brought.
           private.member_display_name(m) as sort_group, case when d.id is null then 0 else 1 end as sort_kind
      from public.bookings b
      join public.members m on m.id = b.member_id
      left join public.dependants d on d.id = b.dependant_id
      -- The health answers of the person in the place: the child's (given by the parent) or the member's.
      left join lateral (
        select x.answers, x.details, x.document_id from public.health_answers x where d.id is null and x.member_id = m.id
        union all
        select y.answers, y.details, y.document_id from public.dependant_health_answers y where y.dependant_id = d.id
      ) h on true
      left join public.document_versions v on v.id = h.document_id
     where b.class_id = any (p_class_ids)
    union all
    select g.id, 'guest'::public.place_kind, g.class_id, g.host_booking_id, g.id, m.id, null::uuid, g.guest_name,
           private.member_display_name(m), g.guest_email, null::text, null::text, null::text, null::date, false, '{}'::text[],
           null::text, null::text, null::text, private.guest_waiver_signed(g.guest_email), null::public.booking_type,
           g.attendance,
           g.payment_status = 'pending', g.created_at, private.member_display_name(m), 2
      from public.guest_places g
      join public.members m on m.id = g.host_member_id
     where g.class_id = any (p_class_ids)
  ) r
   order by r.class_id, r.sort_group, r.sort_kind, r.name, r.place_id;
end;
$$;

revoke execute on function private.class_places(uuid[]) from public;

create or replace function private.mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.mark_place(p_booking_id, p_status);
end;
$$;

revoke execute on function private.mark_attendance(uuid, text) from public;

grant execute on function private.mark_attendance(uuid, text) to authenticated;

create or replace function private.coach_mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_class_id uuid;
begin
  perform private.require_coach();
  if p_status is not null and p_status not in ('attended', 'no_show') then
    raise exception 'Unknown attendance status' using errcode = '22023', hint = 'invalid_attendance';
  end if;
  v_class_id := private.place_class_id(p_booking_id);
  if v_class_id is null then
    raise exception 'This is not one of your classes' using errcode = '42501', hint = 'not_your_class';
  end if;
  perform private.require_coach_of(v_class_id);
  return private.mark_place(p_booking_id, p_status);
end;
$$;

revoke execute on function private.coach_mark_attendance(uuid, text) from public;

grant execute on function private.coach_mark_attendance(uuid, text) to authenticated;

create or replace function private.coach_classes(p_days integer)
returns setof public.coach_class
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
  v_from timestamptz := date_trunc('day', now() at time zone 'Europe/London') at time zone 'Europe/London';
begin
  if p_days is null or p_days < 1 or p_days > 60 then
    raise exception 'Choose between 1 and 60 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  return query
  select c.id, c.name, c.type::text, c.start_time, c.duration,
         (select count(*)::int from public.bookings b where b.class_id = c.id),
         (select count(*)::int from public.guest_places g where g.class_id = c.id),
         (select count(*)::int from public.bookings b where b.class_id = c.id and b.attendance = 'attended')
           + (select count(*)::int from public.guest_places g where g.class_id = c.id and g.attendance = 'attended'),
         (select count(*)::int from public.bookings b where b.class_id = c.id and b.attendance = 'no_show')
           + (select count(*)::int from public.guest_places g where g.class_id = c.id and g.attendance = 'no_show')
    from public.classes c
   where c.trainer_id = v_trainer_id
     and c.start_time >= v_from and c.start_time < v_from + make_interval(days => p_days)
   order by c.start_time;
end;
$$;

revoke execute on function private.coach_classes(integer) from public;

grant execute on function private.coach_classes(integer) to authenticated;

create or replace function private.mark_no_shows(p_now timestamptz)
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_count integer;
  v_guests integer;
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
  -- Every kind of place (decision 0035): a guest nobody checked in is a no-show too.
  update public.guest_places g
     set attendance = 'no_show', attendance_marked_at = p_now
    from public.classes c
   where c.id = g.class_id
     and c.start_time <= p_now - private.no_show_after()
     and c.start_time > p_now - private.no_show_after() - private.no_show_lookback()
     and g.attendance is null
     and g.payment_status = 'completed';
  get diagnostics v_guests = row_count;
  return v_count + v_guests;
end;
$$;

revoke execute on function private.mark_no_shows(timestamptz) from public;

grant execute on function private.mark_no_shows(timestamptz) to service_role;
