-- The bookings list's total from the class tallies (decision 0029); the bookings search without JIT.
create function private.admin_bookings_total()
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select coalesce(sum(t.bookings), 0)::int from private.class_tallies t);
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

create or replace function public.admin_bookings_search(p_term text)
returns table (
  id uuid, booked_at timestamptz, class_id uuid, member_id uuid, member_name text, member_email text,
  class_name text, class_start_time timestamptz, class_trainer text
)
language sql stable
set search_path = '' set jit = off
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
