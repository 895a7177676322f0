-- Membership pauses (decision 0050): a member pauses within the studio's rules, or an
-- admin pauses anyone. A pause is whole London days [starts_on, last day]; the renewal moves by
-- its length (the membership's anchor moves, so every later renewal follows), the plan's bookings
-- inside it go, nothing is charged during it but the monthly hold fee (claimed with the renewals,
-- once per month of pause by its derived reference), and MRR leaves it out (its price history has
-- a gap for it). One function computes what the member sees before confirming and confirming runs
-- the same function under the membership's row lock.

-- Tables -----------------------------------------------------------------------------------------
-- The studio's rules for pauses, one row, set by admins.
create table public.pause_rules (
  id boolean primary key default true check (id),
  -- Members may pause themselves (an admin may pause anyone whatever this says).
  members_may_pause boolean not null default true,
  min_days integer not null default 7 check (min_days between 1 and 365),
  max_days integer not null default 90 check (max_days between 1 and 365),
  -- Pauses a member may start within any 365 days.
  per_year integer not null default 2 check (per_year between 1 and 12),
  -- Days between asking and the first paused day.
  notice_days integer not null default 3 check (notice_days between 0 and 60),
  -- Charged once for each month (or part) of a pause; null: no fee.
  hold_fee numeric(10, 2) check (hold_fee > 0 and hold_fee <= 1000),
  updated_at timestamptz not null default now(),
  constraint pause_rules_lengths check (max_days >= min_days)
);

comment on table public.pause_rules is 'The studio''s rules for pausing a membership (one row, admins set it).';

alter table public.pause_rules enable row level security;

revoke all on public.pause_rules from public, anon, authenticated;

grant select on public.pause_rules to authenticated;

grant all on public.pause_rules to service_role;

insert into public.pause_rules (id) values (true);

create table public.membership_pauses (
  id uuid primary key default gen_random_uuid(),
  membership_id uuid not null references public.memberships (id) on delete cascade,
  member_id uuid not null references public.members (id) on delete cascade,
  starts_on date not null,
  -- The last paused day as confirmed (London).
  ends_on date not null,
  -- The last paused day after ending early (a day before the member came back); null if it ran on.
  ended_early_on date,
  -- Withdrawn before its first day: it never happened (the renewal moved back).
  withdrawn_at timestamptz,
  -- The monthly hold fee fixed when it was confirmed (the rules may change later).
  hold_fee numeric(10, 2) check (hold_fee > 0),
  by_admin boolean not null default false,
  renewal_before timestamptz not null,
  renewal_after timestamptz not null,
  created_at timestamptz not null default now(),
  constraint membership_pauses_days check (ends_on >= starts_on),
  constraint membership_pauses_early check (ended_early_on is null or (ended_early_on >= starts_on and ended_early_on < ends_on))
);

comment on table public.membership_pauses is
  'Membership pauses: whole London days, the renewal moved by their length, a monthly hold fee or none.';

create index membership_pauses_membership_idx on public.membership_pauses (membership_id, starts_on);

create index membership_pauses_member_idx on public.membership_pauses (member_id, starts_on);

alter table public.membership_pauses enable row level security;

revoke all on public.membership_pauses from public, anon, authenticated;

grant select on public.membership_pauses to authenticated;

grant all on public.membership_pauses to service_role;

-- Dates ------------------------------------------------------------------------------------------
-- Midnight in London at the start of p_day.
create function private.london_midnight(p_day date)
returns timestamptz
language sql stable set search_path = ''
as $$ select p_day::timestamp at time zone 'Europe/London' $$;

revoke execute on function private.london_midnight(date) from public;

-- p_at moved by p_days whole days on London's wall clock (the time of day is kept across clock changes).
create function private.london_days_after(p_at timestamptz, p_days integer)
returns timestamptz
language sql stable set search_path = ''
as $$ select ((p_at at time zone 'Europe/London') + make_interval(days => p_days)) at time zone 'Europe/London' $$;

revoke execute on function private.london_days_after(timestamptz, integer) from public;

-- The pause's last day as it stands (ended early or as confirmed).
create function private.pause_last_day(p public.membership_pauses)
returns date
language sql immutable set search_path = ''
as $$ select coalesce(p.ended_early_on, p.ends_on) $$;

revoke execute on function private.pause_last_day(public.membership_pauses) from public;

-- The instants a pause covers, or null for a withdrawn one.
create function private.pause_range(p public.membership_pauses)
returns tstzrange
language sql stable set search_path = ''
as $$
  select case when p.withdrawn_at is null
              then tstzrange(private.london_midnight(p.starts_on), private.london_midnight(private.pause_last_day(p) + 1)) end
$$;

revoke execute on function private.pause_range(public.membership_pauses) from public;

-- The member's pause covering p_at, if any (plan bookings are refused inside it).
create function private.pause_at(p_member_id uuid, p_at timestamptz)
returns public.membership_pauses
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_pause public.membership_pauses;
begin
  select * into v_pause from public.membership_pauses p
   where p.member_id = p_member_id and p.withdrawn_at is null and private.pause_range(p) @> p_at
   limit 1;
  -- No pause: null, not a row of nulls.
  if not found then
    return null;
  end if;
  return v_pause;
end;
$$;

revoke execute on function private.pause_at(uuid, timestamptz) from public;

-- The membership's pause that has not ended as of p_now (running or still to come), if any.
create function private.open_pause(p_membership_id uuid, p_now timestamptz)
returns public.membership_pauses
language sql stable security definer set search_path = ''
as $$
  select * from public.membership_pauses p
   where p.membership_id = p_membership_id and p.withdrawn_at is null
     and private.london_midnight(private.pause_last_day(p) + 1) > p_now
   order by p.starts_on
   limit 1
$$;

revoke execute on function private.open_pause(uuid, timestamptz) from public;

-- How many hold fees a pause of these days charges: one for each month, or part, from its first day.
create function private.pause_fee_months(p_starts_on date, p_last_day date)
returns integer
language sql immutable set search_path = ''
as $$
  select count(*)::int from generate_series(0, 12) k
   where (p_starts_on + make_interval(months => k))::date <= p_last_day
$$;

revoke execute on function private.pause_fee_months(date, date) from public;

-- The quote --------------------------------------------------------------------------------------
-- What a pause would do, as the member sees it before confirming.
create type public.pause_quote as (
  starts_on date,
  ends_on date,
  days integer,
  hold_fee numeric,
  fee_months integer,
  fee_total numeric,
  renewal_before timestamptz,
  renewal_after timestamptz,
  -- [{ booking_id, class_name, start_time, refund }]: the plan bookings inside it that will be cancelled.
  cancelled_bookings jsonb
);

-- The rules and the arithmetic of a pause of membership p_m from p_starts_on to p_ends_on (its last
-- day) as of p_now; raises the refusal (a hint each) when the rules do not allow it. Both the
-- preview and the confirmation call it, so the member is never shown one thing and given another.
create function private.pause_quote(
  p_m public.memberships, p_starts_on date, p_ends_on date, p_by_admin boolean, p_now timestamptz
)
returns public.pause_quote
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_rules public.pause_rules;
  v_today date := (p_now at time zone 'Europe/London')::date;
  v_days integer;
  v_range tstzrange;
  r public.pause_quote;
begin
  select * into v_rules from public.pause_rules;
  if p_m.id is null or p_m.ended_at is not null or p_m.tier = 'trial' or not private.membership_paid(p_m) then
    raise exception 'You have no membership to pause.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if p_m.status <> 'active' then
    raise exception '%', case p_m.status
        when 'past_due' then 'A membership with a payment due cannot be paused: update the card first.'
        else 'A membership that is cancelled cannot be paused: resume it first.' end
      using errcode = 'P0001', hint = 'membership_not_active';
  end if;
  if not p_by_admin and not v_rules.members_may_pause then
    raise exception 'The studio does not take pauses online: please ask at the front desk.'
      using errcode = 'P0001', hint = 'pauses_off';
  end if;
  if p_starts_on is null or p_ends_on is null or p_ends_on < p_starts_on then
    raise exception 'Choose a first and a last day of the pause, the last on or after the first.'
      using errcode = '22023', hint = 'invalid_dates';
  end if;
  v_days := p_ends_on - p_starts_on + 1;
  if p_starts_on < v_today + (case when p_by_admin then 0 else v_rules.notice_days end) then
    raise exception '%', case when p_by_admin then 'A pause cannot start in the past.'
        else 'A pause needs ' || v_rules.notice_days || ' days'' notice: the earliest first day is '
             || to_char(v_today + v_rules.notice_days, 'FMDD FMMonth YYYY') || '.' end
      using errcode = 'P0001', hint = 'pause_notice';
  end if;
  if (p_by_admin and v_days > 365) or (not p_by_admin and (v_days < v_rules.min_days or v_days > v_rules.max_days)) then
    raise exception '%', case when p_by_admin then 'A pause can be at most 365 days.'
        else 'A pause is ' || v_rules.min_days || ' to ' || v_rules.max_days || ' days; this one is ' || v_days || '.' end
      using errcode = 'P0001', hint = 'pause_length';
  end if;
  -- It starts within the period already paid: the renewal it moves is the next one.
  if private.london_midnight(p_starts_on) >= p_m.period_end then
    raise exception 'A pause must start before your renewal on %; to pause later, ask again after it.',
        private.london_date_text(p_m.period_end)
      using errcode = 'P0001', hint = 'pause_after_renewal';
  end if;
  if (private.open_pause(p_m.id, p_now)).id is not null then
    raise exception 'This membership already has a pause: end or withdraw it first.'
      using errcode = 'P0001', hint = 'pause_exists';
  end if;
  if not p_by_admin and (select count(*) from public.membership_pauses p
                          where p.member_id = p_m.member_id and p.withdrawn_at is null
                            and p.starts_on > p_starts_on - 365) >= v_rules.per_year then
    raise exception 'You can pause % times in a year; the next one can start after %.', v_rules.per_year,
        (select to_char(min(p.starts_on) + 365, 'FMDD FMMonth YYYY') from (
           select p.starts_on from public.membership_pauses p
            where p.member_id = p_m.member_id and p.withdrawn_at is null and p.starts_on > p_starts_on - 365
            order by p.starts_on desc limit v_rules.per_year) p)
      using errcode = 'P0001', hint = 'pause_limit';
  end if;

  v_range := tstzrange(private.london_midnight(p_starts_on), private.london_midnight(p_ends_on + 1));
  r.starts_on := p_starts_on;
  r.ends_on := p_ends_on;
  r.days := v_days;
  r.hold_fee := v_rules.hold_fee;
  r.fee_months := case when v_rules.hold_fee is null then 0 else private.pause_fee_months(p_starts_on, p_ends_on) end;
  r.fee_total := coalesce(v_rules.hold_fee * r.fee_months, 0);
  r.renewal_before := p_m.period_end;
  r.renewal_after := private.london_days_after(p_m.period_end, v_days);
  -- Plan bookings inside the pause are cancelled; they were paid by the plan, so nothing is refunded.
  r.cancelled_bookings := coalesce((
    select jsonb_agg(jsonb_build_object('booking_id', b.id, 'class_name', c.name, 'start_time', c.start_time,
                                        'refund', 0) order by c.start_time)
      from public.bookings b join public.classes c on c.id = b.class_id
     where b.member_id = p_m.member_id and b.type = 'paid' and b.dependant_id is null
       and c.start_time <@ v_range and c.start_time > p_now), '[]'::jsonb);
  return r;
end;
$$;

revoke execute on function private.pause_quote(public.memberships, date, date, boolean, timestamptz) from public;

-- The membership to pause: the caller's own, or (an admin) anyone's.
create function private.membership_to_pause(p_member_id uuid, p_lock boolean)
returns public.memberships
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  if p_lock then
    select * into v_m from public.memberships where member_id = p_member_id for update;
  else
    select * into v_m from public.memberships where member_id = p_member_id;
  end if;
  return v_m;
end;
$$;

revoke execute on function private.membership_to_pause(uuid, boolean) from public;

-- Who is pausing whom: null p_member_id is the caller; another member's id needs an admin.
create function private.pause_target(p_member_id uuid)
returns uuid
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_me public.members := private.require_member();
begin
  if p_member_id is null or p_member_id = v_me.id then
    return v_me.id;
  end if;
  perform private.require_admin();
  return p_member_id;
end;
$$;

revoke execute on function private.pause_target(uuid) from public;

-- Member and admin RPCs (private code) ------------------------------------------------------------
-- The preview: what pausing from p_starts_on to p_ends_on would do (nothing changes).
create function private.preview_pause(p_member_id uuid, p_starts_on date, p_ends_on date, p_now timestamptz)
returns public.pause_quote
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_target uuid := private.pause_target(p_member_id);
begin
  return private.pause_quote(private.membership_to_pause(v_target, false), p_starts_on, p_ends_on,
                             p_member_id is not null and private.is_admin(), p_now);
end;
$$;

revoke execute on function private.preview_pause(uuid, date, date, timestamptz) from public;

grant execute on function private.preview_pause(uuid, date, date, timestamptz) to authenticated, service_role;

-- Moves a membership's renewal by p_days whole days, and every later one with it: the anchor
-- becomes the new renewal less the months already run, so later renewals fall on the new day of
-- the month (decision 0050: a new renewal on the 29th to 31st renews on the month's last day in
-- shorter months, as a membership bought on such a day does).
create function private.shift_membership(p_m public.memberships, p_days integer, p_now timestamptz)
returns public.memberships
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_end timestamptz := private.london_days_after(p_m.period_end, p_days);
begin
  update public.memberships
     set anchor_at = ((v_end at time zone 'Europe/London')
                       - make_interval(months => p_m.period_number - p_m.anchor_period + 1)) at time zone 'Europe/London',
         period_end = v_end,
         updated_at = p_now
   where id = p_m.id
  returning * into v_m;
  perform private.sync_member_from_membership(v_m);
  return v_m;
end;
$$;

revoke execute on function private.shift_membership(public.memberships, integer, timestamptz) from public;

-- Confirms the pause the preview showed (the same rules, under the membership's lock): the renewal
-- moves, the plan bookings inside it go, MRR gets its gap, and the member is told.
create function private.confirm_pause(p_member_id uuid, p_starts_on date, p_ends_on date, p_now timestamptz)
returns public.pause_quote
language plpgsql security definer set search_path = ''
as $$
declare
  v_target uuid := private.pause_target(p_member_id);
  v_by_admin boolean := p_member_id is not null and private.is_admin();
  v_m public.memberships := private.membership_to_pause(v_target, true);
  q public.pause_quote;
  v_pause public.membership_pauses;
  v_stretch public.membership_price_history;
  v_starts timestamptz;
  v_ends timestamptz;
begin
  q := private.pause_quote(v_m, p_starts_on, p_ends_on, v_by_admin, p_now);
  insert into public.membership_pauses (membership_id, member_id, starts_on, ends_on, hold_fee, by_admin,
                                        renewal_before, renewal_after, created_at)
  values (v_m.id, v_m.member_id, q.starts_on, q.ends_on, q.hold_fee, v_by_admin, q.renewal_before, q.renewal_after, p_now)
  returning * into v_pause;
  v_m := private.shift_membership(v_m, q.days, p_now);

  -- A paused month is not recurring revenue (decision 0036): the running stretch ends at the first
  -- paused day and the same price runs on from the day after the last.
  v_starts := private.london_midnight(q.starts_on);
  v_ends := private.london_midnight(q.ends_on + 1);
  select * into v_stretch from public.membership_price_history h
   where h.membership_id = v_m.id and h.ends_at is null
   order by h.starts_at desc limit 1;
  if v_stretch.id is not null then
    if v_stretch.starts_at < v_starts then
      update public.membership_price_history set ends_at = v_starts where id = v_stretch.id;
    else
      delete from public.membership_price_history where id = v_stretch.id;
    end if;
    insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
    values (v_m.id, v_stretch.plan_slug, v_stretch.tier, v_stretch.price, greatest(v_ends, v_stretch.starts_at), null);
  end if;

  perform set_config('app.booking_removal', 'member_cancelled', true);
  delete from public.bookings b
   where b.id in (select (x ->> 'booking_id')::uuid from jsonb_array_elements(q.cancelled_bookings) x);
  perform set_config('app.booking_removal', '', true);

  perform private.enqueue_membership_email('membership_paused', v_m.member_id,
    'Your ' || private.plan_name(v_m.plan_slug) || ' membership is paused from ' || private.london_date_text(v_starts),
    array['Your ' || private.plan_name(v_m.plan_slug) || ' membership is paused from '
            || private.london_date_text(v_starts) || ' to ' || private.london_date_text(private.london_midnight(q.ends_on))
            || ' (' || q.days || ' days)' || case when v_by_admin then ', as the studio arranged' else '' end || '.',
          case when q.hold_fee is null then 'There is nothing to pay while it is paused.'
               else 'The hold fee is ' || private.gbp(q.hold_fee) || ' a month (' || q.fee_months || ' × '
                    || private.gbp(q.hold_fee) || ' = ' || private.gbp(q.fee_total) || '), charged to your saved card.' end,
          'Your next renewal moves from ' || private.london_date_text(q.renewal_before) || ' to '
            || private.london_date_text(v_m.period_end) || '.'
            || case when jsonb_array_length(q.cancelled_bookings) > 0
                    then ' Your ' || jsonb_array_length(q.cancelled_bookings) || ' plan booking'
                         || case when jsonb_array_length(q.cancelled_bookings) = 1 then '' else 's' end
                         || ' inside the pause ' || case when jsonb_array_length(q.cancelled_bookings) = 1 then 'is' else 'are' end
                         || ' cancelled.'
                    else '' end],
    jsonb_build_array(jsonb_build_object('label', 'Manage your membership', 'path', '/membership')),
    'membership_paused:' || v_pause.id);
  q.renewal_after := v_m.period_end;
  return q;
end;
$$;

revoke execute on function private.confirm_pause(uuid, date, date, timestamptz) from public;

grant execute on function private.confirm_pause(uuid, date, date, timestamptz) to authenticated, service_role;

-- Ends the open pause now: one not started yet is withdrawn (the renewal moves back by all of it);
-- a running one's last day becomes yesterday (the renewal moves back by the days not taken). Hold
-- fees not yet due are never charged. Idempotent: with no open pause it answers null.
create function private.end_pause(p_member_id uuid, p_now timestamptz)
returns public.membership_pauses
language plpgsql security definer set search_path = ''
as $$
declare
  v_target uuid := private.pause_target(p_member_id);
  v_m public.memberships := private.membership_to_pause(v_target, true);
  v_pause public.membership_pauses;
  v_today date := (p_now at time zone 'Europe/London')::date;
  v_given_back integer;
  v_old_end timestamptz;
  v_prev public.membership_price_history;
begin
  v_pause := private.open_pause(v_m.id, p_now);
  if v_pause.id is null then
    return null;
  end if;
  v_old_end := private.london_midnight(v_pause.ends_on + 1);
  if v_pause.starts_on >= v_today then
    v_given_back := v_pause.ends_on - v_pause.starts_on + 1;
    update public.membership_pauses set withdrawn_at = p_now where id = v_pause.id returning * into v_pause;
  else
    v_given_back := v_pause.ends_on - (v_today - 1);
    update public.membership_pauses set ended_early_on = v_today - 1 where id = v_pause.id returning * into v_pause;
  end if;
  if v_m.id is not null and v_m.ended_at is null then
    v_m := private.shift_membership(v_m, -v_given_back, p_now);
  end if;
  -- The price history's gap shrinks to the days taken (or closes for a withdrawn pause).
  if v_pause.withdrawn_at is not null then
    select * into v_prev from public.membership_price_history h
     where h.membership_id = v_pause.membership_id and h.ends_at = private.london_midnight(v_pause.starts_on)
     order by h.starts_at desc limit 1;
    if v_prev.id is not null then
      update public.membership_price_history h
         set ends_at = (select n.ends_at from public.membership_price_history n
                         where n.membership_id = v_pause.membership_id and n.starts_at = v_old_end
                         order by n.id desc limit 1)
       where h.id = v_prev.id;
      delete from public.membership_price_history
       where membership_id = v_pause.membership_id and starts_at = v_old_end;
    end if;
  else
    update public.membership_price_history
       set starts_at = private.london_midnight(v_today)
     where membership_id = v_pause.membership_id and starts_at = v_old_end;
  end if;
  return v_pause;
end;
$$;

revoke execute on function private.end_pause(uuid, timestamptz) from public;

grant execute on function private.end_pause(uuid, timestamptz) to authenticated, service_role;

-- The member's pause that has not ended (running or to come), for /membership and the admin.
create type public.pause_view as (
  id uuid,
  starts_on date,
  ends_on date,
  hold_fee numeric,
  by_admin boolean,
  renewal_before timestamptz,
  renewal_after timestamptz,
  running boolean
);

create function private.current_pause(p_member_id uuid, p_now timestamptz)
returns public.pause_view
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_target uuid := private.pause_target(p_member_id);
  v_pause public.membership_pauses;
begin
  select p.* into v_pause from public.membership_pauses p
    join public.memberships ms on ms.id = p.membership_id and ms.ended_at is null
   where p.member_id = v_target and p.withdrawn_at is null
     and private.london_midnight(private.pause_last_day(p) + 1) > p_now
   order by p.starts_on limit 1;
  if v_pause.id is null then
    return null;
  end if;
  return (v_pause.id, v_pause.starts_on, private.pause_last_day(v_pause), v_pause.hold_fee, v_pause.by_admin,
          v_pause.renewal_before, (select ms.period_end from public.memberships ms where ms.id = v_pause.membership_id),
          private.london_midnight(v_pause.starts_on) <= p_now)::public.pause_view;
end;
$$;

revoke execute on function private.current_pause(uuid, timestamptz) from public;

grant execute on function private.current_pause(uuid, timestamptz) to authenticated, service_role;

-- Admins set the rules.
create function private.admin_set_pause_rules(
  p_members_may_pause boolean, p_min_days integer, p_max_days integer, p_per_year integer, p_notice_days integer,
  p_hold_fee numeric
)
returns public.pause_rules
language plpgsql security definer set search_path = ''
as $$
declare
  v_rules public.pause_rules;
begin
  perform private.require_admin();
  if p_min_days is null or p_max_days is null or p_min_days < 1 or p_max_days > 365 or p_min_days > p_max_days then
    raise exception 'A pause is 1 to 365 days, the shortest no longer than the longest.' using errcode = '22023', hint = 'invalid_lengths';
  end if;
  if p_per_year is null or p_per_year not between 1 and 12 then
    raise exception 'Allow 1 to 12 pauses a year.' using errcode = '22023', hint = 'invalid_per_year';
  end if;
  if p_notice_days is null or p_notice_days not between 0 and 60 then
    raise exception 'Notice is 0 to 60 days.' using errcode = '22023', hint = 'invalid_notice';
  end if;
  if p_hold_fee is not null and (p_hold_fee <= 0 or p_hold_fee > 1000 or p_hold_fee <> round(p_hold_fee, 2)) then
    raise exception 'Enter a monthly hold fee between £0.01 and £1000, or none.' using errcode = '22023', hint = 'invalid_fee';
  end if;
  update public.pause_rules
     set members_may_pause = coalesce(p_members_may_pause, true), min_days = p_min_days, max_days = p_max_days,
         per_year = p_per_year, notice_days = p_notice_days, hold_fee = p_hold_fee, updated_at = now()
   where id
  returning * into v_rules;
  return v_rules;
end;
$$;

revoke execute on function private.admin_set_pause_rules(boolean, integer, integer, integer, integer, numeric) from public;

grant execute on function private.admin_set_pause_rules(boolean, integer, integer, integer, integer, numeric) to authenticated, service_role;

-- Hold fees and reminders (service role: the renewal job) -------------------------------------------
-- The hold fees due as of p_now, each made once (derived reference: pause + month) and claimed for
-- charging with the saved card like a renewal. A fee falls due on the pause's first day and a month
-- after each, while the pause (as it stands: ended early or not) still runs on that day. A failed
-- one is tried again 1, 3 and 7 days after it fell due (renewal_retry_days), then left unpaid.
create function private.claim_due_hold_fees(p_now timestamptz)
returns setof public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_row record;
  v_reference text;
  v_payment public.payments;
  v_charge public.membership_charge;
begin
  for v_row in
    select p.id as pause_id, p.member_id, p.hold_fee, ms.plan_slug, k, (p.starts_on + make_interval(months => k))::date as due_on
      from public.membership_pauses p
      join public.memberships ms on ms.id = p.membership_id and ms.ended_at is null
      cross join generate_series(0, 12) k
     where p.hold_fee is not null and p.withdrawn_at is null
       and (p.starts_on + make_interval(months => k))::date <= private.pause_last_day(p)
       and private.london_midnight((p.starts_on + make_interval(months => k))::date) <= p_now
       and p.starts_on > (p_now at time zone 'Europe/London')::date - 400
     order by 6, 1
  loop
    v_reference := 'hold-' || v_row.pause_id::text || '-' || (v_row.k + 1)::text;
    insert into public.payments (member_id, kind, plan_slug, amount, description, checkout_reference,
                                 period_number, billing_reason, created_at)
    values (v_row.member_id, 'plan', v_row.plan_slug, v_row.hold_fee,
            'Membership hold fee, ' || private.london_date_text(private.london_midnight(v_row.due_on)),
            v_reference, v_row.k + 1, 'hold_fee', p_now)
    on conflict (checkout_reference) do nothing;
    select * into v_payment from public.payments where checkout_reference = v_reference;
    if v_payment.status = 'paid' or v_payment.status = 'expired'
       or (v_payment.status = 'failed' and (
             v_payment.attempts > cardinality(private.renewal_retry_days())
             or private.london_midnight(v_row.due_on)
                  + make_interval(days => (private.renewal_retry_days())[v_payment.attempts]) > p_now)) then
      continue;
    end if;
    v_charge := private.claim_membership_charge(v_reference, p_now);
    if v_charge.checkout_reference is not null then
      return next v_charge;
    end if;
  end loop;
end;
$$;

revoke execute on function private.claim_due_hold_fees(timestamptz) from public;

-- "Your pause ends soon", once per pause, pause_reminder_ahead() before its last day ends.
create function private.pause_reminder_ahead()
returns interval
language sql immutable set search_path = ''
as $$ select interval '3 days' $$;

revoke execute on function private.pause_reminder_ahead() from public;

create function private.enqueue_pause_reminders(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_row record;
  v_count integer := 0;
begin
  for v_row in
    select p.id, p.member_id, ms.plan_slug, ms.period_end, ms.price, private.pause_last_day(p) as last_day
      from public.membership_pauses p
      join public.memberships ms on ms.id = p.membership_id and ms.ended_at is null
     where p.withdrawn_at is null
       and private.london_midnight(private.pause_last_day(p) + 1) > p_now
       and private.london_midnight(private.pause_last_day(p) + 1) <= p_now + private.pause_reminder_ahead()
  loop
    if private.enqueue_membership_email('pause_ending', v_row.member_id,
         'Your membership pause ends on ' || private.london_date_text(private.london_midnight(v_row.last_day)),
         array['Your ' || private.plan_name(v_row.plan_slug) || ' membership pause ends on '
                 || private.london_date_text(private.london_midnight(v_row.last_day)) || ': you can book plan classes from '
                 || private.london_date_text(private.london_midnight(v_row.last_day + 1)) || '.',
               'Your next renewal is on ' || private.london_date_text(v_row.period_end) || ' ('
                 || private.gbp(v_row.price) || ').'],
         jsonb_build_array(jsonb_build_object('label', 'Book a class', 'path', '/schedule'),
                           jsonb_build_object('label', 'Manage your membership', 'path', '/membership')),
         'pause_ending:' || v_row.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_pause_reminders(timestamptz) from public;

grant execute on function private.enqueue_pause_reminders(timestamptz) to service_role;

-- Public RPCs (thin wrappers, the server's clock) --------------------------------------------------
create function public.preview_pause(p_starts_on date, p_ends_on date, p_member_id uuid default null)
returns public.pause_quote
language sql stable security invoker set search_path = ''
as $$ select * from private.preview_pause(p_member_id, p_starts_on, p_ends_on, now()) $$;

revoke execute on function public.preview_pause(date, date, uuid) from public, anon;

grant execute on function public.preview_pause(date, date, uuid) to authenticated, service_role;

create function public.confirm_pause(p_starts_on date, p_ends_on date, p_member_id uuid default null)
returns public.pause_quote
language sql volatile security invoker set search_path = ''
as $$ select * from private.confirm_pause(p_member_id, p_starts_on, p_ends_on, now()) $$;

revoke execute on function public.confirm_pause(date, date, uuid) from public, anon;

grant execute on function public.confirm_pause(date, date, uuid) to authenticated, service_role;

create function public.end_pause(p_member_id uuid default null)
returns public.membership_pauses
language sql volatile security invoker set search_path = ''
as $$ select * from private.end_pause(p_member_id, now()) $$;

revoke execute on function public.end_pause(uuid) from public, anon;

grant execute on function public.end_pause(uuid) to authenticated, service_role;

create function public.current_pause(p_member_id uuid default null)
returns public.pause_view
language sql stable security invoker set search_path = ''
as $$ select * from private.current_pause(p_member_id, now()) $$;

revoke execute on function public.current_pause(uuid) from public, anon;

grant execute on function public.current_pause(uuid) to authenticated, service_role;

create function public.admin_set_pause_rules(
  p_members_may_pause boolean, p_min_days integer, p_max_days integer, p_per_year integer, p_notice_days integer,
  p_hold_fee numeric default null
)
returns public.pause_rules
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_set_pause_rules(p_members_may_pause, p_min_days, p_max_days, p_per_year, p_notice_days, p_hold_fee) $$;

revoke execute on function public.admin_set_pause_rules(boolean, integer, integer, integer, integer, numeric) from public, anon;

grant execute on function public.admin_set_pause_rules(boolean, integer, integer, integer, integer, numeric) to authenticated, service_role;

-- Row-level security -------------------------------------------------------------------------------
create policy "Members read the pause rules"
  on public.pause_rules for select to authenticated
  using (true);

create policy "Members read their own pauses; admins read all"
  on public.membership_pauses for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Every change an admin or coach makes here is in the audit trail (25_audit.sql, decision 0045).
create trigger audit_trail
  after insert or update or delete on public.pause_rules
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.membership_pauses
  for each row execute function private.audit_change();
