-- The plan catalogue in one place (decision 0035): memberships name a plan of public.plans (a
-- foreign key, not a list of slugs in a check), and plan names, tiers and allowances are read from
-- the catalogue, not written again in functions.
alter table public.memberships drop constraint memberships_plan_slug_check;

alter table public.memberships drop constraint memberships_next_plan_slug_check;

alter table public.memberships add constraint memberships_plan_slug_fkey foreign key (plan_slug) references public.plans (slug);

alter table public.memberships add constraint memberships_next_plan_slug_fkey foreign key (next_plan_slug) references public.plans (slug);

create or replace function private.plan_name(p_plan_slug text)
returns text
language sql stable set search_path = ''
as $$ select coalesce((select p.name from public.plans p where p.slug = p_plan_slug), p_plan_slug) $$;

revoke execute on function private.plan_name(text) from public;

create or replace function private.plan_allowance(p_tier public.membership_tier)
returns integer
language plpgsql stable set search_path = ''
as $$
begin
  return (select max(p.classes_per_month) from public.plans p where p.category = 'membership' and p.grants_tier = p_tier);
end;
$$;

revoke execute on function private.plan_allowance(public.membership_tier) from public;

create or replace function private.admin_put_on_plan(p_member_id uuid, p_plan_slug text, p_price numeric, p_now timestamptz)
returns public.my_membership
language plpgsql security definer set search_path = ''
as $$
declare
  v_tier public.membership_tier;
  v_m public.memberships;
  v_next integer;
begin
  perform private.require_admin();
  -- A plan anyone may buy at a price the admin sets (a concession is such a price, not a plan).
  select p.grants_tier into v_tier from public.plans p
   where p.slug = p_plan_slug and p.category = 'membership' and not p.requires_proof;
  if v_tier is null then
    raise exception 'Choose Standard or Platinum Premium.' using errcode = '22023', hint = 'invalid_plan';
  end if;
  if p_price is null or p_price <= 0 or p_price > 1000 or p_price <> round(p_price, 2) then
    raise exception 'Enter a monthly price between £0.01 and £1000.' using errcode = '22023', hint = 'invalid_price';
  end if;
  select * into v_m from public.memberships where member_id = p_member_id for update;
  if not exists (select 1 from public.members where id = p_member_id) then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_m.ended_at is null and v_m.status = 'past_due' then
    raise exception 'This member''s last renewal failed: once they update their card you can change their plan.'
      using errcode = 'P0001', hint = 'membership_past_due';
  end if;
  if v_m.ended_at is null and v_m.status in ('active', 'cancelled') then
    update public.memberships
       set next_plan_slug = p_plan_slug, next_tier = v_tier, next_price = p_price, status = 'active', renews = true,
           updated_at = p_now
     where id = v_m.id
    returning * into v_m;
    return private.membership_view(v_m);
  end if;
  v_next := coalesce(v_m.period_number, 0);
  -- Period v_next + 1 starts now and is what the first charge pays for; until it is paid the
  -- membership shows as due (period_end = now).
  insert into public.memberships as ms (member_id, plan_slug, tier, status, price, period_number, period_start,
                                        period_end, anchor_at, anchor_period, renews, updated_at)
  values (p_member_id, p_plan_slug, v_tier, 'active', p_price, v_next, p_now - interval '1 second', p_now, p_now,
          v_next + 1, true, p_now)
  on conflict (member_id) do update
    set plan_slug = excluded.plan_slug, tier = excluded.tier, status = 'active', price = excluded.price,
        period_number = excluded.period_number, period_start = excluded.period_start, period_end = excluded.period_end,
        anchor_at = excluded.anchor_at, anchor_period = excluded.anchor_period, renews = true, ended_at = null,
        next_plan_slug = null, next_tier = null, next_price = null, retry_count = 0, next_retry_at = null,
        updated_at = p_now
    where ms.member_id = excluded.member_id
  returning * into v_m;
  perform private.sync_member_from_membership(v_m);
  return private.membership_view(v_m);
end;
$$;

revoke execute on function private.admin_put_on_plan(uuid, text, numeric, timestamptz) from public;

grant execute on function private.admin_put_on_plan(uuid, text, numeric, timestamptz) to authenticated, service_role;
