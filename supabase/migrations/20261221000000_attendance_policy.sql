-- Attendance policy (decision 0080): late-cancel and no-show fees charged to the saved card by the
-- renewal job (or left owed), strikes that block booking, an admin's waiver with a reason (a paid
-- fee is owed back), and fees as their own line of revenue.
alter table public.payments drop constraint payments_billing_reason_check;

alter table public.payments add constraint payments_billing_reason_check
  check (billing_reason in ('start', 'renewal', 'upgrade', 'hold_fee', 'attendance_fee'));

alter table public.refunds_owed drop constraint refunds_owed_reason_check;

alter table public.refunds_owed add constraint refunds_owed_reason_check
  check (reason in ('admin_cancelled', 'class_deleted', 'timetable_regenerated', 'member_deleted',
                    'class_filled', 'duplicate_payment', 'superseded_checkout', 'member_removed', 'period_already_paid',
                    'member_cancelled_in_time', 'package_refunded', 'booking_refused', 'fee_waived'));


-- Tables -----------------------------------------------------------------------------------------
-- The policy over time: each change an admin makes is a new row from that moment. A booking is
-- held to the row in force when it was booked (what the member was shown before booking); the
-- strikes rule in force now decides a block. No row, or a row with every rule empty: off.
create table public.attendance_policies (
  id uuid primary key default gen_random_uuid(),
  valid_from timestamptz not null unique,
  late_cancel_fee numeric(10, 2) check (late_cancel_fee > 0 and late_cancel_fee <= 100),
  no_show_fee numeric(10, 2) check (no_show_fee > 0 and no_show_fee <= 100),
  -- Strikes: strike_limit late cancellations or no-shows within 30 days block booking for block_days.
  strike_limit integer check (strike_limit between 1 and 20),
  block_days integer check (block_days between 1 and 90),
  set_by uuid references public.members (id) on delete set null,
  constraint attendance_policies_strikes check ((strike_limit is null) = (block_days is null))
);

comment on table public.attendance_policies is
  'The studio''s attendance policy over time (late-cancel and no-show fees, strikes); a booking is held to the row in force when it was booked.';

alter table public.attendance_policies enable row level security;

revoke all on public.attendance_policies from public, anon, authenticated;

-- Anyone may read the rules: they are shown before booking.
grant select on public.attendance_policies to anon, authenticated;

grant all on public.attendance_policies to service_role;

-- One late cancellation or no-show of a booking made under a policy, recorded once.
create table public.attendance_incidents (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  -- The booking's id (a late-cancelled booking's row is gone, so no key).
  booking_id uuid not null,
  kind text not null check (kind in ('late_cancel', 'no_show')),
  class_id uuid references public.classes (id) on delete set null,
  class_name text not null,
  class_start_time timestamptz not null,
  -- When it happened: the cancellation, or the class's start for a no-show.
  occurred_at timestamptz not null,
  policy_id uuid not null references public.attendance_policies (id),
  -- The fee of the booking's policy for this kind; null: a strike only.
  fee numeric(10, 2) check (fee > 0),
  payment_id uuid unique references public.payments (id) on delete set null,
  waived_at timestamptz,
  waived_by uuid references public.members (id) on delete set null,
  waive_reason text check (char_length(waive_reason) between 3 and 500),
  created_at timestamptz not null default now(),
  constraint attendance_incidents_once unique (booking_id, kind),
  constraint attendance_incidents_waived check ((waived_at is null) = (waive_reason is null))
);

comment on table public.attendance_incidents is
  'Late cancellations and no-shows of bookings made under an attendance policy: each a strike, and its fee if the policy had one.';

-- Strikes within 30 days of now, per member.
create index attendance_incidents_member_occurred_idx on public.attendance_incidents (member_id, occurred_at);

create index attendance_incidents_class_id_idx on public.attendance_incidents (class_id);

create index attendance_incidents_policy_id_idx on public.attendance_incidents (policy_id);

create index attendance_incidents_waived_by_idx on public.attendance_incidents (waived_by);

alter table public.attendance_incidents enable row level security;

revoke all on public.attendance_incidents from public, anon, authenticated;

grant select on public.attendance_incidents to authenticated;

grant all on public.attendance_incidents to service_role;

-- The policy ------------------------------------------------------------------------------------
-- The policy in force at p_at (null fields: that rule is off; a row of nulls: no policy yet).
create function private.attendance_policy_at(p_at timestamptz)
returns public.attendance_policies
language sql stable security definer set search_path = ''
as $$
  select p.* from public.attendance_policies p where p.valid_from <= p_at order by p.valid_from desc limit 1
$$;

revoke execute on function private.attendance_policy_at(timestamptz) from public;

-- True when a policy has any rule.
create function private.attendance_policy_on(p public.attendance_policies)
returns boolean
language sql immutable set search_path = ''
as $$ select p.late_cancel_fee is not null or p.no_show_fee is not null or p.strike_limit is not null $$;

revoke execute on function private.attendance_policy_on(public.attendance_policies) from public;

-- Admin only: the new policy from now. Every field null turns it off. Bookings already made keep
-- the policy they were made under.
create function private.admin_set_attendance_policy(
  p_late_cancel_fee numeric, p_no_show_fee numeric, p_strike_limit integer, p_block_days integer, p_now timestamptz
)
returns public.attendance_policies
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_row public.attendance_policies;
begin
  perform private.require_admin();
  if (p_late_cancel_fee is not null and (p_late_cancel_fee <= 0 or p_late_cancel_fee > 100 or p_late_cancel_fee <> round(p_late_cancel_fee, 2)))
     or (p_no_show_fee is not null and (p_no_show_fee <= 0 or p_no_show_fee > 100 or p_no_show_fee <> round(p_no_show_fee, 2))) then
    raise exception 'Enter a fee between £0.01 and £100, or none.' using errcode = '22023', hint = 'invalid_fee';
  end if;
  if (p_strike_limit is null) <> (p_block_days is null) then
    raise exception 'Set both the number of strikes and the days booking is blocked, or neither.'
      using errcode = '22023', hint = 'invalid_strikes';
  end if;
  if p_strike_limit is not null and (p_strike_limit not between 1 and 20 or p_block_days not between 1 and 90) then
    raise exception 'Strikes are 1 to 20 within 30 days; a block is 1 to 90 days.' using errcode = '22023', hint = 'invalid_strikes';
  end if;
  -- Two changes in one instant: the later one stands.
  insert into public.attendance_policies as p (valid_from, late_cancel_fee, no_show_fee, strike_limit, block_days, set_by)
  values (p_now, p_late_cancel_fee, p_no_show_fee, p_strike_limit, p_block_days, private.current_member_id())
  on conflict (valid_from) do update
    set late_cancel_fee = excluded.late_cancel_fee, no_show_fee = excluded.no_show_fee,
        strike_limit = excluded.strike_limit, block_days = excluded.block_days, set_by = excluded.set_by
    where p.valid_from = excluded.valid_from
  returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.admin_set_attendance_policy(numeric, numeric, integer, integer, timestamptz) from public;

grant execute on function private.admin_set_attendance_policy(numeric, numeric, integer, integer, timestamptz) to authenticated, service_role;

-- Incidents and their fees ----------------------------------------------------------------------
-- Records the incident of a booking once (a second call, a second job run or a replay does
-- nothing) under the policy it was booked under, and its fee as a payment the renewal job
-- charges. Nothing when that policy was off. Answers the incident when it made one.
create function private.record_attendance_incident(
  p_member_id uuid, p_booking_id uuid, p_kind text, p_class public.classes, p_booked_at timestamptz, p_occurred_at timestamptz,
  p_now timestamptz
)
returns public.attendance_incidents
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_policy public.attendance_policies := private.attendance_policy_at(p_booked_at);
  v_fee numeric(10, 2);
  v_incident public.attendance_incidents;
  v_payment uuid;
begin
  if v_policy.id is null or not private.attendance_policy_on(v_policy) then
    return null;
  end if;
  v_fee := case p_kind when 'late_cancel' then v_policy.late_cancel_fee else v_policy.no_show_fee end;
  insert into public.attendance_incidents (member_id, booking_id, kind, class_id, class_name, class_start_time,
                                           occurred_at, policy_id, fee, created_at)
  values (p_member_id, p_booking_id, p_kind, p_class.id, p_class.name, p_class.start_time, p_occurred_at, v_policy.id,
          v_fee, p_now)
  on conflict (booking_id, kind) do nothing
  returning * into v_incident;
  if v_incident.id is null or v_fee is null then
    return v_incident;
  end if;
  insert into public.payments (member_id, kind, class_id, amount, description, checkout_reference, billing_reason, created_at)
  values (p_member_id, 'class', p_class.id, v_fee,
          case p_kind when 'late_cancel' then 'Late cancellation fee: ' else 'No-show fee: ' end
            || p_class.name || ', ' || private.london_time_text(p_class.start_time),
          'fee-' || v_incident.id::text, 'attendance_fee', p_now)
  returning id into v_payment;
  update public.attendance_incidents set payment_id = v_payment where id = v_incident.id returning * into v_incident;
  return v_incident;
end;
$$;

revoke execute on function private.record_attendance_incident(uuid, uuid, text, public.classes, timestamptz, timestamptz, timestamptz) from public;

-- The no-shows the policy covers, recorded by the no-show job (mark_no_shows) after it marks: every
-- member's booking marked no_show (by the job or at the door) of a class since attendance was first
-- recorded, made under a policy. Incidents already recorded are skipped, so running it twice does
-- nothing the second time. Answers how many it recorded.
create function private.record_no_show_incidents(p_now timestamptz)
returns integer
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_first timestamptz := (select min(p.valid_from) from public.attendance_policies p where private.attendance_policy_on(p));
  v_row record;
  v_count integer := 0;
begin
  if v_first is null then
    return 0;
  end if;
  for v_row in
    select b.id, b.member_id, b.booked_at, c as class
      from public.bookings b
      join public.classes c on c.id = b.class_id
     where b.attendance = 'no_show' and b.payment_status = 'completed'
       and c.start_time >= greatest(private.attendance_recorded_from(), v_first)
       and c.start_time <= p_now
       and b.booked_at >= v_first
       and not exists (select 1 from public.attendance_incidents i where i.booking_id = b.id and i.kind = 'no_show')
     order by c.start_time, b.id
  loop
    if (private.record_attendance_incident(v_row.member_id, v_row.id, 'no_show', v_row.class, v_row.booked_at,
                                           (v_row.class).start_time, p_now)).id is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.record_no_show_incidents(timestamptz) from public;

-- The fees not yet charged, each claimed once for charging with the saved card (the renewal job,
-- through claim_due_renewals). One attempt: a decline or no saved card leaves the fee owed.
create function private.claim_due_attendance_fees(p_now timestamptz)
returns setof public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_reference text;
  v_charge public.membership_charge;
begin
  for v_reference in
    select p.checkout_reference
      from public.attendance_incidents i
      join public.payments p on p.id = i.payment_id
     where p.status = 'pending' and p.attempts = 0 and i.waived_at is null and p.created_at <= p_now
     order by p.created_at, p.id
  loop
    v_charge := private.claim_membership_charge(v_reference, p_now);
    if v_charge.checkout_reference is not null then
      return next v_charge;
    end if;
  end loop;
end;
$$;

revoke execute on function private.claim_due_attendance_fees(timestamptz) from public;

-- A fee's charge was paid (apply_membership_charge): if an admin waived it while it was being
-- charged, the money is owed back at once.
create function private.attendance_fee_paid(p_payment_id uuid, p_now timestamptz)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  if exists (select 1 from public.attendance_incidents i where i.payment_id = p_payment_id and i.waived_at is not null) then
    perform private.owe_payment_back(p_payment_id, 'fee_waived', p_now);
  end if;
end;
$$;

revoke execute on function private.attendance_fee_paid(uuid, timestamptz) from public;

-- What an incident's fee stands at: strike (no fee), waived, due (not charged yet), charged, owed
-- (declined or no saved card: the member owes it), refund_owed (waived after it was paid).
create function private.attendance_fee_state(p_incident public.attendance_incidents, p_payment public.payments)
returns text
language sql immutable set search_path = ''
as $$
  select case
    when p_payment.needs_refund then 'refund_owed'
    when p_incident.waived_at is not null then 'waived'
    when p_incident.fee is null then 'strike'
    when p_payment.status = 'paid' then 'charged'
    when p_payment.status in ('failed', 'expired') then 'owed'
    else 'due'
  end
$$;

revoke execute on function private.attendance_fee_state(public.attendance_incidents, public.payments) from public;

-- Admin only: waive an incident with a reason. It no longer counts as a strike; its fee is never
-- charged if it has not been, and is owed back (refunds_owed) if it has. A fee being charged at
-- this moment is owed back when its payment is applied (attendance_fee_paid). The payment row is
-- locked before the incident, as apply_membership_charge does, so the two queue rather than deadlock.
create function private.admin_waive_attendance(p_incident_id uuid, p_reason text)
returns public.attendance_incidents
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_incident public.attendance_incidents;
  v_payment public.payments;
  v_reason text := btrim(coalesce(p_reason, ''));
begin
  perform private.require_admin();
  if char_length(v_reason) < 3 or char_length(v_reason) > 500 then
    raise exception 'Give a reason (3 to 500 characters).' using errcode = '22023', hint = 'invalid_reason';
  end if;
  select * into v_payment from public.payments
   where id = (select i.payment_id from public.attendance_incidents i where i.id = p_incident_id)
   for update;
  select * into v_incident from public.attendance_incidents where id = p_incident_id for update;
  if not found then
    raise exception 'Attendance record not found.' using errcode = 'P0002', hint = 'incident_not_found';
  end if;
  if v_incident.waived_at is not null then
    raise exception 'This has already been waived.' using errcode = 'P0001', hint = 'already_waived';
  end if;
  update public.attendance_incidents
     set waived_at = now(), waived_by = private.current_member_id(), waive_reason = v_reason
   where id = v_incident.id
  returning * into v_incident;
  if v_payment.id is not null then
    if v_payment.status = 'paid' then
      perform private.owe_payment_back(v_payment.id, 'fee_waived', now());
    elsif v_payment.status = 'pending' and (v_payment.claimed_until is null or v_payment.claimed_until <= now()) then
      update public.payments set status = 'expired' where id = v_payment.id;
    end if;
  end if;
  return v_incident;
end;
$$;

revoke execute on function private.admin_waive_attendance(uuid, text) from public;

grant execute on function private.admin_waive_attendance(uuid, text) to authenticated;

-- Strikes -----------------------------------------------------------------------------------------
-- Until when this member may not book as of p_now, or null. Under the strikes rule in force, an
-- incident that is the strike_limit-th (or more) within the 30 days up to it blocks booking for
-- block_days from it; waived incidents do not count.
create function private.booking_blocked_until(p_member_id uuid, p_now timestamptz)
returns timestamptz
language sql stable security definer set search_path = ''
as $$
  with policy as (select * from private.attendance_policy_at(p_now) where strike_limit is not null),
  recent as (
    select i.occurred_at
      from policy, public.attendance_incidents i
     where i.member_id = p_member_id and i.waived_at is null and i.occurred_at <= p_now
       and i.occurred_at > p_now - make_interval(days => policy.block_days) - interval '30 days')
  select max(r.occurred_at + make_interval(days => policy.block_days))
    from policy, recent r
   where r.occurred_at + make_interval(days => policy.block_days) > p_now
     and (select count(*) from recent s where s.occurred_at > r.occurred_at - interval '30 days'
                                         and s.occurred_at <= r.occurred_at) >= policy.strike_limit
$$;

revoke execute on function private.booking_blocked_until(uuid, timestamptz) from public;

-- What a member is told: the policy in force, their strikes within 30 days, until when they are
-- blocked, and what they owe.
create type public.attendance_standing as (
  late_cancel_fee numeric,
  no_show_fee numeric,
  strike_limit integer,
  block_days integer,
  strikes integer,
  blocked_until timestamptz,
  owed numeric
);

create function private.attendance_standing(p_member_id uuid, p_now timestamptz)
returns public.attendance_standing
language sql stable security definer set search_path = ''
as $$
  select p.late_cancel_fee, p.no_show_fee, p.strike_limit, p.block_days,
         (select count(*)::int from public.attendance_incidents i
           where i.member_id = p_member_id and i.waived_at is null
             and i.occurred_at > p_now - interval '30 days' and i.occurred_at <= p_now),
         private.booking_blocked_until(p_member_id, p_now),
         (select coalesce(sum(i.fee), 0) from public.attendance_incidents i
            join public.payments pay on pay.id = i.payment_id
           where i.member_id = p_member_id and private.attendance_fee_state(i, pay) = 'owed')
    from (select 1) one
    left join lateral (select * from private.attendance_policy_at(p_now)) p on true
$$;

revoke execute on function private.attendance_standing(uuid, timestamptz) from public;

-- The incidents a member sees (their own, whatever they ask for) or an admin sees (everyone's, or
-- one member's).
create type public.attendance_incident_row as (
  id uuid,
  member_id uuid,
  member_name text,
  member_email text,
  kind text,
  class_name text,
  class_start_time timestamptz,
  occurred_at timestamptz,
  fee numeric,
  fee_state text,
  waived_at timestamptz,
  waive_reason text
);

create function private.attendance_incident_rows(p_member_id uuid)
returns setof public.attendance_incident_row
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member uuid := p_member_id;
begin
  perform private.require_user_id();
  if not private.is_admin() then
    v_member := private.current_member_id();
  end if;
  return query
    select i.id, i.member_id, m.name, m.email::text, i.kind, i.class_name, i.class_start_time, i.occurred_at, i.fee,
           private.attendance_fee_state(i, p), i.waived_at, i.waive_reason
      from public.attendance_incidents i
      join public.members m on m.id = i.member_id
      left join public.payments p on p.id = i.payment_id
     where (v_member is null and private.is_admin()) or i.member_id = v_member
     order by i.occurred_at desc, i.id
     limit 500;
end;
$$;

revoke execute on function private.attendance_incident_rows(uuid) from public;

grant execute on function private.attendance_incident_rows(uuid) to authenticated;

-- Public RPCs (thin wrappers, the server's clock) --------------------------------------------------
create function public.admin_set_attendance_policy(
  p_late_cancel_fee numeric, p_no_show_fee numeric, p_strike_limit integer, p_block_days integer
)
returns public.attendance_policies
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_set_attendance_policy(p_late_cancel_fee, p_no_show_fee, p_strike_limit, p_block_days, now()) $$;

revoke execute on function public.admin_set_attendance_policy(numeric, numeric, integer, integer) from public, anon;

grant execute on function public.admin_set_attendance_policy(numeric, numeric, integer, integer) to authenticated;

create function public.admin_waive_attendance(p_incident_id uuid, p_reason text)
returns public.attendance_incidents
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_waive_attendance(p_incident_id, p_reason) $$;

revoke execute on function public.admin_waive_attendance(uuid, text) from public, anon;

grant execute on function public.admin_waive_attendance(uuid, text) to authenticated;

create function private.my_attendance_standing()
returns public.attendance_standing
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_user_id();
  return private.attendance_standing(private.current_member_id(), now());
end;
$$;

revoke execute on function private.my_attendance_standing() from public;

grant execute on function private.my_attendance_standing() to authenticated;

create function public.my_attendance_standing()
returns public.attendance_standing
language sql stable security invoker set search_path = ''
as $$ select * from private.my_attendance_standing() $$;

revoke execute on function public.my_attendance_standing() from public, anon;

grant execute on function public.my_attendance_standing() to authenticated;

create function public.attendance_incidents_of(p_member_id uuid default null)
returns setof public.attendance_incident_row
language sql stable security invoker set search_path = ''
as $$ select * from private.attendance_incident_rows(p_member_id) $$;

revoke execute on function public.attendance_incidents_of(uuid) from public, anon;

grant execute on function public.attendance_incidents_of(uuid) to authenticated;

-- Row-level security -------------------------------------------------------------------------------
create policy "Everyone reads the attendance policy"
  on public.attendance_policies for select to anon, authenticated
  using (true);

create policy "Members read their own attendance incidents; admins read all"
  on public.attendance_incidents for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Every change an admin or coach makes here is in the audit trail (25_audit.sql, decision 0045).
create trigger audit_trail
  after insert or update or delete on public.attendance_policies
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.attendance_incidents
  for each row execute function private.audit_change();

-- Functions of other files that the policy reaches into ---------------------------------------
create or replace function private.cancel_booking(p_booking_id uuid)
returns public.cancellation_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_class public.classes;
  r public.cancellation_result;
begin
  perform private.require_user_id();
  select b.* into v_booking from public.bookings b where b.id = p_booking_id for update;
  if not found
     or not (v_booking.member_id = private.current_member_id() or private.is_admin()) then
    -- Same answer for "not yours" and "not there": nothing to learn about others' bookings.
    raise exception 'Could not cancel this booking (permission).' using errcode = '42501', hint = 'not_permitted';
  end if;
  select * into v_class from public.classes where id = v_booking.class_id;

  -- Late only for the member's own confirmed booking: an admin cancelling (the studio's call) or
  -- a member dropping an unpaid hold does not use up the plan.
  r.late := v_booking.member_id = private.current_member_id()
        and v_booking.payment_status = 'completed'
        and coalesce(now() >= private.booking_late_cancel_from(v_class, v_booking.booked_at), false);
  if r.late then
    insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
    values (v_booking.member_id, v_booking.class_id, v_booking.id, v_booking.type, v_booking.booked_at, v_class.start_time);
    -- Under an attendance policy it is a strike, and its fee is charged (28_attendance_policy.sql).
    perform private.record_attendance_incident(v_booking.member_id, v_booking.id, 'late_cancel', v_class,
                                               v_booking.booked_at, now(), now());
  end if;

  -- A member's own cancellation owes no refund; an admin's does (bookings_record_refund_owed).
  if v_booking.member_id = private.current_member_id() then
    perform set_config('app.booking_removal', 'member_cancelled', true);
  end if;
  -- A place held for a family's payment goes with the others held for it: all places or none.
  delete from public.bookings
   where id = v_booking.id
      or (v_booking.payment_status = 'pending' and family_payment_id = v_booking.family_payment_id and payment_status = 'pending');
  perform set_config('app.booking_removal', '', true);

  if v_booking.payment_status = 'completed' then
    perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, v_booking.class_id,
                                        v_booking.id, r.late);
  end if;

  r.booking_id := v_booking.id;
  r.class_id := v_booking.class_id;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_booking.class_id);
  return r;
end;
$$;

revoke execute on function private.cancel_booking(uuid) from public;

grant execute on function private.cancel_booking(uuid) to authenticated;

create or replace function private.booking_refusal(
  p_member public.members, p_class public.classes, p_booking_type public.booking_type
)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  if p_class.start_time <= now() then
    return 'class_started';
  end if;
  -- The member's own place (a child's place is theirs: 21_families.sql).
  if exists (select 1 from public.bookings b where b.member_id = p_member.id and b.class_id = p_class.id and b.dependant_id is null) then
    return 'already_booked';
  end if;
  if private.booking_blocked_until(p_member.id, now()) is not null then
    return 'booking_blocked';
  end if;
  if private.is_class_locked(p_member.membership_tier, p_class.is_premium, p_class.start_time,
                             p_class.unlock_for_standard, now()) then
    return 'class_locked';
  end if;
  if p_class.spots_left <= 0 then
    return 'class_full';
  end if;
  -- A plan booking is checked against the period the class falls in (not only this one's usage).
  if coalesce(p_booking_type, private.booking_type_for(p_member, null)) = 'paid' then
    return private.plan_class_refusal(p_member, p_class.start_time);
  end if;
  return private.booking_type_refusal(p_member, p_booking_type);
end;
$$;

revoke execute on function private.booking_refusal(public.members, public.classes, public.booking_type) from public;

create or replace function private.raise_booking_refusal(p_hint text, p_class public.classes, p_member public.members)
returns void
language plpgsql volatile set search_path = ''
as $$
begin
  case p_hint
    when 'class_started' then
      raise exception 'This class has already started' using errcode = 'P0001', hint = p_hint;
    when 'already_booked' then
      raise exception 'You have already booked this class' using errcode = '23505', hint = p_hint;
    when 'booking_blocked' then
      raise exception 'You cannot book classes until %: % late cancellations or no-shows within 30 days',
        private.london_time_text(private.booking_blocked_until(p_member.id, now())),
        (private.attendance_policy_at(now())).strike_limit
        using errcode = 'P0001', hint = p_hint;
    when 'class_locked' then
      raise exception 'This premium class opens for booking on %',
        to_char(private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard)
                  at time zone 'Europe/London', 'Mon FMDD, YYYY, FMHH12:MI AM')
        using errcode = 'P0001', hint = p_hint;
    when 'class_full' then
      raise exception 'This class is fully booked' using errcode = 'P0001', hint = p_hint;
    when 'trial_unavailable' then
      raise exception 'Your free trial has already been used' using errcode = 'P0001', hint = p_hint;
    when 'plan_required' then
      raise exception 'Member bookings are for Standard and Platinum Premium members' using errcode = 'P0001', hint = p_hint;
    when 'allowance_used' then
      raise exception 'You''ve used your % classes this month', private.plan_allowance(p_member.membership_tier)
        using errcode = 'P0001', hint = p_hint;
    when 'plan_paused' then
      raise exception 'Your membership is paused then: book this one as pay-as-you-go'
        using errcode = 'P0001', hint = p_hint;
    when 'outside_plan_period' then
      raise exception 'Your plan covers classes until %: book this one as pay-as-you-go',
        coalesce(private.london_date_text(private.plan_covers_until(p_member.id)), 'its last day')
        using errcode = 'P0001', hint = p_hint;
    else
      raise exception 'Unknown booking refusal %', p_hint using errcode = 'XX000';
  end case;
end;
$$;

revoke execute on function private.raise_booking_refusal(text, public.classes, public.members) from public;

create or replace function private.claim_due_renewals(p_now timestamptz, p_limit integer)
returns setof public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_reference text;
  v_charge public.membership_charge;
begin
  for v_m in
    select * from public.memberships ms
     where ms.ended_at is null and ms.renews
       and ((ms.status = 'active' and ms.period_end <= p_now) or (ms.status = 'past_due' and ms.next_retry_at <= p_now))
     order by ms.period_end, ms.id
     limit greatest(1, least(coalesce(p_limit, 50), 500))
     for update skip locked
  loop
    v_reference := 'renew-' || v_m.id::text || '-' || (v_m.period_number + 1)::text;
    insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference,
                                 membership_id, period_number, billing_reason, created_at)
    values (v_m.member_id, 'plan', coalesce(v_m.next_plan_slug, v_m.plan_slug), coalesce(v_m.next_tier, v_m.tier),
            coalesce(v_m.next_price, v_m.price),
            private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership, '
              || private.london_date_text(v_m.period_end) || ' to '
              || private.london_date_text(private.months_after(v_m.anchor_at, v_m.period_number + 2 - v_m.anchor_period)),
            v_reference, v_m.id, v_m.period_number + 1, 'renewal', p_now)
    on conflict (checkout_reference) do nothing;
    v_charge := private.claim_membership_charge(v_reference, p_now);
    if v_charge.checkout_reference is not null then
      return next v_charge;
    end if;
  end loop;
  -- Paused memberships' monthly hold fees are charged the same way (25_membership_pauses.sql).
  return query select * from private.claim_due_hold_fees(p_now);
  -- Late-cancel and no-show fees too (28_attendance_policy.sql).
  return query select * from private.claim_due_attendance_fees(p_now);
end;
$$;

revoke execute on function private.claim_due_renewals(timestamptz, integer) from public;

grant execute on function private.claim_due_renewals(timestamptz, integer) to service_role;

create or replace function private.apply_membership_charge(
  p_checkout_reference text, p_provider_checkout_id text, p_provider_status text, p_amount numeric, p_currency text,
  p_now timestamptz
)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_m public.memberships;
  v_next integer;
  v_refusal text;
begin
  -- Two charges of one member are applied one after the other (two first months must not both
  -- start a period); an advisory lock, so the lock order of every membership change stays the
  -- membership, then its payment, then the member.
  perform pg_advisory_xact_lock(hashtextextended(
    'membership-charge:' || coalesce((select p.member_id::text from public.payments p where p.checkout_reference = p_checkout_reference), ''), 0));
  select * into v_m from public.memberships
   where member_id = (select p.member_id from public.payments p where p.checkout_reference = p_checkout_reference)
   for update;
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null
   for update;
  if not found then
    return ('unknown_reference', null, null)::public.checkout_result;
  end if;
  if (v_payment.provider_checkout_id is not null and v_payment.provider_checkout_id <> p_provider_checkout_id)
     or p_amount is null or round(p_amount, 2) <> v_payment.amount or p_currency is distinct from v_payment.currency then
    return ('mismatch', v_payment.id, v_payment.status)::public.checkout_result;
  end if;
  if v_payment.provider_checkout_id is null then
    update public.payments set provider_checkout_id = p_provider_checkout_id where id = v_payment.id;
  end if;
  if v_payment.status = 'paid' then
    return ('already_applied', v_payment.id, 'paid')::public.checkout_result;
  end if;
  -- Failures are applied only by the attempt that made them (fail_membership_charge), so a replayed
  -- notification of an old decline cannot count as a new one.
  if p_provider_status <> 'PAID' then
    return ('still_pending', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  v_refusal := private.charge_not_allowed(v_payment);
  if v_refusal is null and v_payment.billing_reason in ('renewal', 'upgrade')
     and (v_m.id is null or v_m.id is distinct from v_payment.membership_id or v_m.ended_at is not null
          or v_payment.period_number <> v_m.period_number + 1) then
    v_refusal := 'period_already_paid';
  end if;
  if v_refusal is not null then
    perform private.owe_payment_back(v_payment.id, v_refusal, p_now);
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  -- A pause's hold fee and an attendance fee pay for nothing but themselves: the membership does
  -- not change. An attendance fee waived while it was being charged is owed back.
  if v_payment.billing_reason in ('hold_fee', 'attendance_fee') then
    update public.payments set status = 'paid', paid_at = p_now, claimed_until = null where id = v_payment.id;
    if v_payment.billing_reason = 'attendance_fee' then
      perform private.attendance_fee_paid(v_payment.id, p_now);
    end if;
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.billing_reason = 'renewal' then
    v_next := v_m.period_number + 1;
    update public.memberships
       set period_number = v_next,
           period_start = v_m.period_end,
           period_end = private.months_after(v_m.anchor_at, v_next - v_m.anchor_period + 1),
           plan_slug = v_payment.plan_slug, tier = v_payment.grants_tier, price = v_payment.amount,
           next_plan_slug = null, next_tier = null, next_price = null,
           status = 'active', renews = true, retry_count = 0, next_retry_at = null, updated_at = p_now
     where id = v_m.id
    returning * into v_m;
  else
    -- start or upgrade: a new period starts now (a trial or ended membership becomes this plan).
    v_next := coalesce(v_m.period_number, 0) + 1;
    insert into public.memberships as ms (member_id, plan_slug, tier, status, price, period_number, period_start,
                                          period_end, anchor_at, anchor_period, renews, updated_at)
    values (v_payment.member_id, v_payment.plan_slug, v_payment.grants_tier, 'active',
            v_payment.amount + coalesce(v_payment.upgrade_credit, 0), v_next, p_now,
            private.months_after(p_now, 1), p_now, v_next, true, p_now)
    on conflict (member_id) do update
      set plan_slug = excluded.plan_slug, tier = excluded.tier, status = 'active', price = excluded.price,
          period_number = excluded.period_number, period_start = excluded.period_start,
          period_end = excluded.period_end, anchor_at = excluded.anchor_at, anchor_period = excluded.anchor_period,
          renews = true, ended_at = null, next_plan_slug = null, next_tier = null, next_price = null,
          retry_count = 0, next_retry_at = null, updated_at = p_now
      where ms.member_id = excluded.member_id
    returning * into v_m;
  end if;

  update public.payments
     set status = 'paid', paid_at = p_now, membership_id = v_m.id, period_number = v_next, claimed_until = null
   where id = v_payment.id;
  perform private.sync_member_from_membership(v_m);

  if v_payment.billing_reason = 'renewal' then
    perform private.enqueue_membership_email('renewal_receipt', v_m.member_id,
      'Receipt: your ' || private.plan_name(v_m.plan_slug) || ' membership renewed',
      array['Thank you: we charged ' || private.gbp(v_payment.amount) || ' to your saved card for '
              || v_payment.description || '.',
            'Your next renewal is on ' || private.london_date_text(v_m.period_end) || '.'],
      jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
      'renewal_receipt:' || v_payment.id);
  end if;
  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

revoke execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) from public;

grant execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) to service_role;

create or replace function private.mark_no_shows(p_now timestamptz)
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

create or replace function private.report_revenue(p_from date, p_to date)
returns setof public.revenue_row
language sql stable security definer set search_path = ''
as $$
  with months as (select * from private.report_months(p_from, p_to)),
  lines (line, ord) as (values ('memberships', 1), ('classes', 2), ('packages', 3), ('guest_places', 4), ('hold_fees', 5), ('attendance_fees', 6)),
  -- The product line of a payment: class payments are pay-as-you-go classes, except a guest's
  -- place paid at the class price (its reference starts 'guest-', create_guest_payment_hold); plan
  -- payments are packages (training plans) or memberships. A refund whose payment is gone is a
  -- class's when it names a class start.
  -- One range scan each (payments by paid_at, refunds by refunded_at), grouped by London month.
  bounds as (select min(starts) as starts, max(ends) as ends from months),
  paid as (
    select date_trunc('month', p.paid_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'class' and p.checkout_reference like 'guest-%' then 'guest_places'
                when p.billing_reason = 'hold_fee' then 'hold_fees'
                when p.billing_reason = 'attendance_fee' then 'attendance_fees'
                when p.kind = 'class' then 'classes' when pl.category = 'training' then 'packages' else 'memberships' end as line,
           count(*)::int as n, sum(p.amount) as amount
      from bounds bd
      join public.payments p on p.status = 'paid' and p.paid_at >= bd.starts and p.paid_at < bd.ends
      left join public.plans pl on pl.slug = p.plan_slug
     group by 1, 2),
  back as (
    select date_trunc('month', r.refunded_at at time zone 'Europe/London')::date as month,
           case when p.kind = 'class' and p.checkout_reference like 'guest-%' then 'guest_places'
                when p.billing_reason = 'hold_fee' then 'hold_fees'
                when p.billing_reason = 'attendance_fee' then 'attendance_fees'
                when p.kind = 'class' or (p.id is null and r.class_start_time is not null) then 'classes'
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

revoke execute on function private.report_revenue(date, date) from public;

