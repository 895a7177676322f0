-- My Bookings offered Add a guest on a class with no place left, and the form was refused
-- (class_full) only once filled in. my_guest_options now says whether the class has room
-- (class_has_room, decision 0035), so the screen says the class is full instead of opening the
-- form; add_guest still decides. The definitions are those of supabase/schemas/14_guests.sql.

alter type public.guest_option add attribute has_room boolean;

create or replace function private.my_guest_options()
returns setof public.guest_option
language sql stable security definer set search_path = ''
as $$
  select o.booking_id, o.pass_expires_at, o.price, o.has_room
    from (select b.id as booking_id,
                 (select min(cr.expires_at) from public.credits cr
                   where cr.member_id = b.member_id and cr.kind = 'guest_pass' and private.credit_usable(cr, c.start_time)) as pass_expires_at,
                 case when c.price_payg > 0 then c.price_payg end as price,
                 private.class_has_room(c) as has_room,
                 c.start_time
            from public.bookings b join public.classes c on c.id = b.class_id
           where b.member_id = private.current_member_id() and b.payment_status = 'completed'
             and c.type = 'Group' and c.start_time > now()) o
   where o.pass_expires_at is not null or o.price is not null
   order by o.start_time
$$;
