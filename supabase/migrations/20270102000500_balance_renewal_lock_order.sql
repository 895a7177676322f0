-- A renewal or first month the balance pays takes the member's charge lock first (decision 0108).

create or replace function private.claim_due_renewals(p_now timestamptz, p_limit integer)
returns setof public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_reference text;
  v_charge public.membership_charge;
  v_payment public.payments;
begin
  for v_m in
    select * from public.memberships ms
     where ms.ended_at is null and ms.renews
       and ((ms.status = 'active' and ms.period_end <= p_now) or (ms.status = 'past_due' and ms.next_retry_at <= p_now))
     order by ms.period_end, ms.id
     limit greatest(1, least(coalesce(p_limit, 50), 500))
     for update skip locked
  loop
    v_reference := 'renew-' || v_m.id::text || '-' || (v_m.period_number + 1)::text;
    -- A renewal the balance may pay (decision 0108) takes the member's charge lock first, without
    -- waiting: apply_membership_charge takes that lock before the membership, so one held elsewhere
    -- (a notification being applied) leaves this membership to the next run instead of deadlocking.
    continue when private.member_balance(v_m.member_id) > 0
                  and not exists (select 1 from public.payments p where p.checkout_reference = v_reference)
                  and not pg_try_advisory_xact_lock(hashtextextended('membership-charge:' || v_m.member_id::text, 0));
    insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference,
                                 membership_id, period_number, billing_reason, created_at)
    values (v_m.member_id, 'plan', coalesce(v_m.next_plan_slug, v_m.plan_slug), coalesce(v_m.next_tier, v_m.tier),
            coalesce(v_m.next_price, v_m.price),
            private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership, '
              || private.london_date_text(v_m.period_end) || ' to '
              || private.london_date_text(private.months_after(v_m.anchor_at, v_m.period_number + 2 - v_m.anchor_period)),
            v_reference, v_m.id, v_m.period_number + 1, 'renewal', p_now)
    on conflict (checkout_reference) do nothing
    returning * into v_payment;
    -- The member's balance pays first, once per period: only when the period's payment is new
    -- (decision 0108). All of it: paid now, without the card or Direct Debit.
    if found then
      v_payment := private.spend_balance_on_renewal(v_payment);
      if v_payment.balance_used = v_payment.amount then
        perform private.apply_membership_charge(v_reference, null, 'PAID', 0, v_payment.currency, p_now);
        continue;
      end if;
    end if;
    v_charge := private.claim_membership_charge(v_reference, p_now);
    if v_charge.checkout_reference is not null then
      return next v_charge;
    end if;
  end loop;
  -- Paused memberships' monthly hold fees are charged the same way (25_membership_pauses.sql).
  return query select * from private.claim_due_hold_fees(p_now);
  -- Late-cancel and no-show fees, and places given from a waitlist (28_attendance_policy.sql).
  return query select * from private.claim_due_attendance_fees(p_now);
  return query select * from private.claim_due_waitlist_places(p_now);
end;
$$;

revoke execute on function private.claim_due_renewals(timestamptz, integer) from public;

grant execute on function private.claim_due_renewals(timestamptz, integer) to service_role;

create or replace function private.start_membership_checkout(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz,
  p_promo_code text
)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_price public.offer_price;
  v_payment public.payments;
  v_member public.members;
  v_setup private.card_setups;
begin
  -- The member's charge lock before their row: a first month the balance pays is applied here
  -- (apply_membership_charge), which takes that lock, then the membership, then the member.
  perform pg_advisory_xact_lock(hashtextextended('membership-charge:' || p_member_id::text, 0));
  perform 1 from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_plan.grants_tier is null then
    raise exception '% is not a membership', v_plan.name using errcode = '22023', hint = 'not_a_membership';
  end if;
  if (private.running_membership(p_member_id)).id is not null then
    raise exception 'You already have a membership: upgrade or change it under My Membership.'
      using errcode = 'P0001', hint = 'membership_running';
  end if;
  v_price := private.offer_price(p_member_id, v_plan, p_promo_code, null, p_now, true);
  insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, discount, balance_used, description,
                               checkout_reference, billing_reason, created_at)
  values (p_member_id, 'plan', v_plan.slug, v_plan.grants_tier, v_price.price, nullif(v_price.discount, 0),
          nullif(v_price.balance_used, 0),
          coalesce(p_description, private.plan_description(v_plan)) || coalesce(', ' || v_price.label, '')
            || private.balance_label(v_price.balance_used),
          'plan-' || gen_random_uuid()::text, 'start', p_now)
  returning * into v_payment;
  perform private.record_offer_use(v_payment, v_price);
  perform private.spend_balance(v_payment);
  perform private.supersede_plan_purchases(p_member_id, v_payment.id);
  if v_price.to_charge > 0 then
    return private.new_card_setup(v_payment, p_now);
  end if;
  -- Paid in full by the balance: the membership starts now; the card is for the renewals.
  perform private.apply_membership_charge(v_payment.checkout_reference, null, 'PAID', 0, v_payment.currency, p_now);
  select * into v_member from public.members where id = p_member_id;
  insert into private.card_setups (member_id, payment_id, checkout_reference, amount, created_at)
  values (p_member_id, null, 'setup-' || gen_random_uuid()::text, v_plan.price, p_now)
  returning * into v_setup;
  return (null, v_setup.checkout_reference, v_setup.amount, 'GBP',
          'Card for your ' || v_plan.name || ' membership (nothing charged now)',
          private.provider_customer_id(p_member_id), v_member.email::text, v_member.name)::public.card_setup_checkout;
end;
$$;

revoke execute on function private.start_membership_checkout(uuid, text, numeric, text, text, timestamptz, text) from public;

grant execute on function private.start_membership_checkout(uuid, text, numeric, text, text, timestamptz, text) to service_role;
