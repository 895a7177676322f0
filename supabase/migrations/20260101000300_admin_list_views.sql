-- Bookings Management reads a page at a time and searches on the server (issue 8: 1M bookings).

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
  with pattern as (
    select '%' || replace(replace(replace(coalesce(p_term, ''), '\', '\\'), '%', '\%'), '_', '\_') || '%' as p
  )
  select v.id, v.booked_at, v.class_id, v.member_id, v.member_name, v.member_email, v.class_name, v.class_start_time, v.class_trainer
  from public.admin_bookings v
  where v.member_id in (select m.id from public.members m, pattern where m.name ilike pattern.p or m.email ilike pattern.p)
  union
  select v.id, v.booked_at, v.class_id, v.member_id, v.member_name, v.member_email, v.class_name, v.class_start_time, v.class_trainer
  from public.admin_bookings v
  where v.class_id in (select c.id from public.classes c, pattern where c.name ilike pattern.p)
$$;

revoke execute on function public.admin_bookings_search(text) from public, anon;
grant execute on function public.admin_bookings_search(text) to authenticated, service_role;
