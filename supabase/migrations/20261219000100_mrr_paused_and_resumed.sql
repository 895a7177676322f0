-- The MRR report shows a pause as paused and resumed, not as churn and new (decision 0050): the
-- gap a pause leaves in the price history is classed by the pause it matches.
alter type public.mrr_row add attribute paused numeric(12, 2), add attribute resumed numeric(12, 2);

create or replace function private.report_mrr(p_from date, p_to date)
returns setof public.mrr_row
language plpgsql stable security definer set search_path = ''
as $$
begin
  -- plpgsql: the pauses (25_membership_pauses.sql) are declared after this file.
  return query
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
           lag(h.ends_at) over w as before_ends, lag(h.price) over w as before_price, lead(h.starts_at) over w as after_starts,
           -- The pause whose first day this stretch ends at, and the one whose end it starts after.
           exists (select 1 from public.membership_pauses p
                    where p.membership_id = h.membership_id and p.withdrawn_at is null
                      and private.london_midnight(p.starts_on) = h.ends_at) as ends_at_pause,
           exists (select 1 from public.membership_pauses p
                    where p.membership_id = h.membership_id and p.withdrawn_at is null
                      and private.london_midnight(coalesce(p.ended_early_on, p.ends_on) + 1) = h.starts_at) as starts_after_pause
      from public.membership_price_history h
    window w as (partition by h.membership_id order by h.starts_at)),
  changes as (
    select s.starts_at as at, case when s.before_ends = s.starts_at then s.before_price else 0 end as was, s.price as becomes,
           s.starts_after_pause and s.before_ends is not null and s.before_ends < s.starts_at as pause
      from stretches s
    union all
    select s.ends_at, s.price, 0, s.ends_at_pause and s.after_starts is not null
      from stretches s
     where s.ends_at is not null and s.ends_at is distinct from s.after_starts),
  moves as (
    select mo.month,
           coalesce(sum(c.becomes) filter (where c.was = 0 and not c.pause), 0) as new_mrr,
           coalesce(sum(c.becomes - c.was) filter (where c.was > 0 and c.becomes > c.was), 0) as upgrades,
           coalesce(sum(c.was - c.becomes) filter (where c.becomes > 0 and c.becomes < c.was), 0) as downgrades,
           coalesce(sum(c.was) filter (where c.becomes = 0 and not c.pause), 0) as churned,
           count(*) filter (where c.was = 0 and not c.pause)::int as new_members,
           count(*) filter (where c.becomes = 0 and not c.pause)::int as churned_members,
           coalesce(sum(c.was) filter (where c.becomes = 0 and c.pause), 0) as paused,
           coalesce(sum(c.becomes) filter (where c.was = 0 and c.pause), 0) as resumed
      from months mo left join changes c on c.at > mo.opens and c.at <= mo.closes
     group by mo.month),
  per_month as (
    select s.month, s.mrr_start, m.new_mrr, m.upgrades, m.downgrades, m.churned, s.mrr_end, s.subscribers_start,
           s.subscribers_end, m.new_members, m.churned_members, m.paused, m.resumed
      from snapshots s join moves m on m.month = s.month),
  total as (
    select null::date as month,
           (select p.mrr_start from per_month p order by p.month limit 1) as mrr_start,
           sum(new_mrr) as new_mrr, sum(upgrades) as upgrades, sum(downgrades) as downgrades, sum(churned) as churned,
           (select p.mrr_end from per_month p order by p.month desc limit 1) as mrr_end,
           (select p.subscribers_start from per_month p order by p.month limit 1) as subscribers_start,
           (select p.subscribers_end from per_month p order by p.month desc limit 1) as subscribers_end,
           sum(new_members)::int as new_members, sum(churned_members)::int as churned_members,
           sum(paused) as paused, sum(resumed) as resumed
      from per_month)
  select r.month::date, r.mrr_start::numeric(12, 2), r.new_mrr::numeric(12, 2), r.upgrades::numeric(12, 2),
         r.downgrades::numeric(12, 2), r.churned::numeric(12, 2), r.mrr_end::numeric(12, 2), r.subscribers_start::int,
         r.subscribers_end::int, r.new_members::int, r.churned_members::int,
         round(100.0 * r.churned_members / nullif(r.subscribers_start, 0), 1)::numeric(5, 1),
         r.paused::numeric(12, 2), r.resumed::numeric(12, 2)
    from (select * from per_month union all select * from total) r
   order by r.month nulls last;
end;
$$;

revoke execute on function private.report_mrr(date, date) from public;
