-- Payments: what a member bought through the card provider, and the only ways that changes.
--
-- The Netlify functions (service role) are the only writers: they record a pending payment before
-- sending the member to the provider, and apply it only after the provider itself, asked by
-- checkout id, says it is paid. Members read their own rows (the return page). No client writes.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Table ------------------------------------------------------------------------------------------
create table public.payments (
  id uuid primary key default gen_random_uuid(),
  -- Kept when the member is deleted (the studio's accounts): the reference is cleared and the
  -- name and email billed stay on the row (decision 0010).
  member_id uuid references public.members (id) on delete set null,
  billed_name text,
  billed_email text,
  -- gift_voucher: a gift voucher bought by a member or a visitor (29_gift_vouchers.sql, decision 0100).
  kind text not null check (kind in ('plan', 'class', 'gift_voucher')),
  plan_slug text,
  -- The tier a paid plan grants (from the functions' plan table); null for training packages.
  grants_tier public.membership_tier check (grants_tier in ('standard', 'premium')),
  class_id uuid references public.classes (id) on delete set null,
  booking_id uuid references public.bookings (id) on delete set null,
  amount numeric(10, 2) not null check (amount > 0),
  currency text not null default 'GBP' check (currency = 'GBP'),
  description text not null,
  checkout_reference text not null unique check (char_length(checkout_reference) between 1 and 64),
  provider_checkout_id text unique,
  status public.checkout_status not null default 'pending',
  -- Paid for a class whose spot was no longer there (paid after the hold lapsed and the class
  -- filled): the studio owes a refund. Set only by apply_checkout_result.
  needs_refund boolean not null default false,
  created_at timestamptz not null default now(),
  paid_at timestamptz,
  -- "Complete payment" on a held spot: a member who left the card page goes back to the same
  -- provider checkout while the hold is valid (a provider refuses a second checkout with the same
  -- reference, and a new hold would release this one).
  checkout_url text
    constraint payments_checkout_url_http check (checkout_url ~ '^https?://' and char_length(checkout_url) <= 2048),
  -- A membership's charges are payments like any other (billing history, refunds), with what they
  -- pay for. References public.memberships (id) on delete set null: that constraint,
  -- payments_membership_id_fkey, is declared in 07_memberships.sql, after the table it points at.
  membership_id uuid,
  -- The membership period this charge pays for (set when it is created for a renewal, else when applied).
  period_number integer,
  -- hold_fee: a paused membership's monthly fee (25_membership_pauses.sql), not tied to a period.
  -- attendance_fee: a late-cancel or no-show fee (28_attendance_policy.sql), charged like it;
  -- waitlist_place: a pay-as-you-go place given from the waitlist, charged to the saved card.
  billing_reason text check (billing_reason in ('start', 'renewal', 'upgrade', 'hold_fee', 'attendance_fee', 'waitlist_place')),
  -- Charge attempts with the saved card, the last one that was applied as failed, and why.
  attempts integer not null default 0,
  failed_attempt integer,
  failure_reason text,
  last_attempt_at timestamptz,
  failed_at timestamptz,
  -- A charge in progress: nobody else charges this payment until then (two job runs at once).
  claimed_until timestamptz,
  -- A newer checkout of the same member replaced this one (one plan purchase in flight per member).
  superseded_by uuid references public.payments (id) on delete set null,
  -- Why a paid payment is owed back (set with needs_refund, by private.owe_payment_back).
  refund_reason text,
  -- An upgrade's charge is the new plan's price less this: what the member paid for the unused
  -- days of the period it replaces. The plan renews at amount + upgrade_credit.
  upgrade_credit numeric(10, 2) check (upgrade_credit > 0),
  -- Money off the catalogue price (28_offers.sql): a promo code, an intro offer (offer_uses says
  -- which) or a referral reward taken off a renewal. The amount is what is charged; a plan renews
  -- at amount + upgrade_credit + discount, never at the discounted price.
  discount numeric(10, 2) constraint payments_discount_positive check (discount > 0),
  -- A family's payment for several places (create_family_payment_hold, 21_families.sql): how many
  -- places it holds, paid or covered, and the price of each paid one (what one cancelled in time
  -- owes back).
  family_places integer constraint payments_family_places_range check (family_places between 1 and 50),
  family_unit_amount numeric(10, 2) constraint payments_family_unit_amount_positive check (family_unit_amount > 0),
  -- How the money is taken: the card provider, or a Direct Debit through GoCardless (decision 0076,
  -- 18_direct_debit.sql sets it when a collection is submitted). The reports split memberships by it.
  collected_by text not null default 'card' constraint payments_collected_by_check check (collected_by in ('card', 'direct_debit')),
  -- The part of the amount paid from the member's balance (29_gift_vouchers.sql, decision 0101): the
  -- card is charged amount - balance_used, and nothing when it is the whole amount. The amount stays
  -- the price of what was bought (revenue, credits' value and refunds count it).
  balance_used numeric(10, 2) constraint payments_balance_used_range check (balance_used > 0 and balance_used <= amount),
  constraint payments_family_fields check (
    (family_places is null) = (family_unit_amount is null) and (family_places is null or kind = 'class')
  ),
  constraint payments_kind_fields check (
    (kind = 'plan' and plan_slug is not null and class_id is null and booking_id is null)
    or (kind = 'class' and plan_slug is null and grants_tier is null)
    or (kind = 'gift_voucher' and plan_slug is null and grants_tier is null and class_id is null and booking_id is null)
  )
);

-- Triggers other domains add to public.payments: payments_grant_credits (09_credits.sql),
--  payments_send_receipt (10_notifications.sql), payments_guest_follow_booking (14_guests.sql),
--  payments_settle_guest_place (14_guests.sql), payments_take_renewal_reward and
--  payments_reward_referral (28_offers.sql), payments_issue_gift_voucher and payments_return_balance
--  (29_gift_vouchers.sql).

create index payments_member_id_idx on public.payments (member_id);

create index payments_booking_id_idx on public.payments (booking_id);

create index payments_class_id_idx on public.payments (class_id);

create index payments_membership_id_idx on public.payments (membership_id);

create index payments_superseded_by_idx on public.payments (superseded_by);

-- Revenue by paid day, and each member's plan payments, for the reports (19_reports.sql).
create index payments_paid_at_idx on public.payments (paid_at) where status = 'paid';

create index payments_member_paid_at_idx on public.payments (member_id, paid_at) where status = 'paid' and kind = 'plan';

-- The derived key: one renewal payment per membership period, so a retry, a concurrent run or a
-- replayed notification can never charge or extend twice.
create unique index payments_renewal_period_key on public.payments (membership_id, period_number)
  where billing_reason = 'renewal';

-- The derived key of an upgrade: one unpaid upgrade charge per membership period, so five clicks
-- at once (or five tabs) can make one charge only. A declined one can be tried again (failed).
create unique index payments_upgrade_in_flight_key on public.payments (membership_id, period_number)
  where billing_reason = 'upgrade' and status = 'pending';

create index payments_renewal_paid_idx on public.payments (paid_at) where billing_reason = 'renewal';

create index payments_renewal_failed_idx on public.payments (failed_at) where billing_reason = 'renewal';

comment on column public.payments.family_places is
  'A family''s payment for several places (create_family_payment_hold): how many places it holds, paid or covered.';

comment on column public.payments.family_unit_amount is
  'The price of each paid place of a family''s payment: what one of them cancelled in time owes back.';

comment on column public.payments.needs_refund is
  'Paid but not honoured: a refunds_owed row with refund_reason says why (private.owe_payment_back).';

comment on column public.payments.checkout_url is
  'The provider''s page for this checkout while it is pending (my_hold_checkout sends the member back to it).';

alter table public.payments enable row level security;

revoke all on public.payments from public, anon, authenticated;

grant select on public.payments to authenticated;

grant all on public.payments to service_role;

-- Who was billed, copied from the member when the payment is recorded.
create function private.payments_fill_billed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  select m.name, m.email::text into new.billed_name, new.billed_email from public.members m where m.id = new.member_id;
  return new;
end;
$$;

revoke execute on function private.payments_fill_billed() from public;

-- A pending booking that goes away (hold expired and released, or cancelled) ends its pending
-- payment: the checkout can no longer buy that hold. BEFORE DELETE so it runs while booking_id
-- still points at the row (the foreign key then sets it null).
create function private.payments_end_pending_on_booking_delete()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.payments
     set status = 'expired'
   where (id = old.family_payment_id or booking_id = old.id) and status = 'pending';
  return old;
end;
$$;

revoke execute on function private.payments_end_pending_on_booking_delete() from public;

-- Payment RPCs (private) ----------------------------------------------------------------------
-- A pending plan payment. The amount and tier come from the functions' plan table
-- (src/config/plans.ts), never from the browser.
create type public.plan_payment as (
  payment_id uuid,
  checkout_reference text,
  amount numeric,
  currency text,
  description text
);

-- Holds a spot for a pay-as-you-go member while they pay: a pending 'payg' booking that counts
-- towards spots_left until hold_expires_at, plus its pending payment. The class row is locked so
-- two members cannot both take the last spot. Refusals use book_class's codes and messages.
create type public.class_payment_hold as (
  payment_id uuid,
  booking_id uuid,
  checkout_reference text,
  amount numeric,
  currency text,
  description text,
  hold_expires_at timestamptz
);

create function private.create_class_payment_hold(
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
  v_cover numeric;
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

  -- The member's balance pays first (decision 0101, under the member's row lock); the answer's
  -- amount is what the card is charged, and a place the balance covers whole is booked now.
  v_cover := private.balance_cover(p_member_id, v_class.price_payg);
  insert into public.payments (member_id, kind, class_id, booking_id, amount, balance_used, description, checkout_reference)
  values (p_member_id, 'class', p_class_id, v_booking_id, v_class.price_payg, nullif(v_cover, 0),
          v_class.name || ' - PAYG Booking' || private.balance_label(v_cover), 'class-' || gen_random_uuid()::text)
  returning * into v_payment;
  perform private.spend_balance(v_payment);
  if v_cover = v_payment.amount then
    perform private.apply_paid_checkout(v_payment);
  end if;

  return (v_payment.id, v_booking_id, v_payment.checkout_reference, v_payment.amount - v_cover, v_payment.currency,
          v_payment.description, v_hold_until)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_class_payment_hold(uuid, uuid, integer, text) from public;

grant execute on function private.create_class_payment_hold(uuid, uuid, integer, text) to service_role;

-- The provider refused to create the checkout: the payment fails and its hold is released.
create function private.abandon_payment(p_checkout_reference text)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  select * into v_payment from public.payments where checkout_reference = p_checkout_reference for update;
  if not found or v_payment.status <> 'pending' then
    return;
  end if;
  update public.payments set status = 'failed' where id = v_payment.id;
  delete from public.bookings
   where (id = v_payment.booking_id or family_payment_id = v_payment.id) and payment_status = 'pending';
end;
$$;

revoke execute on function private.abandon_payment(text) from public;

grant execute on function private.abandon_payment(text) to service_role;

-- Applies what the provider said about a checkout, after the caller fetched it from the provider.
-- Idempotent: replays and retries of the same result change nothing.
create type public.checkout_result as (
  -- applied | already_applied | marked_failed | still_pending | unknown_reference | mismatch
  outcome text,
  payment_id uuid,
  status public.checkout_status
);

-- What a provider's PAID buys, for a payment still pending (apply_checkout_result locked it): a plan
-- payment is paid; a family's places are confirmed together (settle_family_payment); a class or
-- guest payment confirms its held place, or, when the hold lapsed, takes a place if the class
-- still has room (the guest's place follows its payment: payments_settle_guest_place). What
-- cannot be honoured is owed back. May raise a booking rule's refusal: the caller owes it back.
create function private.apply_paid_checkout(p_payment public.payments)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_booking_id uuid;
begin
  if p_payment.kind in ('plan', 'gift_voucher') then
    update public.payments set status = 'paid', paid_at = now() where id = p_payment.id;
    return;
  end if;
  if p_payment.family_places is not null then
    perform private.settle_family_payment(p_payment);
    return;
  end if;

  update public.bookings
     set payment_status = 'completed', hold_expires_at = null
   where id = p_payment.booking_id
  returning id into v_booking_id;

  if v_booking_id is null then
    select * into v_class from public.classes where id = p_payment.class_id for update;
    if found
       and v_class.start_time > now()
       and private.class_has_room(v_class)
       and not exists (select 1 from public.bookings
                        where member_id = p_payment.member_id and class_id = v_class.id and dependant_id is null) then
      -- The documents rule lets this one insert through (bookings_require_documents): the hold it
      -- replaces was admitted with them, and the money is already taken.
      perform private.admit('payment', p_payment.id);
      insert into public.bookings (member_id, class_id, type, payment_status)
      values (p_payment.member_id, v_class.id, 'payg', 'completed')
      returning id into v_booking_id;
      perform private.admit(null, null);
    end if;
  end if;

  if v_booking_id is null then
    perform private.owe_payment_back(p_payment.id, 'class_filled', now());
  else
    update public.payments set status = 'paid', paid_at = now(), booking_id = v_booking_id where id = p_payment.id;
  end if;
end;
$$;

revoke execute on function private.apply_paid_checkout(public.payments) from public;

-- Applies what the provider said about a checkout (fetched by id by the caller). Membership
-- payments go to apply_membership_charge. A class payment books the held spot (or a free one); a
-- family's payment for several places books all its held places or none (settle_family_payment); a
-- package payment is marked paid. A payment that cannot be honoured (the class filled, the
-- checkout was superseded, the member was removed) is recorded as paid and owed back.
create function private.apply_checkout_result(
  p_checkout_reference text,
  p_provider_checkout_id text,
  p_provider_status text,
  p_amount numeric,
  p_currency text
)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_result public.checkout_status;
  v_refusal text;
begin
  -- The member first, as removing a member locks it first (a removal and a payment arriving at
  -- once deadlocked): KEY SHARE only waits for a removal, never for the member's own bookings.
  perform 1 from public.members
   where id = (select p.member_id from public.payments p where p.checkout_reference = p_checkout_reference)
   for key share;
  select * into v_payment from public.payments where checkout_reference = p_checkout_reference for update;
  if not found then
    return ('unknown_reference', null, null)::public.checkout_result;
  end if;
  if v_payment.billing_reason is not null then
    return private.apply_membership_charge(p_checkout_reference, p_provider_checkout_id, p_provider_status,
                                           p_amount, p_currency, now());
  end if;

  if (v_payment.provider_checkout_id is not null and v_payment.provider_checkout_id <> p_provider_checkout_id)
     or p_amount is null or round(p_amount, 2) <> v_payment.amount - coalesce(v_payment.balance_used, 0)
     or p_currency is distinct from v_payment.currency then
    return ('mismatch', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  if v_payment.provider_checkout_id is null then
    update public.payments set provider_checkout_id = p_provider_checkout_id where id = v_payment.id;
  end if;

  if p_provider_status = 'PENDING' then
    return ('still_pending', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  if p_provider_status in ('FAILED', 'EXPIRED') then
    if v_payment.status <> 'pending' then
      return ('already_applied', v_payment.id, v_payment.status)::public.checkout_result;
    end if;
    v_result := case p_provider_status when 'FAILED' then 'failed' else 'expired' end::public.checkout_status;
    update public.payments set status = v_result where id = v_payment.id;
    delete from public.bookings
     where (id = v_payment.booking_id or family_payment_id = v_payment.id) and payment_status = 'pending';
    return ('marked_failed', v_payment.id, v_result)::public.checkout_result;
  end if;

  if p_provider_status <> 'PAID' then
    return ('mismatch', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  if v_payment.status = 'paid' then
    return ('already_applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  -- A visitor's gift voucher has no member (29_gift_vouchers.sql); any other payment without one
  -- lost its member to a removal.
  if v_payment.member_id is null and v_payment.kind <> 'gift_voucher' then
    perform private.owe_payment_back(v_payment.id, 'member_removed', now());
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;
  if v_payment.superseded_by is not null then
    perform private.owe_payment_back(v_payment.id, 'superseded_checkout', now());
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;
  -- Paid after its hold lapsed, when the balance part had come back: taken again if the member
  -- still has it, else the place is not honoured (decision 0101).
  if not private.take_balance_again(v_payment) then
    perform private.owe_payment_back(v_payment.id, 'booking_refused', now());
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  -- The money is taken whatever the booking rules say now: anything they refuse (the class filled
  -- with other places meanwhile, a rule the place no longer meets) is rolled back to here and owed
  -- back in this transaction (decision 0016), so the provider's notification is always answered.
  -- Lock waits and deadlocks are not refusals: the caller retries those.
  begin
    perform private.apply_paid_checkout(v_payment);
  exception
    when serialization_failure or deadlock_detected or lock_not_available then
      raise;
    when others then
      get stacked diagnostics v_refusal = pg_exception_hint;
      perform private.owe_payment_back(v_payment.id,
                                       case when v_refusal in ('capacity_below_bookings', 'class_full') then 'class_filled'
                                            else 'booking_refused' end,
                                       now());
  end;
  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

revoke execute on function private.apply_checkout_result(text, text, text, numeric, text) from public;

grant execute on function private.apply_checkout_result(text, text, text, numeric, text) to service_role;

create function public.create_class_payment_hold(
  p_member_id uuid, p_class_id uuid, p_hold_minutes integer, p_booking_type text default null
)
returns public.class_payment_hold
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_class_payment_hold(p_member_id, p_class_id, p_hold_minutes, p_booking_type) $$;

revoke execute on function public.create_class_payment_hold(uuid, uuid, integer, text) from public, anon, authenticated;

grant execute on function public.create_class_payment_hold(uuid, uuid, integer, text) to service_role;

create function public.abandon_payment(p_checkout_reference text)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.abandon_payment(p_checkout_reference) $$;

revoke execute on function public.abandon_payment(text) from public, anon, authenticated;

grant execute on function public.abandon_payment(text) to service_role;

create function public.apply_checkout_result(
  p_checkout_reference text, p_provider_checkout_id text, p_provider_status text, p_amount numeric, p_currency text
)
returns public.checkout_result
language sql volatile security invoker set search_path = ''
as $$
  select * from private.apply_checkout_result(p_checkout_reference, p_provider_checkout_id, p_provider_status,
                                              p_amount, p_currency)
$$;

revoke execute on function public.apply_checkout_result(text, text, text, numeric, text) from public, anon, authenticated;

grant execute on function public.apply_checkout_result(text, text, text, numeric, text) to service_role;

create function private.set_payment_checkout(p_checkout_reference text, p_provider_checkout_id text, p_checkout_url text)
returns void
language sql security definer set search_path = ''
as $$
  update public.payments
     set provider_checkout_id = p_provider_checkout_id, checkout_url = p_checkout_url
   where checkout_reference = p_checkout_reference and provider_checkout_id is null;
$$;

revoke execute on function private.set_payment_checkout(text, text, text) from public;

grant execute on function private.set_payment_checkout(text, text, text) to service_role;

create function public.set_payment_checkout(
  p_checkout_reference text, p_provider_checkout_id text, p_checkout_url text default null
)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.set_payment_checkout(p_checkout_reference, p_provider_checkout_id, p_checkout_url) $$;

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

create function public.my_hold_checkout(p_booking_id uuid)
returns text
language sql stable security invoker set search_path = ''
as $$ select private.my_hold_checkout(p_booking_id) $$;

revoke execute on function public.my_hold_checkout(uuid) from public, anon;

grant execute on function public.my_hold_checkout(uuid) to authenticated, service_role;

-- Records a paid payment that cannot be honoured: kept as paid for the accounts, flagged, and
-- listed under Refunds owed with its reason, once (the refund record is keyed by payment and reason).
create function private.owe_payment_back(p_payment_id uuid, p_reason text, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  update public.payments
     set status = 'paid', paid_at = coalesce(paid_at, p_now), needs_refund = true, refund_reason = p_reason,
         claimed_until = null
   where id = p_payment_id
  returning * into v_payment;
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time,
                                   amount, reason)
  select v_payment.id, m.id, coalesce(m.name, v_payment.billed_name),
         coalesce(m.email::text, v_payment.billed_email, ''), v_payment.description, c.start_time, v_payment.amount,
         p_reason
    from (select 1) one
    left join public.members m on m.id = v_payment.member_id
    left join public.classes c on c.id = v_payment.class_id
  on conflict (payment_id, reason, place_booking_id) do nothing;
end;
$$;

revoke execute on function private.owe_payment_back(uuid, text, timestamptz) from public;

-- One plan purchase in flight per member ----------------------------------------------------
-- Ends the member's other unpaid plan purchases (and their card-saving checkouts) in favour of
-- p_new: any payment that still arrives for one of them is owed back. The caller holds the
-- member row lock, so two tabs pressing Buy queue here.
create function private.supersede_plan_purchases(p_member_id uuid, p_new uuid)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  update public.payments
     set status = 'expired', superseded_by = p_new
   where member_id = p_member_id and id <> p_new and kind = 'plan' and status = 'pending'
     and coalesce(billing_reason, 'start') = 'start';
  update private.card_setups s
     set status = 'expired'
    from public.payments p
   where p.id = s.payment_id and p.superseded_by = p_new and s.status = 'pending';
end;
$$;

revoke execute on function private.supersede_plan_purchases(uuid, uuid) from public;

-- A package (or any plan paid once) at the catalogue's price, less a promo code's discount or at an
-- intro offer's price (private.offer_price, under the member's row lock and the code's), paid from
-- the member's balance first (offer_price says how much).
create function private.create_plan_payment(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_description text, p_promo_code text, p_intro_offer_id uuid
)
returns public.plan_payment
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, null);
  v_price public.offer_price;
  v_payment public.payments;
begin
  perform 1 from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.'
      using errcode = 'P0002', hint = 'member_not_found';
  end if;
  v_price := private.offer_price(p_member_id, v_plan, p_promo_code, p_intro_offer_id, now(), true);

  insert into public.payments (member_id, kind, plan_slug, amount, discount, balance_used, description, checkout_reference)
  values (p_member_id, 'plan', v_plan.slug, v_price.price, nullif(v_price.discount, 0), nullif(v_price.balance_used, 0),
          coalesce(p_description, private.plan_description(v_plan)) || coalesce(', ' || v_price.label, '')
            || private.balance_label(v_price.balance_used),
          'plan-' || gen_random_uuid()::text)
  returning * into v_payment;
  perform private.record_offer_use(v_payment, v_price);
  perform private.spend_balance(v_payment);
  perform private.supersede_plan_purchases(p_member_id, v_payment.id);
  -- Covered whole by the balance: paid now, without the card provider (decision 0101).
  if v_price.to_charge = 0 then
    perform private.apply_paid_checkout(v_payment);
  end if;

  -- The amount answered is what the card is charged (nothing when the balance paid it all).
  return (v_payment.id, v_payment.checkout_reference, v_price.to_charge, v_payment.currency,
          v_payment.description)::public.plan_payment;
end;
$$;

revoke execute on function private.create_plan_payment(uuid, text, numeric, text, text, uuid) from public;

grant execute on function private.create_plan_payment(uuid, text, numeric, text, text, uuid) to service_role;

-- The amount and description come from the catalogue (public.plans); an amount sent must match it.
-- A promo code or an intro offer is priced by the database (28_offers.sql), never by the caller.
create function public.create_plan_payment(
  p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_description text default null,
  p_promo_code text default null, p_intro_offer_id uuid default null
)
returns public.plan_payment
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_plan_payment(p_member_id, p_plan_slug, p_amount, p_description, p_promo_code, p_intro_offer_id) $$;

revoke execute on function public.create_plan_payment(uuid, text, numeric, text, text, uuid) from public, anon, authenticated;

grant execute on function public.create_plan_payment(uuid, text, numeric, text, text, uuid) to service_role;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own payments; admins read all"
  on public.payments for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create trigger payments_fill_billed
  before insert on public.payments
  for each row execute function private.payments_fill_billed();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger payments_end_pending_on_booking_delete
  before delete on public.bookings
  for each row execute function private.payments_end_pending_on_booking_delete();
