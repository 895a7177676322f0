-- A member who withdrew their PAR-Q answers while on a waitlist was still promoted into the class
-- when a place opened: bookings_require_documents lets a promotion's insert through (refusing
-- there would roll back the cancellation that freed the place). The promotion now asks first and
-- skips them, promoting the next in line; they keep their place and are promoted once they answer
-- again. A version published since they joined still does not stop them (decision 0021).

-- Why a waitlisted member may not be moved into a place now as far as the documents go, or null:
-- documents_required when a PAR-Q is published and the studio holds no answers of theirs (they
-- withdrew them since joining). bookings_require_documents lets a promotion's insert through, as
-- refusing there would roll back the cancellation that freed the place, so promote_waitlist asks
-- this first and skips them (they keep their place in line, as for the premium lock) to promote
-- the next. A version published since they joined does not stop them (decision 0021: they signed
-- when joining, and answers of an older PAR-Q are still answers the coach can read); withdrawn
-- answers do: nobody is in the room without a PAR-Q the studio holds.
create function private.promotion_documents_refusal(p_member_id uuid)
returns text
language sql stable security definer set search_path = ''
as $$
  select 'documents_required'
   where exists (select 1 from private.current_documents() d where d.kind = 'parq')
     and not exists (select 1 from public.health_answers h where h.member_id = p_member_id)
$$;

revoke execute on function private.promotion_documents_refusal(uuid) from public;

-- Fills the class's free spots from its waitlist, first in line first, skipping members the
-- booking would be refused to (the premium lock: they keep their place), members who would
-- have to pay per class (pay-as-you-go with the trial used: the spot cannot wait for a card
-- payment; they keep their place too) and members who withdrew their health answers since
-- joining (promotion_documents_refusal, 17_consent.sql; they keep their place and are promoted
-- once they answer again). Does nothing once the waitlist has closed. Each promoted member leaves
-- the line, gets book_class's tier transition and an email. Returns how many.
create or replace function private.promote_waitlist(p_class_id uuid)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_entry public.class_waitlist;
  v_member public.members;
  v_refusal text;
  v_type public.booking_type;
  v_booking_id uuid;
  v_promoted integer := 0;
begin
  select * into v_class from public.classes where id = p_class_id for update;
  if not found or v_class.spots_left <= 0 or now() >= private.waitlist_closes_at(v_class) then
    return 0;
  end if;

  for v_entry in
    select * from public.class_waitlist where class_id = p_class_id order by seq
  loop
    exit when v_class.spots_left <= 0;
    -- Locked only once chosen: fewer member locks held, fewer chances to wait on a member's own booking.
    select * into v_member from public.members where id = v_entry.member_id;
    continue when not found;
    v_refusal := private.booking_refusal(v_member, v_class, null);
    if v_refusal = 'already_booked' then
      delete from public.class_waitlist where id = v_entry.id;
      continue;
    end if;
    continue when v_refusal is not null;
    -- Booking's documents rule, which the bookings trigger waives for a promotion (it must not
    -- raise inside the cancellation that freed the place): skip, do not raise.
    continue when private.promotion_documents_refusal(v_member.id) is not null;
    continue when private.needs_payment(private.booking_type_for(v_member, null), v_class);

    -- NO KEY UPDATE: serialises with the member's own bookings (trial use) but not with rows
    -- that merely reference the member. With FOR UPDATE, two members each promoted into the
    -- other's cancelled class deadlocked on their own cancellation emails' foreign keys.
    select * into v_member from public.members where id = v_entry.member_id for no key update;
    v_type := private.booking_type_for(v_member, null);
    continue when private.needs_payment(v_type, v_class);

    v_booking_id := private.create_booking(v_member.id, v_class.id, v_type);
    delete from public.class_waitlist where id = v_entry.id;
    perform private.enqueue_class_email('waitlist_promoted', v_member.id, v_class.id, v_booking_id);
    v_promoted := v_promoted + 1;
    select * into v_class from public.classes where id = p_class_id;
  end loop;
  return v_promoted;
end;
$$;

revoke execute on function private.promote_waitlist(uuid) from public;
