-- The four functions Direct Debit (decision 0076) changed beside the attendance policy (0080), the
-- offers (0083) and the imported plans' card request (0095), as the merged schema files have them:
-- each branch's migration replaced the whole function with its own change only. The renewal
-- reminder goes to a member with a saved card or paying by Direct Debit.
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
      array['Thank you: we ' || case when v_payment.collected_by = 'direct_debit' then 'collected ' else 'charged ' end
              || private.gbp(v_payment.amount)
              || case when v_payment.collected_by = 'direct_debit' then ' by Direct Debit for ' else ' to your saved card for ' end
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

create or replace function private.enqueue_membership_reminders(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select * from public.memberships
     where status = 'active' and renews and ended_at is null
       and period_end > p_now and period_end <= p_now + private.renewal_reminder_ahead()
       -- It promises a charge to the saved card or a Direct Debit collection: a plan with neither
       -- (an imported one) is asked for a card instead (enqueue_import_card_requests, 25_import.sql).
       and (exists (select 1 from private.member_cards c where c.member_id = memberships.member_id)
            or private.billing_method(memberships.member_id) = 'direct_debit')
  loop
    if private.enqueue_membership_email('renewal_reminder', v_m.member_id,
         'Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
           || private.london_date_text(v_m.period_end),
         array['Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
                 || private.london_date_text(v_m.period_end)
                 -- A member paying by Direct Debit (decision 0076, 18_direct_debit.sql) is collected from.
                 || case when private.billing_method(v_m.member_id) = 'direct_debit' then ': we will collect '
                         || private.gbp(coalesce(v_m.next_price, v_m.price)) || ' by Direct Debit.'
                         else ': we will charge ' || private.gbp(coalesce(v_m.next_price, v_m.price)) || ' to your saved card.' end,
               'Nothing to do if you are staying. To stop it renewing, cancel renewal on your membership page before then.'],
         jsonb_build_array(jsonb_build_object('label', 'Manage your membership', 'path', '/membership')),
         'renewal_reminder:' || v_m.id || ':' || (v_m.period_number + 1)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  for v_m in
    select ms.* from public.memberships ms
      join public.members m on m.id = ms.member_id
     where ms.status = 'trialing' and ms.ended_at is null and m.membership_tier = 'trial'
       and ms.period_end > p_now and ms.period_end <= p_now + interval '1 day'
  loop
    if private.enqueue_membership_email('trial_ending', v_m.member_id,
         'Your free trial ends tomorrow',
         array['Your free trial ends on ' || private.london_time_text(v_m.period_end) || ' (London time).',
               'Keep training with a Standard or Platinum Premium membership, or pay as you go.'],
         jsonb_build_array(jsonb_build_object('label', 'See memberships', 'path', '/membership')),
         'trial_ending:' || v_m.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  -- "Your pause ends soon" (25_membership_pauses.sql).
  v_count := v_count + private.enqueue_pause_reminders(p_now);
  -- "A card is needed on ..." before an imported plan's first renewal (25_import.sql).
  v_count := v_count + private.enqueue_import_card_requests(p_now);
  return v_count;
end;
$$;

revoke execute on function private.enqueue_membership_reminders(timestamptz) from public;

grant execute on function private.enqueue_membership_reminders(timestamptz) to service_role;

create or replace function private.report_revenue(p_from date, p_to date)
returns setof public.revenue_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  lines (line, ord) as (values ('memberships', 1), ('memberships_direct_debit', 2), ('classes', 3), ('packages', 4),
                              ('guest_places', 5), ('hold_fees', 6), ('attendance_fees', 7)),
  -- The product line of a payment: class payments are pay-as-you-go classes, except a guest's
  -- place paid at the class price (its reference starts 'guest-', create_guest_payment_hold); plan
  -- payments are packages (training plans) or memberships. A refund whose payment is gone is a
  -- class's when it names a class start.
  -- One range scan each (payments by paid_at, refunds by refunded_at), grouped by London month.
  bounds as (select min(starts) as starts, max(ends) as ends from months),
  paid as (
    select date_trunc('month', p.paid_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'class' and p.checkout_reference like 'guest-%' then 'guest_places'
                when p.billing_reason = 'hold_fee' then 'hold_fees'
                when p.billing_reason = 'attendance_fee' then 'attendance_fees'
                when p.kind = 'class' then 'classes' when pl.category = 'training' then 'packages'
                when p.collected_by = 'direct_debit' then 'memberships_direct_debit' else 'memberships' end as line,
           count(*)::int as n, sum(p.amount) as amount
      from bounds bd
      join public.payments p on p.status = 'paid' and p.paid_at >= bd.starts and p.paid_at < bd.ends
      left join public.plans pl on pl.slug = p.plan_slug
     group by 1, 2),
  back as (
    select month, line, sum(n)::int as n, sum(amount) as amount from (
    select date_trunc('month', r.refunded_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'class' and p.checkout_reference like 'guest-%' then 'guest_places'
                when p.billing_reason = 'hold_fee' then 'hold_fees'
                when p.billing_reason = 'attendance_fee' then 'attendance_fees'
                when p.kind = 'class' or (p.id is null and r.class_start_time is not null) then 'classes'
                when pl.category = 'training' then 'packages'
                when p.collected_by = 'direct_debit' then 'memberships_direct_debit' else 'memberships' end as line,
           count(*)::int as n, sum(r.amount) as amount
      from bounds bd
      join public.refunds_owed r on r.refunded_at >= bd.starts and r.refunded_at < bd.ends
      left join public.payments p on p.id = r.payment_id
      left join public.plans pl on pl.slug = p.plan_slug
     group by 1, 2
    union all
    select date_trunc('month', b.charged_back_at at time zone 'Europe/London')::date, 'memberships_direct_debit',
           count(*)::int, sum(b.amount)
      from bounds bd
      join private.direct_debit_chargebacks b on b.charged_back_at >= bd.starts and b.charged_back_at < bd.ends
     group by 1) back_rows (month, line, n, amount)
     group by 1, 2),
  per_month as (
    select mo.month, l.line, l.ord, coalesce(pd.n, 0) as payments, coalesce(pd.amount, 0) as gross,
           coalesce(b.n, 0) as refunds, coalesce(b.amount, 0) as refunded
      from months mo cross join lines l
      left join paid pd on pd.month = mo.month and pd.line = l.line
      left join back b on b.month = mo.month and b.line = l.line)
  select r.month, r.line, r.payments, r.gross, r.refunds, r.refunded, r.gross - r.refunded
    from (
      select month, line, ord, payments, gross, refunds, refunded from per_month
      union all
      select null, line, ord, sum(payments)::int, sum(gross), sum(refunds)::int, sum(refunded) from per_month group by line, ord
    ) r
   order by r.month nulls last, r.ord
$$;

revoke execute on function private.report_revenue(date, date) from public;
