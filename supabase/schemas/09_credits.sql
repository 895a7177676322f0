-- What members pay for, they can use (decision 0017): how a checkout reads the plan catalogue, and
-- a ledger of session credits and guest passes with their source, validity and
-- the booking that used each one.
--
-- A paid package grants its sessions (Drop-In: 1 valid 90 days; Bronze: 10 valid 6 weeks, at most
-- 2 booked a week); each paid Platinum Premium period grants 1 personal-training session and 2
-- guest passes that end with the period. A One-to-One session is booked with a credit
-- (book_with_credit) or paid for at its price: never with a class allowance, the free trial, or
-- for nothing. Cancelling in time gives the credit back; a late cancel or a no-show uses it.
-- A class credit (a referral's reward or an admin's grant, decision 0102) books a paid group class
-- instead of paying for it, through the same book_with_credit, given back and used the same way.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- The plan catalogue (public.plans) is in 07_memberships.sql, before the memberships that name its plans.

-- The plan a checkout sells, from the catalogue: the functions that charge (create_plan_payment,
-- start_membership_checkout, start_membership_upgrade, schedule_membership_downgrade) are sent a
-- slug and take the price and the tier from here. An amount or tier a caller still sends must be
-- the catalogue's (a stale price list never charges a different amount).
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

-- How a payment names what it bought: 'Platinum Premium (£165/month)', 'Drop-In Session (£115)'.
create function private.plan_description(p_plan public.plans)
returns text
language sql immutable set search_path = ''
as $$
  select p_plan.name || ' (£'
         || case when p_plan.price = trunc(p_plan.price) then to_char(p_plan.price, 'FM999990') else to_char(p_plan.price, 'FM999990.00') end
         || coalesce('/' || p_plan.billing_interval, '') || ')'
$$;

revoke execute on function private.plan_description(public.plans) from public;

-- What a One-to-One session costs without a credit: the dearest package's price per session (the
-- Drop-In's), read from the catalogue, so no package is ever dearer per session than paying each
-- time (src/config/plans.ts SINGLE_SESSION_PENCE says the same).
create function private.personal_training_price()
returns numeric
language sql stable set search_path = ''
as $$
  select max(round(p.price / p.package_sessions, 2)) from public.plans p where p.category = 'training'
$$;

revoke execute on function private.personal_training_price() from public;

-- The credit ledger -----------------------------------------------------------------------------
-- 'class': one group class that would otherwise be paid for (decision 0102).
create type public.credit_kind as enum ('personal_training', 'guest_pass', 'class');

create table public.credits (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  kind public.credit_kind not null,
  -- 'import': sessions left on a package bought before the studio moved here (25_import.sql).
  -- 'referral': a referral's reward (28_offers.sql).
  source text not null check (source in ('package', 'membership_period', 'admin_grant', 'import', 'referral')),
  -- One grant's credits share a key (the package payment, the membership period, the admin's
  -- grant) and are numbered, so a replayed payment or a second job run grants nothing twice.
  grant_key text not null,
  seq integer not null check (seq > 0),
  payment_id uuid references public.payments (id) on delete set null,
  membership_id uuid references public.memberships (id) on delete set null,
  period_number integer,
  granted_by uuid references public.members (id) on delete set null,
  reason text check (char_length(reason) <= 300),
  -- What one credit of a package cost (owed back when unused and the member is removed).
  unit_price numeric(10, 2),
  -- At most this many of the grant's credits booked per week (Monday to Sunday, London).
  weekly_cap integer check (weekly_cap > 0),
  valid_from timestamptz not null,
  expires_at timestamptz not null,
  -- The booking that used it (set in the transaction that books); cleared when it is given back.
  booking_id uuid unique references public.bookings (id) on delete set null,
  used_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid references public.members (id) on delete set null,
  revoke_reason text check (char_length(revoke_reason) <= 300),
  created_at timestamptz not null default now(),
  -- The package refund that priced it (admin_refund_package): paying that refund out revokes
  -- exactly the credits it priced, never one of the package's given back to the member since.
  refund_id uuid references public.refunds_owed (id) on delete set null,
  constraint credits_grant_seq unique (grant_key, kind, seq),
  constraint credits_valid check (expires_at > valid_from),
  constraint credits_admin_reason check (source <> 'admin_grant' or (granted_by is not null and reason is not null))
);

comment on table public.credits is
  'Session credits and guest passes: where each came from, when it is valid, and the booking that used it. Written only by the database (grants, bookings, cancellations, admins).';

create index credits_member_idx on public.credits (member_id, kind, expires_at) where used_at is null and revoked_at is null;

create index credits_payment_idx on public.credits (payment_id);

create index credits_membership_idx on public.credits (membership_id, period_number);

create index credits_granted_by_idx on public.credits (granted_by);

create index credits_revoked_by_idx on public.credits (revoked_by);

create index credits_refund_id_idx on public.credits (refund_id) where refund_id is not null;

comment on column public.credits.refund_id is
  'The package refund that priced this credit (admin_refund_package); paying it out revokes only the credits it priced.';

alter table public.credits enable row level security;

revoke all on public.credits from public, anon, authenticated;

grant select on public.credits to authenticated;

grant all on public.credits to service_role;

-- Credits of a member that can still be used at p_at (not used, not revoked, valid, unexpired).
create function private.credit_usable(p_credit public.credits, p_at timestamptz)
returns boolean
language sql immutable set search_path = ''
as $$
  select p_credit.used_at is null and p_credit.revoked_at is null
     and p_credit.valid_from <= p_at and p_credit.expires_at > p_at
$$;

revoke execute on function private.credit_usable(public.credits, timestamptz) from public;

-- Grants ----------------------------------------------------------------------------------------
-- Adds p_count credits of one grant (idempotent by grant key).
create function private.grant_credits(
  p_member_id uuid, p_kind public.credit_kind, p_count integer, p_source text, p_grant_key text,
  p_valid_from timestamptz, p_expires_at timestamptz, p_payment_id uuid, p_membership_id uuid,
  p_period_number integer, p_unit_price numeric, p_weekly_cap integer, p_granted_by uuid, p_reason text
)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_added integer;
begin
  insert into public.credits (member_id, kind, source, grant_key, seq, payment_id, membership_id, period_number,
                              granted_by, reason, unit_price, weekly_cap, valid_from, expires_at)
  select p_member_id, p_kind, p_source, p_grant_key, n, p_payment_id, p_membership_id, p_period_number,
         p_granted_by, p_reason, p_unit_price, p_weekly_cap, p_valid_from, p_expires_at
    from generate_series(1, greatest(p_count, 0)) n
  on conflict (grant_key, kind, seq) do nothing;
  get diagnostics v_added = row_count;
  return v_added;
end;
$$;

revoke execute on function private.grant_credits(uuid, public.credit_kind, integer, text, text, timestamptz, timestamptz, uuid, uuid, integer, numeric, integer, uuid, text) from public;

-- A payment becomes paid (and honoured): a package grants its sessions from now; a membership
-- period grants what its plan gives per period, ending with the period, and the unused credits of
-- the membership's earlier periods end now. Verified payments only: this runs on the database's
-- own status change, never on a client's word.
create function private.payments_grant_credits()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans;
  v_m public.memberships;
  v_now timestamptz := coalesce(new.paid_at, now());
begin
  if new.status <> 'paid' or old.status = 'paid' or new.needs_refund or new.member_id is null or new.kind <> 'plan' then
    return null;
  end if;
  select * into v_plan from public.plans where slug = new.plan_slug;
  if not found then
    return null;
  end if;
  if new.billing_reason is null and v_plan.package_sessions > 0 then
    perform private.grant_credits(new.member_id, 'personal_training', v_plan.package_sessions, 'package',
      'payment:' || new.id, v_now, v_now + make_interval(days => v_plan.package_valid_days), new.id, null, null,
      round(new.amount / v_plan.package_sessions, 2), v_plan.package_weekly_cap, null, null);
  elsif new.billing_reason is not null and new.membership_id is not null then
    select * into v_m from public.memberships where id = new.membership_id;
    -- Only the period this payment made current (a late or refused one grants nothing).
    if not found or v_m.period_number <> new.period_number then
      return null;
    end if;
    update public.credits
       set expires_at = greatest(valid_from + interval '1 second', least(expires_at, v_m.period_start))
     where membership_id = v_m.id and period_number < v_m.period_number and used_at is null and revoked_at is null
       and expires_at > v_m.period_start;
    perform private.grant_credits(new.member_id, 'personal_training', v_plan.period_sessions, 'membership_period',
      'period:' || v_m.id || ':' || v_m.period_number, v_m.period_start, v_m.period_end, null, v_m.id,
      v_m.period_number, null, null, null, null);
    perform private.grant_credits(new.member_id, 'guest_pass', v_plan.period_guest_passes, 'membership_period',
      'period:' || v_m.id || ':' || v_m.period_number, v_m.period_start, v_m.period_end, null, v_m.id,
      v_m.period_number, null, null, null, null);
  end if;
  return null;
end;
$$;

revoke execute on function private.payments_grant_credits() from public;

-- A package refund paid out takes back the sessions it priced, and only those (credits.refund_id):
-- a session of the package booked when the refund was priced and given back to the member since
-- (cancelled in time) was not in the refund, so it stays theirs. admin_refund_package revokes what
-- it prices at once, so they are normally revoked already; one used meanwhile stays used, as at
-- pricing (a booking that took one first keeps it).
create function private.refunds_revoke_credits()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.refunded_at is not null and old.refunded_at is null then
    update public.credits
       set revoked_at = new.refunded_at, revoked_by = new.refunded_by, revoke_reason = 'Package refunded'
     where refund_id = new.id and used_at is null and revoked_at is null;
  end if;
  return null;
end;
$$;

revoke execute on function private.refunds_revoke_credits() from public;

-- Booking with a credit -------------------------------------------------------------------------
-- The credit a booking of this class would use (the one that expires first among those still
-- usable when the class starts, whose package has room that week), with why not otherwise:
-- no_credit, or weekly_cap_reached (the week's sessions named). Read-only. A One-to-One session
-- takes a personal-training credit, any other class a class credit (decision 0102).
create type public.credit_choice as (
  credit_id uuid,
  expires_at timestamptz,
  refusal text,
  message text
);

create function private.credit_for(p_member_id uuid, p_class public.classes)
returns public.credit_choice
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_week timestamptz := private.london_week_start(p_class.start_time);
  v_kind public.credit_kind := case when p_class.type = 'One-to-One' then 'personal_training' else 'class' end;
  v_credit public.credits;
  v_capped public.credits;
  v_booked text;
  r public.credit_choice;
begin
  for v_credit in
    select * from public.credits c
     where c.member_id = p_member_id and c.kind = v_kind
       and private.credit_usable(c, now()) and c.expires_at > p_class.start_time
     order by c.expires_at, c.created_at, c.seq
  loop
    if v_credit.weekly_cap is null or (
         select count(*) from public.credits u join public.bookings b on b.id = u.booking_id
           join public.classes k on k.id = b.class_id
          where u.grant_key = v_credit.grant_key and u.kind = v_credit.kind
            and k.start_time >= v_week and k.start_time < v_week + interval '7 days') < v_credit.weekly_cap then
      r.credit_id := v_credit.id;
      r.expires_at := v_credit.expires_at;
      return r;
    end if;
    v_capped := coalesce(v_capped, v_credit);
  end loop;
  if v_capped.id is not null then
    select string_agg(to_char(k.start_time at time zone 'Europe/London', 'Dy FMDD Mon HH24:MI'), ', ' order by k.start_time)
      into v_booked
      from public.credits u join public.bookings b on b.id = u.booking_id join public.classes k on k.id = b.class_id
     where u.grant_key = v_capped.grant_key and u.kind = v_capped.kind
       and k.start_time >= v_week and k.start_time < v_week + interval '7 days';
    r.refusal := 'weekly_cap_reached';
    r.message := 'Your package allows ' || v_capped.weekly_cap || ' sessions a week, and that week you have booked '
                 || coalesce(v_booked, 'them') || '.';
    return r;
  end if;
  r.refusal := 'no_credit';
  if v_kind = 'class' then
    r.message := 'You have no class credit to use for this class: it is ' || private.gbp(coalesce(p_class.price_payg, 0)) || '.';
    return r;
  end if;
  r.message := 'You have no personal-training session to use for this class: it is '
               || private.gbp(coalesce(nullif(p_class.price_payg, 0), private.personal_training_price())) || '.';
  return r;
end;
$$;

revoke execute on function private.credit_for(uuid, public.classes) from public;

-- What a booking of this class with a credit would use for the caller: a credit (and its expiry)
-- or the price to pay. The booking form and class cards show it before the member confirms. A
-- group class that costs nothing takes no credit (credit_not_for_class).
create function private.my_credit_for_class(p_class_id uuid)
returns public.credit_choice
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_class public.classes;
begin
  select * into v_class from public.classes where id = p_class_id;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  if v_class.type <> 'One-to-One' and coalesce(v_class.price_payg, 0) <= 0 then
    raise exception 'Credits are for classes that are paid for' using errcode = 'P0001', hint = 'credit_not_for_class';
  end if;
  return private.credit_for(v_member.id, v_class);
end;
$$;

revoke execute on function private.my_credit_for_class(uuid) from public;

grant execute on function private.my_credit_for_class(uuid) to authenticated, service_role;

-- Books a One-to-One session, or a paid group class, with the member's credit of its kind that
-- expires first, in the same transaction (the class row, then the member row, as every booking
-- path locks them: five bookings at once holding one credit book exactly one). Refusals:
-- book_class's (class_started, already_booked, class_full…), credit_not_for_class (a free group
-- class), credit_not_needed (their plan or free trial covers this class: a class credit is for a
-- class they would pay for, decision 0102), no_credit (with the price), weekly_cap_reached.
create function private.book_with_credit(p_class_id uuid)
returns public.booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_class public.classes;
  v_refusal text;
  v_choice public.credit_choice;
  r public.booking_result;
begin
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = v_member.id for no key update;
  if v_class.type <> 'One-to-One' and coalesce(v_class.price_payg, 0) <= 0 then
    raise exception 'Credits are for classes that are paid for' using errcode = 'P0001', hint = 'credit_not_for_class';
  end if;
  v_refusal := private.booking_refusal(v_member, v_class, 'payg');
  if v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;
  if v_class.type <> 'One-to-One'
     and (private.booking_refusal(v_member, v_class, 'paid') is null or private.trial_available(v_member)) then
    raise exception 'Your % covers this class: book it without your class credit',
      case when private.trial_available(v_member) then 'free trial' else 'plan' end
      using errcode = 'P0001', hint = 'credit_not_needed';
  end if;
  v_choice := private.credit_for(v_member.id, v_class);
  if v_choice.credit_id is null then
    raise exception '%', v_choice.message using errcode = 'P0001', hint = v_choice.refusal;
  end if;

  r.booking_id := private.create_booking(v_member.id, v_class.id, 'credit');
  update public.credits set booking_id = r.booking_id, used_at = now() where id = v_choice.credit_id;
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_id);

  r.status := 'booked';
  r.class_id := v_class.id;
  r.booking_type := 'credit';
  r.payment_status := 'completed';
  r.needs_payment := false;
  r.price_payg := v_class.price_payg;
  r.previous_tier := v_member.membership_tier;
  r.tier := v_member.membership_tier;
  r.trial_used := v_member.has_used_trial;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.book_with_credit(uuid) from public;

grant execute on function private.book_with_credit(uuid) to authenticated, service_role;

-- A booking that used a credit goes: cancelled in time (or removed by the studio before the
-- class) the credit comes back; a late cancellation or a class that has started keeps it used.
create function private.bookings_return_credit()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_start timestamptz;
begin
  select start_time into v_start from public.classes where id = old.class_id;
  if exists (select 1 from public.late_cancellations l where l.booking_id = old.id) or v_start <= now() then
    update public.credits set booking_id = null where booking_id = old.id;
  else
    update public.credits set booking_id = null, used_at = null where booking_id = old.id;
  end if;
  return old;
end;
$$;

revoke execute on function private.bookings_return_credit() from public;

-- One-to-One sessions are never free and never a plan or trial booking ----------------------------
-- A One-to-One session without a price costs the studio's personal-training price (the class
-- form's blank PAYG price used to make it free).
create function private.classes_one_to_one_price()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.type = 'One-to-One' and coalesce(new.price_payg, 0) = 0 then
    new.price_payg := private.personal_training_price();
  end if;
  return new;
end;
$$;

revoke execute on function private.classes_one_to_one_price() from public;

-- How long before credits expire their member is told.
create function private.credit_expiry_notice()
returns interval
language sql immutable set search_path = ''
as $$ select interval '7 days' $$;

revoke execute on function private.credit_expiry_notice() from public;

-- As of p_now: one email per member and expiry day for unused credits that expire within
-- credit_expiry_notice(), once however often it runs. Returns how many emails were queued.
create function private.enqueue_credit_expiry_reminders(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_row record;
  v_count integer := 0;
begin
  for v_row in
    select c.member_id, (c.expires_at at time zone 'Europe/London')::date as day, min(c.expires_at) as expires_at,
           count(*) filter (where c.kind = 'personal_training') as sessions,
           count(*) filter (where c.kind = 'guest_pass') as passes,
           count(*) filter (where c.kind = 'class') as classes
      from public.credits c
     where private.credit_usable(c, p_now) and c.expires_at <= p_now + private.credit_expiry_notice()
     group by c.member_id, day
  loop
    if private.enqueue_membership_email('credits_expiring', v_row.member_id,
         'Your credits expire on ' || private.london_date_text(v_row.expires_at),
         array['You have ' || concat_ws(' and ',
                  case when v_row.sessions > 0 then v_row.sessions || ' personal-training session'
                                                     || case when v_row.sessions > 1 then 's' else '' end end,
                  case when v_row.passes > 0 then v_row.passes || ' guest pass'
                                                    || case when v_row.passes > 1 then 'es' else '' end end,
                  case when v_row.classes > 0 then v_row.classes || ' class credit'
                                                     || case when v_row.classes > 1 then 's' else '' end end)
                || ' that expire on ' || private.london_date_text(v_row.expires_at) || '.',
               case when v_row.classes > 0 and v_row.sessions + v_row.passes = 0
                    then 'Book a class before then so they are not lost.'
                    else 'Book a One-to-One session before then so they are not lost.' end],
         jsonb_build_array(jsonb_build_object('label', 'Your credits', 'path', '/membership')),
         'credits_expiring:' || v_row.member_id || ':' || v_row.day) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_credit_expiry_reminders(timestamptz) from public;

grant execute on function private.enqueue_credit_expiry_reminders(timestamptz) to service_role;

-- Admins: grant and revoke --------------------------------------------------------------------
-- An admin grants credits with a reason (a goodwill session, a transfer): personal-training
-- sessions, guest passes or class credits, valid from now for p_valid_days. Returns how many were added.
create function private.admin_grant_credits(
  p_member_id uuid, p_kind text, p_count integer, p_valid_days integer, p_reason text
)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin public.members;
begin
  perform private.require_admin();
  v_admin := private.require_member();
  if p_kind is null or p_kind not in ('personal_training', 'guest_pass', 'class') then
    raise exception 'Choose personal-training sessions, guest passes or class credits.' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if p_count is null or p_count < 1 or p_count > 50 then
    raise exception 'Grant between 1 and 50.' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if p_valid_days is null or p_valid_days < 1 or p_valid_days > 366 then
    raise exception 'Credits are valid for 1 to 366 days.' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if nullif(btrim(coalesce(p_reason, '')), '') is null or char_length(p_reason) > 300 then
    raise exception 'Give a reason (at most 300 characters).' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if not exists (select 1 from public.members where id = p_member_id) then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return private.grant_credits(p_member_id, p_kind::public.credit_kind, p_count, 'admin_grant',
    'grant:' || gen_random_uuid(), now(), now() + make_interval(days => p_valid_days), null, null, null, null, null,
    v_admin.id, btrim(p_reason));
end;
$$;

revoke execute on function private.admin_grant_credits(uuid, text, integer, integer, text) from public;

grant execute on function private.admin_grant_credits(uuid, text, integer, integer, text) to authenticated, service_role;

-- An admin revokes an unused credit with a reason.
create function private.admin_revoke_credit(p_credit_id uuid, p_reason text)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin public.members;
begin
  perform private.require_admin();
  v_admin := private.require_member();
  if nullif(btrim(coalesce(p_reason, '')), '') is null or char_length(p_reason) > 300 then
    raise exception 'Give a reason (at most 300 characters).' using errcode = '22023', hint = 'invalid_credit';
  end if;
  update public.credits set revoked_at = now(), revoked_by = v_admin.id, revoke_reason = btrim(p_reason)
   where id = p_credit_id and used_at is null and revoked_at is null;
  if not found then
    raise exception 'This credit is used, revoked or gone.' using errcode = 'P0002', hint = 'credit_not_found';
  end if;
end;
$$;

revoke execute on function private.admin_revoke_credit(uuid, text) from public;

grant execute on function private.admin_revoke_credit(uuid, text) to authenticated, service_role;

-- An admin refunds a package's unused sessions (decision 0017): they are revoked at once, in the same
-- statement that counts them (a booking that took one first keeps it), and recorded as the
-- refund's (credits.refund_id: paying it out revokes those, never a session given back to the
-- member after it was priced); their unit price is owed back on Refunds owed, paid through the
-- provider there. Used and expired sessions are not refunded. A package is refunded once
-- (refunds_owed keeps one package_refunded row per payment): sessions given back since are the
-- member's, and a second refund is refused with package_already_refunded rather than the unique
-- key's error. Returns the refund owed.
create function private.admin_refund_package(p_payment_id uuid, p_reason text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin public.members;
  v_payment public.payments;
  v_member public.members;
  v_ids uuid[];
  v_count integer;
  v_amount numeric(10, 2);
  v_earlier public.refunds_owed;
  v_refund uuid;
begin
  perform private.require_admin();
  v_admin := private.require_member();
  if nullif(btrim(coalesce(p_reason, '')), '') is null or char_length(p_reason) > 300 then
    raise exception 'Give a reason (at most 300 characters).' using errcode = '22023', hint = 'invalid_credit';
  end if;
  select * into v_payment from public.payments where id = p_payment_id for update;
  if not found or not exists (select 1 from public.credits c where c.payment_id = p_payment_id and c.source = 'package') then
    raise exception 'This is not a package payment.' using errcode = 'P0002', hint = 'package_not_found';
  end if;
  select * into v_member from public.members where id = v_payment.member_id;
  with revoked as (
    update public.credits c
       set revoked_at = now(), revoked_by = v_admin.id, revoke_reason = 'Package refunded: ' || btrim(p_reason)
     where c.payment_id = p_payment_id and c.source = 'package' and c.used_at is null and c.revoked_at is null
       and c.expires_at > now()
    returning c.id, c.unit_price
  )
  select array_agg(id), count(*)::int, coalesce(sum(unit_price), 0) into v_ids, v_count, v_amount from revoked;
  if v_count = 0 or v_amount <= 0 then
    raise exception 'This package has no unused sessions left to refund.' using errcode = 'P0001', hint = 'nothing_to_refund';
  end if;
  select * into v_earlier from public.refunds_owed
   where payment_id = p_payment_id and reason = 'package_refunded' and place_booking_id is null;
  if found then
    raise exception 'This package was refunded on %: sessions given back to the member since then are theirs to use.',
      private.london_date_text(v_earlier.created_at)
      using errcode = 'P0001', hint = 'package_already_refunded';
  end if;
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, amount, reason)
  values (p_payment_id, v_member.id, v_member.name, coalesce(v_member.email::text, ''),
          v_payment.description || ' (' || v_count || ' unused session' || case when v_count > 1 then 's' else '' end || ')',
          v_amount, 'package_refunded')
  returning id into v_refund;
  update public.credits set refund_id = v_refund where id = any (v_ids);
  return v_refund;
end;
$$;

revoke execute on function private.admin_refund_package(uuid, text) from public;

grant execute on function private.admin_refund_package(uuid, text) to authenticated, service_role;

-- Analytics: what was sold or granted and not yet delivered, as of p_now (admins). One row per kind
-- and source: the credits still to use (unused, not revoked, not expired: a package bought but not
-- started counts), what the paid ones cost (the package unit price; a membership's sessions and
-- passes and admin grants carry none), and how many expire within credit_expiry_notice().
create type public.credits_outstanding as (
  kind public.credit_kind,
  source text,
  credits integer,
  value numeric(10, 2),
  expiring_soon integer
);

create function private.admin_credits_outstanding(p_now timestamptz)
returns setof public.credits_outstanding
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select c.kind, c.source, count(*)::int, coalesce(sum(c.unit_price), 0)::numeric(10, 2),
           (count(*) filter (where c.expires_at <= p_now + private.credit_expiry_notice()))::int
      from public.credits c
     where c.used_at is null and c.revoked_at is null and c.expires_at > p_now
     group by c.kind, c.source
     order by c.kind, c.source;
end;
$$;

revoke execute on function private.admin_credits_outstanding(timestamptz) from public;

grant execute on function private.admin_credits_outstanding(timestamptz) to authenticated, service_role;

-- Removing a member: unused package sessions are owed back at their unit price ----------------------
create function private.members_owe_unused_credits()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, amount, reason)
  select p.id, old.id, old.name, old.email::text,
         p.description || ' (' || count(*) || ' unused session' || case when count(*) > 1 then 's' else '' end || ')',
         sum(c.unit_price), 'member_deleted'
    from public.credits c join public.payments p on p.id = c.payment_id
   where c.member_id = old.id and c.source = 'package' and private.credit_usable(c, now()) and c.unit_price > 0
   group by p.id, p.description
  on conflict (payment_id, reason, place_booking_id) do nothing;
  return old;
end;
$$;

revoke execute on function private.members_owe_unused_credits() from public;

-- API ---------------------------------------------------------------------------------------------
create function public.my_credit_for_class(p_class_id uuid)
returns public.credit_choice
language sql stable security invoker set search_path = ''
as $$ select * from private.my_credit_for_class(p_class_id) $$;

revoke execute on function public.my_credit_for_class(uuid) from public, anon;

grant execute on function public.my_credit_for_class(uuid) to authenticated, service_role;

create function public.book_with_credit(p_class_id uuid)
returns public.booking_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.book_with_credit(p_class_id) $$;

revoke execute on function public.book_with_credit(uuid) from public, anon;

grant execute on function public.book_with_credit(uuid) to authenticated, service_role;

create function public.admin_grant_credits(p_member_id uuid, p_kind text, p_count integer, p_valid_days integer, p_reason text)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.admin_grant_credits(p_member_id, p_kind, p_count, p_valid_days, p_reason) $$;

revoke execute on function public.admin_grant_credits(uuid, text, integer, integer, text) from public, anon;

grant execute on function public.admin_grant_credits(uuid, text, integer, integer, text) to authenticated, service_role;

create function public.admin_refund_package(p_payment_id uuid, p_reason text)
returns uuid
language sql volatile security invoker set search_path = ''
as $$ select private.admin_refund_package(p_payment_id, p_reason) $$;

revoke execute on function public.admin_refund_package(uuid, text) from public, anon;

grant execute on function public.admin_refund_package(uuid, text) to authenticated, service_role;

create function public.admin_credits_outstanding(p_now timestamptz default now())
returns setof public.credits_outstanding
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_credits_outstanding(p_now) $$;

revoke execute on function public.admin_credits_outstanding(timestamptz) from public, anon;

grant execute on function public.admin_credits_outstanding(timestamptz) to authenticated, service_role;

create function public.admin_revoke_credit(p_credit_id uuid, p_reason text)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.admin_revoke_credit(p_credit_id, p_reason) $$;

revoke execute on function public.admin_revoke_credit(uuid, text) from public, anon;

grant execute on function public.admin_revoke_credit(uuid, text) to authenticated, service_role;

create function public.enqueue_credit_expiry_reminders(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_credit_expiry_reminders(p_now) $$;

revoke execute on function public.enqueue_credit_expiry_reminders(timestamptz) from public, anon;

revoke execute on function public.enqueue_credit_expiry_reminders(timestamptz) from authenticated;

grant execute on function public.enqueue_credit_expiry_reminders(timestamptz) to service_role;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own credits; admins read all"
  on public.credits for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger payments_grant_credits
  after update of status on public.payments
  for each row execute function private.payments_grant_credits();

create trigger refunds_revoke_credits
  after update of refunded_at on public.refunds_owed
  for each row execute function private.refunds_revoke_credits();

create trigger bookings_return_credit
  before delete on public.bookings
  for each row when (old.type::text = 'credit')
  execute function private.bookings_return_credit();

create trigger classes_one_to_one_price
  before insert or update of type, price_payg on public.classes
  for each row execute function private.classes_one_to_one_price();

create trigger members_owe_unused_credits
  before delete on public.members
  for each row execute function private.members_owe_unused_credits();
