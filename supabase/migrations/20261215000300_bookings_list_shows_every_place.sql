-- Bookings Management lists every place in a class: a child's booking names the child (the parent
-- is the account), a guest's place is listed (the host is the account), in the list, its total and
-- its search (decision 0035). The list's objects move to 24_places.sql; the database is the same
-- apart from the new columns and the guest places' order index.

-- The bookings list's order (admin_bookings, 24_places.sql): guests' places merge with bookings'.
create index guest_places_created_at_idx on public.guest_places (created_at);

alter type public.admin_booking add attribute kind public.place_kind, add attribute person_name text;

create or replace view public.admin_bookings with (security_invoker = true) as
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


create or replace function private.admin_bookings_total()
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

create or replace function private.admin_bookings_search(p_term text, p_offset integer, p_limit integer)
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
