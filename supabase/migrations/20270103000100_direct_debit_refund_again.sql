-- A Direct Debit refund made again after GoCardless's refund of it failed (decision 0103) is sent
-- with a new Idempotency-Key: the refund owed's id numbered by its failed refunds. With the same
-- key GoCardless would answer 409 naming the failed refund, recorded as if it were the new one.
alter type public.direct_debit_refund add attribute idempotency_key text;

alter type public.provider_refund_claim add attribute direct_debit_idempotency_key text;

create or replace function private.direct_debit_refund_for(p_payment public.payments, p_refund public.refunds_owed)
returns public.direct_debit_refund
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_collection private.direct_debit_collections;
  v_refunded numeric(10, 2);
  v_through_gocardless numeric(10, 2);
  r public.direct_debit_refund;
begin
  select * into v_collection from private.direct_debit_collections c
   where c.payment_id = p_payment.id and c.status in ('confirmed', 'paid_out') and c.provider_payment_id is not null
   order by c.attempt desc
   limit 1;
  if not found then
    raise exception 'This Direct Debit payment has not been collected (or was charged back): there is nothing to refund through GoCardless'
      using errcode = 'P0001', hint = 'direct_debit_not_collected';
  end if;
  select coalesce(sum(o.amount), 0),
         coalesce(sum(o.amount) filter (where o.refunded_at is not null and o.provider_refund_id is not null), 0)
    into v_refunded, v_through_gocardless
    from public.refunds_owed o
   where o.payment_id = p_payment.id and o.id <> p_refund.id
     and (o.refunded_at is not null or o.provider_refund_state is not null);
  if v_refunded + p_refund.amount > v_collection.amount then
    raise exception 'Refunding % would give back more than the % collected by Direct Debit (% refunded or under way already)',
      private.gbp(p_refund.amount), private.gbp(v_collection.amount), private.gbp(v_refunded)
      using errcode = 'P0001', hint = 'refund_exceeds_payment';
  end if;
  r.provider_payment_id := v_collection.provider_payment_id;
  r.total_refunded := v_through_gocardless + p_refund.amount;
  r.idempotency_key := p_refund.id::text || coalesce(':' || nullif((
    select count(*) from private.direct_debit_refunds d
     where d.refund_owed_id = p_refund.id and d.status in ('failed', 'funds_returned')), 0), '');
  return r;
end;
$$;

revoke execute on function private.direct_debit_refund_for(public.payments, public.refunds_owed) from public;

create or replace function private.begin_provider_refund(p_refund_id uuid, p_now timestamptz)
returns public.provider_refund_claim
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
  v_payment public.payments;
  v_provider text;
  v_dd record;
  r public.provider_refund_claim;
begin
  perform private.require_admin();
  select * into v_refund from public.refunds_owed where id = p_refund_id for update;
  if not found then
    raise exception 'This refund is not owed any more' using errcode = 'P0002', hint = 'refund_not_found';
  end if;
  r.refund_id := v_refund.id;
  r.already_refunded := v_refund.refunded_at is not null;
  if r.already_refunded then
    return r;
  end if;
  -- A Direct Debit payment is refunded through GoCardless (decision 0103); its row is locked so two
  -- refunds of one payment at once (two reasons, two tabs) count each other against what was paid.
  select * into v_payment from public.payments where id = v_refund.payment_id for no key update;
  v_provider := case when v_payment.collected_by = 'direct_debit' then 'GoCardless' else 'SumUp' end;

  case private.provider_refund_state_at(v_refund, p_now)
    when 'in_progress' then
      raise exception 'A refund through % is already under way for this payment', v_provider using errcode = 'P0001', hint = 'refund_in_progress';
    when 'unconfirmed' then
      raise exception '% did not confirm the last refund attempt. Check the % dashboard, then mark it refunded', v_provider, v_provider
        using errcode = 'P0001', hint = 'refund_unconfirmed';
    else null;
  end case;

  if v_payment.id is null or v_payment.status <> 'paid'
     or (v_payment.collected_by = 'card' and v_payment.provider_checkout_id is null) then
    raise exception 'This payment did not go through %: refund it another way, then mark it refunded', v_provider
      using errcode = 'P0001', hint = 'not_refundable_by_provider';
  end if;
  if v_payment.collected_by = 'direct_debit' then
    select * into v_dd from private.direct_debit_refund_for(v_payment, v_refund);
    r.direct_debit_payment_id := v_dd.provider_payment_id;
    r.total_refunded := v_dd.total_refunded;
    r.direct_debit_idempotency_key := v_dd.idempotency_key;
  end if;

  update public.refunds_owed
     set provider_refund_state = 'in_progress', provider_refund_started_at = p_now, provider_refund_error = null
   where id = v_refund.id;
  r.amount := v_refund.amount;
  r.currency := v_payment.currency;
  -- A Direct Debit payment's checkout id is GoCardless's payment: never sent to the card provider.
  r.provider_checkout_id := case when v_payment.collected_by = 'card' then v_payment.provider_checkout_id end;
  r.collected_by := v_payment.collected_by;
  return r;
end;
$$;

revoke execute on function private.begin_provider_refund(uuid, timestamptz) from public;

grant execute on function private.begin_provider_refund(uuid, timestamptz) to authenticated, service_role;
