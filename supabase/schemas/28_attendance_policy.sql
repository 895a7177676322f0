-- Attendance policy (decision 0080): off until an admin sets it. A late cancellation or a no-show
-- of a booking made under a policy is recorded once (an incident, keyed by booking and kind); its
-- fee, if the policy has one, is a payment with a derived reference (fee-<incident>) charged to
-- the saved card by the renewal job like a hold fee (claim_due_renewals), or left owed when there
-- is no card or it is declined. Strikes (N incidents within 30 days) refuse new bookings for M
-- days (booking_refusal, hint booking_blocked). An admin waives an incident with a reason: an
-- unpaid fee is never charged, a paid one is owed back (refunds_owed, reason fee_waived).
-- Beside it, the pay-as-you-go waitlist (decision 0081): a place given from the waitlist to a
-- member who pays per class is charged to their saved card the same way, once.

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
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_policy public.attendance_policies;
begin
  select p.* into v_policy from public.attendance_policies p where p.valid_from <= p_at order by p.valid_from desc limit 1;
  -- No policy yet: null, not a row of nulls.
  if not found then
    return null;
  end if;
  return v_policy;
end;
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
-- nothing) under the policy it was booked under, its fee as a payment the renewal job charges,
-- and the member's email. Nothing when that policy was off or has neither a fee for this kind nor
-- strikes. Answers the incident when it made one.
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
  v_strikes integer;
begin
  if v_policy.id is null or not private.attendance_policy_on(v_policy) then
    return null;
  end if;
  v_fee := case p_kind when 'late_cancel' then v_policy.late_cancel_fee else v_policy.no_show_fee end;
  -- Neither a fee nor a strike (only the other kind has a fee): nothing follows, nothing is recorded.
  if v_fee is null and v_policy.strike_limit is null then
    return null;
  end if;
  insert into public.attendance_incidents (member_id, booking_id, kind, class_id, class_name, class_start_time,
                                           occurred_at, policy_id, fee, created_at)
  values (p_member_id, p_booking_id, p_kind, p_class.id, p_class.name, p_class.start_time, p_occurred_at, v_policy.id,
          v_fee, p_now)
  on conflict (booking_id, kind) do nothing
  returning * into v_incident;
  if v_incident.id is null then
    return v_incident;
  end if;
  if v_fee is not null then
    insert into public.payments (member_id, kind, class_id, amount, description, checkout_reference, billing_reason, created_at)
    values (p_member_id, 'class', p_class.id, v_fee,
            case p_kind when 'late_cancel' then 'Late cancellation fee: ' else 'No-show fee: ' end
              || p_class.name || ', ' || private.london_time_text(p_class.start_time),
            'fee-' || v_incident.id::text, 'attendance_fee', p_now)
    returning id into v_payment;
    update public.attendance_incidents set payment_id = v_payment where id = v_incident.id returning * into v_incident;
  end if;
  -- The member is told in the same transaction: what happened, the fee, the strike (decision 0080).
  select count(*)::int into v_strikes from public.attendance_incidents i
   where i.member_id = p_member_id and i.waived_at is null
     and i.occurred_at > p_occurred_at - interval '30 days' and i.occurred_at <= p_occurred_at;
  perform private.enqueue_membership_email('attendance_incident', p_member_id,
    case when v_fee is not null then case p_kind when 'late_cancel' then 'Late cancellation fee: ' else 'No-show fee: ' end
         else case p_kind when 'late_cancel' then 'Late cancellation: ' else 'Missed class: ' end end
      || p_class.name || ', ' || private.london_time_text(p_class.start_time),
    array_remove(array[
      case p_kind when 'late_cancel' then 'You cancelled ' || p_class.name || ' (' || private.london_time_text(p_class.start_time)
                                          || ') inside its free cancellation time.'
                  else 'We missed you at ' || p_class.name || ' (' || private.london_time_text(p_class.start_time) || ').' end,
      case when v_fee is not null then 'Under the studio''s attendance policy a ' || private.gbp(v_fee)
             || case p_kind when 'late_cancel' then ' late cancellation' else ' no-show' end
             || ' fee applies: we will charge it to your saved card, or record it as owed if we cannot.' end,
      case when v_policy.strike_limit is not null then 'It counts as a strike: ' || v_policy.strike_limit
             || ' late cancellations or no-shows within 30 days stop you booking for ' || v_policy.block_days
             || ' days. You have ' || v_strikes || ' within 30 days.' end,
      'If something went wrong, reply to this email: the studio can waive it.'], null),
    jsonb_build_array(jsonb_build_object('label', 'My Bookings', 'path', '/mybookings')),
    'attendance_incident:' || v_incident.id);
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
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (
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
                                           and s.occurred_at <= r.occurred_at) >= policy.strike_limit);
end;
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

-- Pay-as-you-go waitlist (decision 0081) ----------------------------------------------------------
-- A member who would pay per class may wait on a full class's waitlist when they have a saved card:
-- joining records the class's price (join_waitlist says it); promotion holds the place and records
-- one payment (derived reference wait-<entry>) that the renewal job charges to the card once; paid,
-- the place is confirmed; declined or without a card, the held place is released and goes to the
-- next in line (bookings_promote_waitlist); a payment that arrives for a place already gone is owed
-- back.

-- How long a place given from the waitlist is held for its charge: beyond the next hourly run of
-- the jobs, never past the class's start.
create function private.waitlist_place_hold()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 hours' $$;

revoke execute on function private.waitlist_place_hold() from public;

-- Whether this waitlist entry may be given a place it pays for: it agreed to a price and the member
-- still has a saved card.
create function private.may_promote_paying(p_entry public.class_waitlist, p_member_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_entry.price is not null and exists (select 1 from private.member_cards c where c.member_id = p_member_id)
$$;

revoke execute on function private.may_promote_paying(public.class_waitlist, uuid) from public;

-- The held place and its one payment (promote_waitlist holds the class row and the member's).
create function private.promote_paying(p_entry public.class_waitlist, p_class public.classes)
returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_booking_id uuid;
  v_payment public.payments;
  v_cover numeric;
begin
  -- The documents rule admits this one promotion (bookings_require_documents, private.admit).
  perform private.admit('waitlist', p_entry.id);
  v_booking_id := private.create_booking(p_entry.member_id, p_class.id, 'payg',
                                         least(now() + private.waitlist_place_hold(), p_class.start_time));
  perform private.admit(null, null);
  -- The member's balance pays first (decision 0108, the member's row is held): the card is charged
  -- the rest; a failed charge or a released place gives it back (payments_return_balance).
  v_cover := private.balance_cover(p_entry.member_id, p_entry.price);
  insert into public.payments (member_id, kind, class_id, booking_id, amount, balance_used, description, checkout_reference,
                               billing_reason)
  values (p_entry.member_id, 'class', p_class.id, v_booking_id, p_entry.price, nullif(v_cover, 0),
          p_class.name || ', ' || private.london_time_text(p_class.start_time) || ' (from the waitlist)'
            || private.balance_label(v_cover),
          'wait-' || p_entry.id::text, 'waitlist_place')
  returning * into v_payment;
  perform private.spend_balance(v_payment);
  -- Covered whole by the balance: the place is confirmed now, without the card.
  if v_cover = v_payment.amount then
    perform private.apply_waitlist_place(v_payment, now());
  end if;
  return v_booking_id;
end;
$$;

revoke execute on function private.promote_paying(public.class_waitlist, public.classes) from public;

-- The places given from a waitlist not yet charged, each claimed once (claim_due_renewals). A
-- place released meanwhile (the member cancelled, the hold lapsed) is never charged.
create function private.claim_due_waitlist_places(p_now timestamptz)
returns setof public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_charge public.membership_charge;
begin
  for v_payment in
    select p.* from public.payments p
     where p.billing_reason = 'waitlist_place' and p.status = 'pending' and p.attempts = 0
     order by p.created_at, p.id
  loop
    if not exists (select 1 from public.bookings b where b.id = v_payment.booking_id and b.payment_status = 'pending') then
      update public.payments set status = 'expired' where id = v_payment.id and status = 'pending' and attempts = 0;
      continue;
    end if;
    v_charge := private.claim_membership_charge(v_payment.checkout_reference, p_now);
    if v_charge.checkout_reference is not null then
      return next v_charge;
    end if;
  end loop;
end;
$$;

revoke execute on function private.claim_due_waitlist_places(timestamptz) from public;

-- A waitlist place's charge was paid (apply_membership_charge holds the payment row): the held
-- place is confirmed (its confirmation email follows, bookings_confirm_on_payment); a place
-- already gone is owed back (decision 0016).
create function private.apply_waitlist_place(p_payment public.payments, p_now timestamptz)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  update public.payments set status = 'paid', paid_at = p_now, claimed_until = null where id = p_payment.id;
  update public.bookings set payment_status = 'completed', hold_expires_at = null
   where id = p_payment.booking_id and payment_status = 'pending';
  if not found then
    perform private.owe_payment_back(p_payment.id, 'class_filled', p_now);
  end if;
end;
$$;

revoke execute on function private.apply_waitlist_place(public.payments, timestamptz) from public;

-- A waitlist place's charge failed (declined, or no saved card any more): the held place is
-- released, which promotes the next in line (bookings_promote_waitlist).
create function private.release_waitlist_place(p_payment public.payments)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  delete from public.bookings where id = p_payment.booking_id and payment_status = 'pending';
end;
$$;

revoke execute on function private.release_waitlist_place(public.payments) from public;

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
