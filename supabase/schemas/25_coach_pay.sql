-- Coach pay (decision 0056): a rate per coach (trainer) per class type, each from a date,
-- and a monthly statement per coach worked out from the classes they taught and the people checked
-- in. Rates are never rewritten for a month that has begun to be paid: a change is a new rate from a
-- date in the current month or later, so every earlier statement reads exactly what it read before.
-- Admins set rates and read every statement; a coach reads only their own (my_coach_pay_statement).

-- Table ------------------------------------------------------------------------------------------
create table public.coach_pay_rates (
  id uuid primary key default gen_random_uuid(),
  trainer_id uuid not null references public.trainers (id) on delete cascade,
  -- classes.type: 'Group' or 'One-to-One'.
  class_type text not null check (class_type in ('Group', 'One-to-One')),
  -- per_class: base_amount per class taught; per_attendee: per_attendee per person checked in;
  -- base_plus_attendee: both.
  basis text not null check (basis in ('per_class', 'per_attendee', 'base_plus_attendee')),
  base_amount numeric(10, 2) not null default 0 check (base_amount between 0 and 10000),
  per_attendee numeric(10, 2) not null default 0 check (per_attendee between 0 and 1000),
  -- A London date: classes on or after it (until the next rate's date) are paid at this rate.
  effective_from date not null,
  created_at timestamptz not null default now(),
  created_by uuid references public.members (id) on delete set null,
  constraint coach_pay_rates_one_per_day unique (trainer_id, class_type, effective_from),
  constraint coach_pay_rates_basis_amounts check (
    (basis = 'per_class' and per_attendee = 0)
    or (basis = 'per_attendee' and base_amount = 0)
    or basis = 'base_plus_attendee')
);

comment on table public.coach_pay_rates is
  'Pay rates per trainer and class type, each from a London date; written only by set_coach_pay_rate (never for a month already begun).';

alter table public.coach_pay_rates enable row level security;

revoke all on public.coach_pay_rates from public, anon, authenticated;

grant select on public.coach_pay_rates to authenticated;

grant all on public.coach_pay_rates to service_role;

-- Rates -------------------------------------------------------------------------------------------
-- The first London day of the month p_now falls in: rates may start from it, never before.
create function private.pay_month_start(p_now timestamptz)
returns date
language sql immutable set search_path = ''
as $$ select date_trunc('month', p_now at time zone 'Europe/London')::date $$;

revoke execute on function private.pay_month_start(timestamptz) from public;

-- Sets a coach's rate for a class type from a date (admins). The date must be in the current London
-- month or later (pay_rate_in_past: earlier months' statements never change); a rate already set
-- for the same coach, type and date is replaced (a correction before it is paid).
create function private.set_coach_pay_rate(
  p_trainer_id uuid, p_class_type text, p_basis text, p_base_amount numeric, p_per_attendee numeric,
  p_effective_from date, p_now timestamptz
)
returns public.coach_pay_rates
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_admin public.members := private.require_member();
  v_rate public.coach_pay_rates;
begin
  perform private.require_admin();
  if not exists (select 1 from public.trainers t where t.id = p_trainer_id) then
    raise exception 'Trainer not found' using errcode = 'P0002', hint = 'trainer_not_found';
  end if;
  if p_effective_from is null or p_effective_from < private.pay_month_start(p_now) then
    raise exception 'A rate can start this month or later: earlier months are already worked out'
      using errcode = '22023', hint = 'pay_rate_in_past';
  end if;
  if p_basis is null or p_basis not in ('per_class', 'per_attendee', 'base_plus_attendee') then
    raise exception 'Choose per class, per attendee, or a base plus per attendee' using errcode = '22023', hint = 'invalid_pay_rate';
  end if;
  if coalesce(p_base_amount, 0) < 0 or coalesce(p_per_attendee, 0) < 0
     or coalesce(p_base_amount, 0) > 10000 or coalesce(p_per_attendee, 0) > 1000 then
    raise exception 'Amounts must be between £0 and £10,000 (£1,000 per attendee)' using errcode = '22023', hint = 'invalid_pay_rate';
  end if;
  insert into public.coach_pay_rates (trainer_id, class_type, basis, base_amount, per_attendee, effective_from, created_by)
  values (p_trainer_id, p_class_type, p_basis,
          case when p_basis = 'per_attendee' then 0 else round(coalesce(p_base_amount, 0), 2) end,
          case when p_basis = 'per_class' then 0 else round(coalesce(p_per_attendee, 0), 2) end,
          p_effective_from, v_admin.id)
  on conflict (trainer_id, class_type, effective_from) do update
    set basis = excluded.basis, base_amount = excluded.base_amount, per_attendee = excluded.per_attendee,
        created_at = now(), created_by = excluded.created_by
  returning * into v_rate;
  return v_rate;
end;
$$;

revoke execute on function private.set_coach_pay_rate(uuid, text, text, numeric, numeric, date, timestamptz) from public;

grant execute on function private.set_coach_pay_rate(uuid, text, text, numeric, numeric, date, timestamptz) to authenticated;

-- Statements ----------------------------------------------------------------------------------------
-- One line of a pay statement: a class the coach taught, who was checked in, the rate in force on
-- its London date and what it pays (null amount when no rate was set: the statement says so).
create type public.coach_pay_line as (
  class_id uuid,
  class_name text,
  class_type text,
  start_time timestamptz,
  attendees integer,
  basis text,
  base_amount numeric,
  per_attendee numeric,
  amount numeric
);

comment on type public.coach_pay_line is 'A class on a coach''s monthly pay statement (admin_coach_pay_statement, my_coach_pay_statement).';

-- The classes p_trainer_id taught in the London month of p_month that had started by p_now (the
-- coach on the class when it ran is the one who taught it, cover included), each with its people
-- checked in (members, children and guests: the place model's attended) and the rate in force then.
create function private.coach_pay_lines(p_trainer_id uuid, p_month date, p_now timestamptz)
returns setof public.coach_pay_line
language sql stable security definer set search_path = ''
as $$
  with bounds as (
    select date_trunc('month', p_month)::date as first_day,
           (date_trunc('month', p_month) + interval '1 month')::date as next_first
  ),
  taught as (
    select c.*
      from public.classes c, bounds b
     where c.trainer_id = p_trainer_id
       and c.start_time >= b.first_day::timestamp at time zone 'Europe/London'
       and c.start_time < b.next_first::timestamp at time zone 'Europe/London'
       and c.start_time <= p_now
  )
  select t.id, t.name, t.type, t.start_time, a.n, r.basis, r.base_amount, r.per_attendee,
         case when r.id is not null then r.base_amount + r.per_attendee * a.n end
    from taught t
    cross join lateral (
      select ((select count(*) from public.bookings bk where bk.class_id = t.id and bk.attendance = 'attended')
            + (select count(*) from public.guest_places g where g.class_id = t.id and g.attendance = 'attended'))::int as n
    ) a
    left join lateral (
      select pr.* from public.coach_pay_rates pr
       where pr.trainer_id = p_trainer_id and pr.class_type = t.type
         and pr.effective_from <= (t.start_time at time zone 'Europe/London')::date
       order by pr.effective_from desc
       limit 1
    ) r on true
   order by t.start_time, t.id
$$;

revoke execute on function private.coach_pay_lines(uuid, date, timestamptz) from public;

-- Any coach's statement (admins).
create function private.admin_coach_pay_statement(p_trainer_id uuid, p_month date)
returns setof public.coach_pay_line
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_month is null then
    raise exception 'Choose a month' using errcode = '22023', hint = 'invalid_period';
  end if;
  return query select * from private.coach_pay_lines(p_trainer_id, p_month, now());
end;
$$;

revoke execute on function private.admin_coach_pay_statement(uuid, date) from public;

grant execute on function private.admin_coach_pay_statement(uuid, date) to authenticated;

-- The caller's own statement (coaches; coach_only for anyone else).
create function private.my_coach_pay_statement(p_month date)
returns setof public.coach_pay_line
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_trainer_id uuid := private.require_coach();
begin
  if p_month is null then
    raise exception 'Choose a month' using errcode = '22023', hint = 'invalid_period';
  end if;
  return query select * from private.coach_pay_lines(v_trainer_id, p_month, now());
end;
$$;

revoke execute on function private.my_coach_pay_statement(date) from public;

grant execute on function private.my_coach_pay_statement(date) to authenticated;

-- API ------------------------------------------------------------------------------------------
create function public.set_coach_pay_rate(
  p_trainer_id uuid, p_class_type text, p_basis text, p_base_amount numeric, p_per_attendee numeric, p_effective_from date
)
returns public.coach_pay_rates
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_coach_pay_rate(p_trainer_id, p_class_type, p_basis, p_base_amount, p_per_attendee, p_effective_from, now()) $$;

revoke execute on function public.set_coach_pay_rate(uuid, text, text, numeric, numeric, date) from public, anon, authenticated;

grant execute on function public.set_coach_pay_rate(uuid, text, text, numeric, numeric, date) to authenticated;

create function public.admin_coach_pay_statement(p_trainer_id uuid, p_month date)
returns setof public.coach_pay_line
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_coach_pay_statement(p_trainer_id, p_month) $$;

revoke execute on function public.admin_coach_pay_statement(uuid, date) from public, anon, authenticated;

grant execute on function public.admin_coach_pay_statement(uuid, date) to authenticated;

create function public.my_coach_pay_statement(p_month date)
returns setof public.coach_pay_line
language sql stable security invoker set search_path = ''
as $$ select * from private.my_coach_pay_statement(p_month) $$;

revoke execute on function public.my_coach_pay_statement(date) from public, anon, authenticated;

grant execute on function public.my_coach_pay_statement(date) to authenticated;

-- Row-level security ----------------------------------------------------------------------------
create policy "Coaches read their own rates; admins read all"
  on public.coach_pay_rates for select to authenticated
  using ((select private.is_admin())
         or exists (select 1 from public.trainer_accounts ta
                     where ta.trainer_id = coach_pay_rates.trainer_id and ta.member_id = (select private.current_member_id())));

-- Every change an admin or coach makes here is in the audit trail (25_audit.sql, decision 0045).
create trigger audit_trail
  after insert or update or delete on public.coach_pay_rates
  for each row execute function private.audit_change();
