-- The member's balance pays a membership's first month and its renewals first (decision 0108).

create or replace function private.with_balance(p_price public.offer_price, p_member_id uuid, p_plan public.plans, p_lock boolean)
returns public.offer_price
language plpgsql volatile security definer set search_path = ''
as $$
declare
  r public.offer_price := p_price;
  v_available numeric;
begin
  if p_lock then
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

create or replace function private.payments_return_balance()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.billing_reason = 'renewal' and new.status = 'failed' then
    return null;
  end if;
  perform private.return_balance(new, now());
  return null;
end;
$$;

revoke execute on function private.payments_return_balance() from public;

create or replace function private.return_renewal_balance(p_membership_id uuid, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  for v_payment in
    select * from public.payments p
     where p.membership_id = p_membership_id and p.billing_reason = 'renewal' and p.status <> 'paid'
       and p.balance_used is not null
  loop
    perform private.return_balance(v_payment, p_now);
  end loop;
end;
$$;

revoke execute on function private.return_renewal_balance(uuid, timestamptz) from public;

create or replace function private.spend_balance_on_renewal(p_payment public.payments)
returns public.payments
language plpgsql security definer set search_path = ''
as $$
declare
  v_cover numeric;
  v_payment public.payments := p_payment;
begin
  if p_payment.member_id is null or p_payment.balance_used is not null then
    return v_payment;
  end if;
  perform 1 from public.members where id = p_payment.member_id for no key update;
  v_cover := private.balance_cover(p_payment.member_id, p_payment.amount);
  if v_cover <= 0 then
    return v_payment;
  end if;
  update public.payments
     set balance_used = v_cover, description = description || private.balance_label(v_cover)
   where id = p_payment.id
  returning * into v_payment;
  perform private.spend_balance(v_payment);
  return v_payment;
end;
$$;

revoke execute on function private.spend_balance_on_renewal(public.payments) from public;

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
  -- The card or Direct Debit is charged what the balance left (decision 0108).
  r.amount := v_payment.amount - coalesce(v_payment.balance_used, 0);
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

revoke execute on function private.claim_membership_charge(text, timestamptz) from public;

grant execute on function private.claim_membership_charge(text, timestamptz) to service_role;

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
     or p_amount is null or round(p_amount, 2) <> v_payment.amount - coalesce(v_payment.balance_used, 0)
     or p_currency is distinct from v_payment.currency then
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

  -- A pause's hold fee and an attendance fee pay for nothing but themselves: the membership does
  -- not change. An attendance fee waived while it was being charged is owed back.
  if v_payment.billing_reason in ('hold_fee', 'attendance_fee') then
    update public.payments set status = 'paid', paid_at = p_now, claimed_until = null where id = v_payment.id;
    if v_payment.billing_reason = 'attendance_fee' then
      perform private.attendance_fee_paid(v_payment.id, p_now);
    end if;
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;
  -- A place given from a waitlist is confirmed, or owed back when it is gone (28_attendance_policy.sql).
  if v_payment.billing_reason = 'waitlist_place' then
    perform private.apply_waitlist_place(v_payment, p_now);
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.billing_reason = 'renewal' then
    v_next := v_m.period_number + 1;
    update public.memberships
       set period_number = v_next,
           period_start = v_m.period_end,
           period_end = private.months_after(v_m.anchor_at, v_next - v_m.anchor_period + 1),
           plan_slug = v_payment.plan_slug, tier = v_payment.grants_tier,
           price = v_payment.amount + coalesce(v_payment.discount, 0),
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
            v_payment.amount + coalesce(v_payment.upgrade_credit, 0) + coalesce(v_payment.discount, 0), v_next, p_now,
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
      array[case when v_payment.balance_used = v_payment.amount
                   then 'Thank you: your balance paid the ' || private.gbp(v_payment.amount) || ' for ' || v_payment.description || '.'
                 else 'Thank you: we ' || case when v_payment.collected_by = 'direct_debit' then 'collected ' else 'charged ' end
              || private.gbp(v_payment.amount - coalesce(v_payment.balance_used, 0))
              || case when v_payment.collected_by = 'direct_debit' then ' by Direct Debit for ' else ' to your saved card for ' end
              || v_payment.description || '.' end,
            'Your next renewal is on ' || private.london_date_text(v_m.period_end) || '.'],
      jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
      'renewal_receipt:' || v_payment.id);
  end if;
  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

revoke execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) from public;

grant execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) to service_role;

create or replace function private.fail_membership_charge(p_checkout_reference text, p_attempt integer, p_reason text, p_now timestamptz)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_m public.memberships;
  v_retry timestamptz;
  -- The first charge of a membership an admin set up (admin_put_on_plan), with no card saved.
  v_never_started boolean;
  -- A Direct Debit that failed (its reason starts 'direct_debit:'): its own retry days and words.
  v_direct_debit boolean := coalesce(p_reason, '') like 'direct\_debit:%';
begin
  perform 1 from public.memberships
   where id = (select p.membership_id from public.payments p where p.checkout_reference = p_checkout_reference)
   for update;
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null
   for update;
  if not found then
    return ('unknown_reference', null, null)::public.checkout_result;
  end if;
  if v_payment.status = 'paid' or p_attempt is distinct from v_payment.attempts
     or v_payment.failed_attempt is not distinct from p_attempt then
    return ('already_applied', v_payment.id, v_payment.status)::public.checkout_result;
  end if;
  update public.payments
     set status = 'failed', failed_attempt = p_attempt, failure_reason = left(coalesce(p_reason, 'declined'), 200),
         failed_at = p_now, claimed_until = null
   where id = v_payment.id;

  -- A place given from a waitlist that could not be charged goes to the next in line.
  if v_payment.billing_reason = 'waitlist_place' then
    perform private.release_waitlist_place(v_payment);
  end if;

  if v_payment.billing_reason = 'renewal' then
    select * into v_m from public.memberships
     where id = v_payment.membership_id and ended_at is null and period_number + 1 = v_payment.period_number
     for update;
    if found then
      v_never_started := p_reason = 'no_card' and v_payment.period_number = v_m.anchor_period
                         and not exists (select 1 from public.payments p
                                          where p.membership_id = v_m.id and p.status = 'paid'
                                            and p.period_number >= v_m.anchor_period);
      select v_m.period_end + make_interval(days => d) into v_retry
        from unnest(case when v_direct_debit then private.direct_debit_retry_days() else private.renewal_retry_days() end) d
       where v_m.period_end + make_interval(days => d) > p_now
       order by d limit 1;
      if v_retry is null then
        update public.memberships
           set status = 'lapsed', renews = false, ended_at = p_now, retry_count = retry_count + 1,
               next_retry_at = null, updated_at = p_now
         where id = v_m.id
        returning * into v_m;
        perform private.sync_member_from_membership(v_m);
        -- The renewal's balance part comes back, once (decision 0108).
        perform private.return_renewal_balance(v_m.id, p_now);
        perform private.enqueue_membership_email('membership_ended', v_m.member_id,
          'Your ' || private.plan_name(v_m.plan_slug) || ' membership has ended',
          array[case when v_never_started then
                  'No card was added for the ' || private.plan_name(v_m.plan_slug) || ' membership the studio set up '
                    || 'for you, so it has not started and you stay on pay-as-you-go.'
                else 'We could not take the ' || private.gbp(v_payment.amount) || ' renewal of your '
                  || private.plan_name(v_m.plan_slug) || ' membership after several tries, so it has ended '
                  || 'and you are now on pay-as-you-go.' end,
                'You can choose a plan again at any time from your membership page.'],
          jsonb_build_array(jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
          'membership_ended:' || v_m.id || ':' || v_m.period_number);
      else
        update public.memberships
           set status = 'past_due', retry_count = retry_count + 1, next_retry_at = v_retry, updated_at = p_now
         where id = v_m.id
        returning * into v_m;
        perform private.sync_member_from_membership(v_m);
        if v_never_started then
          -- A plan an admin set up for a member without a saved card: an invitation, not a failure.
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Add a card to start your ' || private.plan_name(v_m.plan_slug) || ' membership',
            array['The studio has set up a ' || private.plan_name(v_m.plan_slug) || ' membership for you at '
                    || private.gbp(v_payment.amount) || ' a month.',
                  'To start it, add a card on your membership page: the first month is taken then. Until then you '
                    || 'book as before; we will remind you on ' || private.london_date_text(v_retry) || '.'],
            jsonb_build_array(jsonb_build_object('label', 'Add a card', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        elsif v_direct_debit then
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Your Direct Debit payment failed',
            array['We could not collect the ' || private.gbp(v_payment.amount) || ' renewal of your '
                    || private.plan_name(v_m.plan_slug) || ' membership by Direct Debit'
                    || case when p_reason = 'direct_debit:no_mandate' then ': there is no Direct Debit set up.'
                            else ' (' || replace(substr(p_reason, 14), '_', ' ') || ').' end,
                  'You can keep booking classes while we try again on ' || private.london_date_text(v_retry)
                    || '. If your bank details have changed, set up a new Direct Debit or pay by card on your membership page.'],
            jsonb_build_array(jsonb_build_object('label', 'Payment method', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        else
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Payment failed: please update your card',
            array['We could not take the ' || private.gbp(v_payment.amount) || ' renewal of your '
                    || private.plan_name(v_m.plan_slug) || ' membership'
                    || case when p_reason = 'no_card' then ': there is no saved card.' else ': your card was declined.' end,
                  'You can keep booking classes while we try again on ' || private.london_date_text(v_retry)
                    || '. Update your card to pay now and keep your membership.'],
            jsonb_build_array(jsonb_build_object('label', 'Update card', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        end if;
      end if;
    end if;
  end if;
  return ('marked_failed', v_payment.id, 'failed')::public.checkout_result;
end;
$$;

revoke execute on function private.fail_membership_charge(text, integer, text, timestamptz) from public;

grant execute on function private.fail_membership_charge(text, integer, text, timestamptz) to service_role;

create or replace function private.end_finished_memberships(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select * from public.memberships
     where status = 'cancelled' and ended_at is null and period_end <= p_now
     for update skip locked
  loop
    update public.memberships set ended_at = v_m.period_end, updated_at = p_now where id = v_m.id
    returning * into v_m;
    perform private.sync_member_from_membership(v_m);
    -- Cancelled while a renewal was unpaid: its balance part comes back, once (decision 0108).
    perform private.return_renewal_balance(v_m.id, p_now);
    perform private.enqueue_membership_email('membership_ended', v_m.member_id,
      'Your ' || private.plan_name(v_m.plan_slug) || ' membership has ended',
      array['Your ' || private.plan_name(v_m.plan_slug) || ' membership ended on '
              || private.london_date_text(v_m.period_end) || ', as you asked. You are now on pay-as-you-go.',
            'You can choose a plan again at any time from your membership page.'],
      jsonb_build_array(jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
      'membership_ended:' || v_m.id || ':' || v_m.period_number);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.end_finished_memberships(timestamptz) from public;

grant execute on function private.end_finished_memberships(timestamptz) to service_role;

create or replace function private.new_card_setup(p_payment public.payments, p_now timestamptz)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_setup private.card_setups;
begin
  select * into v_member from public.members where id = p_payment.member_id;
  -- What the saved card is charged next: the payment less what the balance paid (decision 0108).
  insert into private.card_setups (member_id, payment_id, checkout_reference, amount, created_at)
  values (p_payment.member_id, p_payment.id, 'setup-' || gen_random_uuid()::text,
          p_payment.amount - coalesce(p_payment.balance_used, 0), p_now)
  returning * into v_setup;
  return (p_payment.checkout_reference, v_setup.checkout_reference, v_setup.amount, p_payment.currency,
          p_payment.description, private.provider_customer_id(v_member.id), v_member.email::text,
          v_member.name)::public.card_setup_checkout;
end;
$$;

revoke execute on function private.new_card_setup(public.payments, timestamptz) from public;

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

create or replace function private.direct_debit_collection_for(p_checkout_reference text, p_attempt integer, p_now timestamptz)
returns public.direct_debit_collection
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_mandate private.direct_debit_mandates;
  v_collection private.direct_debit_collections;
begin
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null for update;
  if not found or v_payment.status = 'paid' or v_payment.attempts <> p_attempt then
    return ('in_flight', null, null, null, null, null, null)::public.direct_debit_collection;
  end if;
  if private.billing_method(v_payment.member_id) = 'card' then
    return ('card', null, null, null, null, null, null)::public.direct_debit_collection;
  end if;
  if exists (select 1 from private.direct_debit_collections c
              where c.payment_id = v_payment.id and c.provider_payment_id is not null
                and c.status in ('pending_submission', 'submitted', 'confirmed', 'paid_out')) then
    return ('in_flight', null, null, null, null, null, null)::public.direct_debit_collection;
  end if;
  v_mandate := private.live_mandate(v_payment.member_id);
  if v_mandate.id is null then
    return ('direct_debit', null, null, null, v_payment.amount - coalesce(v_payment.balance_used, 0), v_payment.description,
            null)::public.direct_debit_collection;
  end if;
  update private.direct_debit_collections
     set attempt = p_attempt, mandate_id = v_mandate.id, updated_at = p_now,
         charge_date = greatest(charge_date, private.direct_debit_charge_date(v_mandate.status, v_mandate.created_at, p_now))
   where payment_id = v_payment.id and provider_payment_id is null
  returning * into v_collection;
  if v_collection.id is null then
    insert into private.direct_debit_collections (payment_id, attempt, mandate_id, charge_date, amount, created_at, updated_at)
    values (v_payment.id, p_attempt, v_mandate.id,
            private.direct_debit_charge_date(v_mandate.status, v_mandate.created_at, p_now),
            v_payment.amount - coalesce(v_payment.balance_used, 0), p_now, p_now)
    returning * into v_collection;
  end if;
  return ('direct_debit', v_collection.id, v_mandate.provider_mandate_id, v_collection.charge_date, v_collection.amount,
          v_payment.description, null)::public.direct_debit_collection;
end;
$$;

revoke execute on function private.direct_debit_collection_for(text, integer, timestamptz) from public;

grant execute on function private.direct_debit_collection_for(text, integer, timestamptz) to service_role;
