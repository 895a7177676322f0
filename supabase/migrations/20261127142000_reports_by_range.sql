-- Reports read payments, refunds, classes and late cancels with one range scan each, grouped by
-- London month (issue 28, decision 0022); schemas/19_reports.sql.

create or replace function private.report_revenue(p_from date, p_to date)
returns setof public.revenue_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  lines (line, ord) as (values ('memberships', 1), ('classes', 2), ('packages', 3), ('guest_places', 4)),
  -- The product line of a payment: class payments are pay-as-you-go classes, plan payments are
  -- packages (training plans) or memberships. Guest places are given with guest passes and never
  -- paid for, so that line is always 0 for now. A refund whose payment is gone is a class's when
  -- it names a class start.
  -- One range scan each (payments by paid_at, refunds by refunded_at), grouped by London month.
  bounds as (select min(starts) as starts, max(ends) as ends from months),
  paid as (
    select date_trunc('month', p.paid_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'class' then 'classes' when pl.category = 'training' then 'packages' else 'memberships' end as line,
           count(*)::int as n, sum(p.amount) as amount
      from bounds bd
      join public.payments p on p.status = 'paid' and p.paid_at >= bd.starts and p.paid_at < bd.ends
      left join public.plans pl on pl.slug = p.plan_slug
     group by 1, 2),
  back as (
    select date_trunc('month', r.refunded_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'class' or (p.id is null and r.class_start_time is not null) then 'classes'
                when pl.category = 'training' then 'packages' else 'memberships' end as line,
           count(*)::int as n, sum(r.amount) as amount
      from bounds bd
      join public.refunds_owed r on r.refunded_at >= bd.starts and r.refunded_at < bd.ends
      left join public.payments p on p.id = r.payment_id
      left join public.plans pl on pl.slug = p.plan_slug
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

create or replace function private.report_attendance(p_from date, p_to date)
returns setof public.attendance_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  bounds as (select min(starts) as starts, least(max(ends), now()) as ends from months),
  counted as (
    select date_trunc('month', c.start_time at time zone 'Europe/London')::date as month, count(b.id)::int as bookings,
           count(b.id) filter (where b.attendance = 'attended')::int as attended,
           count(b.id) filter (where b.attendance = 'no_show')::int as no_shows,
           count(b.id) filter (where b.attendance is null)::int as unmarked
      from bounds bd
      join public.classes c on c.start_time >= bd.starts and c.start_time < bd.ends
      join public.bookings b on b.class_id = c.id and b.payment_status = 'completed'
     group by 1),
  late_counted as (
    select date_trunc('month', l.class_start_time at time zone 'Europe/London')::date as month, count(*)::int as late_cancels
      from bounds bd join public.late_cancellations l on l.class_start_time >= bd.starts and l.class_start_time < bd.ends
     group by 1),
  per_month as (
    select mo.month, coalesce(c.bookings, 0) as bookings, coalesce(c.attended, 0) as attended, coalesce(c.no_shows, 0) as no_shows,
           coalesce(c.unmarked, 0) as unmarked, coalesce(l.late_cancels, 0) as late_cancels
      from months mo left join counted c on c.month = mo.month left join late_counted l on l.month = mo.month)
  select r.month, r.bookings, r.attended, r.no_shows, r.unmarked, r.late_cancels,
         round(100.0 * r.no_shows / nullif(r.bookings, 0), 1),
         round(100.0 * r.late_cancels / nullif(r.bookings + r.late_cancels, 0), 1)
    from (select * from per_month
          union all
          select null, sum(bookings)::int, sum(attended)::int, sum(no_shows)::int, sum(unmarked)::int, sum(late_cancels)::int from per_month) r
   order by r.month nulls last
$$;
