-- My Bookings lists a family's places on one class in a stable order: the member's own, then the
-- children by name (they came in the order of their random ids).

create or replace function public.my_bookings()
returns setof public.my_booking
language sql stable security invoker set search_path = ''
as $$
  select b.id, b.class_id, b.type::text, b.payment_status::text, b.booked_at, b.hold_expires_at,
         c.name, c.trainer, c.start_time, c.duration, c.description,
         case when b.payment_status = 'completed' then private.late_cancel_from(c) end,
         b.dependant_id, d.name
    from public.bookings b
    join public.classes c on c.id = b.class_id
    left join public.dependants d on d.id = b.dependant_id
   where b.member_id = (select private.current_member_id())
     and (b.payment_status = 'completed' or b.hold_expires_at > now())
   order by c.start_time desc, b.dependant_id is not null, d.name, b.id
$$;

