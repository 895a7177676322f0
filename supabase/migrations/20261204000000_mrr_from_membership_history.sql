-- MRR from the memberships' own history (decision 0036). The MRR report read each member's latest
-- membership charge if it was less than a month old, and the Memberships card read the rows as they
-- stand, so the two disagreed: members without a recent charge vanished from MRR, an upgrade's
-- prorated charge read as a price, a renewal paid after a retry read as new, past-due and cancelled
-- members still running read as churned. Now every membership's monthly price over time is kept
-- (membership_price_history, written by a trigger on memberships) and one function, mrr_at, answers
-- MRR at an instant for both the card and the report.

create table public.membership_price_history (
  id bigint generated always as identity primary key,
  membership_id uuid not null,
  plan_slug text not null,
  tier public.membership_tier not null,
  price numeric(10, 2) not null check (price > 0),
  starts_at timestamptz not null,
  ends_at timestamptz,
  constraint membership_price_history_stretch check (ends_at > starts_at)
);

comment on table public.membership_price_history is
  'Each membership''s monthly price over time while it ran with a period paid (what MRR counts). Written only by a trigger on memberships.';

create index membership_price_history_membership_idx on public.membership_price_history (membership_id, starts_at);

create index membership_price_history_stretch_idx on public.membership_price_history using gist (tstzrange(starts_at, ends_at));

alter table public.membership_price_history enable row level security;

revoke all on public.membership_price_history from public, anon, authenticated;

grant all on public.membership_price_history to service_role;

-- What a membership adds to MRR as its row stands: its monthly price while it runs (active, past
-- due, or cancelled and not yet ended) with a period paid, else null. Not before its
-- first payment (an admin's put-on-plan that was never paid never started, so it never churns),
-- and a scheduled downgrade or price change counts from the renewal that charges it.
create function private.membership_mrr(p_m public.memberships)
returns numeric
language sql immutable set search_path = ''
as $$
  select case when p_m.ended_at is null and p_m.status in ('active', 'past_due', 'cancelled') and private.membership_paid(p_m)
              then p_m.price end
$$;

revoke execute on function private.membership_mrr(public.memberships) from public;

-- Keeps membership_price_history in step with each write of a membership. A change of what it adds
-- to MRR (started, new price or plan, ended) closes the running stretch and opens the next as of
-- when it happened: an ending at ended_at (a cancelled membership ends at its period end, whenever
-- the job gets to it; a lapse when its last retry failed), a new row at the start of its paid
-- period, anything else at updated_at (every membership function sets it to its p_now). Cancelling
-- changes no price: the stretch gets its end, the period end, and resuming takes it away again,
-- so a cancellation is churn when the membership ends, not when the member presses cancel.
create function private.record_membership_price()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
  v_at timestamptz;
  v_price numeric;
  v_until timestamptz;
  v_last public.membership_price_history;
begin
  if tg_op = 'DELETE' then
    -- The member was removed: whatever ran ends now.
    v_id := old.id;
    v_at := now();
  else
    v_id := new.id;
    v_price := private.membership_mrr(new);
    v_until := case when new.status = 'cancelled' then new.period_end end;
    v_at := case when new.ended_at is not null and (tg_op = 'INSERT' or old.ended_at is null) then new.ended_at
                 when tg_op = 'INSERT' then new.period_start
                 else new.updated_at end;
  end if;
  select * into v_last from public.membership_price_history h
   where h.membership_id = v_id
   order by h.starts_at desc
   limit 1;
  if v_last.id is not null then
    -- A stretch never starts before the one it follows (a clock run back in a test, say).
    v_at := greatest(v_at, v_last.starts_at);
    if v_last.ends_at <= v_at then
      v_last := null;
    end if;
  end if;

  if v_last.id is not null and v_price is not null
     and (v_last.price, v_last.plan_slug, v_last.tier) = (v_price, new.plan_slug, new.tier) then
    -- The same price runs on (a renewal, a cancellation, a resumption): only its end can change.
    if v_until <= v_last.starts_at then
      delete from public.membership_price_history where id = v_last.id;
    elsif v_last.ends_at is distinct from v_until then
      update public.membership_price_history set ends_at = v_until where id = v_last.id;
    end if;
    return null;
  end if;

  if v_last.id is not null then
    if v_at > v_last.starts_at then
      update public.membership_price_history set ends_at = v_at where id = v_last.id;
    else
      delete from public.membership_price_history where id = v_last.id;
    end if;
  end if;
  if v_price is not null and (v_until is null or v_until > v_at) then
    insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
    values (v_id, new.plan_slug, new.tier, v_price, v_at, v_until);
  end if;
  return null;
end;
$$;

revoke execute on function private.record_membership_price() from public;

drop function private.mrr_at(timestamptz);

-- MRR at an instant: every membership that ran with a period paid at p_at, at the monthly price it
-- had then. The one definition the Memberships card (admin_membership_stats) and the MRR report
-- (report_mrr, 19_reports.sql) both read, so they cannot give two answers for the same instant.
create function private.mrr_at(p_at timestamptz)
returns table (membership_id uuid, plan_slug text, tier public.membership_tier, amount numeric)
language sql stable security definer set search_path = ''
as $$
  select h.membership_id, h.plan_slug, h.tier, h.price
    from public.membership_price_history h
   where tstzrange(h.starts_at, h.ends_at) @> p_at
$$;

revoke execute on function private.mrr_at(timestamptz) from public;

create trigger memberships_record_price
  after insert or update or delete on public.memberships
  for each row execute function private.record_membership_price();

-- The history of the memberships there already, rebuilt from what is on record (from here on the
-- trigger keeps it). Each paid charge (start, renewal, upgrade, or a plan bought before memberships
-- existed; not one owed back) sets the price from when it was paid, an upgrade's at its payment plus
-- its credit. A run of charges ends where the next starts over (a new start, or a charge more than a
-- month and the retry days after the one before), at the lapse (the last failed try of the renewal
-- that followed) or else the end of its last month paid: the rows kept no end of runs before the
-- last, so those are close, not exact. The run each membership is in now ends, or runs on, as its
-- row says; one with no charge on record runs from the start of its paid period.
do $$
declare
  v_m public.memberships;
  v_p record;
  v_open public.membership_price_history;
  v_last_at timestamptz;
  v_last_period integer;
  v_end timestamptz;
  v_price numeric;
begin
  for v_m in select * from public.memberships where tier <> 'trial' order by id loop
    v_open := null;
    v_last_at := null;
    v_last_period := null;
    for v_p in
      select p.paid_at as at, p.amount + coalesce(p.upgrade_credit, 0) as price, coalesce(p.plan_slug, v_m.plan_slug) as plan_slug,
             p.grants_tier as tier, p.billing_reason, p.period_number
        from public.payments p
       where p.status = 'paid' and not p.needs_refund and p.paid_at is not null and p.kind = 'plan' and p.grants_tier is not null
         and (p.membership_id = v_m.id or (p.membership_id is null and p.member_id = v_m.member_id))
       order by p.paid_at, p.period_number nulls first
    loop
      if v_open.starts_at is not null
         and (v_p.billing_reason = 'start' or v_p.at > private.months_after(v_last_at, 1) + interval '8 days') then
        v_end := least(v_p.at, coalesce(
          (select max(f.failed_at) from public.payments f
            where f.membership_id = v_m.id and f.billing_reason = 'renewal' and f.status = 'failed'
              and f.period_number = v_last_period + 1),
          private.months_after(v_last_at, 1)));
        if v_end > v_open.starts_at then
          insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
          values (v_m.id, v_open.plan_slug, v_open.tier, v_open.price, v_open.starts_at, v_end);
        end if;
        v_open := null;
      end if;
      if v_open.starts_at is not null
         and (v_open.price, v_open.plan_slug, v_open.tier) is distinct from (v_p.price, v_p.plan_slug, v_p.tier) then
        if v_p.at > v_open.starts_at then
          insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
          values (v_m.id, v_open.plan_slug, v_open.tier, v_open.price, v_open.starts_at, v_p.at);
        end if;
        v_open := null;
      end if;
      if v_open.starts_at is null then
        v_open.starts_at := v_p.at;
        v_open.price := v_p.price;
        v_open.plan_slug := v_p.plan_slug;
        v_open.tier := v_p.tier;
      end if;
      v_last_at := v_p.at;
      v_last_period := v_p.period_number;
    end loop;

    v_price := private.membership_mrr(v_m);
    if v_price is not null then
      if v_open.starts_at is not null
         and (v_open.price, v_open.plan_slug, v_open.tier) is distinct from (v_price, v_m.plan_slug, v_m.tier) then
        if v_m.updated_at > v_open.starts_at then
          insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
          values (v_m.id, v_open.plan_slug, v_open.tier, v_open.price, v_open.starts_at, v_m.updated_at);
          v_open.starts_at := v_m.updated_at;
        end if;
        v_open.price := v_price;
        v_open.plan_slug := v_m.plan_slug;
        v_open.tier := v_m.tier;
      elsif v_open.starts_at is null then
        v_open.starts_at := v_m.period_start;
        v_open.price := v_price;
        v_open.plan_slug := v_m.plan_slug;
        v_open.tier := v_m.tier;
      end if;
      v_end := case when v_m.status = 'cancelled' then v_m.period_end end;
      if v_end is null or v_end > v_open.starts_at then
        insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
        values (v_m.id, v_open.plan_slug, v_open.tier, v_open.price, v_open.starts_at, v_end);
      end if;
    elsif v_open.starts_at is not null then
      v_end := case when v_m.ended_at >= v_last_at then v_m.ended_at
                    else least(coalesce(
                      (select max(f.failed_at) from public.payments f
                        where f.membership_id = v_m.id and f.billing_reason = 'renewal' and f.status = 'failed'
                          and f.period_number = v_last_period + 1),
                      private.months_after(v_last_at, 1)), v_m.period_start, now()) end;
      if v_end > v_open.starts_at then
        insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
        values (v_m.id, v_open.plan_slug, v_open.tier, v_open.price, v_open.starts_at, v_end);
      end if;
    end if;
  end loop;
end;
$$;

create or replace function private.report_mrr(p_from date, p_to date)
returns setof public.mrr_row
language sql stable security definer set search_path = ''
as $$
  with months as (
    select m.month, least(m.starts - interval '1 microsecond', now()) as opens, least(m.ends - interval '1 microsecond', now()) as closes
      from private.report_months(p_from, p_to) m),
  snapshots as (
    select mo.month, a.amount as mrr_start, a.n as subscribers_start, b.amount as mrr_end, b.n as subscribers_end
      from months mo
      cross join lateral (select coalesce(sum(x.amount), 0) as amount, count(*)::int as n from private.mrr_at(mo.opens) x) a
      cross join lateral (select coalesce(sum(y.amount), 0) as amount, count(*)::int as n from private.mrr_at(mo.closes) y) b),
  -- Each change of price: a stretch's start (from the stretch it follows without a gap, else from
  -- nothing) and an end no stretch follows (to nothing).
  stretches as (
    select h.price, h.starts_at, h.ends_at,
           lag(h.ends_at) over w as before_ends, lag(h.price) over w as before_price, lead(h.starts_at) over w as after_starts
      from public.membership_price_history h
    window w as (partition by h.membership_id order by h.starts_at)),
  changes as (
    select s.starts_at as at, case when s.before_ends = s.starts_at then s.before_price else 0 end as was, s.price as becomes
      from stretches s
    union all
    select s.ends_at, s.price, 0
      from stretches s
     where s.ends_at is not null and s.ends_at is distinct from s.after_starts),
  moves as (
    select mo.month,
           coalesce(sum(c.becomes) filter (where c.was = 0), 0) as new_mrr,
           coalesce(sum(c.becomes - c.was) filter (where c.was > 0 and c.becomes > c.was), 0) as upgrades,
           coalesce(sum(c.was - c.becomes) filter (where c.becomes > 0 and c.becomes < c.was), 0) as downgrades,
           coalesce(sum(c.was) filter (where c.becomes = 0), 0) as churned,
           count(*) filter (where c.was = 0)::int as new_members,
           count(*) filter (where c.becomes = 0)::int as churned_members
      from months mo left join changes c on c.at > mo.opens and c.at <= mo.closes
     group by mo.month),
  per_month as (
    select s.month, s.mrr_start, m.new_mrr, m.upgrades, m.downgrades, m.churned, s.mrr_end, s.subscribers_start,
           s.subscribers_end, m.new_members, m.churned_members
      from snapshots s join moves m on m.month = s.month),
  total as (
    select null::date as month,
           (select p.mrr_start from per_month p order by p.month limit 1) as mrr_start,
           sum(new_mrr) as new_mrr, sum(upgrades) as upgrades, sum(downgrades) as downgrades, sum(churned) as churned,
           (select p.mrr_end from per_month p order by p.month desc limit 1) as mrr_end,
           (select p.subscribers_start from per_month p order by p.month limit 1) as subscribers_start,
           (select p.subscribers_end from per_month p order by p.month desc limit 1) as subscribers_end,
           sum(new_members)::int as new_members, sum(churned_members)::int as churned_members
      from per_month)
  select r.month, r.mrr_start, r.new_mrr, r.upgrades, r.downgrades, r.churned, r.mrr_end, r.subscribers_start,
         r.subscribers_end, r.new_members, r.churned_members,
         round(100.0 * r.churned_members / nullif(r.subscribers_start, 0), 1)
    from (select * from per_month union all select * from total) r
   order by r.month nulls last
$$;

create or replace function private.admin_membership_stats(p_now timestamptz)
returns public.membership_figures
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_month_start timestamptz := private.allowance_month_start(p_now);
  v_month_end timestamptz := private.months_after(private.allowance_month_start(p_now), 1);
  r public.membership_figures;
begin
  perform private.require_admin();
  -- The same MRR as the report's at a month end (decision 0036): one definition, not two answers.
  select count(*) filter (where tier = 'standard')::int, count(*) filter (where tier = 'premium')::int,
         coalesce(sum(amount), 0)
    into r.active_standard, r.active_premium, r.mrr
    from private.mrr_at(p_now);
  select count(*)::int into r.past_due
    from public.memberships
   where ended_at is null and status = 'past_due';
  select count(*) filter (where status = 'paid' and paid_at >= v_month_start and paid_at < v_month_end)::int,
         count(*) filter (where failed_at >= v_month_start and failed_at < v_month_end)::int
    into r.renewals_this_month, r.failed_renewals_this_month
    from public.payments
   where billing_reason = 'renewal';
  return r;
end;
$$;
