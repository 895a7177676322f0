-- The member's balance pays packages and pay-as-you-go classes first (decision 0101).
alter table public.payments
  add column balance_used numeric(10, 2) constraint payments_balance_used_range check (balance_used > 0 and balance_used <= amount);

alter type public.offer_price add attribute balance_used numeric, add attribute to_charge numeric;

alter table public.balance_entries add column refund_id uuid;

drop index public.balance_entries_payment_key;

create index balance_entries_payment_idx on public.balance_entries (payment_id);

create unique index balance_entries_returned_key on public.balance_entries (payment_id) where kind = 'returned' and refund_id is null;

create unique index balance_entries_refund_key on public.balance_entries (refund_id) where refund_id is not null;

create function private.balance_held_by_open_purchases(p_member_id uuid)
returns numeric
language sql stable security definer set search_path = ''
as $$
  select coalesce(sum(p.balance_used), 0)
    from public.payments p
   where p.member_id = p_member_id and p.kind = 'plan' and p.status = 'pending' and p.balance_used is not null
     and coalesce(p.billing_reason, 'start') = 'start'
     and not exists (select 1 from public.balance_entries e where e.payment_id = p.id and e.kind = 'returned' and e.refund_id is null)
$$;

revoke execute on function private.balance_held_by_open_purchases(uuid) from public;

create function private.balance_cover_from(p_member_id uuid, p_available numeric, p_price numeric)
returns numeric
language sql immutable set search_path = ''
as $$
  select case when p_member_id is null or coalesce(p_available, 0) <= 0 then 0
              when p_available >= p_price then p_price
              else greatest(least(p_available, p_price - 1), 0) end
$$;

revoke execute on function private.balance_cover_from(uuid, numeric, numeric) from public;

create function private.balance_cover(p_member_id uuid, p_price numeric)
returns numeric
language sql stable security definer set search_path = ''
as $$ select private.balance_cover_from(p_member_id, private.member_balance(p_member_id), p_price) $$;

revoke execute on function private.balance_cover(uuid, numeric) from public;

create function private.balance_label(p_balance_used numeric)
returns text
language sql immutable set search_path = ''
as $$ select case when coalesce(p_balance_used, 0) > 0 then ', ' || private.gbp(p_balance_used) || ' from your balance' else '' end $$;

revoke execute on function private.balance_label(numeric) from public;

create function private.with_balance(p_price public.offer_price, p_member_id uuid, p_plan public.plans, p_lock boolean)
returns public.offer_price
language plpgsql volatile security definer set search_path = ''
as $$
declare
  r public.offer_price := p_price;
  v_available numeric;
begin
  if p_plan.billing_interval is not null then
    r.balance_used := 0;
  elsif p_lock then
    perform private.return_open_purchase_balance(p_member_id);
    r.balance_used := private.balance_cover(p_member_id, r.price);
  else
    v_available := private.member_balance(p_member_id) + private.balance_held_by_open_purchases(p_member_id);
    r.balance_used := private.balance_cover_from(p_member_id, v_available, r.price);
  end if;
  r.to_charge := r.price - r.balance_used;
  return r;
end;
$$;

revoke execute on function private.with_balance(public.offer_price, uuid, public.plans, boolean) from public;

create function private.spend_balance(p_payment public.payments)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.balance_entries (member_id, amount, kind, payment_id, description, created_at)
  select p_payment.member_id, -p_payment.balance_used, 'spent', p_payment.id, left(p_payment.description, 300), p_payment.created_at
   where p_payment.balance_used is not null and p_payment.member_id is not null
$$;

revoke execute on function private.spend_balance(public.payments) from public;

create function private.return_balance(p_payment public.payments, p_now timestamptz)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.balance_entries (member_id, amount, kind, payment_id, description, created_at)
  select p_payment.member_id, p_payment.balance_used, 'returned', p_payment.id,
         left('Not paid, given back: ' || p_payment.description, 300), p_now
   where p_payment.balance_used is not null and p_payment.member_id is not null
     and exists (select 1 from public.balance_entries e where e.payment_id = p_payment.id and e.kind = 'spent')
  on conflict (payment_id) where kind = 'returned' and refund_id is null do nothing
$$;

revoke execute on function private.return_balance(public.payments, timestamptz) from public;

create function private.return_open_purchase_balance(p_member_id uuid)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  for v_payment in
    select * from public.payments p
     where p.member_id = p_member_id and p.kind = 'plan' and p.status = 'pending' and p.balance_used is not null
       and coalesce(p.billing_reason, 'start') = 'start'
  loop
    perform private.return_balance(v_payment, now());
  end loop;
end;
$$;

revoke execute on function private.return_open_purchase_balance(uuid) from public;

create function private.take_balance_again(p_payment public.payments)
returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  if p_payment.balance_used is null or p_payment.member_id is null
     or coalesce((select sum(e.amount) from public.balance_entries e where e.payment_id = p_payment.id and e.refund_id is null), 0) < 0 then
    return true;
  end if;
  perform 1 from public.members where id = p_payment.member_id for no key update;
  if private.member_balance(p_payment.member_id) < p_payment.balance_used then
    return false;
  end if;
  insert into public.balance_entries (member_id, amount, kind, payment_id, description, created_at)
  values (p_payment.member_id, -p_payment.balance_used, 'spent', p_payment.id, left('Paid late, taken again: ' || p_payment.description, 300), now());
  return true;
end;
$$;

revoke execute on function private.take_balance_again(public.payments) from public;

create function private.payments_return_balance()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.return_balance(new, now());
  return null;
end;
$$;

revoke execute on function private.payments_return_balance() from public;

create function private.refunds_owed_return_balance()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_share numeric;
  v_back numeric;
begin
  select * into v_payment from public.payments where id = new.payment_id;
  if not found or v_payment.balance_used is null then
    return new;
  end if;
  -- A replay of a refund already recorded: the insert will do nothing, and neither does this.
  if exists (select 1 from public.refunds_owed r
              where r.payment_id = new.payment_id and r.reason = new.reason and r.place_booking_id is not distinct from new.place_booking_id) then
    return new;
  end if;
  v_share := least(round(new.amount * v_payment.balance_used / v_payment.amount, 2), new.amount);
  -- What the balance still has out for this payment (spent, less what came back).
  v_back := least(v_share, greatest(-coalesce((select sum(e.amount) from public.balance_entries e where e.payment_id = v_payment.id), 0), 0));
  if v_back > 0 and v_payment.member_id is not null then
    insert into public.balance_entries (member_id, amount, kind, payment_id, refund_id, description)
    values (v_payment.member_id, v_back, 'returned', v_payment.id, new.id, left('Refunded to your balance: ' || new.description, 300))
    on conflict do nothing;
  end if;
  new.amount := new.amount - v_share;
  if new.amount <= 0 then
    return null;
  end if;
  return new;
end;
$$;

revoke execute on function private.refunds_owed_return_balance() from public;

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

create or replace function private.apply_checkout_result(
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

create or replace function private.create_plan_payment(
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

create or replace function private.offer_price(
  p_member_id uuid, p_plan public.plans, p_promo_code text, p_intro_offer_id uuid, p_now timestamptz, p_lock boolean
)
returns public.offer_price
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_code text := private.normalised_code(p_promo_code);
  v_promo public.promo_codes;
  v_offer public.intro_offers;
  v_refusal text;
  r public.offer_price;
begin
  r.plan_slug := p_plan.slug;
  r.list_price := p_plan.price;
  r.discount := 0;
  if p_intro_offer_id is not null then
    if v_code is not null then
      raise exception 'A promo code cannot be used with an intro offer.' using errcode = '22023', hint = 'offer_not_combinable';
    end if;
    select * into v_offer from public.intro_offers where id = p_intro_offer_id;
    if not found or v_offer.plan_slug <> p_plan.slug then
      raise exception 'That intro offer is not for %.', p_plan.name using errcode = '22023', hint = 'offer_not_for_plan';
    end if;
    v_refusal := private.intro_offer_refusal(p_member_id, v_offer, p_now);
    if v_refusal is not null then
      raise exception '%', case v_refusal
        when 'offer_ended' then 'This intro offer has ended.'
        when 'intro_offer_used' then 'You have already had an intro offer: each person can have one.'
        when 'not_new_member' then 'Intro offers are for new members, and you have bought from the studio before.'
        else 'This intro offer is for your first ' || v_offer.new_within_days || ' days as a member.' end
        using errcode = 'P0001', hint = v_refusal;
    end if;
    r.intro_offer_id := v_offer.id;
    r.discount := greatest(p_plan.price - v_offer.price, 0);
    r.price := v_offer.price;
    r.label := 'intro offer ' || v_offer.name;
    return private.with_balance(r, p_member_id, p_plan, p_lock);
  end if;
  if v_code is null then
    r.price := p_plan.price;
    return private.with_balance(r, p_member_id, p_plan, p_lock);
  end if;

  if p_lock then
    select * into v_promo from public.promo_codes where code = v_code for update;
  else
    select * into v_promo from public.promo_codes where code = v_code;
  end if;
  if not found then
    raise exception 'There is no promo code %.', v_code using errcode = 'P0001', hint = 'promo_unknown';
  end if;
  if v_promo.ended_at is not null or v_promo.expires_at <= p_now then
    raise exception 'The promo code % has expired.', v_code using errcode = 'P0001', hint = 'promo_expired';
  end if;
  if not p_plan.slug = any (v_promo.plan_slugs) then
    raise exception 'The promo code % is not for %: it is for %.', v_code, p_plan.name,
      (select string_agg(pl.name, ', ' order by pl.price) from public.plans pl where pl.slug = any (v_promo.plan_slugs))
      using errcode = 'P0001', hint = 'promo_not_for_plan';
  end if;
  if exists (select 1 from public.offer_uses u join public.payments p on p.id = u.payment_id
              where u.promo_code_id = v_promo.id and u.member_id = p_member_id and private.offer_use_kept(p)) then
    raise exception 'You have already used the promo code %.', v_code using errcode = 'P0001', hint = 'promo_used';
  end if;
  -- Kept uses, and other people's checkouts still open (the member's own open one is superseded by
  -- this checkout: decision 0016's one plan purchase in flight).
  if (select count(*) from public.offer_uses u join public.payments p on p.id = u.payment_id
       where u.promo_code_id = v_promo.id
         and (private.offer_use_kept(p)
              or (p.status = 'pending' and p.superseded_by is null and p.member_id is distinct from p_member_id
                  and p.created_at > p_now - private.promo_hold_length()))) >= v_promo.max_uses then
    raise exception 'The promo code % has been used as often as it can be.', v_code using errcode = 'P0001', hint = 'promo_used_up';
  end if;
  r.promo_code_id := v_promo.id;
  -- The card provider needs something to charge: at least £1 is left to pay.
  r.discount := least(coalesce(v_promo.amount_off, round(p_plan.price * v_promo.percent_off / 100.0, 2)), p_plan.price - 1);
  r.price := p_plan.price - r.discount;
  r.label := 'promo code ' || v_code || ': ' || private.gbp(r.discount) || ' off';
  return private.with_balance(r, p_member_id, p_plan, p_lock);
end;
$$;

revoke execute on function private.offer_price(uuid, public.plans, text, uuid, timestamptz, boolean) from public;

create trigger payments_return_balance
  after update of status on public.payments
  for each row when (old.status = 'pending' and new.status in ('failed', 'expired') and new.balance_used is not null)
  execute function private.payments_return_balance();

create trigger refunds_owed_return_balance
  before insert on public.refunds_owed
  for each row execute function private.refunds_owed_return_balance();
