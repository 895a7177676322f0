-- Issue 29 (decision 0034): the bookings search answers as fast for a term that matches almost
-- everything as for a rare one. "scale" (all 1M bookings at the bench's ten years) took 3.7 s: its
-- exact count visited every match and its page was chosen from all of them. The count now reads the
-- smaller side (matching members' bookings, or the other members'), with the class tallies; the
-- page walks the booked_at index when matches are common. Admins only now, like the list's total:
-- the screen is the admin's, and the tallies count every member's bookings.
drop function public.admin_bookings_search(text, integer, integer);

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
