-- "Complete payment" on a held spot (issue 14): a member who left the card page can go back to the
-- same provider checkout while their hold is valid, instead of starting a second one (a provider
-- refuses a second checkout with the same reference, and a new hold would release this one).
-- The checkout's page address is remembered beside its id when the checkout is created.

alter table public.payments
  add column checkout_url text
    constraint payments_checkout_url_http check (checkout_url ~ '^https?://' and char_length(checkout_url) <= 2048);

comment on column public.payments.checkout_url is
  'The provider''s page for this checkout while it is pending (my_hold_checkout sends the member back to it).';

-- Remembers which provider checkout (and page) belongs to a pending payment. Replaces the two-argument
-- version; callers that know no page address still call it with two arguments.
drop function public.set_payment_checkout(text, text);
drop function private.set_payment_checkout(text, text);

create function private.set_payment_checkout(p_checkout_reference text, p_provider_checkout_id text, p_checkout_url text)
returns void
language sql security definer set search_path = ''
as $$
  update public.payments
     set provider_checkout_id = p_provider_checkout_id, checkout_url = p_checkout_url
   where checkout_reference = p_checkout_reference and provider_checkout_id is null;
$$;

create function public.set_payment_checkout(
  p_checkout_reference text, p_provider_checkout_id text, p_checkout_url text default null
)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.set_payment_checkout(p_checkout_reference, p_provider_checkout_id, p_checkout_url) $$;

revoke execute on function private.set_payment_checkout(text, text, text) from public;
grant execute on function private.set_payment_checkout(text, text, text) to service_role;
revoke execute on function public.set_payment_checkout(text, text, text) from public, anon, authenticated;
grant execute on function public.set_payment_checkout(text, text, text) to service_role;

-- The checkout page of the caller's own unpaid hold, while the hold keeps the spot. Refused with
-- hold_ended once the hold lapsed, was released or paid (the screen then drops the row), and with
-- the same answer for a booking that is not the caller's (nothing to learn about other members).
create function private.my_hold_checkout(p_booking_id uuid)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_url text;
begin
  select p.checkout_url into v_url
    from public.bookings b
    join public.payments p on p.booking_id = b.id and p.status = 'pending'
   where b.id = p_booking_id
     and b.member_id = private.current_member_id()
     and b.payment_status = 'pending'
     and b.hold_expires_at > now();
  if v_url is null then
    raise exception 'This payment has ended. Book the class again to pay for it.'
      using errcode = 'P0002', hint = 'hold_ended';
  end if;
  return v_url;
end;
$$;

create function public.my_hold_checkout(p_booking_id uuid)
returns text
language sql stable security invoker set search_path = ''
as $$ select private.my_hold_checkout(p_booking_id) $$;

revoke execute on function private.my_hold_checkout(uuid) from public;
grant execute on function private.my_hold_checkout(uuid) to authenticated, service_role;
revoke execute on function public.my_hold_checkout(uuid) from public, anon;
grant execute on function public.my_hold_checkout(uuid) to authenticated, service_role;
