-- The member's balance pays a place given from the waitlist first (decision 0108).

create or replace function private.promote_paying(p_entry public.class_waitlist, p_class public.classes)
returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_booking_id uuid;
  v_payment public.payments;
  v_cover numeric;
begin
  -- The documents rule admits this one promotion (bookings_require_documents, private.admit).
  perform private.admit('waitlist', p_entry.id);
  v_booking_id := private.create_booking(p_entry.member_id, p_class.id, 'payg',
                                         least(now() + private.waitlist_place_hold(), p_class.start_time));
  perform private.admit(null, null);
  -- The member's balance pays first (decision 0108, the member's row is held): the card is charged
  -- the rest; a failed charge or a released place gives it back (payments_return_balance).
  v_cover := private.balance_cover(p_entry.member_id, p_entry.price);
  insert into public.payments (member_id, kind, class_id, booking_id, amount, balance_used, description, checkout_reference,
                               billing_reason)
  values (p_entry.member_id, 'class', p_class.id, v_booking_id, p_entry.price, nullif(v_cover, 0),
          p_class.name || ', ' || private.london_time_text(p_class.start_time) || ' (from the waitlist)'
            || private.balance_label(v_cover),
          'wait-' || p_entry.id::text, 'waitlist_place')
  returning * into v_payment;
  perform private.spend_balance(v_payment);
  -- Covered whole by the balance: the place is confirmed now, without the card.
  if v_cover = v_payment.amount then
    perform private.apply_waitlist_place(v_payment, now());
  end if;
  return v_booking_id;
end;
$$;

revoke execute on function private.promote_paying(public.class_waitlist, public.classes) from public;
