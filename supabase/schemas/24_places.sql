-- Who is in the room: the place model (decision 0035). A class's places are of three kinds, kept in
-- two tables: a member's own booking and a child's (public.bookings, dependant_id set for a child;
-- 03_bookings.sql, 21_families.sql) and a guest a member brought (public.guest_places,
-- 14_guests.sql). A place held while its payment is pending is a place of its kind with pending set.
--
-- Two answers, each in one place:
-- - How many places are taken: classes.current_bookings, moved by each kind's spot trigger
--   (bookings_count_spots, guest_places_count_spots) in the transaction that adds or removes the
--   place; the class's check constraint refuses one too many, whatever path inserts. Every rule
--   that asks "is there room" reads private.class_has_room.
-- - Who the places are for: private.class_places. Every roster reads it (the admin roster and
--   register, the coach's roster, the check-in sheet) and only chooses which columns its reader
--   may see. Each place shows the person in it, with that person's own documents and health answers:
--   a child's place the child (the parent only as the contact), a guest's the guest ("guest of"
--   the host) with their waiver.
--
-- A fourth kind of place is a branch of class_places and its table's spot trigger; nothing that
-- reads places changes.

-- The kinds of place.
create type public.place_kind as enum ('member', 'child', 'guest');

comment on type public.place_kind is 'Who a place in a class is for: a member''s own booking, their child''s, or their guest''s.';

-- One place in a class, as every roster reads it.
create type public.class_place as (
  -- The booking's id, or the guest place's.
  place_id uuid,
  kind public.place_kind,
  class_id uuid,
  -- The booking behind the place: the member's or child's own; the host's for a guest.
  booking_id uuid,
  guest_place_id uuid,
  -- The account answerable for the place: the member, the child's parent, the guest's host.
  member_id uuid,
  dependant_id uuid,
  -- The person in the room.
  name text,
  -- Who to call about them when they are not the account holder: the parent, or the host.
  contact_name text,
  -- The member's; a child's parent's; the guest's own (admins only).
  email text,
  -- The member's; the parent's for a child.
  phone text,
  emergency_contact_name text,
  emergency_contact_phone text,
  -- The person's own date of birth, PAR-Q flag, questions answered yes (in the answered version's
  -- words) and details; a guest gives none.
  date_of_birth date,
  health_flag boolean,
  health_yes text[],
  health_details text,
  -- A child's: what the coach should know, and who may collect them.
  medical_notes text,
  collected_by text,
  -- The person's own documents are the current versions: a member's terms, waiver and PAR-Q; the
  -- waiver and PAR-Q a parent signed for the child; the waiver a guest signed from their email.
  documents_current boolean,
  -- How a booking's place was taken (plan, pay-as-you-go, trial…); null for a guest.
  booking_type public.booking_type,
  attendance public.attendance_status,
  -- Held while its card payment is made.
  pending boolean,
  booked_at timestamptz
);

comment on type public.class_place is
  'One place in a class (member, child or guest) with the person in it and their own documents and health answers (class_places).';

-- Is there a place left in the class? The class row as the caller read it (lock it first when the
-- answer decides an insert).
create function private.class_has_room(p_class public.classes)
returns boolean
language sql immutable set search_path = ''
as $$ select p_class.current_bookings < p_class.capacity $$;

revoke execute on function private.class_has_room(public.classes) from public;

-- The name a member goes by on a roster: their name, or their email's local part when they gave none.
create function private.member_display_name(p_member public.members)
returns text
language sql immutable set search_path = ''
as $$ select coalesce(nullif(btrim(p_member.name), ''), split_part(p_member.email::text, '@', 1)) $$;

revoke execute on function private.member_display_name(public.members) from public;

-- Every place of the given classes. No access check: the public functions that return it decide
-- who may read which class and which columns.
create function private.class_places(p_class_ids uuid[])
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

-- Marking a place -------------------------------------------------------------------------------------
-- The class a place (a booking or a guest place, by id) is in, or null when there is no such place.
create function private.place_class_id(p_place_id uuid)
returns uuid
language sql stable security definer set search_path = ''
as $$
  select coalesce((select b.class_id from public.bookings b where b.id = p_place_id),
                  (select g.class_id from public.guest_places g where g.id = p_place_id))
$$;

revoke execute on function private.place_class_id(uuid) from public;

-- Attended / no-show (or null to clear) on any place, when require_attendance_open allows: the one
-- writer of marks for the admin's mark_attendance and the coach's coach_mark_attendance, who check
-- who may mark first. p_status is text so an unknown value gets the contract's refusal.
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

-- The admin's roster, register and check-in sheet --------------------------------------------------
-- Every place of the given classes (at most a day's worth at once), every column.
create function private.admin_class_places(p_class_ids uuid[])
returns setof public.class_place
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_class_ids is null or cardinality(p_class_ids) > 100 then
    raise exception 'Choose between 1 and 100 classes' using errcode = '22023', hint = 'invalid_classes';
  end if;
  return query select * from private.class_places(p_class_ids);
end;
$$;

revoke execute on function private.admin_class_places(uuid[]) from public;

grant execute on function private.admin_class_places(uuid[]) to authenticated;

create function public.admin_class_places(p_class_ids uuid[])
returns setof public.class_place
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_class_places(p_class_ids) $$;

revoke execute on function public.admin_class_places(uuid[]) from public, anon, authenticated;

grant execute on function public.admin_class_places(uuid[]) to authenticated;

-- The coach's roster (decision 0027) ----------------------------------------------------------------
-- The places of a class the caller coaches (require_coach_of: theirs, roster still open). The coach
-- calls people in the room, never emails them: no email. Each person's health answers are their
-- own, shown because they (or, for a child, their parent) booked a class this coach teaches.
create function private.coach_class_roster(p_class_id uuid)
returns setof public.class_place
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_class public.classes := private.require_coach_of(p_class_id);
begin
  return query
  select p.place_id, p.kind, p.class_id, p.booking_id, p.guest_place_id, p.member_id, p.dependant_id, p.name, p.contact_name,
         null::text, p.phone, p.emergency_contact_name, p.emergency_contact_phone, p.date_of_birth, p.health_flag, p.health_yes,
         p.health_details, p.medical_notes, p.collected_by, p.documents_current, p.booking_type, p.attendance, p.pending,
         p.booked_at
    from private.class_places(array[v_class.id]) p;
end;
$$;

revoke execute on function private.coach_class_roster(uuid) from public;

grant execute on function private.coach_class_roster(uuid) to authenticated;

create function public.coach_class_roster(p_class_id uuid)
returns setof public.class_place
language sql stable security invoker set search_path = ''
as $$ select * from private.coach_class_roster(p_class_id) $$;

revoke execute on function public.coach_class_roster(uuid) from public, anon, authenticated;

grant execute on function public.coach_class_roster(uuid) to authenticated;
