-- Memberships (decision 0009): a plan is a subscription that renews every calendar month
-- (London) with the member's saved card, is retried 1, 3 and 7 days after a failed renewal and then
-- lapses, can be cancelled, resumed, upgraded and downgraded, and a free trial ends on time.
--
-- members.membership_tier stays the field every screen and rule reads; only this file's functions
-- change it for plans and trials (private.sync_member_from_membership), never the browser.
-- Every time-dependent function takes "now" (p_now) and is idempotent. The Netlify functions
-- (service role) talk to the card provider; the database decides what a verified result means.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Types and tables -------------------------------------------------------------------------------
create type public.membership_status as enum ('trialing', 'active', 'past_due', 'cancelled', 'lapsed');

-- The plan catalogue -----------------------------------------------------------------------------
-- What the studio sells and what each plan grants: every rule that needs a plan's name, tier,
-- price or allowance reads it here, never a copy in a function or a constraint (decision 0035).
create table public.plans (
  slug text primary key check (slug ~ '^[a-z][a-z0-9_]{0,30}$'),
  name text not null check (char_length(name) between 1 and 100),
  category text not null check (category in ('membership', 'training')),
  -- What a checkout charges (the "from" price of a concession plan, set per member by an admin).
  price numeric(10, 2) not null check (price > 0),
  -- 'month' for a membership that renews; null for a package paid once.
  billing_interval text check (billing_interval = 'month'),
  grants_tier public.membership_tier check (grants_tier in ('standard', 'premium')),
  classes_per_month integer check (classes_per_month > 0),
  -- A package's sessions: how many, valid for how long from purchase, at most how many a week.
  package_sessions integer not null default 0 check (package_sessions >= 0),
  package_valid_days integer check (package_valid_days > 0),
  package_weekly_cap integer check (package_weekly_cap > 0),
  -- What each paid period of a membership grants, ending with the period.
  period_sessions integer not null default 0 check (period_sessions >= 0),
  period_guest_passes integer not null default 0 check (period_guest_passes >= 0),
  requires_proof boolean not null default false,
  constraint plans_kind check (
    (category = 'membership' and billing_interval = 'month' and grants_tier is not null and package_sessions = 0)
    or (category = 'training' and billing_interval is null and grants_tier is null and package_sessions > 0
        and package_valid_days is not null and period_sessions = 0 and period_guest_passes = 0))
);

comment on table public.plans is
  'The plans the studio sells (spec section 9) and what each grants. Read by everyone; src/config/plans.ts holds the marketing words, and a parity test holds what both state.';

alter table public.plans enable row level security;

revoke all on public.plans from public, anon, authenticated;

grant select on public.plans to anon, authenticated;

grant all on public.plans to service_role;

create policy "Everyone reads the plan catalogue" on public.plans for select to anon, authenticated using (true);

insert into public.plans (slug, name, category, price, billing_interval, grants_tier, classes_per_month,
                          package_sessions, package_valid_days, package_weekly_cap, period_sessions,
                          period_guest_passes, requires_proof)
values
  ('standard', 'Standard', 'membership', 100, 'month', 'standard', 12, 0, null, null, 0, 0, false),
  ('platinum', 'Platinum Premium', 'membership', 165, 'month', 'premium', 20, 0, null, null, 1, 2, false),
  ('student', 'Student / Hackney Worker', 'membership', 70, 'month', 'standard', 12, 0, null, null, 0, 0, true),
  ('dropin', 'Drop-In Session', 'training', 115, null, null, null, 1, 90, null, 0, 0, false),
  ('bronze', 'Bronze Package', 'training', 750, null, null, null, 10, 42, 2, 0, 0, false);

create table public.memberships (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null unique references public.members (id) on delete cascade,
  -- src/config/plans.ts slugs; null while trialing.
  plan_slug text references public.plans (slug),
  tier public.membership_tier not null check (tier in ('trial', 'standard', 'premium')),
  status public.membership_status not null,
  -- What each renewal charges (an admin may set a concession price).
  price numeric(10, 2) check (price > 0),
  currency text not null default 'GBP' check (currency = 'GBP'),
  -- Periods paid so far; the next renewal charges period_number + 1 (its payment's derived key).
  period_number integer not null default 0 check (period_number >= 0),
  period_start timestamptz not null,
  period_end timestamptz not null check (period_end > period_start),
  -- Period k ends at anchor_at + (k - anchor_period + 1) calendar months (London), so the 31st
  -- stays the 31st (or the month's last day) instead of drifting.
  anchor_at timestamptz not null,
  anchor_period integer not null default 1,
  renews boolean not null,
  -- Set when it is over (cancelled and past its end, lapsed, trial over); the tier is payg then.
  ended_at timestamptz,
  -- A downgrade chosen for the period end: the next renewal charges and grants these.
  next_plan_slug text references public.plans (slug),
  next_tier public.membership_tier check (next_tier in ('standard', 'premium')),
  next_price numeric(10, 2) check (next_price > 0),
  -- Failed renewal charges of the due period and when the next one is tried (past_due).
  retry_count integer not null default 0,
  next_retry_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint memberships_plan_fields check (tier = 'trial' or (plan_slug is not null and price is not null)),
  constraint memberships_renews check (renews = (status in ('active', 'past_due'))),
  constraint memberships_next_fields check ((next_plan_slug is null) = (next_tier is null) and (next_tier is null) = (next_price is null))
);

comment on table public.memberships is
  'One per member: the plan (or free trial) they are on, its period, and how it renews. Written only by the membership functions.';

create index memberships_due_idx on public.memberships (period_end) where ended_at is null;

create index memberships_retry_idx on public.memberships (next_retry_at) where status = 'past_due';

alter table public.memberships enable row level security;

revoke all on public.memberships from public, anon, authenticated;

grant select on public.memberships to authenticated;

grant all on public.memberships to service_role;

-- The member's saved card at the provider: its customer id and the instrument's token. Private:
-- nobody reads it through the API; only the charging functions get it, one charge at a time.
create table private.member_cards (
  member_id uuid primary key references public.members (id) on delete cascade,
  customer_id text not null check (char_length(customer_id) between 1 and 100),
  token text not null check (char_length(token) between 1 and 200),
  saved_at timestamptz not null
);

revoke all on private.member_cards from public, anon, authenticated;

-- Triggers other domains add to private.member_cards: member_cards_prefer_card (18_direct_debit.sql).

-- A card-saving checkout (provider purpose SETUP_RECURRING_PAYMENT: the amount is only authorised
-- and given back). Once the provider says it is paid and gives the token, the card is saved and
-- the payment it was started for (the first month, or what is due) is charged with it. Without a
-- payment (payment_id null, decision 0104) it only saves the card: "Add a card" or "Replace card"
-- of a running plan with nothing due, and the next renewal is charged with it as usual.
create table private.card_setups (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete cascade,
  checkout_reference text not null unique,
  provider_checkout_id text unique,
  amount numeric(10, 2) not null check (amount > 0),
  status public.checkout_status not null default 'pending',
  created_at timestamptz not null
);

create index card_setups_payment_id_idx on private.card_setups (payment_id);

create index card_setups_member_id_idx on private.card_setups (member_id);

revoke all on private.card_setups from public, anon, authenticated;

-- Rules ----------------------------------------------------------------------------------------
-- Days after a failed renewal's due date on which it is tried again; a failure on or after the
-- last one lapses the membership.
create function private.renewal_retry_days()
returns integer[]
language sql immutable set search_path = ''
as $$ select array[1, 3, 7] $$;

revoke execute on function private.renewal_retry_days() from public;

-- The same for a renewal collected by Direct Debit (decision 0076): each submission costs the
-- studio a fee and its answer takes Bacs's three working days, so two deliberate retries, a week
-- apart, each after the last failure is known.
create function private.direct_debit_retry_days()
returns integer[]
language sql immutable set search_path = ''
as $$ select array[7, 14] $$;

revoke execute on function private.direct_debit_retry_days() from public;

-- How long a charge in progress keeps others off the same payment.
create function private.charge_claim_length()
returns interval
language sql immutable set search_path = ''
as $$ select interval '15 minutes' $$;

revoke execute on function private.charge_claim_length() from public;

-- Renewal reminders go this long before the renewal.
create function private.renewal_reminder_ahead()
returns interval
language sql immutable set search_path = ''
as $$ select interval '3 days' $$;

revoke execute on function private.renewal_reminder_ahead() from public;

-- The provider's customer id of a member (ours, so creating it is idempotent).
create function private.provider_customer_id(p_member_id uuid)
returns text
language sql immutable set search_path = ''
as $$ select 'member-' || p_member_id::text $$;

revoke execute on function private.provider_customer_id(uuid) from public;

-- What a plan is called on receipts and emails.
create function private.plan_name(p_plan_slug text)
returns text
language sql stable set search_path = ''
as $$ select coalesce((select p.name from public.plans p where p.slug = p_plan_slug), p_plan_slug) $$;

revoke execute on function private.plan_name(text) from public;

-- members.membership_tier, plan_renews_at and the trial fields follow the membership: a running
-- plan grants its tier from its first successful payment, a running trial the trial tier, anything
-- ended or unpaid pay-as-you-go. Ending a plan or trial never gives the free trial back.
create function private.sync_member_from_membership(p_membership public.memberships)
returns void
language sql security definer set search_path = ''
as $$
  update public.members m
     set membership_tier = case
           when p_membership.ended_at is not null then 'payg'
           when p_membership.status = 'trialing' then p_membership.tier
           when private.membership_paid(p_membership) then p_membership.tier
           else 'payg' end,
         plan_renews_at = case
           when p_membership.ended_at is null and p_membership.status <> 'trialing' then p_membership.period_end end,
         trial_expires_at = case
           when p_membership.ended_at is null and p_membership.status = 'trialing' then p_membership.period_end end,
         has_used_trial = m.has_used_trial or p_membership.status <> 'trialing' or p_membership.ended_at is not null
   where m.id = p_membership.member_id;
$$;

revoke execute on function private.sync_member_from_membership(public.memberships) from public;

-- One email about a member's membership, an event with its email delivery (idempotent by dedupe key).
create function private.enqueue_membership_email(
  p_kind text, p_member_id uuid, p_subject text, p_paragraphs text[], p_links jsonb, p_dedupe_key text
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
begin
  select * into v_member from public.members where id = p_member_id;
  if not found then
    return null;
  end if;
  return private.enqueue_email(p_kind, v_member.email, v_member.id, null, null, p_subject,
                               array_to_string(array[private.greeting(v_member.name)] || p_paragraphs, E'\n\n'),
                               p_links, p_dedupe_key);
end;
$$;

revoke execute on function private.enqueue_membership_email(text, uuid, text, text[], jsonb, text) from public;

-- A trial sign-up gets a 'trialing' membership (the member row itself is made by the auth trigger).
create function private.memberships_on_trial_member()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.membership_tier = 'trial' and new.trial_expires_at is not null then
    insert into public.memberships (member_id, tier, status, period_start, period_end, anchor_at, renews)
    values (new.id, 'trial', 'trialing', new.created_at, new.trial_expires_at, new.created_at, false)
    on conflict (member_id) do nothing;
  end if;
  return null;
end;
$$;

revoke execute on function private.memberships_on_trial_member() from public;

-- Booking the free class ends the trial at once (book_class makes the member payg): the trialing
-- membership ends with it, so it never shows as running.
create function private.memberships_end_used_trial()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.memberships
     set status = 'lapsed', ended_at = least(period_end, now()), updated_at = now()
   where member_id = new.id and status = 'trialing' and ended_at is null;
  return null;
end;
$$;

revoke execute on function private.memberships_end_used_trial() from public;

-- Charging (service role: the functions and the renewal job) ------------------------------------
-- Everything a function needs to charge one payment with the saved card. card_token is null when
-- the member has no saved card (the charge then fails without asking the provider).
create type public.membership_charge as (
  checkout_reference text,
  amount numeric,
  currency text,
  description text,
  billing_reason text,
  member_id uuid,
  customer_id text,
  card_token text,
  provider_checkout_id text,
  attempt integer
);

-- Takes one unpaid membership payment for charging as of p_now: one more attempt, and nobody else
-- charges it for charge_claim_length(). Returns null when it is paid, someone is charging it, or
-- it must not be charged at all (charge_not_allowed: it is expired then, and never charged).
create function private.claim_membership_charge(p_checkout_reference text, p_now timestamptz)
returns public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_card private.member_cards;
  r public.membership_charge;
begin
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null
   for update;
  if not found or v_payment.status = 'paid' or v_payment.claimed_until > p_now then
    return null;
  end if;
  if private.charge_not_allowed(v_payment) is not null then
    update public.payments set status = 'expired' where id = v_payment.id and status = 'pending';
    return null;
  end if;
  update public.payments
     set attempts = attempts + 1, last_attempt_at = p_now, claimed_until = p_now + private.charge_claim_length()
   where id = v_payment.id
  returning * into v_payment;
  select * into v_card from private.member_cards where member_id = v_payment.member_id;
  r.checkout_reference := v_payment.checkout_reference;
  -- The card or Direct Debit is charged what the balance left (decision 0108).
  r.amount := v_payment.amount - coalesce(v_payment.balance_used, 0);
  r.currency := v_payment.currency;
  r.description := v_payment.description;
  r.billing_reason := v_payment.billing_reason;
  r.member_id := v_payment.member_id;
  r.customer_id := coalesce(v_card.customer_id, private.provider_customer_id(v_payment.member_id));
  r.card_token := v_card.token;
  r.provider_checkout_id := v_payment.provider_checkout_id;
  r.attempt := v_payment.attempts;
  return r;
end;
$$;

revoke execute on function private.claim_membership_charge(text, timestamptz) from public;

grant execute on function private.claim_membership_charge(text, timestamptz) to service_role;

-- The renewal run: memberships whose period has ended (or whose retry is due) as of p_now get the
-- payment of their next period (derived key: membership + period) and are claimed for charging.
-- Cancelled ones are not charged (end_finished_memberships ends them). A membership locked by
-- another run is skipped; a payment claimed by another run is not returned.
create function private.claim_due_renewals(p_now timestamptz, p_limit integer)
returns setof public.membership_charge
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_reference text;
  v_charge public.membership_charge;
  v_payment public.payments;
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
    -- A renewal the balance may pay (decision 0108) takes the member's charge lock first, without
    -- waiting: apply_membership_charge takes that lock before the membership, so one held elsewhere
    -- (a notification being applied) leaves this membership to the next run instead of deadlocking.
    continue when private.member_balance(v_m.member_id) > 0
                  and not exists (select 1 from public.payments p where p.checkout_reference = v_reference)
                  and not pg_try_advisory_xact_lock(hashtextextended('membership-charge:' || v_m.member_id::text, 0));
    insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference,
                                 membership_id, period_number, billing_reason, created_at)
    values (v_m.member_id, 'plan', coalesce(v_m.next_plan_slug, v_m.plan_slug), coalesce(v_m.next_tier, v_m.tier),
            coalesce(v_m.next_price, v_m.price),
            private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership, '
              || private.london_date_text(v_m.period_end) || ' to '
              || private.london_date_text(private.months_after(v_m.anchor_at, v_m.period_number + 2 - v_m.anchor_period)),
            v_reference, v_m.id, v_m.period_number + 1, 'renewal', p_now)
    on conflict (checkout_reference) do nothing
    returning * into v_payment;
    -- The member's balance pays first, once per period: only when the period's payment is new
    -- (decision 0108). All of it: paid now, without the card or Direct Debit.
    if found then
      v_payment := private.spend_balance_on_renewal(v_payment);
      if v_payment.balance_used = v_payment.amount then
        perform private.apply_membership_charge(v_reference, null, 'PAID', 0, v_payment.currency, p_now);
        continue;
      end if;
    end if;
    v_charge := private.claim_membership_charge(v_reference, p_now);
    if v_charge.checkout_reference is not null then
      return next v_charge;
    end if;
  end loop;
  -- Paused memberships' monthly hold fees are charged the same way (25_membership_pauses.sql).
  return query select * from private.claim_due_hold_fees(p_now);
  -- Late-cancel and no-show fees, and places given from a waitlist (28_attendance_policy.sql).
  return query select * from private.claim_due_attendance_fees(p_now);
  return query select * from private.claim_due_waitlist_places(p_now);
end;
$$;

revoke execute on function private.claim_due_renewals(timestamptz, integer) from public;

grant execute on function private.claim_due_renewals(timestamptz, integer) to service_role;

-- Applies a verified PAID charge (the caller fetched the checkout from the provider). Idempotent:
-- a replay answers already_applied. A renewal extends the period by one calendar month; a start or
-- upgrade starts a new period now. A charge that cannot be honoured (a period the membership has
-- moved past, a superseded checkout, a second first month, a removed member) is kept as paid and
-- owed back, never applied twice.
create function private.apply_membership_charge(
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
     or p_amount is null or round(p_amount, 2) <> v_payment.amount - coalesce(v_payment.balance_used, 0)
     or p_currency is distinct from v_payment.currency then
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
  -- A place given from a waitlist is confirmed, or owed back when it is gone (28_attendance_policy.sql).
  if v_payment.billing_reason = 'waitlist_place' then
    perform private.apply_waitlist_place(v_payment, p_now);
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.billing_reason = 'renewal' then
    v_next := v_m.period_number + 1;
    update public.memberships
       set period_number = v_next,
           period_start = v_m.period_end,
           period_end = private.months_after(v_m.anchor_at, v_next - v_m.anchor_period + 1),
           plan_slug = v_payment.plan_slug, tier = v_payment.grants_tier,
           price = v_payment.amount + coalesce(v_payment.discount, 0),
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
            v_payment.amount + coalesce(v_payment.upgrade_credit, 0) + coalesce(v_payment.discount, 0), v_next, p_now,
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
      array[case when v_payment.balance_used = v_payment.amount
                   then 'Thank you: your balance paid the ' || private.gbp(v_payment.amount) || ' for ' || v_payment.description || '.'
                 else 'Thank you: we ' || case when v_payment.collected_by = 'direct_debit' then 'collected ' else 'charged ' end
              || private.gbp(v_payment.amount - coalesce(v_payment.balance_used, 0))
              || case when v_payment.collected_by = 'direct_debit' then ' by Direct Debit for ' else ' to your saved card for ' end
              || v_payment.description || '.' end,
            'Your next renewal is on ' || private.london_date_text(v_m.period_end) || '.'],
      jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
      'renewal_receipt:' || v_payment.id);
  end if;
  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

revoke execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) from public;

grant execute on function private.apply_membership_charge(text, text, text, numeric, text, timestamptz) to service_role;

-- Records that attempt p_attempt of a charge failed (declined, or no saved card). Only the attempt
-- that is in progress counts, once. A failed renewal makes the membership past_due with the next
-- try at 1, 3 or 7 days after its due date (the first of those still ahead of p_now); with none
-- left it lapses: payg, and the trial is not given back. A failed start or upgrade changes nothing
-- but the payment (the member is told on the screen).
create function private.fail_membership_charge(p_checkout_reference text, p_attempt integer, p_reason text, p_now timestamptz)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_m public.memberships;
  v_retry timestamptz;
  -- The first charge of a membership an admin set up (admin_put_on_plan), with no card saved.
  v_never_started boolean;
  -- A Direct Debit that failed (its reason starts 'direct_debit:'): its own retry days and words.
  v_direct_debit boolean := coalesce(p_reason, '') like 'direct\_debit:%';
begin
  perform 1 from public.memberships
   where id = (select p.membership_id from public.payments p where p.checkout_reference = p_checkout_reference)
   for update;
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null
   for update;
  if not found then
    return ('unknown_reference', null, null)::public.checkout_result;
  end if;
  if v_payment.status = 'paid' or p_attempt is distinct from v_payment.attempts
     or v_payment.failed_attempt is not distinct from p_attempt then
    return ('already_applied', v_payment.id, v_payment.status)::public.checkout_result;
  end if;
  update public.payments
     set status = 'failed', failed_attempt = p_attempt, failure_reason = left(coalesce(p_reason, 'declined'), 200),
         failed_at = p_now, claimed_until = null
   where id = v_payment.id;

  -- A place given from a waitlist that could not be charged goes to the next in line.
  if v_payment.billing_reason = 'waitlist_place' then
    perform private.release_waitlist_place(v_payment);
  end if;

  if v_payment.billing_reason = 'renewal' then
    select * into v_m from public.memberships
     where id = v_payment.membership_id and ended_at is null and period_number + 1 = v_payment.period_number
     for update;
    if found then
      v_never_started := p_reason = 'no_card' and v_payment.period_number = v_m.anchor_period
                         and not exists (select 1 from public.payments p
                                          where p.membership_id = v_m.id and p.status = 'paid'
                                            and p.period_number >= v_m.anchor_period);
      select v_m.period_end + make_interval(days => d) into v_retry
        from unnest(case when v_direct_debit then private.direct_debit_retry_days() else private.renewal_retry_days() end) d
       where v_m.period_end + make_interval(days => d) > p_now
       order by d limit 1;
      if v_retry is null then
        update public.memberships
           set status = 'lapsed', renews = false, ended_at = p_now, retry_count = retry_count + 1,
               next_retry_at = null, updated_at = p_now
         where id = v_m.id
        returning * into v_m;
        perform private.sync_member_from_membership(v_m);
        -- The renewal's balance part comes back, once (decision 0108).
        perform private.return_renewal_balance(v_m.id, p_now);
        perform private.enqueue_membership_email('membership_ended', v_m.member_id,
          'Your ' || private.plan_name(v_m.plan_slug) || ' membership has ended',
          array[case when v_never_started then
                  'No card was added for the ' || private.plan_name(v_m.plan_slug) || ' membership the studio set up '
                    || 'for you, so it has not started and you stay on pay-as-you-go.'
                else 'We could not take the ' || private.gbp(v_payment.amount) || ' renewal of your '
                  || private.plan_name(v_m.plan_slug) || ' membership after several tries, so it has ended '
                  || 'and you are now on pay-as-you-go.' end,
                'You can choose a plan again at any time from your membership page.'],
          jsonb_build_array(jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
          'membership_ended:' || v_m.id || ':' || v_m.period_number);
      else
        update public.memberships
           set status = 'past_due', retry_count = retry_count + 1, next_retry_at = v_retry, updated_at = p_now
         where id = v_m.id
        returning * into v_m;
        perform private.sync_member_from_membership(v_m);
        if v_never_started then
          -- A plan an admin set up for a member without a saved card: an invitation, not a failure.
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Add a card to start your ' || private.plan_name(v_m.plan_slug) || ' membership',
            array['The studio has set up a ' || private.plan_name(v_m.plan_slug) || ' membership for you at '
                    || private.gbp(v_payment.amount) || ' a month.',
                  'To start it, add a card on your membership page: the first month is taken then. Until then you '
                    || 'book as before; we will remind you on ' || private.london_date_text(v_retry) || '.'],
            jsonb_build_array(jsonb_build_object('label', 'Add a card', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        elsif v_direct_debit then
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Your Direct Debit payment failed',
            array['We could not collect the ' || private.gbp(v_payment.amount) || ' renewal of your '
                    || private.plan_name(v_m.plan_slug) || ' membership by Direct Debit'
                    || case when p_reason = 'direct_debit:no_mandate' then ': there is no Direct Debit set up.'
                            else ' (' || replace(substr(p_reason, 14), '_', ' ') || ').' end,
                  'You can keep booking classes while we try again on ' || private.london_date_text(v_retry)
                    || '. If your bank details have changed, set up a new Direct Debit or pay by card on your membership page.'],
            jsonb_build_array(jsonb_build_object('label', 'Payment method', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        else
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Payment failed: please update your card',
            array['We could not take the ' || private.gbp(v_payment.amount) || ' renewal of your '
                    || private.plan_name(v_m.plan_slug) || ' membership'
                    || case when p_reason = 'no_card' then ': there is no saved card.' else ': your card was declined.' end,
                  'You can keep booking classes while we try again on ' || private.london_date_text(v_retry)
                    || '. Update your card to pay now and keep your membership.'],
            jsonb_build_array(jsonb_build_object('label', 'Update card', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        end if;
      end if;
    end if;
  end if;
  return ('marked_failed', v_payment.id, 'failed')::public.checkout_result;
end;
$$;

revoke execute on function private.fail_membership_charge(text, integer, text, timestamptz) from public;

grant execute on function private.fail_membership_charge(text, integer, text, timestamptz) to service_role;

-- The charge could not be made for a reason that says nothing about the card (provider down,
-- timeout before anything was sent): the claim is given up so the next run tries again.
create function private.release_membership_charge(p_checkout_reference text, p_attempt integer)
returns void
language sql security definer set search_path = ''
as $$
  update public.payments
     set claimed_until = null
   where checkout_reference = p_checkout_reference and attempts = p_attempt and status <> 'paid';
$$;

revoke execute on function private.release_membership_charge(text, integer) from public;

grant execute on function private.release_membership_charge(text, integer) to service_role;

-- Card-saving checkouts (service role) --------------------------------------------------------
-- What the checkout function needs to send the member to a card-saving checkout: the payment it
-- will charge once the card is saved (the return page follows it; null when it only saves the
-- card, decision 0104), the setup checkout's own reference and amount, and the provider customer.
create type public.card_setup_checkout as (
  payment_reference text,
  setup_reference text,
  amount numeric,
  currency text,
  description text,
  customer_id text,
  member_email text,
  member_name text
);

create function private.new_card_setup(p_payment public.payments, p_now timestamptz)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_setup private.card_setups;
begin
  select * into v_member from public.members where id = p_payment.member_id;
  -- What the saved card is charged next: the payment less what the balance paid (decision 0108).
  insert into private.card_setups (member_id, payment_id, checkout_reference, amount, created_at)
  values (p_payment.member_id, p_payment.id, 'setup-' || gen_random_uuid()::text,
          p_payment.amount - coalesce(p_payment.balance_used, 0), p_now)
  returning * into v_setup;
  return (p_payment.checkout_reference, v_setup.checkout_reference, v_setup.amount, p_payment.currency,
          p_payment.description, private.provider_customer_id(v_member.id), v_member.email::text,
          v_member.name)::public.card_setup_checkout;
end;
$$;

revoke execute on function private.new_card_setup(public.payments, timestamptz) from public;

-- Buying a monthly plan: the first month's payment (charged once the card is saved) and its
-- card-saving checkout. The amount and tier come from the functions' plan table. A member whose
-- plan is running changes it on /membership instead. A second checkout (another tab) supersedes
-- the first: only the newest can be charged. A promo code takes money off the first month only
-- (private.offer_price, 28_offers.sql): the plan renews at its catalogue price. The member's
-- balance pays the first month first (decision 0108): the card is charged what it leaves; a first
-- month it pays in full is paid now, and the card is saved for the renewals with nothing charged
-- (decision 0104's card-saving checkout without a payment).
create function private.start_membership_checkout(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz,
  p_promo_code text
)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_price public.offer_price;
  v_payment public.payments;
  v_member public.members;
  v_setup private.card_setups;
begin
  -- The member's charge lock before their row: a first month the balance pays is applied here
  -- (apply_membership_charge), which takes that lock, then the membership, then the member.
  perform pg_advisory_xact_lock(hashtextextended('membership-charge:' || p_member_id::text, 0));
  perform 1 from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_plan.grants_tier is null then
    raise exception '% is not a membership', v_plan.name using errcode = '22023', hint = 'not_a_membership';
  end if;
  if (private.running_membership(p_member_id)).id is not null then
    raise exception 'You already have a membership: upgrade or change it under My Membership.'
      using errcode = 'P0001', hint = 'membership_running';
  end if;
  v_price := private.offer_price(p_member_id, v_plan, p_promo_code, null, p_now, true);
  insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, discount, balance_used, description,
                               checkout_reference, billing_reason, created_at)
  values (p_member_id, 'plan', v_plan.slug, v_plan.grants_tier, v_price.price, nullif(v_price.discount, 0),
          nullif(v_price.balance_used, 0),
          coalesce(p_description, private.plan_description(v_plan)) || coalesce(', ' || v_price.label, '')
            || private.balance_label(v_price.balance_used),
          'plan-' || gen_random_uuid()::text, 'start', p_now)
  returning * into v_payment;
  perform private.record_offer_use(v_payment, v_price);
  perform private.spend_balance(v_payment);
  perform private.supersede_plan_purchases(p_member_id, v_payment.id);
  if v_price.to_charge > 0 then
    return private.new_card_setup(v_payment, p_now);
  end if;
  -- Paid in full by the balance: the membership starts now; the card is for the renewals.
  perform private.apply_membership_charge(v_payment.checkout_reference, null, 'PAID', 0, v_payment.currency, p_now);
  select * into v_member from public.members where id = p_member_id;
  insert into private.card_setups (member_id, payment_id, checkout_reference, amount, created_at)
  values (p_member_id, null, 'setup-' || gen_random_uuid()::text, v_plan.price, p_now)
  returning * into v_setup;
  return (null, v_setup.checkout_reference, v_setup.amount, 'GBP',
          'Card for your ' || v_plan.name || ' membership (nothing charged now)',
          private.provider_customer_id(p_member_id), v_member.email::text, v_member.name)::public.card_setup_checkout;
end;
$$;

revoke execute on function private.start_membership_checkout(uuid, text, numeric, text, text, timestamptz, text) from public;

grant execute on function private.start_membership_checkout(uuid, text, numeric, text, text, timestamptz, text) to service_role;

-- "Update card" of a past-due membership: a card-saving checkout for what is due, which is charged
-- with the new card at once. "Add a card" / "Replace card" of an active, renewing plan with nothing
-- due (decision 0104): a card-saving checkout with no payment behind it (payment_reference null).
-- Its amount is the plan's monthly price, what the card will be charged at the next renewal: the
-- provider only authorises it and gives it back at once; nothing is charged now.
create function private.start_card_update(p_member_id uuid, p_now timestamptz)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_payment public.payments;
  v_member public.members;
  v_setup private.card_setups;
begin
  select * into v_m from public.memberships where member_id = p_member_id and status = 'past_due' and ended_at is null;
  if found then
    select * into v_payment from public.payments
     where membership_id = v_m.id and billing_reason = 'renewal' and period_number = v_m.period_number + 1
       and status <> 'paid';
    if v_payment.id is not null then
      return private.new_card_setup(v_payment, p_now);
    end if;
  end if;
  select * into v_m from public.memberships
   where member_id = p_member_id and status = 'active' and renews and ended_at is null;
  if not found then
    raise exception 'Nothing is due on your membership.' using errcode = 'P0001', hint = 'nothing_due';
  end if;
  select * into v_member from public.members where id = p_member_id;
  insert into private.card_setups (member_id, payment_id, checkout_reference, amount, created_at)
  values (p_member_id, null, 'setup-' || gen_random_uuid()::text, v_m.price, p_now)
  returning * into v_setup;
  return (null, v_setup.checkout_reference, v_setup.amount, 'GBP',
          'Card for your ' || private.plan_name(v_m.plan_slug) || ' membership (nothing charged now)',
          private.provider_customer_id(p_member_id), v_member.email::text, v_member.name)::public.card_setup_checkout;
end;
$$;

revoke execute on function private.start_card_update(uuid, timestamptz) from public;

grant execute on function private.start_card_update(uuid, timestamptz) to service_role;

create function private.set_card_setup_checkout(p_setup_reference text, p_provider_checkout_id text)
returns void
language sql security definer set search_path = ''
as $$
  update private.card_setups
     set provider_checkout_id = p_provider_checkout_id
   where checkout_reference = p_setup_reference and provider_checkout_id is null;
$$;

revoke execute on function private.set_card_setup_checkout(text, text) from public;

grant execute on function private.set_card_setup_checkout(text, text) to service_role;

-- The provider could not create the card-saving checkout: it and its start payment fail.
create function private.abandon_card_setup(p_setup_reference text)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_setup private.card_setups;
begin
  select * into v_setup from private.card_setups where checkout_reference = p_setup_reference for update;
  if not found or v_setup.status <> 'pending' then
    return;
  end if;
  update private.card_setups set status = 'failed' where id = v_setup.id;
  update public.payments set status = 'failed', failure_reason = 'checkout_not_created'
   where id = v_setup.payment_id and billing_reason = 'start' and status = 'pending';
end;
$$;

revoke execute on function private.abandon_card_setup(text) from public;

grant execute on function private.abandon_card_setup(text) to service_role;

-- The provider checkout ids of a payment's card-saving checkouts still waiting for an answer (the
-- return page asks the provider about them, so a lost notification does not strand the member).
create function private.pending_card_setups(p_payment_reference text)
returns setof text
language sql stable security definer set search_path = ''
as $$
  select s.provider_checkout_id from private.card_setups s
    join public.payments p on p.id = s.payment_id
   where p.checkout_reference = p_payment_reference and s.status = 'pending' and s.provider_checkout_id is not null
   order by s.created_at desc
   limit 3
$$;

revoke execute on function private.pending_card_setups(text) from public;

grant execute on function private.pending_card_setups(text) to service_role;

-- A card-saving checkout with nothing due, as the membership page asks after it on the way back
-- (decision 0104): its status ('pending', 'paid' = the card is saved, 'failed', 'expired') and the
-- provider's checkout id, for the member who started it only (null for anyone else's reference).
create function private.card_setup_state(p_setup_reference text, p_member_id uuid)
returns table (status text, provider_checkout_id text)
language sql stable security definer set search_path = ''
as $$
  select s.status::text, s.provider_checkout_id from private.card_setups s
   where s.checkout_reference = p_setup_reference and s.member_id = p_member_id and s.payment_id is null
$$;

revoke execute on function private.card_setup_state(text, uuid) from public;

grant execute on function private.card_setup_state(text, uuid) to service_role;

create type public.card_setup_result as (
  -- applied | already_applied | marked_failed | still_pending | unknown_reference | mismatch
  outcome text,
  -- The payment to charge with the saved card now (applied only).
  charge_reference text
);

-- Applies what the provider said about a card-saving checkout (fetched by id by the caller):
-- PAID with a token saves the card (replacing an older one) and names the payment to charge;
-- FAILED or EXPIRED fails it (and a start payment with it). Idempotent.
create function private.apply_card_setup(
  p_setup_reference text, p_provider_checkout_id text, p_provider_status text, p_amount numeric, p_currency text,
  p_customer_id text, p_token text, p_now timestamptz
)
returns public.card_setup_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_setup private.card_setups;
  v_payment public.payments;
begin
  select * into v_setup from private.card_setups where checkout_reference = p_setup_reference for update;
  if not found then
    return ('unknown_reference', null)::public.card_setup_result;
  end if;
  select * into v_payment from public.payments where id = v_setup.payment_id;
  if (v_setup.provider_checkout_id is not null and v_setup.provider_checkout_id <> p_provider_checkout_id)
     or p_amount is null or round(p_amount, 2) <> v_setup.amount or p_currency is distinct from 'GBP'
     or (p_provider_status = 'PAID' and (coalesce(p_token, '') = ''
                                          or p_customer_id is distinct from private.provider_customer_id(v_setup.member_id))) then
    return ('mismatch', null)::public.card_setup_result;
  end if;
  if v_setup.provider_checkout_id is null then
    update private.card_setups set provider_checkout_id = p_provider_checkout_id where id = v_setup.id;
  end if;
  if p_provider_status = 'PENDING' then
    return ('still_pending', null)::public.card_setup_result;
  end if;
  if v_setup.status <> 'pending' then
    return ('already_applied', case when v_setup.status = 'paid' then v_payment.checkout_reference end)::public.card_setup_result;
  end if;
  if p_provider_status <> 'PAID' then
    update private.card_setups set status = 'failed' where id = v_setup.id;
    update public.payments set status = 'failed', failure_reason = 'card_not_saved'
     where id = v_payment.id and billing_reason = 'start' and status = 'pending';
    return ('marked_failed', null)::public.card_setup_result;
  end if;

  update private.card_setups set status = 'paid' where id = v_setup.id;
  insert into private.member_cards (member_id, customer_id, token, saved_at)
  values (v_setup.member_id, p_customer_id, p_token, p_now)
  on conflict (member_id) do update set customer_id = excluded.customer_id, token = excluded.token, saved_at = excluded.saved_at
    where private.member_cards.member_id = excluded.member_id;
  -- A new card may be charged again at once, whatever the last attempt's claim said.
  update public.payments set claimed_until = null where id = v_payment.id and status <> 'paid';
  return ('applied', v_payment.checkout_reference)::public.card_setup_result;
end;
$$;

revoke execute on function private.apply_card_setup(text, text, text, numeric, text, text, text, timestamptz) from public;

grant execute on function private.apply_card_setup(text, text, text, numeric, text, text, text, timestamptz) to service_role;

-- What an upgrade charges now: the new plan's price less what the member paid for the
-- days of the current period they will not use, in whole London days (today counts as unused: the
-- new period starts now). A period not paid yet (an admin's put-on-plan) gives no credit.
create type public.upgrade_quote as (
  plan_slug text,
  plan_price numeric,
  current_plan_slug text,
  current_price numeric,
  unused_days integer,
  period_days integer,
  credit numeric,
  -- What is charged now: plan_price - credit.
  amount numeric
);

-- Refuses what cannot be upgraded (as start_membership_upgrade does, but for the saved card) and
-- prices the rest as of p_now.
create function private.upgrade_quote(p_m public.memberships, p_plan_slug text, p_now timestamptz)
returns public.upgrade_quote
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, null, null);
  v_today date := (p_now at time zone 'Europe/London')::date;
  v_start date := (p_m.period_start at time zone 'Europe/London')::date;
  v_end date := (p_m.period_end at time zone 'Europe/London')::date;
  r public.upgrade_quote;
begin
  if p_m.id is null or p_m.ended_at is not null or p_m.status not in ('active', 'cancelled') then
    raise exception 'Only a running membership can be upgraded.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if p_m.tier = v_plan.grants_tier then
    raise exception 'You are already on this plan.' using errcode = 'P0001', hint = 'same_plan';
  end if;
  if p_m.tier <> 'standard' or v_plan.grants_tier is distinct from 'premium' then
    raise exception 'Only Standard can be upgraded to Platinum Premium.' using errcode = 'P0001', hint = 'not_an_upgrade';
  end if;
  r.plan_slug := v_plan.slug;
  r.plan_price := v_plan.price;
  r.current_plan_slug := p_m.plan_slug;
  r.current_price := p_m.price;
  r.period_days := greatest(v_end - v_start, 1);
  r.unused_days := case when private.membership_paid(p_m) then least(greatest(v_end - v_today, 0), r.period_days) else 0 end;
  -- Never the whole price: a charge is at least 1p.
  r.credit := least(round(p_m.price * r.unused_days / r.period_days, 2), v_plan.price - 0.01);
  r.amount := v_plan.price - r.credit;
  return r;
end;
$$;

revoke execute on function private.upgrade_quote(public.memberships, text, timestamptz) from public;

-- The caller's upgrade to p_plan_slug as of p_now, for the screen to show before they confirm.
create function private.my_upgrade_quote(p_plan_slug text, p_now timestamptz)
returns public.upgrade_quote
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = (private.require_member()).id;
  return private.upgrade_quote(v_m, p_plan_slug, p_now);
end;
$$;

revoke execute on function private.my_upgrade_quote(text, timestamptz) from public;

grant execute on function private.my_upgrade_quote(text, timestamptz) to authenticated, service_role;

-- Upgrade now (Standard to Platinum Premium): the charge of a new period starting now, at the
-- plan table's price less the unused days of the current period (upgrade_quote); applied like
-- any membership charge once verified, after which the plan renews at its full price. An upgrade
-- already in flight for this period is answered with its own reference (its charge is claimed
-- once); one made on an earlier day, whose credit is out of date, is superseded if nobody is
-- charging it (a late payment of it is owed back, never applied).
create function private.start_membership_upgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_description text, p_now timestamptz
)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_m public.memberships;
  v_quote public.upgrade_quote;
  v_pending public.payments;
  v_reference text;
  v_id uuid;
begin
  select * into v_m from public.memberships where member_id = p_member_id for update;
  -- An upgrade starts a new period now, which would undo a pause's move of the renewal.
  if (private.open_pause(v_m.id, p_now)).id is not null then
    raise exception 'Your membership has a pause: end or withdraw it before upgrading.'
      using errcode = 'P0001', hint = 'membership_paused';
  end if;
  v_quote := private.upgrade_quote(v_m, v_plan.slug, p_now);
  if not exists (select 1 from private.member_cards where member_id = p_member_id) then
    raise exception 'There is no saved card: choose the plan again to save one.' using errcode = 'P0001', hint = 'no_card';
  end if;
  select * into v_pending from public.payments
   where membership_id = v_m.id and period_number = v_m.period_number + 1
     and billing_reason = 'upgrade' and status = 'pending'
   for update;
  if found then
    if v_pending.amount = v_quote.amount or v_pending.claimed_until > p_now then
      return v_pending.checkout_reference;
    end if;
    update public.payments set status = 'expired' where id = v_pending.id;
  end if;
  -- Derived from the membership, the period and the try (a declined upgrade may be tried again).
  v_reference := 'upgrade-' || v_m.id::text || '-' || (v_m.period_number + 1)::text || '-'
                 || (1 + (select count(*) from public.payments
                           where membership_id = v_m.id and period_number = v_m.period_number + 1
                             and billing_reason = 'upgrade'))::text;
  insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, upgrade_credit, description,
                               checkout_reference, membership_id, period_number, billing_reason, created_at)
  values (p_member_id, 'plan', v_plan.slug, v_plan.grants_tier, v_quote.amount, nullif(v_quote.credit, 0),
          coalesce(p_description, private.plan_description(v_plan))
            || case when v_quote.credit > 0 then
                 ', less ' || private.gbp(v_quote.credit) || ' for ' || v_quote.unused_days || ' unused day'
                   || case when v_quote.unused_days = 1 then '' else 's' end || ' of ' || private.plan_name(v_m.plan_slug)
               else '' end,
          v_reference, v_m.id, v_m.period_number + 1, 'upgrade', p_now)
  returning id into v_id;
  if v_pending.id is not null then
    update public.payments set superseded_by = v_id where id = v_pending.id;
  end if;
  return v_reference;
end;
$$;

revoke execute on function private.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) from public;

grant execute on function private.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) to service_role;

-- Downgrade at the period end: the next renewal charges and grants the lower plan.
create function private.schedule_membership_downgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric, p_grants_tier text, p_now timestamptz
)
returns public.memberships
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans := private.checkout_plan(p_plan_slug, p_amount, p_grants_tier);
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = p_member_id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'past_due') then
    raise exception 'Only a renewing membership can be changed at its period end.'
      using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if v_m.tier <> 'premium' or v_plan.grants_tier is distinct from 'standard' then
    raise exception 'Only Platinum Premium can be downgraded to Standard.' using errcode = 'P0001', hint = 'not_a_downgrade';
  end if;
  update public.memberships
     set next_plan_slug = v_plan.slug, next_tier = v_plan.grants_tier, next_price = v_plan.price,
         updated_at = p_now
   where id = v_m.id
  returning * into v_m;
  return v_m;
end;
$$;

revoke execute on function private.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) from public;

grant execute on function private.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) to service_role;

-- Scheduled transitions (service role: the jobs) -----------------------------------------------
-- Cancelled memberships whose period has ended as of p_now end: payg. Returns how many.
create function private.end_finished_memberships(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select * from public.memberships
     where status = 'cancelled' and ended_at is null and period_end <= p_now
     for update skip locked
  loop
    update public.memberships set ended_at = v_m.period_end, updated_at = p_now where id = v_m.id
    returning * into v_m;
    perform private.sync_member_from_membership(v_m);
    -- Cancelled while a renewal was unpaid: its balance part comes back, once (decision 0108).
    perform private.return_renewal_balance(v_m.id, p_now);
    perform private.enqueue_membership_email('membership_ended', v_m.member_id,
      'Your ' || private.plan_name(v_m.plan_slug) || ' membership has ended',
      array['Your ' || private.plan_name(v_m.plan_slug) || ' membership ended on '
              || private.london_date_text(v_m.period_end) || ', as you asked. You are now on pay-as-you-go.',
            'You can choose a plan again at any time from your membership page.'],
      jsonb_build_array(jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
      'membership_ended:' || v_m.id || ':' || v_m.period_number);
    v_count := v_count + 1;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.end_finished_memberships(timestamptz) from public;

grant execute on function private.end_finished_memberships(timestamptz) to service_role;

-- Free trials whose end has come as of p_now: payg, and the free first class is no longer offered.
create function private.expire_trials(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  -- The membership first, so it ends at the trial's end rather than when the member row changes.
  update public.memberships
     set status = 'lapsed', ended_at = period_end, updated_at = p_now
   where status = 'trialing' and ended_at is null and period_end <= p_now;
  with ended as (
    update public.members m
       set membership_tier = 'payg', has_used_trial = true, trial_expires_at = null
     where m.membership_tier = 'trial' and m.trial_expires_at <= p_now
    returning m.id
  )
  select count(*)::int into v_count from ended;
  return v_count;
end;
$$;

revoke execute on function private.expire_trials(timestamptz) from public;

grant execute on function private.expire_trials(timestamptz) to service_role;

-- Pending class holds whose time is up as of p_now are released (their spots return).
create function private.release_expired_holds_at(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  delete from public.bookings where payment_status = 'pending' and hold_expires_at <= p_now;
  get diagnostics v_count = row_count;
  -- Guests' places held while their host pays for them (14_guests.sql) lapse the same way.
  delete from public.guest_places where payment_status = 'pending' and hold_expires_at <= p_now;
  return v_count;
end;
$$;

revoke execute on function private.release_expired_holds_at(timestamptz) from public;

grant execute on function private.release_expired_holds_at(timestamptz) to service_role;

-- Class reminders as of p_now (the jobs): one for every confirmed booking of a class starting
-- within p_within_hours after p_now, once per booking however often it runs.
-- private.enqueue_class_reminders (10_notifications.sql) asks this one as of now().
create function private.enqueue_class_reminders_at(p_within_hours integer, p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer := 0;
  v_row record;
begin
  if p_within_hours is null or p_within_hours < 1 or p_within_hours > 168 then
    raise exception 'The reminder window must be 1 to 168 hours' using errcode = '22023', hint = 'invalid_window';
  end if;
  for v_row in
    select b.id, b.member_id, b.class_id
      from public.bookings b
      join public.classes c on c.id = b.class_id
     where b.payment_status = 'completed'
       and c.start_time > p_now
       and c.start_time <= p_now + make_interval(hours => p_within_hours)
       and not exists (select 1 from public.notification_events e
                        join public.notification_deliveries d on d.event_id = e.id and d.channel = 'email'
                        where e.idempotency_key = 'class_reminder:' || b.id)
     order by c.start_time
  loop
    if private.enqueue_class_email('class_reminder', v_row.member_id, v_row.class_id, v_row.id,
                                   false, 'class_reminder:' || v_row.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_class_reminders_at(integer, timestamptz) from public;

grant execute on function private.enqueue_class_reminders_at(integer, timestamptz) to service_role;

-- Emails due as of p_now, each once: a reminder renewal_reminder_ahead() before a renewal, and
-- "your free trial ends tomorrow" in the trial's last day. Returns how many were queued.
create function private.enqueue_membership_reminders(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select * from public.memberships
     where status = 'active' and renews and ended_at is null
       and period_end > p_now and period_end <= p_now + private.renewal_reminder_ahead()
       -- It promises a charge to the saved card or a Direct Debit collection: a plan with neither
       -- (an imported one) is asked for a card instead (enqueue_import_card_requests, 25_import.sql).
       and (exists (select 1 from private.member_cards c where c.member_id = memberships.member_id)
            or private.billing_method(memberships.member_id) = 'direct_debit')
  loop
    if private.enqueue_membership_email('renewal_reminder', v_m.member_id,
         'Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
           || private.london_date_text(v_m.period_end),
         array_remove(array['Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
                 || private.london_date_text(v_m.period_end)
                 -- A member paying by Direct Debit (decision 0076, 18_direct_debit.sql) is collected from.
                 || case when private.billing_method(v_m.member_id) = 'direct_debit' then ': we will collect '
                         || private.gbp(coalesce(v_m.next_price, v_m.price)) || ' by Direct Debit.'
                         else ': we will charge ' || private.gbp(coalesce(v_m.next_price, v_m.price)) || ' to your saved card.' end,
               -- The balance pays the renewal first (decision 0108): the charge is then only the rest.
               case when private.member_balance(v_m.member_id) > 0 then
                 'Your balance (' || private.gbp(private.member_balance(v_m.member_id))
                   || ' today) pays first, so only what it leaves is charged.' end,
               'Nothing to do if you are staying. To stop it renewing, cancel renewal on your membership page before then.'], null),
         jsonb_build_array(jsonb_build_object('label', 'Manage your membership', 'path', '/membership')),
         'renewal_reminder:' || v_m.id || ':' || (v_m.period_number + 1)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  for v_m in
    select ms.* from public.memberships ms
      join public.members m on m.id = ms.member_id
     where ms.status = 'trialing' and ms.ended_at is null and m.membership_tier = 'trial'
       and ms.period_end > p_now and ms.period_end <= p_now + interval '1 day'
  loop
    if private.enqueue_membership_email('trial_ending', v_m.member_id,
         'Your free trial ends tomorrow',
         array['Your free trial ends on ' || private.london_time_text(v_m.period_end) || ' (London time).',
               'Keep training with a Standard or Platinum Premium membership, or pay as you go.'],
         jsonb_build_array(jsonb_build_object('label', 'See memberships', 'path', '/membership')),
         'trial_ending:' || v_m.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  -- "Your pause ends soon" (25_membership_pauses.sql).
  v_count := v_count + private.enqueue_pause_reminders(p_now);
  -- "A card is needed on ..." before an imported plan's first renewal (25_import.sql).
  v_count := v_count + private.enqueue_import_card_requests(p_now);
  return v_count;
end;
$$;

revoke execute on function private.enqueue_membership_reminders(timestamptz) from public;

grant execute on function private.enqueue_membership_reminders(timestamptz) to service_role;

-- Member and admin RPCs (private code) --------------------------------------------------------
-- The caller's membership as /membership shows it.
create type public.my_membership as (
  id uuid,
  plan_slug text,
  tier public.membership_tier,
  status public.membership_status,
  price numeric,
  period_start timestamptz,
  period_end timestamptz,
  renews boolean,
  ended_at timestamptz,
  next_plan_slug text,
  next_price numeric,
  next_retry_at timestamptz,
  has_card boolean,
  -- What is owed now (past due).
  amount_due numeric
);

create function private.membership_view(p_m public.memberships)
returns public.my_membership
language sql stable security definer set search_path = ''
as $$
  select p_m.id, p_m.plan_slug, p_m.tier, p_m.status, p_m.price, p_m.period_start, p_m.period_end, p_m.renews,
         p_m.ended_at, p_m.next_plan_slug, p_m.next_price, p_m.next_retry_at,
         exists (select 1 from private.member_cards c where c.member_id = p_m.member_id),
         (select p.amount from public.payments p
           where p_m.status = 'past_due' and p.membership_id = p_m.id and p.billing_reason = 'renewal'
             and p.period_number = p_m.period_number + 1 and p.status <> 'paid')
$$;

revoke execute on function private.membership_view(public.memberships) from public;

create function private.my_membership()
returns public.my_membership
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = (private.require_member()).id;
  if not found then
    return null;
  end if;
  return private.membership_view(v_m);
end;
$$;

revoke execute on function private.my_membership() from public;

grant execute on function private.my_membership() to authenticated, service_role;

-- Cancel renewal: access stays until the period ends, then payg. Idempotent.
create function private.cancel_membership(p_now timestamptz)
returns public.my_membership
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = (private.require_member()).id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'past_due', 'cancelled') then
    raise exception 'You have no membership to cancel.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if v_m.status <> 'cancelled' then
    update public.memberships
       set status = 'cancelled', renews = false, next_retry_at = null,
           next_plan_slug = null, next_tier = null, next_price = null, updated_at = p_now
     where id = v_m.id
    returning * into v_m;
    perform private.sync_member_from_membership(v_m);
  end if;
  return private.membership_view(v_m);
end;
$$;

revoke execute on function private.cancel_membership(timestamptz) from public;

grant execute on function private.cancel_membership(timestamptz) to authenticated, service_role;

-- Resume before the end: it renews again. Idempotent.
create function private.resume_membership(p_now timestamptz)
returns public.my_membership
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = (private.require_member()).id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'cancelled') or v_m.period_end <= p_now then
    raise exception 'This membership has ended: choose a plan again.' using errcode = 'P0001', hint = 'membership_ended';
  end if;
  if v_m.status = 'cancelled' then
    update public.memberships set status = 'active', renews = true, updated_at = p_now where id = v_m.id
    returning * into v_m;
    perform private.sync_member_from_membership(v_m);
  end if;
  return private.membership_view(v_m);
end;
$$;

revoke execute on function private.resume_membership(timestamptz) from public;

grant execute on function private.resume_membership(timestamptz) to authenticated, service_role;

-- Undo a plan change scheduled for the period end (a downgrade, or an admin's change): the
-- membership renews on its current plan and price. Idempotent; nothing to undo is not an error.
create function private.keep_current_plan(p_now timestamptz)
returns public.my_membership
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = (private.require_member()).id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'past_due', 'cancelled') then
    raise exception 'You have no membership to change.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if v_m.next_plan_slug is not null then
    update public.memberships set next_plan_slug = null, next_tier = null, next_price = null, updated_at = p_now
     where id = v_m.id
    returning * into v_m;
  end if;
  return private.membership_view(v_m);
end;
$$;

revoke execute on function private.keep_current_plan(timestamptz) from public;

grant execute on function private.keep_current_plan(timestamptz) to authenticated, service_role;

-- An admin puts a member on a plan at a given price (e.g. a student price after checking proof).
-- A member without a running plan gets it at once and its first month is due now: the next renewal
-- run charges the saved card, or, without one, the member is past due and asked to add a card. A
-- running plan (even one cancelled) changes at its period end, like a downgrade: the month already
-- paid is kept and the next renewal charges the new price. A past-due one is refused: its failed
-- renewal is charged at the old price until the member updates their card. It renews like any other.
create function private.put_member_on_plan(p_member_id uuid, p_plan_slug text, p_price numeric, p_now timestamptz)
returns public.my_membership
language plpgsql security definer set search_path = ''
as $$
declare
  v_tier public.membership_tier;
  v_m public.memberships;
  v_next integer;
begin
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

revoke execute on function private.put_member_on_plan(uuid, text, numeric, timestamptz) from public;

-- The same, for an admin (Members Management's Put on plan); the member import (25_import.sql)
-- calls put_member_on_plan after its own admin check, so both write plans one way.
create function private.admin_put_on_plan(p_member_id uuid, p_plan_slug text, p_price numeric, p_now timestamptz)
returns public.my_membership
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.put_member_on_plan(p_member_id, p_plan_slug, p_price, p_now);
end;
$$;

revoke execute on function private.admin_put_on_plan(uuid, text, numeric, timestamptz) from public;

grant execute on function private.admin_put_on_plan(uuid, text, numeric, timestamptz) to authenticated, service_role;

-- Analytics of memberships as of p_now (London month).
create type public.membership_figures as (
  -- Memberships in MRR at p_now (private.mrr_at), by the tier of their plan.
  active_standard integer,
  active_premium integer,
  -- Monthly recurring revenue at p_now (private.mrr_at): the monthly price of every membership
  -- running with a period paid, a cancelled one until it ends, a past-due one until it lapses (GBP).
  mrr numeric,
  -- Renewal payments paid this month, and renewal payments whose last failure was this month.
  renewals_this_month integer,
  failed_renewals_this_month integer,
  past_due integer
);

create function private.admin_membership_stats(p_now timestamptz)
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

revoke execute on function private.admin_membership_stats(timestamptz) from public;

grant execute on function private.admin_membership_stats(timestamptz) to authenticated, service_role;

-- API ------------------------------------------------------------------------------------------
-- Members and admins (a member's own changes happen now; only the service role chooses "now").
create function public.my_membership()
returns public.my_membership
language sql stable security invoker set search_path = ''
as $$ select * from private.my_membership() $$;

revoke execute on function public.my_membership() from public, anon;

grant execute on function public.my_membership() to authenticated, service_role;

create function public.cancel_membership()
returns public.my_membership
language sql volatile security invoker set search_path = ''
as $$ select * from private.cancel_membership(now()) $$;

revoke execute on function public.cancel_membership() from public, anon;

grant execute on function public.cancel_membership() to authenticated, service_role;

create function public.resume_membership()
returns public.my_membership
language sql volatile security invoker set search_path = ''
as $$ select * from private.resume_membership(now()) $$;

revoke execute on function public.resume_membership() from public, anon;

grant execute on function public.resume_membership() to authenticated, service_role;

create function public.keep_current_plan()
returns public.my_membership
language sql volatile security invoker set search_path = ''
as $$ select * from private.keep_current_plan(now()) $$;

revoke execute on function public.keep_current_plan() from public, anon;

grant execute on function public.keep_current_plan() to authenticated, service_role;

create function public.my_upgrade_quote(p_plan_slug text)
returns public.upgrade_quote
language sql stable security invoker set search_path = ''
as $$ select * from private.my_upgrade_quote(p_plan_slug, now()) $$;

revoke execute on function public.my_upgrade_quote(text) from public, anon;

grant execute on function public.my_upgrade_quote(text) to authenticated, service_role;

create function public.admin_put_on_plan(p_member_id uuid, p_plan_slug text, p_price numeric)
returns public.my_membership
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_put_on_plan(p_member_id, p_plan_slug, p_price, now()) $$;

revoke execute on function public.admin_put_on_plan(uuid, text, numeric) from public, anon;

grant execute on function public.admin_put_on_plan(uuid, text, numeric) to authenticated, service_role;

create function public.admin_membership_stats(p_now timestamptz default now())
returns public.membership_figures
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_membership_stats(p_now) $$;

revoke execute on function public.admin_membership_stats(timestamptz) from public, anon;

grant execute on function public.admin_membership_stats(timestamptz) to authenticated, service_role;

-- Service role (the checkout functions and the jobs).
-- The price, tier and description come from the catalogue (public.plans): send the slug; an amount
-- or tier sent must match it (private.checkout_plan). The same for the upgrade and the downgrade.
create function public.start_membership_checkout(
  p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_grants_tier text default null,
  p_description text default null, p_now timestamptz default now(), p_promo_code text default null
)
returns public.card_setup_checkout
language sql volatile security invoker set search_path = ''
as $$ select * from private.start_membership_checkout(p_member_id, p_plan_slug, p_amount, p_grants_tier, p_description, p_now, p_promo_code) $$;

revoke execute on function public.start_membership_checkout(uuid, text, numeric, text, text, timestamptz, text) from public, anon, authenticated;

grant execute on function public.start_membership_checkout(uuid, text, numeric, text, text, timestamptz, text) to service_role;

create function public.start_card_update(p_member_id uuid, p_now timestamptz default now())
returns public.card_setup_checkout
language sql volatile security invoker set search_path = ''
as $$ select * from private.start_card_update(p_member_id, p_now) $$;

revoke execute on function public.start_card_update(uuid, timestamptz) from public, anon, authenticated;

grant execute on function public.start_card_update(uuid, timestamptz) to service_role;

create function public.pending_card_setups(p_payment_reference text)
returns setof text
language sql stable security invoker set search_path = ''
as $$ select * from private.pending_card_setups(p_payment_reference) $$;

revoke execute on function public.pending_card_setups(text) from public, anon, authenticated;

grant execute on function public.pending_card_setups(text) to service_role;

create function public.card_setup_state(p_setup_reference text, p_member_id uuid)
returns table (status text, provider_checkout_id text)
language sql stable security invoker set search_path = ''
as $$ select * from private.card_setup_state(p_setup_reference, p_member_id) $$;

revoke execute on function public.card_setup_state(text, uuid) from public, anon, authenticated;

grant execute on function public.card_setup_state(text, uuid) to service_role;

create function public.set_card_setup_checkout(p_setup_reference text, p_provider_checkout_id text)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.set_card_setup_checkout(p_setup_reference, p_provider_checkout_id) $$;

revoke execute on function public.set_card_setup_checkout(text, text) from public, anon, authenticated;

grant execute on function public.set_card_setup_checkout(text, text) to service_role;

create function public.abandon_card_setup(p_setup_reference text)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.abandon_card_setup(p_setup_reference) $$;

revoke execute on function public.abandon_card_setup(text) from public, anon, authenticated;

grant execute on function public.abandon_card_setup(text) to service_role;

create function public.start_membership_upgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_grants_tier text default null,
  p_description text default null, p_now timestamptz default now()
)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.start_membership_upgrade(p_member_id, p_plan_slug, p_amount, p_grants_tier, p_description, p_now) $$;

revoke execute on function public.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) from public, anon, authenticated;

grant execute on function public.start_membership_upgrade(uuid, text, numeric, text, text, timestamptz) to service_role;

create function public.schedule_membership_downgrade(
  p_member_id uuid, p_plan_slug text, p_amount numeric default null, p_grants_tier text default null,
  p_now timestamptz default now()
)
returns public.memberships
language sql volatile security invoker set search_path = ''
as $$ select * from private.schedule_membership_downgrade(p_member_id, p_plan_slug, p_amount, p_grants_tier, p_now) $$;

revoke execute on function public.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) from public, anon, authenticated;

grant execute on function public.schedule_membership_downgrade(uuid, text, numeric, text, timestamptz) to service_role;

create function public.claim_membership_charge(p_checkout_reference text, p_now timestamptz)
returns public.membership_charge
language sql volatile security invoker set search_path = ''
as $$ select * from private.claim_membership_charge(p_checkout_reference, p_now) $$;

revoke execute on function public.claim_membership_charge(text, timestamptz) from public, anon, authenticated;

grant execute on function public.claim_membership_charge(text, timestamptz) to service_role;

create function public.claim_due_renewals(p_now timestamptz, p_limit integer default 50)
returns setof public.membership_charge
language sql volatile security invoker set search_path = ''
as $$ select * from private.claim_due_renewals(p_now, p_limit) $$;

revoke execute on function public.claim_due_renewals(timestamptz, integer) from public, anon, authenticated;

grant execute on function public.claim_due_renewals(timestamptz, integer) to service_role;

create function public.apply_membership_charge(
  p_checkout_reference text, p_provider_checkout_id text, p_provider_status text, p_amount numeric, p_currency text,
  p_now timestamptz
)
returns public.checkout_result
language sql volatile security invoker set search_path = ''
as $$
  select * from private.apply_membership_charge(p_checkout_reference, p_provider_checkout_id, p_provider_status,
                                                p_amount, p_currency, p_now)
$$;

revoke execute on function public.apply_membership_charge(text, text, text, numeric, text, timestamptz) from public, anon, authenticated;

grant execute on function public.apply_membership_charge(text, text, text, numeric, text, timestamptz) to service_role;

create function public.fail_membership_charge(p_checkout_reference text, p_attempt integer, p_reason text, p_now timestamptz)
returns public.checkout_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.fail_membership_charge(p_checkout_reference, p_attempt, p_reason, p_now) $$;

revoke execute on function public.fail_membership_charge(text, integer, text, timestamptz) from public, anon, authenticated;

grant execute on function public.fail_membership_charge(text, integer, text, timestamptz) to service_role;

create function public.release_membership_charge(p_checkout_reference text, p_attempt integer)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.release_membership_charge(p_checkout_reference, p_attempt) $$;

revoke execute on function public.release_membership_charge(text, integer) from public, anon, authenticated;

grant execute on function public.release_membership_charge(text, integer) to service_role;

create function public.end_finished_memberships(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.end_finished_memberships(p_now) $$;

revoke execute on function public.end_finished_memberships(timestamptz) from public, anon, authenticated;

grant execute on function public.end_finished_memberships(timestamptz) to service_role;

create function public.expire_trials(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.expire_trials(p_now) $$;

revoke execute on function public.expire_trials(timestamptz) from public, anon, authenticated;

grant execute on function public.expire_trials(timestamptz) to service_role;

create function public.release_expired_holds_at(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.release_expired_holds_at(p_now) $$;

revoke execute on function public.release_expired_holds_at(timestamptz) from public, anon, authenticated;

grant execute on function public.release_expired_holds_at(timestamptz) to service_role;

create function public.enqueue_membership_reminders(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_membership_reminders(p_now) $$;

revoke execute on function public.enqueue_membership_reminders(timestamptz) from public, anon, authenticated;

grant execute on function public.enqueue_membership_reminders(timestamptz) to service_role;

create function public.enqueue_class_reminders_at(p_now timestamptz, p_within_hours integer default 24)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_class_reminders_at(p_within_hours, p_now) $$;

revoke execute on function public.enqueue_class_reminders_at(timestamptz, integer) from public, anon, authenticated;

grant execute on function public.enqueue_class_reminders_at(timestamptz, integer) to service_role;

create function public.apply_card_setup(
  p_setup_reference text, p_provider_checkout_id text, p_provider_status text, p_amount numeric, p_currency text,
  p_customer_id text default null, p_token text default null, p_now timestamptz default now()
)
returns public.card_setup_result
language sql volatile security invoker set search_path = ''
as $$
  select * from private.apply_card_setup(p_setup_reference, p_provider_checkout_id, p_provider_status, p_amount,
                                         p_currency, p_customer_id, p_token, p_now)
$$;

revoke execute on function public.apply_card_setup(text, text, text, numeric, text, text, text, timestamptz) from public, anon, authenticated;

grant execute on function public.apply_card_setup(text, text, text, numeric, text, text, text, timestamptz) to service_role;

-- The member's membership while it runs (active, past due, or cancelled but not yet over), else null.
create function private.running_membership(p_member_id uuid)
returns public.memberships
language sql stable security definer set search_path = ''
as $$
  select * from public.memberships
   where member_id = p_member_id and ended_at is null and status in ('active', 'past_due', 'cancelled')
$$;

revoke execute on function private.running_membership(uuid) from public;

-- Why a membership payment must not be charged now, or null: superseded by a newer checkout, or a
-- first month whose member already has a running plan (another tab's checkout was paid first).
create function private.charge_not_allowed(p_payment public.payments)
returns text
language sql stable security definer set search_path = ''
as $$
  select case
    when p_payment.superseded_by is not null then 'superseded_checkout'
    when p_payment.member_id is null then 'member_removed'
    when p_payment.billing_reason = 'start' and exists (
      select 1 from public.memberships ms
       where ms.member_id = p_payment.member_id and ms.ended_at is null
         and ms.status in ('active', 'past_due', 'cancelled')
         and ms.period_number >= ms.anchor_period) then 'duplicate_payment'
  end
$$;

revoke execute on function private.charge_not_allowed(public.payments) from public;

-- A plan gives its tier once paid ---------------------------------------------------------------
-- True once at least one period of this run of the membership is paid (an admin's put-on-plan
-- starts unpaid: anchor_period is the period its first charge pays for).
create function private.membership_paid(p_membership public.memberships)
returns boolean
language plpgsql immutable set search_path = ''
as $$
begin
  return p_membership.period_number >= p_membership.anchor_period;
end;
$$;

revoke execute on function private.membership_paid(public.memberships) from public;

-- What each membership charges a month, over time (decision 0036) -----------------------------
-- The memberships row holds only the present: a renewal overwrites the period, a restart the end
-- of the run before it, and an upgrade's payment is the new price less a credit. MRR at any
-- instant, past or present, is read from this history instead: one row per stretch of time a
-- membership ran, with a period paid, at one monthly price ([starts_at, ends_at), ends_at null
-- while it runs on). It is written only by the trigger on memberships below, so it always agrees
-- with the row. It outlives a removed member (no foreign key), so past months' figures never move.
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

-- Plan bookings inside a paid (or paying) period ----------------------------------------------
-- The membership period a plan class starting at p_at would be paid by, or null when the member's
-- plan does not cover it: the current period, or for a renewing plan (active or past due, being
-- charged) the next one. Members without a membership row keep the calendar month (see allowance_used).
create function private.plan_period_of(p_membership public.memberships, p_at timestamptz)
returns tstzrange
language plpgsql stable set search_path = ''
as $$
begin
  return case
    when p_membership.id is null or p_membership.ended_at is not null or not private.membership_paid(p_membership)
         or p_membership.status not in ('active', 'past_due', 'cancelled') then null
    when p_at < p_membership.period_end then tstzrange(p_membership.period_start, p_membership.period_end)
    when p_membership.renews
         and p_at < private.months_after(p_membership.anchor_at, p_membership.period_number - p_membership.anchor_period + 2)
      then tstzrange(p_membership.period_end,
                     private.months_after(p_membership.anchor_at, p_membership.period_number - p_membership.anchor_period + 2))
  end;
end;
$$;

revoke execute on function private.plan_period_of(public.memberships, timestamptz) from public;

-- Classes a plan has paid for in one allowance window: 'paid' bookings of classes starting in it
-- plus the late cancellations of such bookings (decision 0005: a late cancellation still counts).
create function private.plan_classes_in(p_member_id uuid, p_window tstzrange)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (select count(*)::int from public.bookings b join public.classes c on c.id = b.class_id
           where b.member_id = p_member_id and b.type = 'paid' and c.start_time <@ p_window)
       + (select count(*)::int from public.late_cancellations l
           where l.member_id = p_member_id and l.booking_type = 'paid' and l.class_start_time <@ p_window);
end;
$$;

revoke execute on function private.plan_classes_in(uuid, tstzrange) from public;

-- Why this member's plan cannot pay for a class starting at p_class_start, or null:
-- outside_plan_period (after the plan's last paid or paying day), plan_paused (inside a pause) or
-- allowance_used (that period's classes are used).
create function private.plan_class_refusal(p_member public.members, p_class_start timestamptz)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_window tstzrange;
begin
  if private.plan_allowance(p_member.membership_tier) is null then
    return 'plan_required';
  end if;
  select * into v_m from public.memberships where member_id = p_member.id and tier <> 'trial';
  if not found then
    return case when private.allowance_used(p_member.id, now()) >= private.plan_allowance(p_member.membership_tier)
                then 'allowance_used' end;
  end if;
  v_window := private.plan_period_of(v_m, p_class_start);
  if v_window is null then
    return 'outside_plan_period';
  end if;
  -- A paused plan pays for no class inside the pause (25_membership_pauses.sql).
  if (private.pause_at(p_member.id, p_class_start)).id is not null then
    return 'plan_paused';
  end if;
  if private.plan_classes_in(p_member.id, v_window) >= private.plan_allowance(p_member.membership_tier) then
    return 'allowance_used';
  end if;
  return null;
end;
$$;

revoke execute on function private.plan_class_refusal(public.members, timestamptz) from public;

-- The last instant the member's plan pays for (the end of the paid period, or of the period being
-- charged for a renewing plan), or null.
create function private.plan_covers_until(p_member_id uuid)
returns timestamptz
language sql stable security definer set search_path = ''
as $$
  select case when ms.renews then private.months_after(ms.anchor_at, ms.period_number - ms.anchor_period + 2)
              else ms.period_end end
    from public.memberships ms
   where ms.member_id = p_member_id and ms.ended_at is null and private.membership_paid(ms)
$$;

revoke execute on function private.plan_covers_until(uuid) from public;

-- Plan bookings follow the plan's end: when a membership ends, its plan bookings of classes after
-- the end go (their spots return, the waitlist promotes); the member was told their plan ended.
create function private.memberships_end_plan_bookings()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform set_config('app.booking_removal', 'member_cancelled', true);
  delete from public.bookings b
   using public.classes c
   where c.id = b.class_id and b.member_id = new.member_id and b.type = 'paid'
     and c.start_time >= new.ended_at and c.start_time > now();
  perform set_config('app.booking_removal', '', true);
  return null;
end;
$$;

revoke execute on function private.memberships_end_plan_bookings() from public;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own membership; admins read all"
  on public.memberships for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create trigger memberships_end_plan_bookings
  after update of ended_at on public.memberships
  for each row when (old.ended_at is null and new.ended_at is not null and new.tier <> 'trial')
  execute function private.memberships_end_plan_bookings();

create trigger memberships_record_price
  after insert or update or delete on public.memberships
  for each row execute function private.record_membership_price();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger memberships_on_trial_member
  after insert on public.members
  for each row execute function private.memberships_on_trial_member();

create trigger memberships_end_used_trial
  after update of membership_tier on public.members
  for each row when (old.membership_tier = 'trial' and new.membership_tier <> 'trial')
  execute function private.memberships_end_used_trial();

-- Keys on other domains' tables (each named in its table's file) ---------------------------------
-- A membership's charges (public.payments, 06_payments.sql, declared before this table) point at it.
alter table public.payments
  add constraint payments_membership_id_fkey foreign key (membership_id) references public.memberships (id) on delete set null;
