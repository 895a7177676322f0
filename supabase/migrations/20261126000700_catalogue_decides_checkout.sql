-- The catalogue decides what a checkout charges (issue 26): create_plan_payment,
-- start_membership_checkout, start_membership_upgrade and schedule_membership_downgrade take the
-- price, the tier and the description from public.plans; the functions now send only the slug, and
-- an amount or tier still sent must match the catalogue (price_mismatch). A plan that needs proof
-- is refused here too. Definitions are copied from supabase/schemas/06, 07 and 09.

create function private.checkout_plan(p_plan_slug text, p_amount numeric, p_grants_tier text)
returns public.plans
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_plan public.plans;
begin
  select * into v_plan from public.plans where slug = p_plan_slug;
  if not found then
    raise exception 'Unknown plan: %', coalesce(p_plan_slug, '') using errcode = '22023', hint = 'unknown_plan';
  end if;
  if v_plan.requires_proof then
    raise exception 'This plan needs proof of eligibility: please contact the studio.' using errcode = 'P0001', hint = 'plan_requires_proof';
  end if;
  if p_amount is not null and p_amount <> v_plan.price
     or p_grants_tier is not null and p_grants_tier is distinct from v_plan.grants_tier::text then
    raise exception '% costs % and grants %: the checkout asked for something else', v_plan.name, private.gbp(v_plan.price),
      coalesce(v_plan.grants_tier::text, 'no tier') using errcode = '22023', hint = 'price_mismatch';
  end if;
  return v_plan;
end;
$$;

revoke execute on function private.checkout_plan(text, numeric, text) from public;

create function private.plan_description(p_plan public.plans)
returns text
language sql immutable set search_path = ''
as $$
  select p_plan.name || ' (£'
         || case when p_plan.price = trunc(p_plan.price) then to_char(p_plan.price, 'FM999990') else to_char(p_plan.price, 'FM999990.00') end
         || coalesce('/' || p_plan.billing_interval, '') || ')'
$$;

revoke execute on function private.plan_description(public.plans) from public;

create or replace function private.create_plan_payment(p_member_id uuid, p_plan_slug text, p_amount numeric, p_description text)
returns public.plan_payment
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, null);
  v_payment public.payments;
begin
  perform 1 from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.'
      using errcode = 'P0002', hint = 'member_not_found';
  end if;

  insert into public.payments (member_id, kind, plan_slug, amount, description, checkout_reference)
  values (p_member_id, 'plan', v_plan.slug, v_plan.price, coalesce(p_description, private.plan_description(v_plan)),
          'plan-' || gen_random_uuid()::text)
  returning * into v_payment;
  perform private.supersede_plan_purchases(p_member_id, v_payment.id);

  return (v_payment.id, v_payment.checkout_reference, v_payment.amount, v_payment.currency,
          v_payment.description)::public.plan_payment;
end;
$$;

revoke execute on function private.create_plan_payment(uuid, text, numeric, text) from public;

grant execute on function private.create_plan_payment(uuid, text, numeric, text) to service_role;

create or replace function private.start_membership_checkout(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz
)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_payment public.payments;
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
  insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference,
                               billing_reason, created_at)
  values (p_member_id, 'plan', v_plan.slug, v_plan.grants_tier, v_plan.price,
          coalesce(p_description, private.plan_description(v_plan)), 'plan-' || gen_random_uuid()::text, 'start', p_now)
  returning * into v_payment;
  perform private.supersede_plan_purchases(p_member_id, v_payment.id);
  return private.new_card_setup(v_payment, p_now);
end;
$$;

revoke execute on function private.start_membership_checkout(uuid, text, numeric, text, text, timestamptz) from public;

grant execute on function private.start_membership_checkout(uuid, text, numeric, text, text, timestamptz) to service_role;

create or replace function private.start_membership_upgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz
)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_m public.memberships;
  v_reference text;
begin
  select * into v_m from public.memberships where member_id = p_member_id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'cancelled') then
    raise exception 'Only a running membership can be upgraded.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if v_m.tier = v_plan.grants_tier then
    raise exception 'You are already on this plan.' using errcode = 'P0001', hint = 'same_plan';
  end if;
  if v_m.tier <> 'standard' or v_plan.grants_tier is distinct from 'premium' then
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
  values (p_member_id, 'plan', v_plan.slug, v_plan.grants_tier, v_plan.price,
          coalesce(p_description, private.plan_description(v_plan)), v_reference,
          v_m.id, v_m.period_number + 1, 'upgrade', p_now);
  return v_reference;
end;
$$;

revoke execute on function private.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) from public;

grant execute on function private.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) to service_role;

create or replace function private.schedule_membership_downgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_now timestamptz
)
returns public.memberships
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = p_member_id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'past_due') then
    raise exception 'Only a renewing membership can be changed at its period end.'
      using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if v_m.tier <> 'premium' or v_plan.grants_tier is distinct from 'standard' then
    raise exception 'Only Platinum Premium can be downgraded to Standard.' using errcode = 'P0001', hint = 'not_a_downgrade';
  end if;
  update public.memberships
     set next_plan_slug = v_plan.slug, next_tier = v_plan.grants_tier, next_price = v_plan.price,
         updated_at = p_now
   where id = v_m.id
  returning * into v_m;
  return v_m;
end;
$$;

revoke execute on function private.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) from public;

grant execute on function private.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) to service_role;

create or replace function public.create_plan_payment(p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_description text default null)
returns public.plan_payment
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_plan_payment(p_member_id, p_plan_slug, p_amount, p_description) $$;

revoke execute on function public.create_plan_payment(uuid, text, numeric, text) from public, anon, authenticated;

grant execute on function public.create_plan_payment(uuid, text, numeric, text) to service_role;

create or replace function public.start_membership_checkout(
  p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_grants_tier text default null,
  p_description text default null, p_now timestamptz default now()
)
returns public.card_setup_checkout
language sql volatile security invoker set search_path = ''
as $$ select * from private.start_membership_checkout(p_member_id, p_plan_slug, p_amount, p_grants_tier, p_description, p_now) $$;

revoke execute on function public.start_membership_checkout(uuid, text, numeric, text, text, timestamptz) from public, anon, authenticated;

grant execute on function public.start_membership_checkout(uuid, text, numeric, text, text, timestamptz) to service_role;

create or replace function public.start_membership_upgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_grants_tier text default null,
  p_description text default null, p_now timestamptz default now()
)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.start_membership_upgrade(p_member_id, p_plan_slug, p_amount, p_grants_tier, p_description, p_now) $$;

revoke execute on function public.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) from public, anon, authenticated;

grant execute on function public.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) to service_role;

create or replace function public.schedule_membership_downgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_grants_tier text default null,
  p_now timestamptz default now()
)
returns public.memberships
language sql volatile security invoker set search_path = ''
as $$ select * from private.schedule_membership_downgrade(p_member_id, p_plan_slug, p_amount, p_grants_tier, p_now) $$;

revoke execute on function public.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) from public, anon, authenticated;

grant execute on function public.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) to service_role;
