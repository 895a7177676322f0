-- Direct Debit (decision 0076): events of actions the studio does not act on are ignored before
-- looking up what they name (so they are never sent again), and start_direct_debit's plan is
-- optional (none: a running plan switches to Direct Debit).
create or replace function private.direct_debit_mandate_event(p_action text, p_links jsonb, p_details jsonb, p_now timestamptz)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_mandate private.direct_debit_mandates;
  v_status text := case p_action when 'active' then 'active' when 'reinstated' then 'active'
                                 when 'cancelled' then 'cancelled' when 'failed' then 'failed' when 'expired' then 'expired' end;
  v_m public.memberships;
begin
  if v_status is null then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  select * into v_mandate from private.direct_debit_mandates where provider_mandate_id = p_links ->> 'mandate' for update;
  if not found then
    return ('unknown_reference', null)::public.direct_debit_event_result;
  end if;
  if v_status = v_mandate.status or v_mandate.status = 'replaced'
     -- Out of order: an ended mandate comes back only by a reinstatement.
     or (v_status = 'active' and v_mandate.status <> 'pending' and p_action <> 'reinstated') then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  if v_status = 'active' then
    update private.direct_debit_mandates set status = 'active', ended_at = null, updated_at = p_now where id = v_mandate.id
       and not exists (select 1 from private.direct_debit_mandates o
                        where o.member_id = v_mandate.member_id and o.id <> v_mandate.id and o.status in ('pending', 'active'));
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  update private.direct_debit_mandates set status = v_status, ended_at = p_now, updated_at = p_now where id = v_mandate.id;
  if private.billing_method(v_mandate.member_id) = 'direct_debit' then
    select * into v_m from public.memberships where member_id = v_mandate.member_id and ended_at is null
       and status in ('active', 'past_due', 'cancelled');
    if found then
      perform private.enqueue_membership_email('direct_debit_mandate_cancelled', v_mandate.member_id,
        'Your Direct Debit has been cancelled: please set up a new one',
        array['Your Direct Debit for the ' || private.plan_name(v_m.plan_slug) || ' membership is no longer active'
                || coalesce(' (' || nullif(p_details ->> 'description', '') || ')', '') || '.',
              'To keep your membership, set up a new Direct Debit or pay by card on your membership page before '
                || private.london_date_text(v_m.period_end) || '.'],
        jsonb_build_array(jsonb_build_object('label', 'Set up a new Direct Debit', 'path', '/membership')),
        'direct_debit_mandate_cancelled:' || v_mandate.id);
    end if;
  end if;
  return ('applied', null)::public.direct_debit_event_result;
end;
$$;

revoke execute on function private.direct_debit_mandate_event(text, jsonb, jsonb, timestamptz) from public;

create or replace function private.direct_debit_payment_event(p_action text, p_links jsonb, p_details jsonb, p_now timestamptz)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_collection private.direct_debit_collections;
  v_payment public.payments;
  v_status text := case when p_action in ('submitted', 'confirmed', 'paid_out', 'failed', 'cancelled', 'charged_back')
                        then p_action end;
  v_cause text := coalesce(nullif(p_details ->> 'cause', ''), p_action);
  v_result public.checkout_result;
begin
  if v_status is null then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  -- The lock order of a membership charge: the membership, then its payment (apply_membership_charge).
  perform 1 from public.memberships ms
   where ms.member_id = (select p.member_id from public.payments p
                           join private.direct_debit_collections c on c.payment_id = p.id
                          where c.provider_payment_id = p_links ->> 'payment')
   for update;
  select * into v_collection from private.direct_debit_collections where provider_payment_id = p_links ->> 'payment' for update;
  if not found then
    return ('unknown_reference', null)::public.direct_debit_event_result;
  end if;
  if v_collection.status in ('failed', 'cancelled', 'charged_back') then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  select * into v_payment from public.payments where id = v_collection.payment_id;

  if v_status in ('submitted', 'confirmed', 'paid_out') then
    if private.direct_debit_rank(v_status) <= private.direct_debit_rank(v_collection.status) then
      return ('ignored', null)::public.direct_debit_event_result;
    end if;
    update private.direct_debit_collections set status = v_status, updated_at = p_now where id = v_collection.id;
    if private.direct_debit_rank(v_status) >= 2 and private.direct_debit_rank(v_collection.status) < 2 then
      v_result := private.apply_membership_charge(v_payment.checkout_reference, v_collection.provider_payment_id, 'PAID',
                                                  v_collection.amount, 'GBP', p_now);
      if v_result.outcome not in ('applied', 'already_applied') then
        raise exception 'Direct Debit % could not be applied: %', v_collection.provider_payment_id, v_result.outcome
          using errcode = 'P0001', hint = 'direct_debit_not_applied';
      end if;
    end if;
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  if v_status = 'charged_back' or private.direct_debit_rank(v_collection.status) >= 2 then
    perform private.direct_debit_charge_back(v_collection, p_now);
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  -- Failed or cancelled before the money arrived.
  update private.direct_debit_collections set status = v_status, failure_cause = left(v_cause, 100), updated_at = p_now
   where id = v_collection.id;
  perform private.fail_membership_charge(v_payment.checkout_reference, v_collection.attempt,
                                         'direct_debit:' || left(v_cause, 80), p_now);
  if v_payment.billing_reason = 'start' then
    perform private.enqueue_membership_email('payment_failed', v_payment.member_id,
      'Your first Direct Debit payment failed',
      array['We could not collect the first ' || private.gbp(v_payment.amount) || ' for ' || v_payment.description
              || ' by Direct Debit (' || replace(v_cause, '_', ' ') || '), so the membership has not started.',
            'You can choose the plan again and pay by card, or set up Direct Debit with another account.'],
      jsonb_build_array(jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
      'payment_failed:' || v_payment.id || ':' || v_collection.attempt);
  end if;
  return ('applied', null)::public.direct_debit_event_result;
end;
$$;

revoke execute on function private.direct_debit_payment_event(text, jsonb, jsonb, timestamptz) from public;

drop function public.start_direct_debit(uuid, text, timestamptz);

create function public.start_direct_debit(p_member_id uuid, p_plan_slug text default null, p_now timestamptz default now())
returns public.direct_debit_setup
language sql volatile security invoker set search_path = ''
as $$ select * from private.start_direct_debit(p_member_id, p_plan_slug, p_now) $$;

revoke execute on function public.start_direct_debit(uuid, text, timestamptz) from public, anon, authenticated;

grant execute on function public.start_direct_debit(uuid, text, timestamptz) to service_role;
