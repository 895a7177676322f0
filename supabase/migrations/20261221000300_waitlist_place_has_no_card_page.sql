-- "Complete payment" on a place given from the waitlist says the saved card is charged for it (decision 0081).
create or replace function private.my_hold_checkout(p_booking_id uuid)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_url text;
begin
  select p.checkout_url into v_url
    from public.bookings b
    join public.payments p on (p.id = b.family_payment_id or p.booking_id = b.id) and p.status = 'pending'
   where b.id = p_booking_id
     and b.member_id = private.current_member_id()
     and b.payment_status = 'pending'
     and b.hold_expires_at > now();
  -- A place given from the waitlist has no card page: the saved card is charged for it (decision 0081).
  if v_url is null and exists (
       select 1 from public.bookings b
         join public.payments p on p.booking_id = b.id and p.billing_reason = 'waitlist_place' and p.status = 'pending'
        where b.id = p_booking_id and b.member_id = private.current_member_id() and b.payment_status = 'pending') then
    raise exception 'This place from the waitlist is charged to your saved card shortly: there is nothing to pay here.'
      using errcode = 'P0001', hint = 'charged_to_saved_card';
  end if;
  if v_url is null then
    raise exception 'This payment has ended. Book the class again to pay for it.'
      using errcode = 'P0002', hint = 'hold_ended';
  end if;
  return v_url;
end;
$$;

revoke execute on function private.my_hold_checkout(uuid) from public;

grant execute on function private.my_hold_checkout(uuid) to authenticated, service_role;
