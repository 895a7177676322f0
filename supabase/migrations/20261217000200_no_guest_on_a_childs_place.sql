-- Issue 38 item 11: a child's place never brings a guest.
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
  v_key text;
begin
  select c.* into v_class from public.classes c join public.bookings b on b.class_id = c.id
   where b.id = p_booking_id for update of c;
  select * into v_booking from public.bookings where id = p_booking_id;
  if v_booking.id is null or v_booking.member_id is distinct from p_member_id or v_booking.payment_status <> 'completed' then
    raise exception 'You can add a guest only to your own confirmed booking' using errcode = '42501', hint = 'not_your_booking';
  end if;
  -- A guest comes with the member's own place, never a child's (issue 38).
  if v_booking.dependant_id is not null then
    raise exception 'A guest comes with your own booking, not a child''s' using errcode = 'P0001', hint = 'guest_not_for_child';
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
  -- One guest is one mailbox, whatever case or sub-address the host typed (guest_email_key).
  v_key := private.guest_email_key(v_email);
  -- The visits a year are the guest's, whoever brings them: two hosts adding the same guest to
  -- two classes hold different class and member locks, so each would count the guest's visits
  -- before the other's place exists and both would add one. Serialised on the guest's mailbox
  -- (gina+x@ and Gina@ take the same lock), taken after the class and member locks like every
  -- booking path's locks, and nothing that holds it waits for another class: it cannot deadlock with them.
  perform pg_advisory_xact_lock(hashtextextended('guest-email:' || v_key, 0));
  if v_key = private.guest_email_key(v_member.email::text) then
    raise exception 'Your guest needs their own email address, not yours' using errcode = '22023', hint = 'guest_is_you';
  end if;
  if exists (select 1 from public.guest_places g where g.class_id = v_class.id and private.guest_email_key(g.guest_email) = v_key) then
    raise exception '% is already a guest on this class', v_name using errcode = '23505', hint = 'guest_already_booked';
  end if;
  if (select count(*) from public.guest_places g join public.classes c on c.id = g.class_id
       where private.guest_email_key(g.guest_email) = v_key
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

revoke execute on function private.lock_class_for_guest(uuid, uuid, text, text) from public;
