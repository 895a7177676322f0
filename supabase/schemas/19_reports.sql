-- Check-in, no-shows and the business reports (decision 0022).
--
-- Attendance lives on the booking (bookings.attendance, 03_bookings.sql): an admin marks it from
-- the roster or the check-in screen with mark_attendance; a member marks their own booking
-- attended with the day's door code (check_in_with_code) from 30 minutes before the start until 30
-- minutes after it, a few wrong codes at most per quarter of an hour; and the job
-- mark_no_shows(p_now) marks every booking still unmarked 30 minutes after its start a no-show.
-- None of them ever creates a booking.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Check-in -------------------------------------------------------------------------------------------
-- One door code per London day, made the first time an admin asks for it.
create table public.door_codes (
  day date primary key,
  code text not null check (code ~ '^[0-9]{4}$'),
  created_at timestamptz not null default now()
);

comment on table public.door_codes is
  'The studio''s daily door code (Europe/London day): members enter it on their phone to check in.';

alter table public.door_codes enable row level security;

revoke all on public.door_codes from public, anon, authenticated;

grant all on public.door_codes to service_role;

-- How early before the start a member may check in with the door code.
create function private.self_check_in_opens_before()
returns interval
language sql immutable set search_path = ''
as $$ select interval '30 minutes' $$;

revoke execute on function private.self_check_in_opens_before() from public;

-- How long after the start an unmarked booking becomes a no-show (and self check-in closes).
create function private.no_show_after()
returns interval
language sql immutable set search_path = ''
as $$ select interval '30 minutes' $$;

revoke execute on function private.no_show_after() from public;

-- The door code of the London day p_now falls in, made (four random digits) if there is none yet.
create function private.door_code_at(p_now timestamptz)
returns text
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_day date := (p_now at time zone 'Europe/London')::date;
  v_code text;
begin
  insert into public.door_codes (day, code)
  values (v_day, lpad(floor(random() * 10000)::int::text, 4, '0'))
  on conflict (day) do nothing;
  select d.code into v_code from public.door_codes d where d.day = v_day;
  return v_code;
end;
$$;

revoke execute on function private.door_code_at(timestamptz) from public;

-- Admin only: today's door code, to show on the check-in screen.
create function private.todays_door_code()
returns text
language plpgsql volatile security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.door_code_at(now());
end;
$$;

revoke execute on function private.todays_door_code() from public;

grant execute on function private.todays_door_code() to authenticated;

create function public.todays_door_code()
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.todays_door_code() $$;

revoke execute on function public.todays_door_code() from public, anon, authenticated;

grant execute on function public.todays_door_code() to authenticated;

-- Wrong door codes -------------------------------------------------------------------------------
-- The code is four digits: without a limit a member's phone could try all 10,000 in about a
-- minute. A member may enter check_in_wrong_codes_allowed() wrong codes within
-- check_in_attempt_window(); then every code, the right one too, is refused until the window
-- has passed since the oldest of them (too_many_attempts).
create function private.check_in_wrong_codes_allowed()
returns integer
language sql immutable set search_path = ''
as $$ select 5 $$;

revoke execute on function private.check_in_wrong_codes_allowed() from public;

create function private.check_in_attempt_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '15 minutes' $$;

revoke execute on function private.check_in_attempt_window() from public;

-- Each wrong code a member entered, kept for check_in_attempt_window() (check_in_with_code clears
-- the member's older ones). Nobody but the service role reads or writes it: a member who could
-- would delete their own tries.
create table public.check_in_attempts (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  attempted_at timestamptz not null default now()
);

comment on table public.check_in_attempts is
  'Wrong door codes members entered (check_in_with_code), to refuse more than a few within a window.';

create index check_in_attempts_member_id_attempted_at_idx on public.check_in_attempts (member_id, attempted_at);

alter table public.check_in_attempts enable row level security;

revoke all on public.check_in_attempts from public, anon, authenticated;

grant all on public.check_in_attempts to service_role;

-- Until when the member's wrong codes refuse every code, as of p_now; null when they may try.
-- The limit is reached while the check_in_wrong_codes_allowed()-th latest wrong code is younger
-- than the window, and ends when that one leaves it.
create function private.check_in_locked_until(p_member_id uuid, p_now timestamptz)
returns timestamptz
language sql stable set search_path = ''
as $$
  select a.attempted_at + private.check_in_attempt_window()
    from public.check_in_attempts a
   where a.member_id = p_member_id and a.attempted_at > p_now - private.check_in_attempt_window()
   order by a.attempted_at desc
  offset private.check_in_wrong_codes_allowed() - 1
   limit 1
$$;

revoke execute on function private.check_in_locked_until(uuid, timestamptz) from public;

create type public.check_in_result as (
  booking_id uuid,
  class_id uuid,
  class_name text,
  start_time timestamptz,
  -- A wrong code is answered, not raised (raising would roll back the record of the try):
  -- 'check_in_wrong_code' with its message, and the class fields null. Null when checked in.
  refusal text,
  message text
);

-- A member checks in to their own booked class starting within the window with today's door code.
-- A wrong code is recorded and answered as refusal 'check_in_wrong_code' (with its message).
-- Refusals raised: too_many_attempts (check_in_wrong_codes_allowed() wrong codes within
-- check_in_attempt_window(): every code until it has passed), check_in_no_booking (no booked class
-- in the window; checking in never books). Checking in twice answers the same class.
create function private.check_in_with_code(p_code text)
returns public.check_in_result
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_now timestamptz := now();
  v_locked_until timestamptz;
  v_result public.check_in_result;
begin
  -- One member's tries one after the other: requests sent together would otherwise each count the
  -- wrong codes before the others recorded theirs. Only this function takes this lock.
  perform pg_advisory_xact_lock(hashtextextended('check-in:' || v_member.id::text, 0));
  v_locked_until := private.check_in_locked_until(v_member.id, v_now);
  if v_locked_until is not null then
    raise exception 'Too many wrong codes. Please try again in %.',
      private.interval_text(make_interval(mins => greatest(1, ceil(extract(epoch from v_locked_until - v_now) / 60)::integer)))
      using errcode = 'P0001', hint = 'too_many_attempts';
  end if;
  if not exists (select 1 from public.door_codes d
                  where d.day = (v_now at time zone 'Europe/London')::date and d.code = btrim(coalesce(p_code, ''))) then
    delete from public.check_in_attempts
     where member_id = v_member.id and attempted_at <= v_now - private.check_in_attempt_window();
    insert into public.check_in_attempts (member_id, attempted_at) values (v_member.id, v_now);
    v_result.refusal := 'check_in_wrong_code';
    v_result.message := 'That is not today''s door code. Check the code at the door and try again.';
    return v_result;
  end if;
  select b.id, c.id, c.name, c.start_time into v_result
    from public.bookings b join public.classes c on c.id = b.class_id
   where b.member_id = v_member.id and b.payment_status = 'completed'
     and c.start_time between v_now - private.no_show_after() and v_now + private.self_check_in_opens_before()
   -- Back-to-back classes: the code checks in to the one not yet marked, the nearest first.
   order by b.attendance is not distinct from 'attended', abs(extract(epoch from c.start_time - v_now)), c.start_time
   limit 1;
  if v_result.booking_id is null then
    raise exception 'You have no booking for a class starting now. Book the class first, then check in.'
      using errcode = 'P0001', hint = 'check_in_no_booking';
  end if;
  update public.bookings
     set attendance = 'attended', attendance_marked_at = v_now
   where id = v_result.booking_id and attendance is distinct from 'attended';
  return v_result;
end;
$$;

revoke execute on function private.check_in_with_code(text) from public;

grant execute on function private.check_in_with_code(text) to authenticated;

create function public.check_in_with_code(p_code text)
returns public.check_in_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.check_in_with_code(p_code) $$;

revoke execute on function public.check_in_with_code(text) from public, anon, authenticated;

grant execute on function public.check_in_with_code(text) to authenticated;

-- No-shows -------------------------------------------------------------------------------------------
-- Attendance was first recorded when check-in began (20261127140000_check_in_and_no_shows.sql,
-- decision 0022): a place of an older class nobody marked is unknown, not a no-show. Every later
-- one is marked, however long the job was stopped or however far `npm run jobs -- --at` jumps
-- (a two-day look-back used to leave the days of a longer gap unmarked for ever).
create function private.attendance_recorded_from()
returns timestamptz
language sql immutable set search_path = ''
as $$ select timestamptz '2026-11-27 14:00:00+00' $$;

revoke execute on function private.attendance_recorded_from() from public;

-- Every confirmed place (a booking or a guest's place) still unmarked no_show_after() past its
-- class's start (since attendance_recorded_from) becomes a no-show as of p_now. The unmarked
-- places' partial indexes keep it to the few places not yet marked. Marked places are never
-- touched, so a second run at the same time changes nothing. Answers how many it marked.
create function private.mark_no_shows(p_now timestamptz)
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_count integer;
  v_guests integer;
begin
  update public.bookings b
     set attendance = 'no_show', attendance_marked_at = p_now
    from public.classes c
   where c.id = b.class_id
     and c.start_time <= p_now - private.no_show_after()
     and c.start_time >= private.attendance_recorded_from()
     and b.attendance is null
     and b.payment_status = 'completed';
  get diagnostics v_count = row_count;
  -- Every kind of place (decision 0035): a guest nobody checked in is a no-show too.
  update public.guest_places g
     set attendance = 'no_show', attendance_marked_at = p_now
    from public.classes c
   where c.id = g.class_id
     and c.start_time <= p_now - private.no_show_after()
     and c.start_time >= private.attendance_recorded_from()
     and g.attendance is null
     and g.payment_status = 'completed';
  get diagnostics v_guests = row_count;
  -- Under an attendance policy each no-show is a strike and its fee is charged, once
  -- (28_attendance_policy.sql).
  perform private.record_no_show_incidents(p_now);
  return v_count + v_guests;
end;
$$;

revoke execute on function private.mark_no_shows(timestamptz) from public;

grant execute on function private.mark_no_shows(timestamptz) to service_role;

create function public.mark_no_shows(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.mark_no_shows(p_now) $$;

revoke execute on function public.mark_no_shows(timestamptz) from public, anon, authenticated;

grant execute on function public.mark_no_shows(timestamptz) to service_role;

-- Trials ---------------------------------------------------------------------------------------------
-- Every free trial as it started (the membership row that held it changes when the member buys).
-- Written by a trigger when a member signs up on a trial; trial-to-paid conversion reads it.
create table public.member_trials (
  member_id uuid primary key references public.members (id) on delete cascade,
  started_at timestamptz not null,
  ends_at timestamptz not null
);

comment on table public.member_trials is 'When each member''s free trial started and was due to end (kept after it ends or converts).';

create index member_trials_ends_at_idx on public.member_trials (ends_at);

alter table public.member_trials enable row level security;

revoke all on public.member_trials from public, anon, authenticated;

grant all on public.member_trials to service_role;

create function private.remember_trial()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.membership_tier = 'trial' and new.trial_expires_at is not null then
    insert into public.member_trials (member_id, started_at, ends_at)
    values (new.id, new.created_at, new.trial_expires_at)
    on conflict (member_id) do nothing;
  end if;
  return null;
end;
$$;

revoke execute on function private.remember_trial() from public;

-- Reports --------------------------------------------------------------------------------------------
-- Every report takes London dates [p_from, p_to] (both days included) and answers one row per
-- London calendar month in the range (clipped to it) plus a total row (month null). Revenue is
-- computed from payment records only, MRR from the memberships' own history (decision 0036); rates
-- are percentages with one decimal, null when nothing was there to divide by. Admins only.

-- The indexes the reports read are with their tables: payments_paid_at_idx and
-- payments_member_paid_at_idx (06_payments.sql), refunds_owed_refunded_at_idx (08_refunds.sql),
-- late_cancellations_class_start_time_idx (03_bookings.sql), guest_places_class_id_idx (14_guests.sql).

-- The months of [p_from, p_to] (London), each clipped to the range, as instants [starts, ends).
create function private.report_months(p_from date, p_to date)
returns table (month date, starts timestamptz, ends timestamptz)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_from is null or p_to is null or p_to < p_from or p_to > p_from + interval '10 years 1 day' then
    raise exception 'Choose a range of dates, the first before the last, at most 10 years long'
      using errcode = '22023', hint = 'invalid_report_range';
  end if;
  return query
    select m::date,
           (greatest(m::date, p_from)::timestamp at time zone 'Europe/London'),
           (least((m + interval '1 month')::date, p_to + 1)::timestamp at time zone 'Europe/London')
      from generate_series(date_trunc('month', p_from::timestamp), date_trunc('month', p_to::timestamp), interval '1 month') as m;
end;
$$;

revoke execute on function private.report_months(date, date) from public;

create type public.revenue_row as (
  month date,
  -- memberships (by card) | memberships_direct_debit | classes | packages | guest_places | hold_fees |
  -- attendance_fees; then three lines that are not revenue (private.revenue_memo_lines): vouchers_sold
  -- (money held for members until spent), balance_spent (the part of the lines above paid from
  -- members' balances) and discounts (promo codes, intro offers, referral rewards: money not taken)
  line text,
  payments integer,
  gross numeric(12, 2),
  refunds integer,
  refunded numeric(12, 2),
  net numeric(12, 2)
);

-- Revenue by product line: payments paid in the month, less refunds paid back in the month.
-- Memberships are split by how they were collected (card, or Direct Debit: decision 0076); a
-- Direct Debit charged back is money back out of the studio, counted with the refunds in its month.
create function private.report_revenue(p_from date, p_to date)
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

create type public.mrr_row as (
  month date,
  mrr_start numeric(12, 2),
  new_mrr numeric(12, 2),
  upgrades numeric(12, 2),
  downgrades numeric(12, 2),
  churned numeric(12, 2),
  mrr_end numeric(12, 2),
  subscribers_start integer,
  subscribers_end integer,
  new_members integer,
  churned_members integer,
  -- churned_members / subscribers_start, percent
  churn_rate numeric(5, 1),
  -- A pause's price leaving at its first day and coming back after its last (decision 0050): not
  -- churn and not new, so mrr_end = mrr_start + new + upgrades - downgrades - churned - paused + resumed.
  paused numeric(12, 2),
  resumed numeric(12, 2)
);

-- Monthly recurring revenue at the start and end of each month and how it moved, from the
-- memberships' own history (decision 0036). MRR just before the month and at its last instant (now,
-- for a month not over yet, so it ends where the Memberships card stands) is private.mrr_at
-- (07_memberships.sql), the card's own definition; the movement in between is every change of a
-- membership's monthly price in the month: from nothing it is new (a first paid month, or back after
-- an end), to nothing churned (lapsed, or cancelled and at its period end), else an upgrade or a
-- downgrade. A renewal at the same price changes nothing, so it moves nothing. A pause (decision
-- 0050) leaves a gap in the history from its first day to the day after its last (or after the day
-- it was ended early): that end is paused and that start resumed, never churn and new. The same
-- history on both sides makes mrr_end = mrr_start + new_mrr + upgrades - downgrades - churned -
-- paused + resumed, and each month starts where the one before it ended.
create function private.report_mrr(p_from date, p_to date)
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

create type public.trial_row as (
  month date,
  -- Trials due to end in the month, and of those the members who paid for a plan or package
  -- between the trial's start and 30 days after its end.
  trials_ended integer,
  converted integer,
  conversion_rate numeric(5, 1)
);

create function private.report_trials(p_from date, p_to date)
returns setof public.trial_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  per_month as (
    select mo.month, count(t.member_id)::int as trials_ended,
           count(t.member_id) filter (where exists (
             select 1 from public.payments p
              where p.member_id = t.member_id and p.status = 'paid' and p.kind = 'plan'
                and p.paid_at >= t.started_at and p.paid_at < t.ends_at + interval '30 days'))::int as converted
      from months mo left join public.member_trials t on t.ends_at >= mo.starts and t.ends_at < mo.ends
     group by mo.month)
  select r.month, r.trials_ended, r.converted, round(100.0 * r.converted / nullif(r.trials_ended, 0), 1)
    from (select * from per_month union all select null, sum(trials_ended)::int, sum(converted)::int from per_month) r
   order by r.month nulls last
$$;

revoke execute on function private.report_trials(date, date) from public;

create type public.attendance_row as (
  month date,
  -- Confirmed bookings of classes that started in the month, and their marks.
  bookings integer,
  attended integer,
  no_shows integer,
  unmarked integer,
  -- Cancellations inside the late-cancel window of classes in the month.
  late_cancels integer,
  -- no_shows / bookings; late_cancels / (bookings + late_cancels); percent.
  no_show_rate numeric(5, 1),
  late_cancel_rate numeric(5, 1)
);

create function private.report_attendance(p_from date, p_to date)
returns setof public.attendance_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  bounds as (select min(starts) as starts, least(max(ends), now()) as ends from months),
  -- The classes' tallies (private.class_tallies, decision 0029): confirmed bookings and their marks.
  counted as (
    select t.london_month as month, sum(t.confirmed)::int as bookings,
           sum(t.confirmed_attended)::int as attended,
           sum(t.confirmed_no_shows)::int as no_shows,
           sum(t.confirmed - t.confirmed_attended - t.confirmed_no_shows)::int as unmarked
      from bounds bd
      join private.class_tallies t on t.start_time >= bd.starts and t.start_time < bd.ends
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

revoke execute on function private.report_attendance(date, date) from public;

create type public.fill_row as (
  -- ISO weekday in London (1 = Monday) and the start time 'HH:MI'.
  weekday integer,
  slot text,
  classes integer,
  places integer,
  -- Confirmed bookings and guest places.
  taken integer,
  fill_rate numeric(5, 1)
);

-- Fill rate of the classes that started in the range, by weekday and start time (London).
create function private.report_fill(p_from date, p_to date)
returns setof public.fill_row
language sql stable security definer set search_path = ''
as $$
  with range as (select min(starts) as starts, max(ends) as ends from private.report_months(p_from, p_to)),
  -- Each class's tally (decision 0029): confirmed bookings and guest places.
  per_slot as (
    select t.weekday::int as weekday, t.slot,
           count(*)::int as classes, sum(t.capacity)::int as places, sum(t.confirmed + t.guests)::int as taken
      from range r join private.class_tallies t on t.start_time >= r.starts and t.start_time < least(r.ends, now())
     group by t.weekday, t.slot)
  select weekday, slot, classes, places, taken, round(100.0 * taken / nullif(places, 0), 1)
    from per_slot
   order by weekday, slot
$$;

revoke execute on function private.report_fill(date, date) from public;

-- Every report for one range in one call (Analytics renders with one request more, not five).
create type public.admin_reports as (
  revenue public.revenue_row[],
  mrr public.mrr_row[],
  trials public.trial_row[],
  attendance public.attendance_row[],
  fill public.fill_row[]
);

-- jit off (decision 0029): every report is a few index range reads; PostgreSQL's JIT, set off by
-- cost estimates of functions it cannot see into, compiled for seconds before running them.
create function private.admin_reports(p_from date, p_to date)
returns public.admin_reports
language sql stable security definer set search_path = '' set jit = off
as $$
  select array(select r from private.report_revenue(p_from, p_to) r),
         array(select r from private.report_mrr(p_from, p_to) r),
         array(select r from private.report_trials(p_from, p_to) r),
         array(select r from private.report_attendance(p_from, p_to) r),
         array(select r from private.report_fill(p_from, p_to) r)
$$;

revoke execute on function private.admin_reports(date, date) from public;

grant execute on function private.admin_reports(date, date) to authenticated;

create function public.admin_reports(p_from date, p_to date)
returns public.admin_reports
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_reports(p_from, p_to) $$;

revoke execute on function public.admin_reports(date, date) from public, anon, authenticated;

grant execute on function public.admin_reports(date, date) to authenticated;

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger members_remember_trial
  after insert or update of trial_expires_at on public.members
  for each row execute function private.remember_trial();
