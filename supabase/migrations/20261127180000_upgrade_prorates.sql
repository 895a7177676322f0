-- An upgrade prorates (issue 31): it charges the new plan's price less what the member paid for the
-- unused days of the current period, says so on the payment (and so on its receipt), and the plan
-- then renews at its full price. public.my_upgrade_quote shows the figure before the member confirms.

alter table public.payments
  add column upgrade_credit numeric(10, 2) check (upgrade_credit > 0);

-- What an upgrade charges now (issue 31): the new plan's price less what the member paid for the
-- days of the current period they will not use, in whole London days (today counts as unused: the
-- new period starts now). A period not paid yet (an admin's put-on-plan) gives no credit.
create type public.upgrade_quote as (
  plan_slug text,
  plan_price numeric,
  current_plan_slug text,
  current_price numeric,
  unused_days integer,
  period_days integer,
  credit numeric,
  -- What is charged now: plan_price - credit.
  amount numeric
);

-- Refuses what cannot be upgraded (as start_membership_upgrade does, but for the saved card) and
-- prices the rest as of p_now.
create function private.upgrade_quote(p_m public.memberships, p_plan_slug text, p_now timestamptz)
returns public.upgrade_quote
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, null, null);
  v_today date := (p_now at time zone 'Europe/London')::date;
  v_start date := (p_m.period_start at time zone 'Europe/London')::date;
  v_end date := (p_m.period_end at time zone 'Europe/London')::date;
  r public.upgrade_quote;
begin
  if p_m.id is null or p_m.ended_at is not null or p_m.status not in ('active', 'cancelled') then
    raise exception 'Only a running membership can be upgraded.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if p_m.tier = v_plan.grants_tier then
    raise exception 'You are already on this plan.' using errcode = 'P0001', hint = 'same_plan';
  end if;
  if p_m.tier <> 'standard' or v_plan.grants_tier is distinct from 'premium' then
    raise exception 'Only Standard can be upgraded to Platinum Premium.' using errcode = 'P0001', hint = 'not_an_upgrade';
  end if;
  r.plan_slug := v_plan.slug;
  r.plan_price := v_plan.price;
  r.current_plan_slug := p_m.plan_slug;
  r.current_price := p_m.price;
  r.period_days := greatest(v_end - v_start, 1);
  r.unused_days := case when private.membership_paid(p_m) then least(greatest(v_end - v_today, 0), r.period_days) else 0 end;
  -- Never the whole price: a charge is at least 1p.
  r.credit := least(round(p_m.price * r.unused_days / r.period_days, 2), v_plan.price - 0.01);
  r.amount := v_plan.price - r.credit;
  return r;
end;
$$;

revoke execute on function private.upgrade_quote(public.memberships, text, timestamptz) from public;

-- The caller's upgrade to p_plan_slug as of p_now, for the screen to show before they confirm.
create function private.my_upgrade_quote(p_plan_slug text, p_now timestamptz)
returns public.upgrade_quote
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = (private.require_member()).id;
  return private.upgrade_quote(v_m, p_plan_slug, p_now);
end;
$$;

revoke execute on function private.my_upgrade_quote(text, timestamptz) from public;

grant execute on function private.my_upgrade_quote(text, timestamptz) to authenticated, service_role;

-- Upgrade now (Standard to Platinum Premium): the charge of a new period starting now, at the
-- plan table's price less the unused days of the current period (upgrade_quote); applied like
-- any membership charge once verified, after which the plan renews at its full price. An upgrade
-- already in flight for this period is answered with its own reference (its charge is claimed
-- once); one made on an earlier day, whose credit is out of date, is superseded if nobody is
-- charging it (a late payment of it is owed back, never applied).
create or replace function private.start_membership_upgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz
)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_m public.memberships;
  v_quote public.upgrade_quote;
  v_pending public.payments;
  v_reference text;
  v_id uuid;
begin
  select * into v_m from public.memberships where member_id = p_member_id for update;
  v_quote := private.upgrade_quote(v_m, v_plan.slug, p_now);
  if not exists (select 1 from private.member_cards where member_id = p_member_id) then
    raise exception 'There is no saved card: choose the plan again to save one.' using errcode = 'P0001', hint = 'no_card';
  end if;
  select * into v_pending from public.payments
   where membership_id = v_m.id and period_number = v_m.period_number + 1
     and billing_reason = 'upgrade' and status = 'pending'
   for update;
  if found then
    if v_pending.amount = v_quote.amount or v_pending.claimed_until > p_now then
      return v_pending.checkout_reference;
    end if;
    update public.payments set status = 'expired' where id = v_pending.id;
  end if;
  -- Derived from the membership, the period and the try (a declined upgrade may be tried again).
  v_reference := 'upgrade-' || v_m.id::text || '-' || (v_m.period_number + 1)::text || '-'
                 || (1 + (select count(*) from public.payments
                           where membership_id = v_m.id and period_number = v_m.period_number + 1
                             and billing_reason = 'upgrade'))::text;
  insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, upgrade_credit, description,
                               checkout_reference, membership_id, period_number, billing_reason, created_at)
  values (p_member_id, 'plan', v_plan.slug, v_plan.grants_tier, v_quote.amount, nullif(v_quote.credit, 0),
          coalesce(p_description, private.plan_description(v_plan))
            || case when v_quote.credit > 0 then
                 ', less ' || private.gbp(v_quote.credit) || ' for ' || v_quote.unused_days || ' unused day'
                   || case when v_quote.unused_days = 1 then '' else 's' end || ' of ' || private.plan_name(v_m.plan_slug)
               else '' end,
          v_reference, v_m.id, v_m.period_number + 1, 'upgrade', p_now)
  returning id into v_id;
  if v_pending.id is not null then
    update public.payments set superseded_by = v_id where id = v_pending.id;
  end if;
  return v_reference;
end;
$$;

revoke execute on function private.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) from public;

grant execute on function private.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) to service_role;

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
    values (v_payment.member_id, v_payment.plan_slug, v_payment.grants_tier, 'active',
            v_payment.amount + coalesce(v_payment.upgrade_credit, 0), v_next, p_now,
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

revoke execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) from public;

grant execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) to service_role;

create function public.my_upgrade_quote(p_plan_slug text)
returns public.upgrade_quote
language sql stable security invoker set search_path = ''
as $$ select * from private.my_upgrade_quote(p_plan_slug, now()) $$;

revoke execute on function public.my_upgrade_quote(text) from public, anon;

grant execute on function public.my_upgrade_quote(text) to authenticated, service_role;

