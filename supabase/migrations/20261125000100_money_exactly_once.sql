-- Money charged exactly once (issue 24, decision 0016): every payment that cannot be honoured
-- becomes a refund owed, one plan purchase is in flight per member, one upgrade charge can exist
-- per change, a plan gives its tier only once paid, plan bookings stay inside a paid (or paying)
-- period, the members table has one delete path, and Contact Us is limited per client and overall.
--
-- Replaced here (create or replace, same signatures): private.start_membership_checkout, private.claim_membership_charge,
-- private.apply_membership_charge, private.apply_checkout_result, private.start_membership_upgrade,
-- private.sync_member_from_membership, private.allowance_used, private.booking_refusal,
-- private.raise_booking_refusal, private.create_booking, private.my_plan_usage,
-- private.submit_contact_message.
-- Replaced with new signatures: public.begin_provider_refund and public.finish_provider_refund
-- (no caller's "now"), create_plan_payment (no tier), public.apply_card_setup (customer and token
-- default null).

-- Refunds owed: every reason a payment goes back -----------------------------------------------

alter table public.refunds_owed drop constraint refunds_owed_reason_check;
alter table public.refunds_owed add constraint refunds_owed_reason_check
  check (reason in ('admin_cancelled', 'class_deleted', 'timetable_regenerated', 'member_deleted',
                    -- A payment the studio could not honour when it arrived (see owe_payment_back).
                    'class_filled', 'duplicate_payment', 'superseded_checkout', 'member_removed', 'period_already_paid'));
comment on table public.refunds_owed is
  'Payments the studio owes back: what it removed after it was paid for, and payments it could not honour when they arrived.';

alter table public.payments
  -- A newer checkout of the same member replaced this one (one plan purchase in flight per member).
  add column superseded_by uuid references public.payments (id) on delete set null,
  -- Why a paid payment is owed back (set with needs_refund, by private.owe_payment_back).
  add column refund_reason text;
create index payments_superseded_by_idx on public.payments (superseded_by);
comment on column public.payments.needs_refund is
  'Paid but not honoured: a refunds_owed row with refund_reason says why (private.owe_payment_back).';

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
  on conflict (payment_id, reason) do nothing;
end;
$$;
revoke execute on function private.owe_payment_back(uuid, text, timestamptz) from public;

-- Payments flagged before this migration were invisible: each becomes a refund owed now.
do $$
declare
  v_payment public.payments;
begin
  for v_payment in select * from public.payments where needs_refund and status = 'paid' loop
    perform private.owe_payment_back(v_payment.id,
      case when v_payment.kind = 'class' then 'class_filled' else 'period_already_paid' end, v_payment.paid_at);
  end loop;
end;
$$;

-- One plan purchase in flight per member ------------------------------------------------------

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

-- A pending plan payment (a training package). The amount comes from the functions' plan table
-- (src/config/plans.ts), never from the browser. A plan that grants a tier is a membership and is
-- bought through start_membership_checkout, so this takes no tier any more (the old signature let
-- a one-off payment grant one without a membership). It supersedes the member's other unpaid plan
-- purchases.
drop function public.create_plan_payment(uuid, text, numeric, text, text);
drop function private.create_plan_payment(uuid, text, numeric, text, text);

create function private.create_plan_payment(p_member_id uuid, p_plan_slug text, p_amount numeric, p_description text)
returns public.plan_payment
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  perform 1 from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.'
      using errcode = 'P0002', hint = 'member_not_found';
  end if;

  insert into public.payments (member_id, kind, plan_slug, amount, description, checkout_reference)
  values (p_member_id, 'plan', p_plan_slug, p_amount, p_description, 'plan-' || gen_random_uuid()::text)
  returning * into v_payment;
  perform private.supersede_plan_purchases(p_member_id, v_payment.id);

  return (v_payment.id, v_payment.checkout_reference, v_payment.amount, v_payment.currency,
          v_payment.description)::public.plan_payment;
end;
$$;

create function public.create_plan_payment(p_member_id uuid, p_plan_slug text, p_amount numeric, p_description text)
returns public.plan_payment
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_plan_payment(p_member_id, p_plan_slug, p_amount, p_description) $$;

revoke execute on function private.create_plan_payment(uuid, text, numeric, text) from public;
grant execute on function private.create_plan_payment(uuid, text, numeric, text) to service_role;
revoke execute on function public.create_plan_payment(uuid, text, numeric, text) from public, anon, authenticated;
grant execute on function public.create_plan_payment(uuid, text, numeric, text) to service_role;

-- A declined or expired card-saving checkout carries no customer or token: the generated contract
-- types those arguments as optional (null) rather than required strings.
drop function public.apply_card_setup(text, text, text, numeric, text, text, text, timestamptz);
create function public.apply_card_setup(
  p_setup_reference text, p_provider_checkout_id text, p_provider_status text, p_amount numeric, p_currency text,
  p_customer_id text default null, p_token text default null, p_now timestamptz default now()
)
returns public.card_setup_result
language sql volatile security invoker set search_path = ''
as $$
  select * from private.apply_card_setup(p_setup_reference, p_provider_checkout_id, p_provider_status, p_amount,
                                         p_currency, p_customer_id, p_token, p_now)
$$;
revoke execute on function public.apply_card_setup(text, text, text, numeric, text, text, text, timestamptz)
  from public, anon, authenticated;
grant execute on function public.apply_card_setup(text, text, text, numeric, text, text, text, timestamptz) to service_role;

-- Buying a monthly plan: the first month's payment (charged once the card is saved) and its
-- card-saving checkout. The amount and tier come from the functions' plan table. A member whose
-- plan is running changes it on /membership instead. A second checkout (another tab) supersedes
-- the first: only the newest can be charged.
create or replace function private.start_membership_checkout(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz
)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  perform 1 from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if (private.running_membership(p_member_id)).id is not null then
    raise exception 'You already have a membership: upgrade or change it under My Membership.'
      using errcode = 'P0001', hint = 'membership_running';
  end if;
  insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference,
                               billing_reason, created_at)
  values (p_member_id, 'plan', p_plan_slug, p_grants_tier::public.membership_tier, p_amount, p_description,
          'plan-' || gen_random_uuid()::text, 'start', p_now)
  returning * into v_payment;
  perform private.supersede_plan_purchases(p_member_id, v_payment.id);
  return private.new_card_setup(v_payment, p_now);
end;
$$;

-- The member's membership while it runs (active, past due, or cancelled but not yet over), else null.
create function private.running_membership(p_member_id uuid)
returns public.memberships
language sql stable security definer set search_path = ''
as $$
  select * from public.memberships
   where member_id = p_member_id and ended_at is null and status in ('active', 'past_due', 'cancelled')
$$;
revoke execute on function private.running_membership(uuid) from public;

-- Why a membership payment must not be charged now, or null: superseded by a newer checkout, or a
-- first month whose member already has a running plan (another tab's checkout was paid first).
create function private.charge_not_allowed(p_payment public.payments)
returns text
language sql stable security definer set search_path = ''
as $$
  select case
    when p_payment.superseded_by is not null then 'superseded_checkout'
    when p_payment.member_id is null then 'member_removed'
    when p_payment.billing_reason = 'start' and exists (
      select 1 from public.memberships ms
       where ms.member_id = p_payment.member_id and ms.ended_at is null
         and ms.status in ('active', 'past_due', 'cancelled')
         and ms.period_number >= ms.anchor_period) then 'duplicate_payment'
  end
$$;
revoke execute on function private.charge_not_allowed(public.payments) from public;

-- Takes one unpaid membership payment for charging as of p_now: one more attempt, and nobody else
-- charges it for charge_claim_length(). Returns null when it is paid, someone is charging it, or
-- it must not be charged at all (charge_not_allowed: it is expired then, and never charged).
create or replace function private.claim_membership_charge(p_checkout_reference text, p_now timestamptz)
returns public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_card private.member_cards;
  r public.membership_charge;
begin
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null
   for update;
  if not found or v_payment.status = 'paid' or v_payment.claimed_until > p_now then
    return null;
  end if;
  if private.charge_not_allowed(v_payment) is not null then
    update public.payments set status = 'expired' where id = v_payment.id and status = 'pending';
    return null;
  end if;
  update public.payments
     set attempts = attempts + 1, last_attempt_at = p_now, claimed_until = p_now + private.charge_claim_length()
   where id = v_payment.id
  returning * into v_payment;
  select * into v_card from private.member_cards where member_id = v_payment.member_id;
  r.checkout_reference := v_payment.checkout_reference;
  r.amount := v_payment.amount;
  r.currency := v_payment.currency;
  r.description := v_payment.description;
  r.billing_reason := v_payment.billing_reason;
  r.member_id := v_payment.member_id;
  r.customer_id := coalesce(v_card.customer_id, private.provider_customer_id(v_payment.member_id));
  r.card_token := v_card.token;
  r.provider_checkout_id := v_payment.provider_checkout_id;
  r.attempt := v_payment.attempts;
  return r;
end;
$$;

-- Applies a verified PAID charge (the caller fetched the checkout from the provider). Idempotent:
-- a replay answers already_applied. A renewal extends the period by one calendar month; a start or
-- upgrade starts a new period now. A charge that cannot be honoured (a period the membership has
-- moved past, a superseded checkout, a second first month, a removed member) is kept as paid and
-- owed back, never applied twice.
create or replace function private.apply_membership_charge(
  p_checkout_reference text, p_provider_checkout_id text, p_provider_status text, p_amount numeric, p_currency text,
  p_now timestamptz
)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_m public.memberships;
  v_next integer;
  v_refusal text;
begin
  -- Two charges of one member are applied one after the other (two first months must not both
  -- start a period); an advisory lock, so the lock order of every membership change stays the
  -- membership, then its payment, then the member.
  perform pg_advisory_xact_lock(hashtextextended(
    'membership-charge:' || coalesce((select p.member_id::text from public.payments p where p.checkout_reference = p_checkout_reference), ''), 0));
  select * into v_m from public.memberships
   where member_id = (select p.member_id from public.payments p where p.checkout_reference = p_checkout_reference)
   for update;
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null
   for update;
  if not found then
    return ('unknown_reference', null, null)::public.checkout_result;
  end if;
  if (v_payment.provider_checkout_id is not null and v_payment.provider_checkout_id <> p_provider_checkout_id)
     or p_amount is null or round(p_amount, 2) <> v_payment.amount or p_currency is distinct from v_payment.currency then
    return ('mismatch', v_payment.id, v_payment.status)::public.checkout_result;
  end if;
  if v_payment.provider_checkout_id is null then
    update public.payments set provider_checkout_id = p_provider_checkout_id where id = v_payment.id;
  end if;
  if v_payment.status = 'paid' then
    return ('already_applied', v_payment.id, 'paid')::public.checkout_result;
  end if;
  -- Failures are applied only by the attempt that made them (fail_membership_charge), so a replayed
  -- notification of an old decline cannot count as a new one.
  if p_provider_status <> 'PAID' then
    return ('still_pending', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  v_refusal := private.charge_not_allowed(v_payment);
  if v_refusal is null and v_payment.billing_reason in ('renewal', 'upgrade')
     and (v_m.id is null or v_m.id is distinct from v_payment.membership_id or v_m.ended_at is not null
          or v_payment.period_number <> v_m.period_number + 1) then
    v_refusal := 'period_already_paid';
  end if;
  if v_refusal is not null then
    perform private.owe_payment_back(v_payment.id, v_refusal, p_now);
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.billing_reason = 'renewal' then
    v_next := v_m.period_number + 1;
    update public.memberships
       set period_number = v_next,
           period_start = v_m.period_end,
           period_end = private.months_after(v_m.anchor_at, v_next - v_m.anchor_period + 1),
           plan_slug = v_payment.plan_slug, tier = v_payment.grants_tier, price = v_payment.amount,
           next_plan_slug = null, next_tier = null, next_price = null,
           status = 'active', renews = true, retry_count = 0, next_retry_at = null, updated_at = p_now
     where id = v_m.id
    returning * into v_m;
  else
    -- start or upgrade: a new period starts now (a trial or ended membership becomes this plan).
    v_next := coalesce(v_m.period_number, 0) + 1;
    insert into public.memberships as ms (member_id, plan_slug, tier, status, price, period_number, period_start,
                                          period_end, anchor_at, anchor_period, renews, updated_at)
    values (v_payment.member_id, v_payment.plan_slug, v_payment.grants_tier, 'active', v_payment.amount, v_next, p_now,
            private.months_after(p_now, 1), p_now, v_next, true, p_now)
    on conflict (member_id) do update
      set plan_slug = excluded.plan_slug, tier = excluded.tier, status = 'active', price = excluded.price,
          period_number = excluded.period_number, period_start = excluded.period_start,
          period_end = excluded.period_end, anchor_at = excluded.anchor_at, anchor_period = excluded.anchor_period,
          renews = true, ended_at = null, next_plan_slug = null, next_tier = null, next_price = null,
          retry_count = 0, next_retry_at = null, updated_at = p_now
      where ms.member_id = excluded.member_id
    returning * into v_m;
  end if;

  update public.payments
     set status = 'paid', paid_at = p_now, membership_id = v_m.id, period_number = v_next, claimed_until = null
   where id = v_payment.id;
  perform private.sync_member_from_membership(v_m);

  if v_payment.billing_reason = 'renewal' then
    perform private.enqueue_membership_email('renewal_receipt', v_m.member_id,
      'Receipt: your ' || private.plan_name(v_m.plan_slug) || ' membership renewed',
      array['Thank you: we charged ' || private.gbp(v_payment.amount) || ' to your saved card for '
              || v_payment.description || '.',
            'Your next renewal is on ' || private.london_date_text(v_m.period_end) || '.'],
      jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
      'renewal_receipt:' || v_payment.id);
  end if;
  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

-- Applies what the provider said about a checkout (fetched by id by the caller). Membership
-- payments go to apply_membership_charge. A class payment books the held spot (or a free one); a
-- package payment is marked paid. A payment that cannot be honoured (the class filled, the
-- checkout was superseded, the member was removed) is recorded as paid and owed back.
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
  v_class public.classes;
  v_booking_id uuid;
  v_result public.checkout_status;
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
     or p_amount is null or round(p_amount, 2) <> v_payment.amount
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
    delete from public.bookings where id = v_payment.booking_id and payment_status = 'pending';
    return ('marked_failed', v_payment.id, v_result)::public.checkout_result;
  end if;

  if p_provider_status <> 'PAID' then
    return ('mismatch', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  if v_payment.status = 'paid' then
    return ('already_applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.member_id is null then
    perform private.owe_payment_back(v_payment.id, 'member_removed', now());
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;
  if v_payment.superseded_by is not null then
    perform private.owe_payment_back(v_payment.id, 'superseded_checkout', now());
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.kind = 'plan' then
    update public.payments set status = 'paid', paid_at = now() where id = v_payment.id;
  else
    update public.bookings
       set payment_status = 'completed', hold_expires_at = null
     where id = v_payment.booking_id
    returning id into v_booking_id;

    if v_booking_id is null then
      select * into v_class from public.classes where id = v_payment.class_id for update;
      if found
         and v_class.start_time > now()
         and (select count(*) from public.bookings where class_id = v_class.id) < v_class.capacity
         and not exists (select 1 from public.bookings where member_id = v_payment.member_id and class_id = v_class.id) then
        insert into public.bookings (member_id, class_id, type, payment_status)
        values (v_payment.member_id, v_class.id, 'payg', 'completed')
        returning id into v_booking_id;
      end if;
    end if;

    if v_booking_id is null then
      perform private.owe_payment_back(v_payment.id, 'class_filled', now());
    else
      update public.payments set status = 'paid', paid_at = now(), booking_id = v_booking_id where id = v_payment.id;
    end if;
  end if;

  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

-- One upgrade charge per change ----------------------------------------------------------------

-- Upgrades in flight before this migration: the newest of each period stays, the others end.
update public.payments p
   set status = 'expired'
 where p.billing_reason = 'upgrade' and p.status = 'pending'
   and exists (select 1 from public.payments q
                where q.membership_id = p.membership_id and q.period_number = p.period_number
                  and q.billing_reason = 'upgrade' and q.status = 'pending'
                  and (q.created_at, q.id) > (p.created_at, p.id));

-- The derived key of an upgrade: one unpaid upgrade charge per membership period, so five clicks
-- at once (or five tabs) can make one charge only. A declined one can be tried again (failed).
create unique index payments_upgrade_in_flight_key on public.payments (membership_id, period_number)
  where billing_reason = 'upgrade' and status = 'pending';

-- Upgrade now (Standard to Platinum Premium): the charge of a new period starting now, at the
-- plan table's price; applied like any membership charge once verified. An upgrade already in
-- flight for this period is answered with its own reference (its charge is claimed once).
create or replace function private.start_membership_upgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz
)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_reference text;
begin
  select * into v_m from public.memberships where member_id = p_member_id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'cancelled') then
    raise exception 'Only a running membership can be upgraded.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if v_m.tier = p_grants_tier::public.membership_tier then
    raise exception 'You are already on this plan.' using errcode = 'P0001', hint = 'same_plan';
  end if;
  if v_m.tier <> 'standard' or p_grants_tier <> 'premium' then
    raise exception 'Only Standard can be upgraded to Platinum Premium.' using errcode = 'P0001', hint = 'not_an_upgrade';
  end if;
  if not exists (select 1 from private.member_cards where member_id = p_member_id) then
    raise exception 'There is no saved card: choose the plan again to save one.' using errcode = 'P0001', hint = 'no_card';
  end if;
  select checkout_reference into v_reference from public.payments
   where membership_id = v_m.id and period_number = v_m.period_number + 1
     and billing_reason = 'upgrade' and status = 'pending';
  if found then
    return v_reference;
  end if;
  -- Derived from the membership, the period and the try (a declined upgrade may be tried again).
  v_reference := 'upgrade-' || v_m.id::text || '-' || (v_m.period_number + 1)::text || '-'
                 || (1 + (select count(*) from public.payments
                           where membership_id = v_m.id and period_number = v_m.period_number + 1
                             and billing_reason = 'upgrade'))::text;
  insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference,
                               membership_id, period_number, billing_reason, created_at)
  values (p_member_id, 'plan', p_plan_slug, p_grants_tier::public.membership_tier, p_amount, p_description, v_reference,
          v_m.id, v_m.period_number + 1, 'upgrade', p_now);
  return v_reference;
end;
$$;

-- A plan gives its tier once paid -----------------------------------------------------------------

-- True once at least one period of this run of the membership is paid (an admin's put-on-plan
-- starts unpaid: anchor_period is the period its first charge pays for).
create function private.membership_paid(p_membership public.memberships)
returns boolean
language sql immutable set search_path = ''
as $$ select p_membership.period_number >= p_membership.anchor_period $$;
revoke execute on function private.membership_paid(public.memberships) from public;

-- members.membership_tier, plan_renews_at and the trial fields follow the membership: a running
-- plan grants its tier from its first successful payment, a running trial the trial tier, anything
-- ended or unpaid pay-as-you-go. Ending a plan or trial never gives the free trial back.
create or replace function private.sync_member_from_membership(p_membership public.memberships)
returns void
language sql security definer set search_path = ''
as $$
  update public.members m
     set membership_tier = case
           when p_membership.ended_at is not null then 'payg'
           when p_membership.status = 'trialing' then p_membership.tier
           when private.membership_paid(p_membership) then p_membership.tier
           else 'payg' end,
         plan_renews_at = case
           when p_membership.ended_at is null and p_membership.status <> 'trialing' then p_membership.period_end end,
         trial_expires_at = case
           when p_membership.ended_at is null and p_membership.status = 'trialing' then p_membership.period_end end,
         has_used_trial = m.has_used_trial or p_membership.status <> 'trialing' or p_membership.ended_at is not null
   where m.id = p_membership.member_id;
$$;

-- Members put on a plan who were never charged lose the tier they were given at once.
do $$
declare
  v_m public.memberships;
begin
  for v_m in select * from public.memberships where ended_at is null and status <> 'trialing' and not private.membership_paid(memberships) loop
    perform private.sync_member_from_membership(v_m);
  end loop;
end;
$$;

-- Plan bookings inside a paid (or paying) period ------------------------------------------------

-- The membership period a plan class starting at p_at would be paid by, or null when the member's
-- plan does not cover it: the current period, or for a renewing plan (active or past due, being
-- charged) the next one. Members without a membership row keep the calendar month (see allowance_used).
create function private.plan_period_of(p_membership public.memberships, p_at timestamptz)
returns tstzrange
language sql stable set search_path = ''
as $$
  select case
    when p_membership.id is null or p_membership.ended_at is not null or not private.membership_paid(p_membership)
         or p_membership.status not in ('active', 'past_due', 'cancelled') then null
    when p_at < p_membership.period_end then tstzrange(p_membership.period_start, p_membership.period_end)
    when p_membership.renews
         and p_at < private.months_after(p_membership.anchor_at, p_membership.period_number - p_membership.anchor_period + 2)
      then tstzrange(p_membership.period_end,
                     private.months_after(p_membership.anchor_at, p_membership.period_number - p_membership.anchor_period + 2))
  end
$$;

-- Classes a plan has paid for in one allowance window: 'paid' bookings of classes starting in it
-- plus the late cancellations of such bookings (decision 0005: a late cancellation still counts).
create function private.plan_classes_in(p_member_id uuid, p_window tstzrange)
returns integer
language sql stable security definer set search_path = ''
as $$
  select (select count(*)::int from public.bookings b join public.classes c on c.id = b.class_id
           where b.member_id = p_member_id and b.type = 'paid' and c.start_time <@ p_window)
       + (select count(*)::int from public.late_cancellations l
           where l.member_id = p_member_id and l.booking_type = 'paid' and l.class_start_time <@ p_window)
$$;

-- Classes this member's plan has paid for in the period that p_at falls in (one paid period
-- gives one allowance, whatever calendar months it spans). A member with a plan tier but no plan
-- membership (set by hand, as test fixtures do) counts bookings made this calendar month, as before.
create or replace function private.allowance_used(p_member_id uuid, p_at timestamptz)
returns integer
language sql stable security definer set search_path = ''
as $$
  select case
    when ms.id is null then
      (select count(*)::int from public.bookings b
        where b.member_id = p_member_id and b.type = 'paid' and b.booked_at >= private.allowance_month_start(p_at))
      + (select count(*)::int from public.late_cancellations l
          where l.member_id = p_member_id and l.booking_type = 'paid' and l.booked_at >= private.allowance_month_start(p_at))
    else coalesce(private.plan_classes_in(p_member_id, private.plan_period_of(ms, p_at)), 0)
  end
  from (select 1) one
  left join public.memberships ms on ms.member_id = p_member_id and ms.tier <> 'trial'
$$;

-- Why this member's plan cannot pay for a class starting at p_class_start, or null:
-- outside_plan_period (after the plan's last paid or paying day) or allowance_used (that
-- period's classes are used).
create function private.plan_class_refusal(p_member public.members, p_class_start timestamptz)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_window tstzrange;
begin
  if private.plan_allowance(p_member.membership_tier) is null then
    return 'plan_required';
  end if;
  select * into v_m from public.memberships where member_id = p_member.id and tier <> 'trial';
  if not found then
    return case when private.allowance_used(p_member.id, now()) >= private.plan_allowance(p_member.membership_tier)
                then 'allowance_used' end;
  end if;
  v_window := private.plan_period_of(v_m, p_class_start);
  if v_window is null then
    return 'outside_plan_period';
  end if;
  if private.plan_classes_in(p_member.id, v_window) >= private.plan_allowance(p_member.membership_tier) then
    return 'allowance_used';
  end if;
  return null;
end;
$$;

-- The last instant the member's plan pays for (the end of the paid period, or of the period being
-- charged for a renewing plan), or null.
create function private.plan_covers_until(p_member_id uuid)
returns timestamptz
language sql stable security definer set search_path = ''
as $$
  select case when ms.renews then private.months_after(ms.anchor_at, ms.period_number - ms.anchor_period + 2)
              else ms.period_end end
    from public.memberships ms
   where ms.member_id = p_member_id and ms.ended_at is null and private.membership_paid(ms)
$$;

revoke execute on function private.plan_period_of(public.memberships, timestamptz), private.plan_classes_in(uuid, tstzrange),
  private.plan_class_refusal(public.members, timestamptz), private.plan_covers_until(uuid) from public;

-- The first reason (a book_class hint) this member may not book this class now, or null. In the
-- contract's order: class_started, already_booked, class_locked, class_full, then the booking
-- type's (trial_unavailable, plan_required, allowance_used, outside_plan_period).
-- `p_class` must be the freshly locked row (its spots_left is read).
create or replace function private.booking_refusal(
  p_member public.members, p_class public.classes, p_booking_type public.booking_type
)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  if p_class.start_time <= now() then
    return 'class_started';
  end if;
  if exists (select 1 from public.bookings b where b.member_id = p_member.id and b.class_id = p_class.id) then
    return 'already_booked';
  end if;
  if private.is_class_locked(p_member.membership_tier, p_class.is_premium, p_class.start_time,
                             p_class.unlock_for_standard, now()) then
    return 'class_locked';
  end if;
  if p_class.spots_left <= 0 then
    return 'class_full';
  end if;
  -- A plan booking is checked against the period the class falls in (not only this one's usage).
  if coalesce(p_booking_type, private.booking_type_for(p_member, null)) = 'paid' then
    return private.plan_class_refusal(p_member, p_class.start_time);
  end if;
  return private.booking_type_refusal(p_member, p_booking_type);
end;
$$;

-- Raises the refusal `p_hint` with the contract's SQLSTATE and message.
create or replace function private.raise_booking_refusal(p_hint text, p_class public.classes, p_member public.members)
returns void
language plpgsql volatile set search_path = ''
as $$
begin
  case p_hint
    when 'class_started' then
      raise exception 'This class has already started' using errcode = 'P0001', hint = p_hint;
    when 'already_booked' then
      raise exception 'You have already booked this class' using errcode = '23505', hint = p_hint;
    when 'class_locked' then
      raise exception 'This premium class opens for booking on %',
        to_char(private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard)
                  at time zone 'Europe/London', 'Mon FMDD, YYYY, FMHH12:MI AM')
        using errcode = 'P0001', hint = p_hint;
    when 'class_full' then
      raise exception 'This class is fully booked' using errcode = 'P0001', hint = p_hint;
    when 'trial_unavailable' then
      raise exception 'Your free trial has already been used' using errcode = 'P0001', hint = p_hint;
    when 'plan_required' then
      raise exception 'Member bookings are for Standard and Platinum Premium members' using errcode = 'P0001', hint = p_hint;
    when 'allowance_used' then
      raise exception 'You''ve used your % classes this month', private.plan_allowance(p_member.membership_tier)
        using errcode = 'P0001', hint = p_hint;
    when 'outside_plan_period' then
      raise exception 'Your plan covers classes until %: book this one as pay-as-you-go',
        coalesce(private.london_date_text(private.plan_covers_until(p_member.id)), 'its last day')
        using errcode = 'P0001', hint = p_hint;
    else
      raise exception 'Unknown booking refusal %', p_hint using errcode = 'XX000';
  end case;
end;
$$;

-- Inserts a confirmed booking and applies the trial transition. The caller has locked the class
-- and member rows and checked booking_refusal / needs_payment; a plan booking is checked against
-- the plan's paid period once more here, whatever path made it. Returns the booking id.
create or replace function private.create_booking(p_member_id uuid, p_class_id uuid, p_type public.booking_type)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking_id uuid;
  v_member public.members;
  v_class public.classes;
  v_refusal text;
begin
  if p_type = 'paid' then
    select * into v_member from public.members where id = p_member_id;
    select * into v_class from public.classes where id = p_class_id;
    v_refusal := private.plan_class_refusal(v_member, v_class.start_time);
    if v_refusal is not null then
      perform private.raise_booking_refusal(v_refusal, v_class, v_member);
    end if;
  end if;

  insert into public.bookings (member_id, class_id, type, payment_status)
  values (p_member_id, p_class_id, p_type, 'completed')
  returning id into v_booking_id;

  if p_type = 'trial' then
    update public.members
       set membership_tier = case when membership_tier = 'trial' then 'payg' else membership_tier end,
           has_used_trial = true,
           trial_expires_at = null
     where id = p_member_id;
  end if;
  return v_booking_id;
end;
$$;

-- The caller's usage in the current allowance window (the plan's paid period, or the calendar
-- month without a plan), the numbers book_class enforces: month_start (the window's start),
-- allowance (null without a plan), used, remaining, bookings (every booking made since the window
-- started, for pay-as-you-go meters), late_cancellations.
create or replace function private.my_plan_usage()
returns public.plan_usage
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_m public.memberships;
  r public.plan_usage;
begin
  select * into v_m from public.memberships where member_id = v_member.id and tier <> 'trial';
  r.month_start := coalesce(lower(private.plan_period_of(v_m, now())), private.allowance_month_start(now()));
  r.allowance := private.plan_allowance(v_member.membership_tier);
  r.used := private.allowance_used(v_member.id, now());
  r.remaining := greatest(r.allowance - r.used, 0);
  select count(*)::int into r.bookings from public.bookings
   where member_id = v_member.id and booked_at >= r.month_start;
  select count(*)::int into r.late_cancellations from public.late_cancellations
   where member_id = v_member.id and booked_at >= r.month_start;
  return r;
end;
$$;

-- Plan bookings follow the plan's end: when a membership ends, its plan bookings of classes after
-- the end go (their spots return, the waitlist promotes); the member was told their plan ended.
create function private.memberships_end_plan_bookings()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform set_config('app.booking_removal', 'member_cancelled', true);
  delete from public.bookings b
   using public.classes c
   where c.id = b.class_id and b.member_id = new.member_id and b.type = 'paid'
     and c.start_time >= new.ended_at and c.start_time > now();
  perform set_config('app.booking_removal', '', true);
  return null;
end;
$$;
revoke execute on function private.memberships_end_plan_bookings() from public;

create trigger memberships_end_plan_bookings
  after update of ended_at on public.memberships
  for each row when (old.ended_at is null and new.ended_at is not null and new.tier <> 'trial')
  execute function private.memberships_end_plan_bookings();

-- One way to remove a member ------------------------------------------------------------------

-- The table's delete policy let an admin delete a member through the API without the removal
-- rules (trial remembered, unused membership owed back): admin_delete_member is the only path.
drop policy "Admins delete members" on public.members;
revoke delete on public.members from authenticated;

-- What the delete-member function checks before it removes the login: the caller is an admin,
-- the member exists and is not the caller (ids compared as uuids, so case cannot slip past).
create function private.admin_member_removal_target(p_member_id uuid)
returns uuid
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members;
begin
  perform private.require_admin();
  select * into v_member from public.members where id = p_member_id;
  if not found then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_member.id = private.current_member_id() or v_member.user_id = (select auth.uid()) then
    raise exception 'You cannot delete your own account here' using errcode = 'P0001', hint = 'cannot_delete_self';
  end if;
  return v_member.user_id;
end;
$$;

create function public.admin_member_removal_target(p_member_id uuid)
returns uuid
language sql stable security invoker set search_path = ''
as $$ select private.admin_member_removal_target(p_member_id) $$;

revoke execute on function private.admin_member_removal_target(uuid) from public;
grant execute on function private.admin_member_removal_target(uuid) to authenticated, service_role;
revoke execute on function public.admin_member_removal_target(uuid) from public, anon;
grant execute on function public.admin_member_removal_target(uuid) to authenticated, service_role;

-- A removed member's open checkouts end: a payment that still arrives is recorded and owed back
-- (apply_checkout_result, member_removed).
create function private.members_end_open_checkouts()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.payments set status = 'expired' where member_id = old.id and status = 'pending';
  update private.card_setups set status = 'expired' where member_id = old.id and status = 'pending';
  return old;
end;
$$;
revoke execute on function private.members_end_open_checkouts() from public;

create trigger members_end_open_checkouts
  before delete on public.members
  for each row execute function private.members_end_open_checkouts();

-- Admin RPCs take the server's now ----------------------------------------------------------------

-- An admin's caller-chosen "now" could leave a refund claimed "in progress" for ever: the public
-- wrappers now use the server's clock; the private functions keep p_now for tests.
drop function public.begin_provider_refund(uuid, timestamptz);
drop function public.finish_provider_refund(uuid, text, text, text, timestamptz);

create function public.begin_provider_refund(p_refund_id uuid)
returns public.provider_refund_claim
language sql volatile security invoker set search_path = ''
as $$ select * from private.begin_provider_refund(p_refund_id, now()) $$;

create function public.finish_provider_refund(
  p_refund_id uuid, p_outcome text, p_provider_refund_id text default null, p_error text default null
)
returns public.refunds_owed
language sql volatile security invoker set search_path = ''
as $$ select * from private.finish_provider_refund(p_refund_id, p_outcome, p_provider_refund_id, p_error, now()) $$;

revoke execute on function public.begin_provider_refund(uuid), public.finish_provider_refund(uuid, text, text, text)
  from public, anon;
grant execute on function public.begin_provider_refund(uuid), public.finish_provider_refund(uuid, text, text, text)
  to authenticated, service_role;

-- Contact Us: limited per client and for the whole studio ----------------------------------------

-- Messages the whole studio may receive per window (every sender together): the SMTP quota is
-- shared with sign-up and reset emails, so a flood cannot use it up.
create function private.contact_studio_rate_limit()
returns integer
language sql immutable set search_path = ''
as $$ select 20 $$;

-- The client's address as the API gateway gives it (the first x-forwarded-for hop), or null
-- outside an API request (SQL run by the jobs or tests).
create function private.request_client_address()
returns text
language sql stable set search_path = ''
as $$
  select nullif(btrim(split_part(
           coalesce(nullif(current_setting('request.headers', true), '')::json ->> 'x-forwarded-for', ''), ',', 1)), '')
$$;

alter table public.contact_messages add column client_address text;
create index contact_messages_client_idx on public.contact_messages (client_address, created_at);
revoke execute on function private.contact_studio_rate_limit(), private.request_client_address() from public;

-- Stores a message and queues an email to the studio (reply-to the visitor) in one transaction.
-- A filled honeypot (p_website, a field people never see) answers exactly like a success but
-- stores and sends nothing, so a bot learns nothing. Limits: contact_rate_limit() per address and
-- per client in contact_rate_window(), contact_studio_rate_limit() for everyone together. The
-- address must be a plain mailbox (no mailto parameters such as ?cc= or &body=). Returns
-- a contact_receipt ('received').
create or replace function private.submit_contact_message(
  p_name text, p_email text, p_phone text, p_message text, p_topic text, p_website text, p_now timestamptz
)
returns public.contact_receipt
language plpgsql security definer set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_phone text := nullif(btrim(coalesce(p_phone, '')), '');
  v_message text := btrim(coalesce(p_message, ''));
  v_topic text := nullif(btrim(coalesce(p_topic, '')), '');
  v_client text := private.request_client_address();
  v_received public.contact_receipt := row('received')::public.contact_receipt;
begin
  if nullif(btrim(coalesce(p_website, '')), '') is not null then
    return v_received;
  end if;
  if v_name = '' then
    raise exception 'Name is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_email = '' then
    raise exception 'Email is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_email !~ '^[a-z0-9._+''-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$' or char_length(v_email) > 320 then
    raise exception 'Please enter a valid email address' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_message = '' then
    raise exception 'Message is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if char_length(v_name) > 200 or char_length(v_message) > 1500 or char_length(v_phone) > 40 or char_length(v_topic) > 200 then
    raise exception 'Your message is too long (at most 1500 characters)' using errcode = '22023', hint = 'invalid_contact';
  end if;

  -- One submission at a time: the counts below cannot both pass for two at once.
  perform pg_advisory_xact_lock(hashtextextended('contact_messages', 0));
  if (select count(*) from public.contact_messages c
       where (c.email = v_email::extensions.citext or c.client_address is not distinct from coalesce(v_client, '-'))
         and c.created_at > p_now - private.contact_rate_window() and c.created_at <= p_now) >= private.contact_rate_limit() then
    raise exception 'You have sent us several messages in the last hour. Please wait a little before sending another.'
      using errcode = 'P0001', hint = 'contact_rate_limited';
  end if;
  if (select count(*) from public.contact_messages c
       where c.created_at > p_now - private.contact_rate_window() and c.created_at <= p_now) >= private.contact_studio_rate_limit() then
    raise exception 'We are receiving a lot of messages right now. Please try again in a little while, or call us.'
      using errcode = 'P0001', hint = 'contact_rate_limited';
  end if;

  insert into public.contact_messages (name, email, phone, message, topic, created_at, client_address)
  values (v_name, v_email, v_phone, v_message, v_topic, p_now, v_client);

  insert into public.notification_outbox (kind, to_email, reply_to, subject, body_text, links, next_attempt_at)
  values (
    'contact_message',
    private.studio_email(),
    v_email,
    left('Contact Us: ' || coalesce(v_topic || ' enquiry', 'enquiry') || ' from ' || v_name, 300),
    concat_ws(E'\n\n',
      v_message,
      concat_ws(E'\n', 'Name: ' || v_name, 'Email: ' || v_email, 'Phone: ' || v_phone, 'About: ' || v_topic,
                'Sent: ' || private.london_time_text(p_now) || ' (London time)'),
      'Reply to this email to answer ' || v_name || '.'),
    jsonb_build_array(jsonb_build_object('label', 'Open Messages in the admin portal', 'path', '/admin/messages')),
    p_now
  );
  return v_received;
end;
$$;
