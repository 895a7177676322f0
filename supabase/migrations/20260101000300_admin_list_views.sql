-- Bookings Management reads a page at a time and searches on the server (issue 8: 1M bookings).
-- PostgREST cannot OR filters across embedded tables, so the joined columns it searches live in
-- one view. Inner joins hide bookings whose member or class is gone (spec section 3).
-- security_invoker: the caller's row-level security applies (admins read every booking).
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
join public.members m on m.id = b.member_id
join public.classes c on c.id = b.class_id;

comment on view public.admin_bookings is 'Bookings with member and class, for the admin list (paged, searched by member name, email or class name).';

revoke all on public.admin_bookings from anon, authenticated;
grant select on public.admin_bookings to authenticated;
grant select on public.admin_bookings to service_role;
