-- Issue 29: book_class reads the plan's usage twice instead of four times while the class row is
-- locked (every other booking of the class waits on it). The booking type is worked out once
-- and handed to booking_refusal, and create_booking is told the plan check was just made under
-- the same locks. On the bench's PostgreSQL load the usage read (allowance_used) ran four times a
-- booking, about a third of the database's time per booking.
drop function private.create_booking(uuid, uuid, public.booking_type, timestamptz, uuid);

-- Inserts a confirmed booking and applies the trial transition. The caller has locked the class
-- and member rows and checked booking_refusal / needs_payment; a plan booking is checked against
-- the plan's paid period once more here, whatever path made it, unless the caller says it has
-- just done exactly that under the same locks (p_plan_checked: book_class, where the plan's usage
-- is the costliest read made while every other booking of the class waits). Returns the booking id.
create function private.create_booking(
  p_member_id uuid,
  p_class_id uuid,
  p_type public.booking_type,
  -- A place held while its family's payment is made (21_families.sql): pending until then.
  p_hold_until timestamptz default null,
  p_family_payment_id uuid default null,
  p_plan_checked boolean default false
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking_id uuid;
  v_member public.members;
  v_class public.classes;
  v_refusal text;
begin
  if p_type = 'paid' and not p_plan_checked then
    select * into v_member from public.members where id = p_member_id;
    select * into v_class from public.classes where id = p_class_id;
    v_refusal := private.plan_class_refusal(v_member, v_class.start_time);
    if v_refusal is not null then
      perform private.raise_booking_refusal(v_refusal, v_class, v_member);
    end if;
  end if;

  insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at, family_payment_id)
  values (p_member_id, p_class_id, p_type, case when p_hold_until is null then 'completed' else 'pending' end::public.payment_status,
          p_hold_until, p_family_payment_id)
  returning id into v_booking_id;

  -- A held trial place uses the trial when its payment confirms it (settle_family_payment).
  if p_type = 'trial' and p_hold_until is null then
    perform private.use_free_trial(p_member_id);
  end if;
  return v_booking_id;
end;
$$;

revoke execute on function private.create_booking(uuid, uuid, public.booking_type, timestamptz, uuid, boolean) from public;

create or replace function private.book_class(p_class_id uuid, p_booking_type text)
returns public.booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_choice public.booking_type;
  v_refusal text;
  r public.booking_result;
begin
  perform private.require_user_id();
  v_choice := private.booking_type_choice(p_booking_type);

  perform private.release_expired_holds();

  v_member := private.require_member();

  -- Lock the class row: concurrent bookings of the last spots queue here.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  -- Then the member row, re-read: two bookings at once must not both use the one free trial.
  -- NO KEY UPDATE, not UPDATE: it still queues other bookings of this member, but not the
  -- key-share locks that inserts referencing the member take (see promote_waitlist).
  select * into v_member from public.members where id = v_member.id for no key update;

  -- The type first, once: it reads the plan's usage, the costliest part of a booking, while every
  -- other booking of this class waits on its row. The refusals given the type are those given the
  -- choice it came from (booking_refusal works the type out the same way when it is not given).
  r.booking_type := private.booking_type_for(v_member, v_choice);
  v_refusal := private.booking_refusal(v_member, v_class, r.booking_type);
  if v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;

  r.class_id := v_class.id;
  r.price_payg := v_class.price_payg;
  r.previous_tier := v_member.membership_tier;

  if private.needs_payment(r.booking_type, v_class) then
    -- Pay-as-you-go with the trial used: no booking here; the payments function holds a spot.
    r.status := 'payment_required';
    r.payment_status := 'pending';
    r.needs_payment := true;
    r.tier := v_member.membership_tier;
    r.trial_used := v_member.has_used_trial;
    r.spots_left := v_class.spots_left;
    return r;
  end if;

  -- booking_refusal has just checked a plan booking against its period, under these locks.
  r.booking_id := private.create_booking(v_member.id, v_class.id, r.booking_type, p_plan_checked => true);
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_id);
  select * into v_member from public.members where id = v_member.id;

  r.status := 'booked';
  r.payment_status := 'completed';
  r.needs_payment := false;
  r.tier := v_member.membership_tier;
  r.trial_used := v_member.has_used_trial;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.book_class(uuid, text) from public;
