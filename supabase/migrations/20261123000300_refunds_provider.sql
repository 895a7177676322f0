-- Refunding a refund owed through the card provider from the admin screen (issue 14).
--
-- The refund-provider function (netlify/functions/refund-provider.ts) calls the provider between
-- two database steps, as the admin:
--   1. begin_provider_refund claims the record (one claim at a time: a double click, a second tab
--      or a retry while the first call is out gets refund_in_progress and sends nothing);
--   2. finish_provider_refund records what the provider said: refunded (the record is marked
--      refunded with the provider's reference), refused (the claim is released, the reason kept,
--      the admin may try again) or unconfirmed (a timeout or a provider error after the request
--      left: the money may have moved, so the claim stays and only a person, having looked at the
--      provider's dashboard, marks it refunded).
-- A claim whose function died before step 2 counts as unconfirmed once it is older than
-- private.provider_refund_claim_ttl() (the provider's timeout is seconds).

alter table public.refunds_owed
  add column provider_refund_state text
    constraint refunds_owed_provider_refund_state check (provider_refund_state in ('in_progress', 'unconfirmed')),
  add column provider_refund_started_at timestamptz,
  add column provider_refund_error text
    constraint refunds_owed_provider_refund_error_length check (char_length(provider_refund_error) <= 500),
  add constraint refunds_owed_claim_has_time check ((provider_refund_state is null) = (provider_refund_started_at is null));

comment on column public.refunds_owed.provider_refund_state is
  'in_progress while the refund-provider function waits for the provider; unconfirmed when it could not tell whether the provider refunded.';
comment on column public.refunds_owed.provider_refund_error is
  'The provider''s last refusal or failure, shown to the admin.';

create function private.provider_refund_claim_ttl()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 minutes' $$;

-- The record's provider state as of p_now: a claim left in progress past the TTL is unconfirmed.
create function private.provider_refund_state_at(p_refund public.refunds_owed, p_now timestamptz)
returns text
language sql stable set search_path = ''
as $$
  select case
           when p_refund.provider_refund_state = 'in_progress'
                and p_refund.provider_refund_started_at < p_now - private.provider_refund_claim_ttl() then 'unconfirmed'
           else p_refund.provider_refund_state
         end
$$;

create type public.provider_refund_claim as (
  refund_id uuid,
  -- true when the record was already refunded (a repeat after success): nothing to send.
  already_refunded boolean,
  amount numeric(10, 2),
  currency text,
  provider_checkout_id text
);

create function private.begin_provider_refund(p_refund_id uuid, p_now timestamptz)
returns public.provider_refund_claim
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
  v_payment public.payments;
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

  case private.provider_refund_state_at(v_refund, p_now)
    when 'in_progress' then
      raise exception 'A refund through SumUp is already under way for this payment' using errcode = 'P0001', hint = 'refund_in_progress';
    when 'unconfirmed' then
      raise exception 'SumUp did not confirm the last refund attempt. Check the SumUp dashboard, then mark it refunded'
        using errcode = 'P0001', hint = 'refund_unconfirmed';
    else null;
  end case;

  select * into v_payment from public.payments where id = v_refund.payment_id;
  if not found or v_payment.status <> 'paid' or v_payment.provider_checkout_id is null then
    raise exception 'This payment did not go through SumUp: refund it another way, then mark it refunded'
      using errcode = 'P0001', hint = 'not_refundable_by_provider';
  end if;

  update public.refunds_owed
     set provider_refund_state = 'in_progress', provider_refund_started_at = p_now, provider_refund_error = null
   where id = v_refund.id;
  r.amount := v_refund.amount;
  r.currency := v_payment.currency;
  r.provider_checkout_id := v_payment.provider_checkout_id;
  return r;
end;
$$;

-- What the provider said about the claimed refund. Only the claim this function started is
-- finished: a record no longer in progress (marked by hand meanwhile, say) is left alone.
create function private.finish_provider_refund(
  p_refund_id uuid, p_outcome text, p_provider_refund_id text, p_error text, p_now timestamptz
)
returns public.refunds_owed
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
begin
  perform private.require_admin();
  if p_outcome is null or p_outcome not in ('refunded', 'refused', 'unconfirmed') then
    raise exception 'Unknown refund outcome' using errcode = '22023', hint = 'invalid_request';
  end if;
  if p_outcome = 'refunded' and nullif(p_provider_refund_id, '') is null then
    raise exception 'A refund the provider confirmed needs its reference' using errcode = '22023', hint = 'invalid_request';
  end if;

  update public.refunds_owed
     set refunded_at = case when p_outcome = 'refunded' then p_now else refunded_at end,
         refunded_by = case when p_outcome = 'refunded' then private.current_member_id() else refunded_by end,
         provider_refund_id = case when p_outcome = 'refunded' then p_provider_refund_id else provider_refund_id end,
         provider_refund_state = case p_outcome when 'unconfirmed' then 'unconfirmed' end,
         provider_refund_started_at = case when p_outcome = 'unconfirmed' then provider_refund_started_at end,
         provider_refund_error = case when p_outcome = 'refunded' then null else left(p_error, 500) end
   where id = p_refund_id and refunded_at is null and provider_refund_state = 'in_progress'
  returning * into v_refund;
  if not found then
    raise exception 'This refund is not being refunded through SumUp' using errcode = 'P0002', hint = 'refund_not_found';
  end if;
  return v_refund;
end;
$$;

-- Marking by hand is refused while a provider refund is out (it could pay the money back twice);
-- an unconfirmed one is exactly what a person resolves this way.
create or replace function private.mark_refund_refunded(p_refund_id uuid, p_provider_refund_id text)
returns public.refunds_owed
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
begin
  perform private.require_admin();
  select * into v_refund from public.refunds_owed where id = p_refund_id and refunded_at is null for update;
  if not found then
    raise exception 'This refund is not owed any more' using errcode = 'P0002', hint = 'refund_not_found';
  end if;
  if private.provider_refund_state_at(v_refund, now()) = 'in_progress' then
    raise exception 'A refund through SumUp is already under way for this payment' using errcode = 'P0001', hint = 'refund_in_progress';
  end if;
  update public.refunds_owed
     set refunded_at = now(), refunded_by = private.current_member_id(), provider_refund_id = p_provider_refund_id,
         provider_refund_state = null, provider_refund_started_at = null
   where id = v_refund.id
  returning * into v_refund;
  return v_refund;
end;
$$;

create function public.begin_provider_refund(p_refund_id uuid, p_now timestamptz default now())
returns public.provider_refund_claim
language sql volatile security invoker set search_path = ''
as $$ select * from private.begin_provider_refund(p_refund_id, p_now) $$;

create function public.finish_provider_refund(
  p_refund_id uuid, p_outcome text, p_provider_refund_id text default null, p_error text default null, p_now timestamptz default now()
)
returns public.refunds_owed
language sql volatile security invoker set search_path = ''
as $$ select * from private.finish_provider_refund(p_refund_id, p_outcome, p_provider_refund_id, p_error, p_now) $$;

-- The two helpers run only inside the definer functions above.
revoke execute on function private.provider_refund_claim_ttl(), private.provider_refund_state_at(public.refunds_owed, timestamptz),
  private.begin_provider_refund(uuid, timestamptz), private.finish_provider_refund(uuid, text, text, text, timestamptz) from public;
grant execute on function private.begin_provider_refund(uuid, timestamptz), private.finish_provider_refund(uuid, text, text, text, timestamptz)
  to authenticated, service_role;
revoke execute on function public.begin_provider_refund(uuid, timestamptz),
  public.finish_provider_refund(uuid, text, text, text, timestamptz) from public, anon;
grant execute on function public.begin_provider_refund(uuid, timestamptz),
  public.finish_provider_refund(uuid, text, text, text, timestamptz) to authenticated, service_role;
