-- Revenue by line shows vouchers sold, the balance spent and discounts beside revenue, and admins see
-- the money held for members (decisions 0100, 0101).
create or replace function private.report_revenue(p_from date, p_to date)
returns setof public.revenue_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  lines (line, ord) as (values ('memberships', 1), ('memberships_direct_debit', 2), ('classes', 3), ('packages', 4),
                              ('guest_places', 5), ('hold_fees', 6), ('attendance_fees', 7),
                              ('vouchers_sold', 8), ('balance_spent', 9), ('discounts', 10)),
  -- The product line of a payment: class payments are pay-as-you-go classes, except a guest's
  -- place paid at the class price (its reference starts 'guest-', create_guest_payment_hold); plan
  -- payments are packages (training plans) or memberships. A refund whose payment is gone is a
  -- class's when it names a class start.
  -- One range scan each (payments by paid_at, refunds by refunded_at), grouped by London month.
  bounds as (select min(starts) as starts, max(ends) as ends from months),
  paid as (
    select date_trunc('month', p.paid_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'gift_voucher' then 'vouchers_sold'
                when p.kind = 'class' and p.checkout_reference like 'guest-%' then 'guest_places'
                when p.billing_reason = 'hold_fee' then 'hold_fees'
                when p.billing_reason = 'attendance_fee' then 'attendance_fees'
                when p.kind = 'class' then 'classes' when pl.category = 'training' then 'packages'
                when p.collected_by = 'direct_debit' then 'memberships_direct_debit' else 'memberships' end as line,
           count(*)::int as n, sum(p.amount) as amount
      from bounds bd
      join public.payments p on p.status = 'paid' and p.paid_at >= bd.starts and p.paid_at < bd.ends
      left join public.plans pl on pl.slug = p.plan_slug
     group by 1, 2
    -- Not revenue: what members' balances paid of the lines above (decision 0101), and the discounts.
    union all
    select date_trunc('month', p.paid_at at time zone 'Europe/London')::date, 'balance_spent', count(*)::int, sum(p.balance_used)
      from bounds bd
      join public.payments p on p.status = 'paid' and p.paid_at >= bd.starts and p.paid_at < bd.ends and p.balance_used is not null
     group by 1
    union all
    select date_trunc('month', p.paid_at at time zone 'Europe/London')::date, 'discounts', count(*)::int, sum(p.discount)
      from bounds bd
      join public.payments p on p.status = 'paid' and p.paid_at >= bd.starts and p.paid_at < bd.ends and p.discount is not null
     group by 1),
  back as (
    select month, line, sum(n)::int as n, sum(amount) as amount from (
    select date_trunc('month', r.refunded_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'gift_voucher' then 'vouchers_sold'
                when p.kind = 'class' and p.checkout_reference like 'guest-%' then 'guest_places'
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
     group by 1
    -- A refund's balance share went back to the member's balance (refunds_owed_return_balance), not
    -- through the provider: it leaves the line's revenue, and the balance spent, in its month.
    union all
    select date_trunc('month', e.created_at at time zone 'Europe/London')::date, x.line, count(*)::int, sum(e.amount)
      from bounds bd
      join public.balance_entries e on e.kind = 'returned' and e.refund_id is not null and e.created_at >= bd.starts and e.created_at < bd.ends
      join public.payments p on p.id = e.payment_id
      left join public.plans pl on pl.slug = p.plan_slug
      cross join lateral (values (case when p.kind = 'class' and p.checkout_reference like 'guest-%' then 'guest_places'
                                       when p.kind = 'class' then 'classes' when pl.category = 'training' then 'packages'
                                       else 'memberships' end), ('balance_spent')) x (line)
     group by 1, 2) back_rows (month, line, n, amount)
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

-- Money held for members as of p_now: vouchers sold and not redeemed (past their expiry excluded),
-- and members' unspent balances. Not revenue: it becomes revenue when it is spent (decision 0101).
create type public.money_held as (
  vouchers numeric,
  voucher_count integer,
  balances numeric,
  members_with_balance integer,
  total numeric
);

create function private.admin_money_held(p_now timestamptz)
returns public.money_held
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.money_held;
begin
  perform private.require_admin();
  select coalesce(sum(v.amount), 0), count(*)::integer into r.vouchers, r.voucher_count
    from public.gift_vouchers v
   where v.issued_at is not null and v.redeemed_at is null and v.expires_at > p_now;
  select coalesce(sum(b.balance), 0), count(*)::integer into r.balances, r.members_with_balance
    from (select sum(e.amount) as balance from public.balance_entries e group by e.member_id having sum(e.amount) > 0) b;
  r.total := r.vouchers + r.balances;
  return r;
end;
$$;

revoke execute on function private.admin_money_held(timestamptz) from public;

grant execute on function private.admin_money_held(timestamptz) to authenticated;

create function public.admin_money_held()
returns public.money_held
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_money_held(now()) $$;

revoke execute on function public.admin_money_held() from public, anon;

grant execute on function public.admin_money_held() to authenticated;
