-- A comment in create_class_payment_hold cites its decision record, not the tracker's issue.

create or replace function private.create_class_payment_hold(
  p_member_id uuid,
  p_class_id uuid,
  p_hold_minutes integer,
  p_booking_type text
)
returns public.class_payment_hold
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_choice public.booking_type;
  v_refusal text;
  v_booking_id uuid;
  v_payment public.payments;
  v_hold_until timestamptz;
begin
  if p_hold_minutes is null or p_hold_minutes < 1 or p_hold_minutes > 120 then
    raise exception 'Hold length must be 1 to 120 minutes' using errcode = '22023', hint = 'invalid_hold';
  end if;
  v_choice := private.booking_type_choice(p_booking_type);

  -- Expired holds stop counting before we look at the spots.
  perform private.release_expired_holds();

  -- book_class's lock order: the class row, then the member row.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;

  -- One unpaid hold per member (decision 0010): starting another checkout releases the previous
  -- hold before this class is judged, so its spot is free again at once.
  delete from public.bookings
   where member_id = p_member_id and payment_status = 'pending' and class_id <> p_class_id;

  -- book_class's own rules decide; only a booking that must be paid by card is held here.
  v_refusal := private.booking_refusal(v_member, v_class, v_choice);
  if v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;
  if not private.needs_payment(private.booking_type_for(v_member, v_choice), v_class) then
    raise exception 'No payment is needed for this booking' using errcode = 'P0001', hint = 'payment_not_required';
  end if;

  v_hold_until := now() + make_interval(mins => p_hold_minutes);

  insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at)
  values (p_member_id, p_class_id, 'payg', 'pending', v_hold_until)
  returning id into v_booking_id;

  insert into public.payments (member_id, kind, class_id, booking_id, amount, description, checkout_reference)
  values (p_member_id, 'class', p_class_id, v_booking_id, v_class.price_payg,
          v_class.name || ' - PAYG Booking', 'class-' || gen_random_uuid()::text)
  returning * into v_payment;

  return (v_payment.id, v_booking_id, v_payment.checkout_reference, v_payment.amount, v_payment.currency,
          v_payment.description, v_hold_until)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_class_payment_hold(uuid, uuid, integer, text) from public;

grant execute on function private.create_class_payment_hold(uuid, uuid, integer, text) to service_role;
