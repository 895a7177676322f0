-- A class the studio removes (an admin's delete, a closure, a generation replacing it) tells its
-- guests too, and each member once. Its guests were never told: their places go by cascade after
-- the class row is gone, when the guests' own trigger can no longer read the class, so the only
-- email a guest had was the invitation offering to cancel a class that no longer existed. A
-- parent booked with their children got one email per place, each naming the whole refund.
--
-- Replaced (same signature): private.classes_tell_members_removed.

-- Deleting a class that has not started (by an admin, a closure or a regeneration) tells everyone
-- in it why. Each member with a confirmed place gets one email, however many places they had (a
-- parent booked with their children: what they paid that is owed back is summed in it), and each
-- place is kept for their Cancelled tab. Each guest with a confirmed place gets the guest's own
-- cancellation email (enqueue_guest_email, 14_guests.sql: no cancel link, the class is gone). It
-- is sent from here because the guest places go by cascade only once the class row is gone, when
-- the guests' own trigger can no longer read the class to write it; its dedupe key keeps it to one.
-- BEFORE DELETE, while the class, its bookings and its guest places are readable; the trigger's
-- name sorts after classes_record_refunds_owed, so the refund it records is already there to mention.
create or replace function private.classes_tell_members_removed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_told uuid[] := '{}';
begin
  if old.start_time <= now() then
    return old;
  end if;
  for v_booking in
    select b.* from public.bookings b
     where b.class_id = old.id and b.payment_status = 'completed'
     order by b.booked_at, b.id
  loop
    if not v_booking.member_id = any (v_told) then
      perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, old.id, v_booking.id,
                                          p_reason => private.class_removal_why());
      v_told := v_told || v_booking.member_id;
    end if;
    perform private.remember_cancellation(v_booking, old, 'studio', private.class_removal_why());
  end loop;
  perform private.enqueue_guest_email('guest_cancelled', g)
     from public.guest_places g
    where g.class_id = old.id and g.payment_status = 'completed';
  return old;
end;
$$;

revoke execute on function private.classes_tell_members_removed() from public;
