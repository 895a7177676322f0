-- Direct Debit beside cards (decision 0076): a member pays a monthly plan by Bacs Direct Debit
-- through GoCardless instead of a card. The mandate is set up with a Billing Request and its flow
-- (the member's bank details go to GoCardless, never to us); each membership payment due is then
-- one GoCardless payment per attempt, submitted by the renewal job like a card charge and settled
-- by GoCardless's signed webhooks over the following days:
--   pending_submission -> submitted -> confirmed -> paid_out   (or failed, cancelled, charged_back)
-- The membership's payment (public.payments) stays the one record of what is owed: it is paid when
-- the collection is confirmed (apply_membership_charge, the card's path), it fails through
-- fail_membership_charge (our own retry days for Direct Debit, direct_debit_retry_days), and a
-- charge-back is recorded as money owed back to the studio. While a collection is on its way the
-- payment is claimed (claimed_until 'infinity'), so no run submits it twice, and the member keeps
-- booking: a renewing plan books into the period being charged (decision 0016).
--
-- Every webhook event is applied once (its id is the key), in any order: a status only moves
-- forward, and the effects hang on crossing a status, not on the event that said so.

-- Tables ------------------------------------------------------------------------------------------
-- How a member pays their membership: no row is the card.
create table public.billing_methods (
  member_id uuid primary key references public.members (id) on delete cascade,
  method text not null check (method in ('card', 'direct_debit')),
  updated_at timestamptz not null
);

comment on table public.billing_methods is
  'How each member pays their membership (no row: card). Written by the Direct Debit functions and when a card is saved.';

alter table public.billing_methods enable row level security;

revoke all on public.billing_methods from public, anon, authenticated;

grant select on public.billing_methods to authenticated;

grant all on public.billing_methods to service_role;

create policy "Members read their own billing method; admins read all"
  on public.billing_methods for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- A Billing Request (mandate request) and its flow: where the member is sent to give their bank
-- details. One in flight per member, so two tabs are sent to the same flow and make one mandate.
create table private.direct_debit_setups (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  -- The first month it leads to; null when a member on a running plan only switches to Direct Debit.
  payment_id uuid references public.payments (id) on delete cascade,
  -- Ours: the Billing Request's idempotency key and metadata.
  reference text not null unique check (char_length(reference) between 1 and 64),
  billing_request_id text unique,
  flow_url text check (flow_url ~ '^https?://' and char_length(flow_url) <= 2048),
  status text not null default 'pending' check (status in ('pending', 'fulfilled', 'failed', 'expired')),
  provider_mandate_id text,
  created_at timestamptz not null
);

create unique index direct_debit_setups_one_pending on private.direct_debit_setups (member_id) where status = 'pending';

create index direct_debit_setups_payment_id_idx on private.direct_debit_setups (payment_id);

revoke all on private.direct_debit_setups from public, anon, authenticated;

-- A member's mandates at GoCardless. One live (pending or active) at a time: a newer one replaces it.
create table private.direct_debit_mandates (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  provider_mandate_id text not null unique check (char_length(provider_mandate_id) between 1 and 64),
  status text not null check (status in ('pending', 'active', 'cancelled', 'failed', 'expired', 'replaced')),
  created_at timestamptz not null,
  updated_at timestamptz not null,
  ended_at timestamptz
);

create unique index direct_debit_mandates_one_live on private.direct_debit_mandates (member_id)
  where status in ('pending', 'active');

revoke all on private.direct_debit_mandates from public, anon, authenticated;

-- One submission of a payment to GoCardless (one per attempt). provider_payment_id is null until
-- GoCardless has answered; a run that crashed before recording it reuses the row, and its id is
-- the idempotency key, so GoCardless answers with the payment it already made.
create table private.direct_debit_collections (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references public.payments (id) on delete cascade,
  attempt integer not null check (attempt > 0),
  mandate_id uuid not null references private.direct_debit_mandates (id) on delete cascade,
  provider_payment_id text unique check (char_length(provider_payment_id) between 1 and 64),
  charge_date date not null,
  amount numeric(10, 2) not null check (amount > 0),
  status text not null default 'pending_submission'
    check (status in ('pending_submission', 'submitted', 'confirmed', 'paid_out', 'failed', 'cancelled', 'charged_back')),
  failure_cause text,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  unique (payment_id, attempt)
);

create index direct_debit_collections_mandate_id_idx on private.direct_debit_collections (mandate_id);

revoke all on private.direct_debit_collections from public, anon, authenticated;

-- Money the member's bank took back after the studio had it (a charge-back, or a failure reported
-- after the payment was confirmed): owed back to the studio until an admin records it settled.
create table private.direct_debit_chargebacks (
  id uuid primary key default gen_random_uuid(),
  collection_id uuid not null unique references private.direct_debit_collections (id) on delete cascade,
  payment_id uuid references public.payments (id) on delete set null,
  member_id uuid references public.members (id) on delete set null,
  amount numeric(10, 2) not null check (amount > 0),
  charged_back_at timestamptz not null,
  settled_at timestamptz,
  settled_note text check (char_length(settled_note) <= 500)
);

create index direct_debit_chargebacks_member_id_idx on private.direct_debit_chargebacks (member_id);

create index direct_debit_chargebacks_payment_id_idx on private.direct_debit_chargebacks (payment_id);

create index direct_debit_chargebacks_charged_back_at_idx on private.direct_debit_chargebacks (charged_back_at);

revoke all on private.direct_debit_chargebacks from public, anon, authenticated;

-- GoCardless's refunds of Direct Debit payments (decision 0103), as its refund events report them:
-- created -> paid -> refund_settled, or failed / funds_returned (ends: the money did not reach the
-- member, so the refund owed is open again). A row is written by the first event of a refund the
-- studio made (the refund owed naming it) and stays when that refund owed forgets the id, so a late
-- or replayed event of a failed refund is still known.
create table private.direct_debit_refunds (
  provider_refund_id text primary key check (char_length(provider_refund_id) between 1 and 64),
  refund_owed_id uuid references public.refunds_owed (id) on delete set null,
  status text not null check (status in ('created', 'paid', 'refund_settled', 'failed', 'funds_returned')),
  -- GoCardless's cause and words for a failure, shown under Refunds owed.
  failure_cause text check (char_length(failure_cause) <= 100),
  -- When GoCardless said the money reached the member (paid, or settled first).
  confirmed_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create index direct_debit_refunds_refund_owed_id_idx on private.direct_debit_refunds (refund_owed_id);

revoke all on private.direct_debit_refunds from public, anon, authenticated;

-- Every webhook event applied, by GoCardless's event id: a replay finds its row and changes nothing.
create table private.direct_debit_events (
  id text primary key check (char_length(id) between 1 and 64),
  resource_type text not null,
  action text not null,
  links jsonb not null default '{}',
  outcome text,
  received_at timestamptz not null
);

revoke all on private.direct_debit_events from public, anon, authenticated;

-- Days on which Bacs does not run besides weekends: England and Wales bank holidays.
create table private.bacs_non_working_days (
  day date primary key,
  name text not null
);

revoke all on private.bacs_non_working_days from public, anon, authenticated;

insert into private.bacs_non_working_days (day, name) values
  ('2026-01-01', 'New Year''s Day'),
  ('2026-04-03', 'Good Friday'),
  ('2026-04-06', 'Easter Monday'),
  ('2026-05-04', 'Early May bank holiday'),
  ('2026-05-25', 'Spring bank holiday'),
  ('2026-08-31', 'Summer bank holiday'),
  ('2026-12-25', 'Christmas Day'),
  ('2026-12-28', 'Boxing Day (substitute day)'),
  ('2027-01-01', 'New Year''s Day'),
  ('2027-03-26', 'Good Friday'),
  ('2027-03-29', 'Easter Monday'),
  ('2027-05-03', 'Early May bank holiday'),
  ('2027-05-31', 'Spring bank holiday'),
  ('2027-08-30', 'Summer bank holiday'),
  ('2027-12-27', 'Christmas Day (substitute day)'),
  ('2027-12-28', 'Boxing Day (substitute day)');

-- Rules -------------------------------------------------------------------------------------------
-- The Bacs lead times (decision 0076, docs/data-contract.md): a collection under an active mandate is
-- charged at the earliest 3 working days after it is asked for (Bacs's three-day cycle: GoCardless
-- submits it 2 working days before the charge date, and a request after its daily cut-off waits a
-- day); the first collection of a new mandate at the earliest 5 working days after the mandate was
-- set up (the mandate is lodged with the payer's bank first).
create function private.bacs_lead_days(p_new_mandate boolean)
returns integer
language sql immutable set search_path = ''
as $$ select case when p_new_mandate then 5 else 3 end $$;

revoke execute on function private.bacs_lead_days(boolean) from public;

-- The working day p_days working days after p_from (weekends and bank holidays skipped).
create function private.bacs_working_days_after(p_from date, p_days integer)
returns date
language sql stable security definer set search_path = ''
as $$
  select d::date
    from generate_series(p_from + 1, p_from + 10 + p_days * 2, interval '1 day') d
   where extract(isodow from d) < 6
     and not exists (select 1 from private.bacs_non_working_days h where h.day = d::date)
   order by d
  offset greatest(p_days, 1) - 1
   limit 1
$$;

revoke execute on function private.bacs_working_days_after(date, integer) from public;

-- The earliest charge date of a collection asked for at p_now under a mandate set up at
-- p_mandate_created_at (still pending: a new mandate).
create function private.direct_debit_charge_date(p_mandate_status text, p_mandate_created_at timestamptz, p_now timestamptz)
returns date
language sql stable security definer set search_path = ''
as $$
  select greatest(
    private.bacs_working_days_after((p_now at time zone 'Europe/London')::date, private.bacs_lead_days(false)),
    case when p_mandate_status = 'pending'
         then private.bacs_working_days_after((p_mandate_created_at at time zone 'Europe/London')::date, private.bacs_lead_days(true))
    end)
$$;

revoke execute on function private.direct_debit_charge_date(text, timestamptz, timestamptz) from public;

-- How long a mandate setup stays the one a second tab is sent to.
create function private.direct_debit_setup_length()
returns interval
language sql immutable set search_path = ''
as $$ select interval '1 day' $$;

revoke execute on function private.direct_debit_setup_length() from public;

-- How far along a collection is; failed, cancelled and charged_back are ends.
create function private.direct_debit_rank(p_status text)
returns integer
language sql immutable set search_path = ''
as $$
  select case p_status when 'pending_submission' then 0 when 'submitted' then 1 when 'confirmed' then 2
                       when 'paid_out' then 3 end
$$;

revoke execute on function private.direct_debit_rank(text) from public;

-- The member's live mandate (pending or active), else null.
create function private.live_mandate(p_member_id uuid)
returns private.direct_debit_mandates
language sql stable security definer set search_path = ''
as $$ select * from private.direct_debit_mandates where member_id = p_member_id and status in ('pending', 'active') $$;

revoke execute on function private.live_mandate(uuid) from public;

create function private.billing_method(p_member_id uuid)
returns text
language sql stable security definer set search_path = ''
as $$ select coalesce((select b.method from public.billing_methods b where b.member_id = p_member_id), 'card') $$;

revoke execute on function private.billing_method(uuid) from public;

create function private.set_billing_method_of(p_member_id uuid, p_method text, p_now timestamptz)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.billing_methods (member_id, method, updated_at) values (p_member_id, p_method, p_now)
  on conflict (member_id) do update set method = excluded.method, updated_at = excluded.updated_at
   where public.billing_methods.member_id = excluded.member_id and public.billing_methods.method <> excluded.method;
$$;

revoke execute on function private.set_billing_method_of(uuid, text, timestamptz) from public;

-- Setting up a mandate (service role: the checkout function) --------------------------------------
create type public.direct_debit_setup as (
  -- The first month's payment the return page follows; null when only switching to Direct Debit.
  payment_reference text,
  setup_reference text,
  -- Set when this setup already has its flow (another tab made it): send the member there.
  flow_url text,
  amount numeric,
  description text,
  member_email text,
  member_name text,
  first_charge_date date
);

-- Buying a monthly plan by Direct Debit (p_plan_slug), or switching a running plan to it (null):
-- the first month's payment (collected once the mandate exists) and the mandate setup. A setup in
-- flight for the same thing is answered again (two tabs: one Billing Request, one mandate); one for
-- something else is replaced, and a card checkout's payment is superseded as a second card tab's is.
create function private.start_direct_debit(p_member_id uuid, p_plan_slug text, p_now timestamptz)
returns public.direct_debit_setup
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_plan public.plans;
  v_setup private.direct_debit_setups;
  v_payment public.payments;
begin
  select * into v_member from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if p_plan_slug is not null then
    v_plan := private.checkout_plan(p_plan_slug, null, null);
    if v_plan.grants_tier is null or v_plan.billing_interval is distinct from 'month' then
      raise exception '% is not a monthly membership: pay for it by card.', v_plan.name using errcode = '22023', hint = 'not_a_membership';
    end if;
    if (private.running_membership(p_member_id)).id is not null then
      raise exception 'You already have a membership: upgrade or change it under My Membership.'
        using errcode = 'P0001', hint = 'membership_running';
    end if;
  elsif (private.running_membership(p_member_id)).id is null then
    raise exception 'Choose a plan first: Direct Debit pays a monthly membership.' using errcode = 'P0001', hint = 'no_membership';
  end if;

  select s.* into v_setup
    from private.direct_debit_setups s
    left join public.payments p on p.id = s.payment_id
   where s.member_id = p_member_id and s.status = 'pending' and s.created_at > p_now - private.direct_debit_setup_length()
     and p.plan_slug is not distinct from v_plan.slug
     and (s.payment_id is null or (p.status = 'pending' and p.superseded_by is null));
  if found then
    select * into v_payment from public.payments where id = v_setup.payment_id;
  else
    update private.direct_debit_setups set status = 'expired' where member_id = p_member_id and status = 'pending';
    if v_plan.slug is not null then
      insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference,
                                   billing_reason, collected_by, created_at)
      values (p_member_id, 'plan', v_plan.slug, v_plan.grants_tier, v_plan.price, private.plan_description(v_plan),
              'plan-' || gen_random_uuid()::text, 'start', 'direct_debit', p_now)
      returning * into v_payment;
      perform private.supersede_plan_purchases(p_member_id, v_payment.id);
    end if;
    insert into private.direct_debit_setups (member_id, payment_id, reference, created_at)
    values (p_member_id, v_payment.id, 'dd-' || gen_random_uuid()::text, p_now)
    returning * into v_setup;
  end if;

  return (v_payment.checkout_reference, v_setup.reference, v_setup.flow_url, v_payment.amount,
          coalesce(v_payment.description, 'Direct Debit for your ' || private.plan_name((private.running_membership(p_member_id)).plan_slug)
                   || ' membership'),
          v_member.email::text, v_member.name,
          private.direct_debit_charge_date('pending', p_now, p_now))::public.direct_debit_setup;
end;
$$;

revoke execute on function private.start_direct_debit(uuid, text, timestamptz) from public;

grant execute on function private.start_direct_debit(uuid, text, timestamptz) to service_role;

-- Records the Billing Request and flow GoCardless made for a setup and answers the flow to send the
-- member to: the first one recorded (two tabs that both asked GoCardless get the same flow).
create function private.set_direct_debit_flow(p_setup_reference text, p_billing_request_id text, p_flow_url text)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_setup private.direct_debit_setups;
begin
  update private.direct_debit_setups
     set billing_request_id = p_billing_request_id, flow_url = p_flow_url
   where reference = p_setup_reference and billing_request_id is null and status = 'pending';
  select * into v_setup from private.direct_debit_setups where reference = p_setup_reference;
  if not found or v_setup.status <> 'pending' then
    raise exception 'This Direct Debit setup has ended. Please start again.' using errcode = 'P0001', hint = 'setup_ended';
  end if;
  if v_setup.billing_request_id <> p_billing_request_id then
    raise exception 'A different Billing Request is recorded for this setup' using errcode = 'P0001', hint = 'setup_mismatch';
  end if;
  return v_setup.flow_url;
end;
$$;

revoke execute on function private.set_direct_debit_flow(text, text, text) from public;

grant execute on function private.set_direct_debit_flow(text, text, text) to service_role;

-- GoCardless refused the Billing Request: the setup and its first month fail.
create function private.abandon_direct_debit_setup(p_setup_reference text)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_setup private.direct_debit_setups;
begin
  select * into v_setup from private.direct_debit_setups where reference = p_setup_reference for update;
  if not found or v_setup.status <> 'pending' then
    return;
  end if;
  update private.direct_debit_setups set status = 'failed' where id = v_setup.id;
  update public.payments set status = 'failed', failure_reason = 'mandate_not_set_up'
   where id = v_setup.payment_id and billing_reason = 'start' and status = 'pending';
end;
$$;

revoke execute on function private.abandon_direct_debit_setup(text) from public;

grant execute on function private.abandon_direct_debit_setup(text) to service_role;

-- Collecting (service role: the renewal job and the webhook) ---------------------------------------
create type public.direct_debit_collection as (
  -- card: the member pays by card (charge it as before); direct_debit: collect it (or fail it: no mandate)
  method text,
  collection_id uuid,
  provider_mandate_id text,
  charge_date date,
  amount numeric,
  description text,
  -- Set when GoCardless already has this collection (a crashed run): read it instead.
  provider_payment_id text
);

-- How to take a claimed membership payment (claim_membership_charge's attempt p_attempt): by card,
-- or the Direct Debit collection to submit, its charge date by the Bacs lead times. A collection
-- GoCardless has not answered for yet is reused (its id is the idempotency key); one on its way
-- refuses another (method 'in_flight').
create function private.direct_debit_collection_for(p_checkout_reference text, p_attempt integer, p_now timestamptz)
returns public.direct_debit_collection
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_mandate private.direct_debit_mandates;
  v_collection private.direct_debit_collections;
begin
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null for update;
  if not found or v_payment.status = 'paid' or v_payment.attempts <> p_attempt then
    return ('in_flight', null, null, null, null, null, null)::public.direct_debit_collection;
  end if;
  if private.billing_method(v_payment.member_id) = 'card' then
    return ('card', null, null, null, null, null, null)::public.direct_debit_collection;
  end if;
  if exists (select 1 from private.direct_debit_collections c
              where c.payment_id = v_payment.id and c.provider_payment_id is not null
                and c.status in ('pending_submission', 'submitted', 'confirmed', 'paid_out')) then
    return ('in_flight', null, null, null, null, null, null)::public.direct_debit_collection;
  end if;
  v_mandate := private.live_mandate(v_payment.member_id);
  if v_mandate.id is null then
    return ('direct_debit', null, null, null, v_payment.amount - coalesce(v_payment.balance_used, 0), v_payment.description,
            null)::public.direct_debit_collection;
  end if;
  update private.direct_debit_collections
     set attempt = p_attempt, mandate_id = v_mandate.id, updated_at = p_now,
         charge_date = greatest(charge_date, private.direct_debit_charge_date(v_mandate.status, v_mandate.created_at, p_now))
   where payment_id = v_payment.id and provider_payment_id is null
  returning * into v_collection;
  if v_collection.id is null then
    insert into private.direct_debit_collections (payment_id, attempt, mandate_id, charge_date, amount, created_at, updated_at)
    values (v_payment.id, p_attempt, v_mandate.id,
            private.direct_debit_charge_date(v_mandate.status, v_mandate.created_at, p_now),
            v_payment.amount - coalesce(v_payment.balance_used, 0), p_now, p_now)
    returning * into v_collection;
  end if;
  return ('direct_debit', v_collection.id, v_mandate.provider_mandate_id, v_collection.charge_date, v_collection.amount,
          v_payment.description, null)::public.direct_debit_collection;
end;
$$;

revoke execute on function private.direct_debit_collection_for(text, integer, timestamptz) from public;

grant execute on function private.direct_debit_collection_for(text, integer, timestamptz) to service_role;

-- GoCardless made the payment of a collection: it is on its way. The membership payment is claimed
-- until an event settles it (no run submits it again), marked as collected by Direct Debit, and the
-- member is told when it will be taken (the advance notice). Idempotent.
create function private.record_direct_debit_submission(
  p_collection_id uuid, p_provider_payment_id text, p_charge_date date, p_now timestamptz
)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_collection private.direct_debit_collections;
  v_payment public.payments;
begin
  select * into v_collection from private.direct_debit_collections where id = p_collection_id for update;
  if not found then
    return 'unknown_reference';
  end if;
  if v_collection.provider_payment_id is not null then
    return case when v_collection.provider_payment_id = p_provider_payment_id then 'already_applied' else 'mismatch' end;
  end if;
  update private.direct_debit_collections
     set provider_payment_id = p_provider_payment_id, charge_date = coalesce(p_charge_date, charge_date), updated_at = p_now
   where id = v_collection.id
  returning * into v_collection;
  update public.payments
     set provider_checkout_id = p_provider_payment_id, collected_by = 'direct_debit', claimed_until = 'infinity'
   where id = v_collection.payment_id and status <> 'paid'
  returning * into v_payment;
  if v_payment.id is not null then
    perform private.enqueue_membership_email('direct_debit_notice', v_payment.member_id,
      'Direct Debit: ' || private.gbp(v_collection.amount) || ' will be collected on '
        || private.london_date_text(v_collection.charge_date::timestamp at time zone 'Europe/London'),
      array['We will collect ' || private.gbp(v_collection.amount) || ' by Direct Debit on or shortly after '
              || private.london_date_text(v_collection.charge_date::timestamp at time zone 'Europe/London')
              || ' for ' || v_payment.description || '.',
            'You can keep booking classes while the payment is on its way. It appears on your bank statement '
              || 'with the studio''s name.'],
      jsonb_build_array(jsonb_build_object('label', 'Billing history', 'path', '/membership')),
      'direct_debit_notice:' || v_collection.id);
  end if;
  return 'applied';
end;
$$;

revoke execute on function private.record_direct_debit_submission(uuid, text, date, timestamptz) from public;

grant execute on function private.record_direct_debit_submission(uuid, text, date, timestamptz) to service_role;

-- Applying webhook events (service role: the Direct Debit webhook) ----------------------------------
create type public.direct_debit_event_result as (
  -- applied | already_applied | ignored | unknown_reference (not ours yet: the event is not kept,
  -- so GoCardless's retry applies it once what it names is recorded) | unknown_refund (a refund the
  -- studio did not make: kept, and recorded as a payment notification not applied)
  outcome text,
  -- A membership payment to collect now (a mandate was just set up for it).
  charge_reference text
);

-- A Billing Request was fulfilled (the mandate exists) or ended.
create function private.direct_debit_billing_request_event(p_action text, p_links jsonb, p_now timestamptz)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_setup private.direct_debit_setups;
  v_mandate_id text := p_links ->> 'mandate_request_mandate';
  v_payment public.payments;
  v_m public.memberships;
begin
  select * into v_setup from private.direct_debit_setups where billing_request_id = p_links ->> 'billing_request' for update;
  if not found then
    return ('unknown_reference', null)::public.direct_debit_event_result;
  end if;
  if p_action in ('cancelled', 'failed') then
    if v_setup.status <> 'pending' then
      return ('ignored', null)::public.direct_debit_event_result;
    end if;
    update private.direct_debit_setups set status = 'failed' where id = v_setup.id;
    update public.payments set status = 'failed', failure_reason = 'mandate_not_set_up'
     where id = v_setup.payment_id and billing_reason = 'start' and status = 'pending';
    return ('applied', null)::public.direct_debit_event_result;
  end if;
  if p_action <> 'fulfilled' or v_mandate_id is null then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  if v_setup.status = 'fulfilled' then
    return ('already_applied', null)::public.direct_debit_event_result;
  end if;

  -- The member's older mandate is replaced: one live mandate, and it is this one.
  update private.direct_debit_mandates set status = 'replaced', ended_at = p_now, updated_at = p_now
   where member_id = v_setup.member_id and status in ('pending', 'active') and provider_mandate_id <> v_mandate_id;
  insert into private.direct_debit_mandates (member_id, provider_mandate_id, status, created_at, updated_at)
  values (v_setup.member_id, v_mandate_id, 'pending', p_now, p_now)
  on conflict (provider_mandate_id) do nothing;
  update private.direct_debit_setups set status = 'fulfilled', provider_mandate_id = v_mandate_id where id = v_setup.id;
  perform private.set_billing_method_of(v_setup.member_id, 'direct_debit', p_now);

  -- What to collect with it now: the first month it was set up for, else what a past-due plan owes.
  if v_setup.payment_id is not null then
    select * into v_payment from public.payments
     where id = v_setup.payment_id and status = 'pending' and superseded_by is null;
  else
    select * into v_m from public.memberships where member_id = v_setup.member_id and status = 'past_due' and ended_at is null;
    if found then
      select * into v_payment from public.payments
       where membership_id = v_m.id and billing_reason = 'renewal' and period_number = v_m.period_number + 1
         and status <> 'paid' and (claimed_until is null or claimed_until <= p_now);
    end if;
  end if;
  return ('applied', v_payment.checkout_reference)::public.direct_debit_event_result;
end;
$$;

revoke execute on function private.direct_debit_billing_request_event(text, jsonb, timestamptz) from public;

-- A mandate moved on: active, or ended (cancelled by the member or their bank, failed, expired).
-- An ended mandate of a member paying by Direct Debit asks them for a new one, once.
create function private.direct_debit_mandate_event(p_action text, p_links jsonb, p_details jsonb, p_now timestamptz)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_mandate private.direct_debit_mandates;
  v_status text := case p_action when 'active' then 'active' when 'reinstated' then 'active'
                                 when 'cancelled' then 'cancelled' when 'failed' then 'failed' when 'expired' then 'expired' end;
  v_m public.memberships;
begin
  if v_status is null then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  select * into v_mandate from private.direct_debit_mandates where provider_mandate_id = p_links ->> 'mandate' for update;
  if not found then
    return ('unknown_reference', null)::public.direct_debit_event_result;
  end if;
  if v_status = v_mandate.status or v_mandate.status = 'replaced'
     -- Out of order: an ended mandate comes back only by a reinstatement.
     or (v_status = 'active' and v_mandate.status <> 'pending' and p_action <> 'reinstated') then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  if v_status = 'active' then
    update private.direct_debit_mandates set status = 'active', ended_at = null, updated_at = p_now where id = v_mandate.id
       and not exists (select 1 from private.direct_debit_mandates o
                        where o.member_id = v_mandate.member_id and o.id <> v_mandate.id and o.status in ('pending', 'active'));
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  update private.direct_debit_mandates set status = v_status, ended_at = p_now, updated_at = p_now where id = v_mandate.id;
  if private.billing_method(v_mandate.member_id) = 'direct_debit' then
    select * into v_m from public.memberships where member_id = v_mandate.member_id and ended_at is null
       and status in ('active', 'past_due', 'cancelled');
    if found then
      perform private.enqueue_membership_email('direct_debit_mandate_cancelled', v_mandate.member_id,
        'Your Direct Debit has been cancelled: please set up a new one',
        array['Your Direct Debit for the ' || private.plan_name(v_m.plan_slug) || ' membership is no longer active'
                || coalesce(' (' || nullif(p_details ->> 'description', '') || ')', '') || '.',
              'To keep your membership, set up a new Direct Debit or pay by card on your membership page before '
                || private.london_date_text(v_m.period_end) || '.'],
        jsonb_build_array(jsonb_build_object('label', 'Set up a new Direct Debit', 'path', '/membership')),
        'direct_debit_mandate_cancelled:' || v_mandate.id);
    end if;
  end if;
  return ('applied', null)::public.direct_debit_event_result;
end;
$$;

revoke execute on function private.direct_debit_mandate_event(text, jsonb, jsonb, timestamptz) from public;

-- The bank took the money back after the studio had it: recorded as owed to the studio (once), the
-- running plan it paid for is past due (it still renews at its period end), the member is told.
create function private.direct_debit_charge_back(p_collection private.direct_debit_collections, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_m public.memberships;
begin
  update private.direct_debit_collections set status = 'charged_back', updated_at = p_now where id = p_collection.id;
  select * into v_payment from public.payments where id = p_collection.payment_id;
  insert into private.direct_debit_chargebacks (collection_id, payment_id, member_id, amount, charged_back_at)
  values (p_collection.id, v_payment.id, v_payment.member_id, p_collection.amount, p_now)
  on conflict (collection_id) do nothing;
  select * into v_m from public.memberships
   where member_id = v_payment.member_id and ended_at is null and status = 'active' for update;
  if found then
    update public.memberships
       set status = 'past_due', next_retry_at = period_end, updated_at = p_now
     where id = v_m.id
    returning * into v_m;
    perform private.sync_member_from_membership(v_m);
  end if;
  perform private.enqueue_membership_email('direct_debit_charged_back', v_payment.member_id,
    'Your bank returned a Direct Debit payment',
    array['Your bank has returned the ' || private.gbp(p_collection.amount) || ' we collected by Direct Debit for '
            || v_payment.description || ', so your membership is past due and you owe the studio '
            || private.gbp(p_collection.amount) || '.',
          'If this was a mistake, please contact the studio to pay it. Your plan carries on meanwhile.'],
    jsonb_build_array(jsonb_build_object('label', 'Your membership', 'path', '/membership')),
    'direct_debit_charged_back:' || p_collection.id);
end;
$$;

revoke execute on function private.direct_debit_charge_back(private.direct_debit_collections, timestamptz) from public;

-- A payment moved on. Only forward (an older status arriving late changes nothing); confirmed (or
-- paid_out first) pays the membership payment the card's way; failed or cancelled before that fails
-- it on our retry days; a charge-back, or a failure after confirmation, is owed back to the studio.
create function private.direct_debit_payment_event(p_action text, p_links jsonb, p_details jsonb, p_now timestamptz)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_collection private.direct_debit_collections;
  v_payment public.payments;
  v_status text := case when p_action in ('submitted', 'confirmed', 'paid_out', 'failed', 'cancelled', 'charged_back')
                        then p_action end;
  v_cause text := coalesce(nullif(p_details ->> 'cause', ''), p_action);
  v_result public.checkout_result;
begin
  if v_status is null then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  -- The lock order of a membership charge: the membership, then its payment (apply_membership_charge).
  perform 1 from public.memberships ms
   where ms.member_id = (select p.member_id from public.payments p
                           join private.direct_debit_collections c on c.payment_id = p.id
                          where c.provider_payment_id = p_links ->> 'payment')
   for update;
  select * into v_collection from private.direct_debit_collections where provider_payment_id = p_links ->> 'payment' for update;
  if not found then
    return ('unknown_reference', null)::public.direct_debit_event_result;
  end if;
  if v_collection.status in ('failed', 'cancelled', 'charged_back') then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  select * into v_payment from public.payments where id = v_collection.payment_id;

  if v_status in ('submitted', 'confirmed', 'paid_out') then
    if private.direct_debit_rank(v_status) <= private.direct_debit_rank(v_collection.status) then
      return ('ignored', null)::public.direct_debit_event_result;
    end if;
    update private.direct_debit_collections set status = v_status, updated_at = p_now where id = v_collection.id;
    if private.direct_debit_rank(v_status) >= 2 and private.direct_debit_rank(v_collection.status) < 2 then
      v_result := private.apply_membership_charge(v_payment.checkout_reference, v_collection.provider_payment_id, 'PAID',
                                                  v_collection.amount, 'GBP', p_now);
      if v_result.outcome not in ('applied', 'already_applied') then
        raise exception 'Direct Debit % could not be applied: %', v_collection.provider_payment_id, v_result.outcome
          using errcode = 'P0001', hint = 'direct_debit_not_applied';
      end if;
    end if;
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  if v_status = 'charged_back' or private.direct_debit_rank(v_collection.status) >= 2 then
    perform private.direct_debit_charge_back(v_collection, p_now);
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  -- Failed or cancelled before the money arrived.
  update private.direct_debit_collections set status = v_status, failure_cause = left(v_cause, 100), updated_at = p_now
   where id = v_collection.id;
  perform private.fail_membership_charge(v_payment.checkout_reference, v_collection.attempt,
                                         'direct_debit:' || left(v_cause, 80), p_now);
  if v_payment.billing_reason = 'start' then
    perform private.enqueue_membership_email('payment_failed', v_payment.member_id,
      'Your first Direct Debit payment failed',
      array['We could not collect the first ' || private.gbp(v_payment.amount) || ' for ' || v_payment.description
              || ' by Direct Debit (' || replace(v_cause, '_', ' ') || '), so the membership has not started.',
            'You can choose the plan again and pay by card, or set up Direct Debit with another account.'],
      jsonb_build_array(jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
      'payment_failed:' || v_payment.id || ':' || v_collection.attempt);
  end if;
  return ('applied', null)::public.direct_debit_event_result;
end;
$$;

revoke execute on function private.direct_debit_payment_event(text, jsonb, jsonb, timestamptz) from public;

-- One verified webhook event (the caller checked its Webhook-Signature). Applied once by its id.
create function private.apply_direct_debit_event(
  p_event_id text, p_resource_type text, p_action text, p_links jsonb, p_details jsonb, p_now timestamptz
)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_result public.direct_debit_event_result;
begin
  if p_event_id is null or p_event_id !~ '^[A-Za-z0-9_-]{1,64}$' or p_resource_type is null or p_action is null then
    raise exception 'An event needs an id, a resource type and an action' using errcode = '22023', hint = 'invalid_event';
  end if;
  insert into private.direct_debit_events (id, resource_type, action, links, received_at)
  values (p_event_id, p_resource_type, p_action, coalesce(p_links, '{}'), p_now)
  on conflict (id) do nothing;
  if not found then
    return ('already_applied', null)::public.direct_debit_event_result;
  end if;
  v_result := case p_resource_type
    when 'billing_requests' then private.direct_debit_billing_request_event(p_action, coalesce(p_links, '{}'), p_now)
    when 'mandates' then private.direct_debit_mandate_event(p_action, coalesce(p_links, '{}'), coalesce(p_details, '{}'), p_now)
    when 'payments' then private.direct_debit_payment_event(p_action, coalesce(p_links, '{}'), coalesce(p_details, '{}'), p_now)
    when 'refunds' then private.direct_debit_refund_event(p_action, coalesce(p_links, '{}'), coalesce(p_details, '{}'), p_now)
    else ('ignored', null)::public.direct_debit_event_result end;
  if v_result.outcome = 'unknown_reference' then
    delete from private.direct_debit_events where id = p_event_id;
  else
    update private.direct_debit_events set outcome = v_result.outcome where id = p_event_id;
  end if;
  return v_result;
end;
$$;

revoke execute on function private.apply_direct_debit_event(text, text, text, jsonb, jsonb, timestamptz) from public;

grant execute on function private.apply_direct_debit_event(text, text, text, jsonb, jsonb, timestamptz) to service_role;

-- Refunding a Direct Debit payment (decision 0103) ----------------------------------------------
-- What begin_provider_refund (08_refunds.sql) sends GoCardless for a refund owed of a Direct Debit
-- payment: GoCardless's payment (the collection confirmed or paid out) and the total refunded
-- through GoCardless once this refund is (its total_amount_confirmation, which GoCardless checks
-- against its own count, so a refund it already made is never made again unnoticed). Refused:
-- direct_debit_not_collected (no collection confirmed or paid out: still on its way, failed, or
-- charged back) and refund_exceeds_payment (with the refunds made or under way, by GoCardless or
-- by hand, more than was collected). The caller holds the payment row's lock.
create type public.direct_debit_refund as (
  provider_payment_id text,
  total_refunded numeric(10, 2),
  -- GoCardless's Idempotency-Key: the refund owed's id, then ':<n>' once n of its refunds failed or
  -- came back, so a refund made again is a new refund, not GoCardless's 409 naming the failed one.
  idempotency_key text
);

create function private.direct_debit_refund_for(p_payment public.payments, p_refund public.refunds_owed)
returns public.direct_debit_refund
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_collection private.direct_debit_collections;
  v_refunded numeric(10, 2);
  v_through_gocardless numeric(10, 2);
  r public.direct_debit_refund;
begin
  select * into v_collection from private.direct_debit_collections c
   where c.payment_id = p_payment.id and c.status in ('confirmed', 'paid_out') and c.provider_payment_id is not null
   order by c.attempt desc
   limit 1;
  if not found then
    raise exception 'This Direct Debit payment has not been collected (or was charged back): there is nothing to refund through GoCardless'
      using errcode = 'P0001', hint = 'direct_debit_not_collected';
  end if;
  select coalesce(sum(o.amount), 0),
         coalesce(sum(o.amount) filter (where o.refunded_at is not null and o.provider_refund_id is not null), 0)
    into v_refunded, v_through_gocardless
    from public.refunds_owed o
   where o.payment_id = p_payment.id and o.id <> p_refund.id
     and (o.refunded_at is not null or o.provider_refund_state is not null);
  if v_refunded + p_refund.amount > v_collection.amount then
    raise exception 'Refunding % would give back more than the % collected by Direct Debit (% refunded or under way already)',
      private.gbp(p_refund.amount), private.gbp(v_collection.amount), private.gbp(v_refunded)
      using errcode = 'P0001', hint = 'refund_exceeds_payment';
  end if;
  r.provider_payment_id := v_collection.provider_payment_id;
  r.total_refunded := v_through_gocardless + p_refund.amount;
  r.idempotency_key := p_refund.id::text || coalesce(':' || nullif((
    select count(*) from private.direct_debit_refunds d
     where d.refund_owed_id = p_refund.id and d.status in ('failed', 'funds_returned')), 0), '');
  return r;
end;
$$;

revoke execute on function private.direct_debit_refund_for(public.payments, public.refunds_owed) from public;

-- How far along a refund is; failed and funds_returned are ends.
create function private.direct_debit_refund_rank(p_status text)
returns integer
language sql immutable set search_path = ''
as $$ select case p_status when 'created' then 0 when 'paid' then 1 when 'refund_settled' then 2 end $$;

revoke execute on function private.direct_debit_refund_rank(text) from public;

-- A refund moved on (decision 0103). Only forward, effects on crossing a status, so a replay or an
-- older event arriving late changes nothing. paid or refund_settled records the refund confirmed.
-- failed or funds_returned (the member's bank sent it back) opens the refund owed again: the money
-- is still owed, so it is back in Refunds owed with what GoCardless said, the watchdog alerts
-- (system_health_causes: refunds_failed) until it is refunded again, and the member, who had the
-- receipt, is not emailed again (the receipt's dedupe key). A refund the studio does not know is
-- recorded as a payment notification that could not be applied (decision 0046); one whose refund
-- owed is still being claimed (its id not recorded yet) answers unknown_reference, so GoCardless
-- sends it again.
create function private.direct_debit_refund_event(p_action text, p_links jsonb, p_details jsonb, p_now timestamptz)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_status text := case when p_action in ('created', 'paid', 'refund_settled', 'failed', 'funds_returned') then p_action end;
  v_refund_id text := nullif(p_links ->> 'refund', '');
  v_cause text := coalesce(nullif(p_details ->> 'cause', ''), p_action);
  v_owed public.refunds_owed;
  v_row private.direct_debit_refunds;
  v_recorded boolean;
begin
  if v_status is null or v_refund_id is null then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  -- The lock order of begin_provider_refund: the refund owed first, then what hangs on it.
  select o.* into v_owed from public.refunds_owed o
   where o.id = coalesce((select r.refund_owed_id from private.direct_debit_refunds r where r.provider_refund_id = v_refund_id),
                         (select o2.id from public.refunds_owed o2 where o2.provider_refund_id = v_refund_id limit 1))
   for update of o;
  if not found then
    if exists (select 1 from public.refunds_owed o
                 join private.direct_debit_collections c on c.payment_id = o.payment_id
                where c.provider_payment_id = p_links ->> 'payment' and o.refunded_at is null
                  and o.provider_refund_state = 'in_progress') then
      return ('unknown_reference', null)::public.direct_debit_event_result;
    end if;
    perform private.record_payment_notification(v_refund_id, false, 'unknown_refund',
      'GoCardless refund ' || v_refund_id || ' (' || p_action || coalesce(', payment ' || (p_links ->> 'payment'), '')
        || ') matches no refund the studio made: check it in GoCardless.', p_now);
    return ('unknown_refund', null)::public.direct_debit_event_result;
  end if;
  insert into private.direct_debit_refunds (provider_refund_id, refund_owed_id, status, created_at, updated_at)
  values (v_refund_id, v_owed.id, 'created', p_now, p_now)
  on conflict (provider_refund_id) do nothing;
  v_recorded := found;
  select * into v_row from private.direct_debit_refunds where provider_refund_id = v_refund_id for update;
  -- Known now: an earlier event of this refund recorded as not applied is resolved.
  perform private.record_payment_notification(v_refund_id, true, null, null, p_now);
  if v_row.status in ('failed', 'funds_returned') then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;

  if v_status in ('created', 'paid', 'refund_settled') then
    if private.direct_debit_refund_rank(v_status) <= private.direct_debit_refund_rank(v_row.status) then
      -- The first event of a refund records it (created): applied; any later one at or below its status is not.
      return (case when v_recorded and v_status = 'created' then 'applied' else 'ignored' end, null)::public.direct_debit_event_result;
    end if;
    update private.direct_debit_refunds
       set status = v_status, updated_at = p_now,
           confirmed_at = case when private.direct_debit_refund_rank(v_status) >= 1 then coalesce(confirmed_at, p_now) end
     where provider_refund_id = v_refund_id;
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  update private.direct_debit_refunds set status = v_status, failure_cause = left(v_cause, 100), updated_at = p_now
   where provider_refund_id = v_refund_id;
  -- Only while the refund owed still counts this refund as made (not marked by hand meanwhile).
  update public.refunds_owed
     set refunded_at = null, refunded_by = null, provider_refund_id = null,
         provider_refund_error = left('GoCardless ' || case v_status when 'failed' then 'could not pay this refund'
                                                              else 'paid this refund but the member''s bank returned it' end
                                      || coalesce(': ' || nullif(p_details ->> 'description', ''), '') || ' (' || v_cause || ', '
                                      || v_refund_id || '). It is still owed.', 500)
   where id = v_owed.id and refunded_at is not null and provider_refund_id = v_refund_id;
  return ('applied', null)::public.direct_debit_event_result;
end;
$$;

revoke execute on function private.direct_debit_refund_event(text, jsonb, jsonb, timestamptz) from public;

-- Member and admin RPCs (private code) -----------------------------------------------------------
create type public.my_billing as (
  method text,
  -- pending | active | null (no live mandate)
  mandate_status text,
  has_card boolean,
  -- The newest Direct Debit collection: its status and charge date.
  collection_status text,
  collection_charge_date date,
  collection_amount numeric,
  -- Charge-backs not settled yet.
  owed numeric
);

create function private.my_billing()
returns public.my_billing
language sql stable security definer set search_path = ''
as $$
  select private.billing_method(me.id),
         (private.live_mandate(me.id)).status,
         exists (select 1 from private.member_cards c where c.member_id = me.id),
         c.status, c.charge_date, c.amount,
         (select sum(b.amount) from private.direct_debit_chargebacks b where b.member_id = me.id and b.settled_at is null)
    from (select private.current_member_id() as id) me
    left join lateral (
      select c.* from private.direct_debit_collections c join public.payments p on p.id = c.payment_id
       where p.member_id = me.id and c.provider_payment_id is not null
       order by c.created_at desc limit 1) c on true
   where me.id is not null
$$;

revoke execute on function private.my_billing() from public;

grant execute on function private.my_billing() to authenticated;

-- The caller switches how their membership is paid. Direct Debit needs a live mandate (else
-- mandate_needed: the screen starts a setup); card needs nothing now: without a saved card the next
-- renewal asks for one, as any card renewal without a card does.
create function private.set_billing_method(p_method text, p_now timestamptz)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := private.current_member_id();
begin
  if v_member_id is null then
    raise exception 'Please sign in again.' using errcode = '42501', hint = 'not_signed_in';
  end if;
  if p_method is null or p_method not in ('card', 'direct_debit') then
    raise exception 'Choose card or Direct Debit.' using errcode = '22023', hint = 'invalid_method';
  end if;
  if p_method = 'direct_debit' and (private.live_mandate(v_member_id)).id is null then
    raise exception 'Set up a Direct Debit first.' using errcode = 'P0001', hint = 'mandate_needed';
  end if;
  perform private.set_billing_method_of(v_member_id, p_method, p_now);
  return p_method;
end;
$$;

revoke execute on function private.set_billing_method(text, timestamptz) from public;

grant execute on function private.set_billing_method(text, timestamptz) to authenticated;

-- Money owed back to the studio by charge-backs (admins).
create type public.direct_debit_chargeback_row as (
  id uuid,
  member_id uuid,
  member_name text,
  description text,
  amount numeric,
  charged_back_at timestamptz,
  settled_at timestamptz,
  settled_note text
);

create function private.admin_direct_debit_chargebacks()
returns setof public.direct_debit_chargeback_row
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select b.id, b.member_id, coalesce(m.name, p.billed_name), coalesce(p.description, 'Direct Debit payment'), b.amount,
           b.charged_back_at, b.settled_at, b.settled_note
      from private.direct_debit_chargebacks b
      left join public.members m on m.id = b.member_id
      left join public.payments p on p.id = b.payment_id
     order by b.settled_at is not null, b.charged_back_at desc;
end;
$$;

revoke execute on function private.admin_direct_debit_chargebacks() from public;

grant execute on function private.admin_direct_debit_chargebacks() to authenticated;

-- An admin records a charge-back's money as received (paid at the desk, by transfer...). Once.
create function private.admin_settle_chargeback(p_id uuid, p_note text, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_note is null or char_length(btrim(p_note)) not between 1 and 500 then
    raise exception 'Say how it was paid (up to 500 characters).' using errcode = '22023', hint = 'invalid_note';
  end if;
  update private.direct_debit_chargebacks set settled_at = p_now, settled_note = btrim(p_note)
   where id = p_id and settled_at is null;
  if not found then
    raise exception 'This charge-back is settled already or does not exist.' using errcode = 'P0002', hint = 'chargeback_not_found';
  end if;
end;
$$;

revoke execute on function private.admin_settle_chargeback(uuid, text, timestamptz) from public;

grant execute on function private.admin_settle_chargeback(uuid, text, timestamptz) to authenticated;

-- API ---------------------------------------------------------------------------------------------
-- Members and admins act now; only the service role chooses "now".
create function public.my_billing()
returns public.my_billing
language sql stable security invoker set search_path = ''
as $$ select * from private.my_billing() $$;

revoke execute on function public.my_billing() from public, anon;

grant execute on function public.my_billing() to authenticated;

create function public.set_billing_method(p_method text)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.set_billing_method(p_method, now()) $$;

revoke execute on function public.set_billing_method(text) from public, anon;

grant execute on function public.set_billing_method(text) to authenticated;

create function public.admin_direct_debit_chargebacks()
returns setof public.direct_debit_chargeback_row
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_direct_debit_chargebacks() $$;

revoke execute on function public.admin_direct_debit_chargebacks() from public, anon;

grant execute on function public.admin_direct_debit_chargebacks() to authenticated;

create function public.admin_settle_chargeback(p_id uuid, p_note text)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.admin_settle_chargeback(p_id, p_note, now()) $$;

revoke execute on function public.admin_settle_chargeback(uuid, text) from public, anon;

grant execute on function public.admin_settle_chargeback(uuid, text) to authenticated;

-- Service role (the checkout function, the jobs and the webhook).
create function public.start_direct_debit(p_member_id uuid, p_plan_slug text default null, p_now timestamptz default now())
returns public.direct_debit_setup
language sql volatile security invoker set search_path = ''
as $$ select * from private.start_direct_debit(p_member_id, p_plan_slug, p_now) $$;

revoke execute on function public.start_direct_debit(uuid, text, timestamptz) from public, anon, authenticated;

grant execute on function public.start_direct_debit(uuid, text, timestamptz) to service_role;

create function public.set_direct_debit_flow(p_setup_reference text, p_billing_request_id text, p_flow_url text)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.set_direct_debit_flow(p_setup_reference, p_billing_request_id, p_flow_url) $$;

revoke execute on function public.set_direct_debit_flow(text, text, text) from public, anon, authenticated;

grant execute on function public.set_direct_debit_flow(text, text, text) to service_role;

create function public.abandon_direct_debit_setup(p_setup_reference text)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.abandon_direct_debit_setup(p_setup_reference) $$;

revoke execute on function public.abandon_direct_debit_setup(text) from public, anon, authenticated;

grant execute on function public.abandon_direct_debit_setup(text) to service_role;

create function public.direct_debit_collection_for(p_checkout_reference text, p_attempt integer, p_now timestamptz)
returns public.direct_debit_collection
language sql volatile security invoker set search_path = ''
as $$ select * from private.direct_debit_collection_for(p_checkout_reference, p_attempt, p_now) $$;

revoke execute on function public.direct_debit_collection_for(text, integer, timestamptz) from public, anon, authenticated;

grant execute on function public.direct_debit_collection_for(text, integer, timestamptz) to service_role;

create function public.record_direct_debit_submission(
  p_collection_id uuid, p_provider_payment_id text, p_charge_date date, p_now timestamptz
)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.record_direct_debit_submission(p_collection_id, p_provider_payment_id, p_charge_date, p_now) $$;

revoke execute on function public.record_direct_debit_submission(uuid, text, date, timestamptz) from public, anon, authenticated;

grant execute on function public.record_direct_debit_submission(uuid, text, date, timestamptz) to service_role;

create function public.apply_direct_debit_event(
  p_event_id text, p_resource_type text, p_action text, p_links jsonb, p_details jsonb, p_now timestamptz
)
returns public.direct_debit_event_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.apply_direct_debit_event(p_event_id, p_resource_type, p_action, p_links, p_details, p_now) $$;

revoke execute on function public.apply_direct_debit_event(text, text, text, jsonb, jsonb, timestamptz) from public, anon, authenticated;

grant execute on function public.apply_direct_debit_event(text, text, text, jsonb, jsonb, timestamptz) to service_role;

-- A card saved (a card checkout, "Update card") makes the card the way the membership is paid.
create function private.member_cards_prefer_card()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.set_billing_method_of(new.member_id, 'card', new.saved_at);
  return null;
end;
$$;

revoke execute on function private.member_cards_prefer_card() from public;

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger member_cards_prefer_card
  after insert or update of token on private.member_cards
  for each row execute function private.member_cards_prefer_card();
