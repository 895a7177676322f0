-- The member's billing history is money that moved: paid payments and refunds made, read through
-- my_billing_history. /membership read the payments table itself and listed abandoned checkouts
-- ("£115.00 Expired") beside real payments, and no refund at all.
create type public.billing_entry as (
  id uuid,
  -- payment | refund
  kind text,
  -- When the money moved: paid_at, or refunded_at.
  happened_at timestamptz,
  description text,
  -- Positive both ways: a refund's is the money given back.
  amount numeric,
  currency text,
  -- The payment's checkout reference (a refund's payment's).
  reference text,
  billed_name text,
  billed_email text
);

create function private.my_billing_history(p_limit integer)
returns setof public.billing_entry
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member_id uuid := (private.require_member()).id;
begin
  return query
    select h.*
      from (select p.id, 'payment'::text, coalesce(p.paid_at, p.created_at), p.description, p.amount::numeric, p.currency,
                   p.checkout_reference, p.billed_name, p.billed_email
              from public.payments p
             where p.member_id = v_member_id and p.status = 'paid'
            union all
            select r.id, 'refund'::text, r.refunded_at, r.description, r.amount::numeric, coalesce(p.currency, 'GBP'),
                   p.checkout_reference, r.member_name, r.member_email
              from public.refunds_owed r
              left join public.payments p on p.id = r.payment_id
             where r.member_id = v_member_id and r.refunded_at is not null) h
     order by 3 desc, 1
     limit greatest(least(coalesce(p_limit, 50), 200), 1);
end;
$$;

revoke execute on function private.my_billing_history(integer) from public;

grant execute on function private.my_billing_history(integer) to authenticated;

create function public.my_billing_history(p_limit integer default 50)
returns setof public.billing_entry
language sql stable security invoker set search_path = ''
as $$ select * from private.my_billing_history(p_limit) $$;

revoke execute on function public.my_billing_history(integer) from public, anon;

grant execute on function public.my_billing_history(integer) to authenticated;

