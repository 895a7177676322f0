-- Two hosts adding the same guest to two different classes at the same moment gave the guest a
-- fourth visit in 12 months (the limit is guest_visits_per_year(), 3): each held only its own
-- class and member locks, so both counted the guest's two visits before either place existed.
-- lock_class_for_guest now also takes a transaction advisory lock on the guest's address as
-- stored (lower, trimmed), after the class and member locks, for add_guest and
-- create_guest_payment_hold alike.

-- Every check but how the place is paid, for p_member_id adding a guest to their own confirmed
-- booking of a group class not yet started. Locks the class row, then the member row (the lock
-- order of every booking path: two guests for the last place book one), then the guest's email
-- (two hosts bringing one guest count their visits one after the other). Refusals (hint):
-- not_your_booking, class_started, guest_not_for_class, invalid_guest, guest_is_you,
-- guest_already_booked, guest_visits_used, class_full. Returns the locked class.
create or replace function private.lock_class_for_guest(p_member_id uuid, p_booking_id uuid, p_name text, p_email text)
returns public.classes
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_booking public.bookings;
  v_class public.classes;
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_name text := btrim(coalesce(p_name, ''));
begin
  select c.* into v_class from public.classes c join public.bookings b on b.class_id = c.id
   where b.id = p_booking_id for update of c;
  select * into v_booking from public.bookings where id = p_booking_id;
  if v_booking.id is null or v_booking.member_id is distinct from p_member_id or v_booking.payment_status <> 'completed' then
    raise exception 'You can add a guest only to your own confirmed booking' using errcode = '42501', hint = 'not_your_booking';
  end if;
  select * into v_member from public.members where id = p_member_id for no key update;
  if v_class.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  if v_class.type <> 'Group' then
    raise exception 'Guests come to group classes only' using errcode = 'P0001', hint = 'guest_not_for_class';
  end if;
  if char_length(v_name) not between 1 and 100 then
    raise exception 'Enter your guest''s name (at most 100 characters)' using errcode = '22023', hint = 'invalid_guest';
  end if;
  if v_email is null or char_length(v_email) > 254 or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Enter your guest''s email address' using errcode = '22023', hint = 'invalid_guest';
  end if;
  -- The visits a year are the guest's, whoever brings them: two hosts adding the same guest to
  -- two classes hold different class and member locks, so each would count the guest's visits
  -- before the other's place exists and both would add one. Serialised on the guest's address
  -- as stored (lower, trimmed), taken after the class and member locks like every booking path's
  -- locks, and nothing that holds it waits for another class: it cannot deadlock with them.
  perform pg_advisory_xact_lock(hashtextextended('guest-email:' || v_email, 0));
  if v_email = lower(v_member.email::text) then
    raise exception 'Your guest needs their own email address, not yours' using errcode = '22023', hint = 'guest_is_you';
  end if;
  if exists (select 1 from public.guest_places g where g.class_id = v_class.id and g.guest_email = v_email) then
    raise exception '% is already a guest on this class', v_name using errcode = '23505', hint = 'guest_already_booked';
  end if;
  if (select count(*) from public.guest_places g join public.classes c on c.id = g.class_id
       where g.guest_email = v_email
         and c.start_time > v_class.start_time - interval '1 year' and c.start_time < v_class.start_time + interval '1 year')
     >= private.guest_visits_per_year() then
    raise exception '% has been a guest % times this year: they are welcome to join the studio', v_name, private.guest_visits_per_year()
      using errcode = 'P0001', hint = 'guest_visits_used';
  end if;
  if v_class.spots_left <= 0 then
    raise exception 'This class is fully booked' using errcode = 'P0001', hint = 'class_full';
  end if;
  return v_class;
end;
$$;

