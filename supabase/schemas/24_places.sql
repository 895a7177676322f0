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

-- The bookings list (Bookings Management) -------------------------------------------------------
-- Every place in a class, as the roster counts them: a member's own booking, a child's (the child
-- named, the parent as the account), a guest's (the guest named, the host as the account). The
-- list, its total and its search all read these rows, so a child is never listed as their parent
-- and a guest is never missing (decision 0035).

-- How many places there are (every row the list shows), from the class tallies (decision 0029):
-- the list's total without counting a million rows on every page.
create function private.admin_bookings_total()
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select coalesce(sum(t.bookings + t.guests), 0)::int from private.class_tallies t);
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

-- Places with the account and class columns the list shows (SECURITY INVOKER: the caller's
-- row-level security decides; admins read all). member_* is the account that holds the place (the
-- member, the parent, the host); person_name is who is in the room. member_id and class_id are NOT
-- NULL foreign keys (cascading deletes), so every row has both and the left joins hide nothing
-- (spec section 3). Left rather than inner joins let the planner drop the joins when PostgREST
-- counts the rows. Ordered by booked_at, the two arms merge from their own indexes.
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
  c.trainer as class_trainer,
  case when b.dependant_id is null then 'member' else 'child' end::public.place_kind as kind,
  coalesce(d.name, m.name) as person_name
from public.bookings b
left join public.members m on m.id = b.member_id
left join public.dependants d on d.id = b.dependant_id
left join public.classes c on c.id = b.class_id
union all
select
  g.id,
  g.created_at,
  g.class_id,
  g.host_member_id,
  m.name,
  m.email,
  c.name,
  c.start_time,
  c.trainer,
  'guest'::public.place_kind,
  g.guest_name
from public.guest_places g
left join public.members m on m.id = g.host_member_id
left join public.classes c on c.id = g.class_id;

comment on view public.admin_bookings is
  'Every place (member, child, guest) with its account and class, for the admin list (paged with count=exact).';

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
  class_trainer text,
  kind public.place_kind,
  person_name text
);

-- A page of the search and how many places match in all.
create type public.admin_bookings_found as (
  total integer,
  rows public.admin_booking[]
);

-- The list's search (admins only): one page of the places whose account's name or email, class
-- name, or guest's name or email contains p_term (case-insensitive; LIKE wildcards in the term are
-- literal), newest first (then by id, so pages never overlap), with the exact number of matches.
-- p_offset below 0 reads as 0; p_limit is kept within 1..1000 (hosted's max rows). Only the page's
-- rows are joined to their account and class (decision 0033). How it stays fast at ten years of
-- data whatever the term matches (decision 0034):
-- - The count: when at most half the members match, their bookings are counted through the
--   member_id index and the matching classes' through their tallies, less the bookings on both
--   sides; when most match (a one-letter search), it is every booking (the tallies) less the
--   other members' bookings of classes that do not match. Either way it reads the smaller side.
--   Guests' places (a few per class at most) are counted directly.
-- - The page: when matches are common, the booked_at index is walked newest first until the page
--   is full; when they are rare, they are gathered through the member_id and class_id indexes and
--   sorted. The choice compares the rows each would read (the walk counted four times over, as
--   matches need not be spread evenly in time). Matching guests' places join either way.
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
  v_guests uuid[];
  v_total integer;
  v_ids uuid[];
begin
  perform private.require_admin();
  v_members := array(select m.id from public.members m where m.name ilike v_pattern or m.email::text ilike v_pattern);
  v_guests := array(
    select g.id from public.guest_places g
     where g.guest_name ilike v_pattern or g.guest_email ilike v_pattern or g.host_member_id = any (v_members)
        or (select c.name from public.classes c where c.id = g.class_id) ilike v_pattern);
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
  v_total := v_total + cardinality(v_guests);

  if v_total = 0 or v_offset >= v_total then
    v_ids := '{}';
  elsif (v_offset + v_limit) * 4 * greatest((select c.reltuples from pg_catalog.pg_class c where c.oid = 'public.bookings'::regclass), v_total)
        < v_total::numeric * v_total then
    -- Common matches: walk every booking newest first until the page is full (a few pages'
    -- worth of rows read, not every match).
    v_ids := array(
      select p.id from (
        select b.id, b.booked_at from public.bookings b
         where b.member_id in (select unnest(v_members))
            -- A lookup per row read (a scalar subquery), not a hash of every matching class.
            or (select c.name from public.classes c where c.id = b.class_id) ilike v_pattern
        union all
        select g.id, g.created_at from public.guest_places g where g.id = any (v_guests)
      ) p
       order by p.booked_at desc, p.id desc
      offset v_offset limit v_limit);
  else
    -- Rare matches: gather them through the member_id and class_id indexes, then sort.
    v_ids := array(
      select m.id from (
        select b.id, b.booked_at from public.bookings b where b.member_id = any (v_members)
        union
        select b.id, b.booked_at from public.bookings b
         where b.class_id in (select c.id from public.classes c where c.name ilike v_pattern)
        union
        select g.id, g.created_at from public.guest_places g where g.id = any (v_guests)
      ) m
       order by m.booked_at desc, m.id desc
      offset v_offset limit v_limit);
  end if;

  return row(
    v_total,
    array(
      select row(v.id, v.booked_at, v.class_id, v.member_id, v.member_name, v.member_email,
                 v.class_name, v.class_start_time, v.class_trainer, v.kind, v.person_name)::public.admin_booking
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
