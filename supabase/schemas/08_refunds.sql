-- Money the studio owes back, and removing a member (decision 0010).
--
-- A paid class booking that the studio removes (an admin's cancel, a class deleted, the timetable
-- regenerated, the member deleted) leaves a refund-owed record: who, what, how much, why. A
-- member's own cancellation leaves none (their choice, under the cancellation window's rules).
-- Deleting a paid member mid-period also owes the unused part of their membership.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.
-- refunds_owed_return_balance (29_gift_vouchers.sql) gives a refund's balance share back to the
-- member's balance and leaves the card's share here (decision 0101).
create table public.refunds_owed (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid references public.payments (id) on delete set null,
  member_id uuid references public.members (id) on delete set null,
  member_name text,
  member_email text not null,
  description text not null,
  class_start_time timestamptz,
  amount numeric(10, 2) not null check (amount > 0),
  -- Why it is owed: something the studio removed after it was paid for, or a payment it could not
  -- honour when it arrived (class_filled, duplicate_payment, superseded_checkout, period_already_paid).
  reason text not null
    constraint refunds_owed_reason_check
    check (reason in ('admin_cancelled', 'class_deleted', 'timetable_regenerated', 'member_deleted',
                      'class_filled', 'duplicate_payment', 'superseded_checkout', 'member_removed', 'period_already_paid',
                      -- The member cancelled a paid class in time (free cancellation).
                      'member_cancelled_in_time',
                      -- An admin refunded a package's unused sessions (admin_refund_package).
                      'package_refunded',
                      -- Paid, but a booking rule refused the place when the payment arrived
                      -- (apply_checkout_result: documents, age, a place taken meanwhile).
                      'booking_refused',
                      -- An admin waived an attendance fee already charged (28_attendance_policy.sql).
                      'fee_waived')),
  created_at timestamptz not null default now(),
  refunded_at timestamptz,
  refunded_by uuid references public.members (id) on delete set null,
  -- The provider's refund id when refunded through it; null when refunded another way.
  provider_refund_id text,
  -- Refunding through the provider (begin_provider_refund / finish_provider_refund, below).
  provider_refund_state text
    constraint refunds_owed_provider_refund_state check (provider_refund_state in ('in_progress', 'unconfirmed')),
  provider_refund_started_at timestamptz,
  provider_refund_error text
    constraint refunds_owed_provider_refund_error_length check (char_length(provider_refund_error) <= 500),
  -- One family place of a payment for several (create_family_payment_hold) cancelled on its own:
  -- its share is owed, once per place. Null: the payment as a whole. No foreign key: the place is
  -- being deleted when this is written.
  place_booking_id uuid,
  constraint refunds_owed_one_per_payment unique nulls not distinct (payment_id, reason, place_booking_id),
  constraint refunds_owed_claim_has_time check ((provider_refund_state is null) = (provider_refund_started_at is null))
);

-- Triggers other domains add to public.refunds_owed: refunds_revoke_credits (09_credits.sql),
--  refunds_send_receipt (10_notifications.sql).

-- Refunds made, by day, for the reports (19_reports.sql).
create index refunds_owed_refunded_at_idx on public.refunds_owed (refunded_at) where refunded_at is not null;

comment on column public.refunds_owed.provider_refund_state is
  'in_progress while the refund-provider function waits for the provider; unconfirmed when it could not tell whether the provider refunded.';

comment on column public.refunds_owed.provider_refund_error is
  'The provider''s last refusal or failure, shown to the admin.';

comment on table public.refunds_owed is
  'Payments the studio owes back: what it removed after it was paid for, and payments it could not honour when they arrived.';

create index refunds_owed_open_idx on public.refunds_owed (created_at) where refunded_at is null;

create index refunds_owed_member_id_idx on public.refunds_owed (member_id);

create index refunds_owed_refunded_by_idx on public.refunds_owed (refunded_by);

alter table public.refunds_owed enable row level security;

revoke all on public.refunds_owed from public, anon, authenticated;

grant select on public.refunds_owed to authenticated;

grant all on public.refunds_owed to service_role;

-- Why the bookings being deleted in this transaction go: set by the path that deletes them.
-- Unset means an admin's cancel (cancel_booking by an admin, or the admin delete policy).
create function private.booking_removal_reason()
returns text
language sql stable set search_path = ''
as $$ select coalesce(nullif(current_setting('app.booking_removal', true), ''), 'admin_cancelled') $$;

revoke execute on function private.booking_removal_reason() from public;

-- A paid class booking removed before its class starts: the payment becomes a refund owed.
-- BEFORE DELETE, while the payment still points at the booking. By the studio (an admin's cancel,
-- a deleted class, a regeneration, a removed member): always. By the member: only inside the free
-- cancellation window (cancel_booking records a late cancellation first, so none exists then).
-- Classes already started are not refunded (the member had the class).
create function private.bookings_record_refund_owed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := private.booking_removal_reason();
begin
  if current_setting('app.booking_removal', true) = 'member_cancelled' then
    if exists (select 1 from public.late_cancellations l where l.booking_id = old.id) then
      return old;
    end if;
    v_reason := 'member_cancelled_in_time';
  end if;
  -- A family's payment for several places (21_families.sql) owes the cancelled place's share, when
  -- the place was a paid one (a child's, or the parent's pay-as-you-go place; not a plan's).
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time, amount, reason,
                                   place_booking_id)
  select p.id, m.id, coalesce(m.name, p.billed_name), coalesce(m.email::text, p.billed_email, ''),
         p.description, c.start_time, coalesce(p.family_unit_amount, p.amount), v_reason,
         case when p.family_places is not null then old.id end
    from public.payments p
    join public.classes c on c.id = old.class_id
    left join public.members m on m.id = p.member_id
   where p.status = 'paid' and p.kind = 'class' and c.start_time > now()
     and (case when p.family_places is null then p.booking_id = old.id
               else p.id = old.family_payment_id and old.type = 'payg' and old.payment_status = 'completed' end)
  on conflict (payment_id, reason, place_booking_id) do nothing;
  return old;
end;
$$;

revoke execute on function private.bookings_record_refund_owed() from public;

-- Deleting a class removes its bookings by cascade, after the class row is gone: so the class's
-- paid bookings are recorded here, while the class is still readable. The reason is the
-- regeneration's when it is the one deleting, else "class deleted".
create function private.classes_record_refunds_owed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- A family's payment once, less the shares already owed for its places cancelled one by one.
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time, amount, reason)
  select p.id, m.id, coalesce(m.name, p.billed_name), coalesce(m.email::text, p.billed_email, ''),
         p.description, old.start_time, owed.amount,
         case when current_setting('app.booking_removal', true) = 'timetable_regenerated' then 'timetable_regenerated' else 'class_deleted' end
    from public.payments p
    cross join lateral (
      select p.amount - coalesce((select sum(o.amount) from public.refunds_owed o
                                   where o.payment_id = p.id and o.place_booking_id is not null), 0) as amount
    ) owed
    left join public.members m on m.id = p.member_id
   where p.status = 'paid' and p.kind = 'class' and old.start_time > now() and owed.amount > 0
     and p.id in (select pb.id from public.bookings b
                    join public.payments pb on pb.booking_id = b.id or pb.id = b.family_payment_id
                   where b.class_id = old.id)
  on conflict (payment_id, reason, place_booking_id) do nothing;
  return old;
end;
$$;

revoke execute on function private.classes_record_refunds_owed() from public;

-- How many paid bookings of classes not yet started a deletion would turn into refunds owed:
-- one class, or (null) every class, as the timetable regeneration deletes them all.
create function private.paid_bookings_affected(p_class_id uuid)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select count(*)::int
            from public.bookings b
            join public.classes c on c.id = b.class_id
            join public.payments p on (p.booking_id = b.id or p.id = b.family_payment_id) and p.status = 'paid' and p.kind = 'class'
           where c.start_time > now() and (p_class_id is null or b.class_id = p_class_id)
             and (p.family_places is null or b.type = 'payg'));
end;
$$;

revoke execute on function private.paid_bookings_affected(uuid) from public;

grant execute on function private.paid_bookings_affected(uuid) to authenticated, service_role;

create function public.paid_bookings_affected(p_class_id uuid default null)
returns integer
language sql stable security invoker set search_path = ''
as $$ select private.paid_bookings_affected(p_class_id) $$;

revoke execute on function public.paid_bookings_affected(uuid) from public, anon;

grant execute on function public.paid_bookings_affected(uuid) to authenticated, service_role;

-- Marks a refund owed as refunded (by the admin, or through the provider with its refund id).
-- Marking by hand is refused while a provider refund is out (it could pay the money back twice);
-- an unconfirmed one is exactly what a person resolves this way.
create function private.mark_refund_refunded(p_refund_id uuid, p_provider_refund_id text)
returns public.refunds_owed
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
begin
  perform private.require_admin();
  select * into v_refund from public.refunds_owed where id = p_refund_id and refunded_at is null for update;
  if not found then
    raise exception 'This refund is not owed any more' using errcode = 'P0002', hint = 'refund_not_found';
  end if;
  if private.provider_refund_state_at(v_refund, now()) = 'in_progress' then
    raise exception 'A refund through SumUp is already under way for this payment' using errcode = 'P0001', hint = 'refund_in_progress';
  end if;
  update public.refunds_owed
     set refunded_at = now(), refunded_by = private.current_member_id(), provider_refund_id = p_provider_refund_id,
         provider_refund_state = null, provider_refund_started_at = null
   where id = v_refund.id
  returning * into v_refund;
  return v_refund;
end;
$$;

revoke execute on function private.mark_refund_refunded(uuid, text) from public;

grant execute on function private.mark_refund_refunded(uuid, text) to authenticated, service_role;

create function public.mark_refund_refunded(p_refund_id uuid, p_provider_refund_id text default null)
returns public.refunds_owed
language sql volatile security invoker set search_path = ''
as $$ select * from private.mark_refund_refunded(p_refund_id, p_provider_refund_id) $$;

revoke execute on function public.mark_refund_refunded(uuid, text) from public, anon;

grant execute on function public.mark_refund_refunded(uuid, text) to authenticated, service_role;

-- Removing a member -------------------------------------------------------------------------------
create type public.member_removal as (
  member_id uuid,
  user_id uuid,
  refunds_owed integer
);

-- Removes a member (an admin's delete, or the member closing their own account: 27_data_rights.sql):
-- their bookings go (paid future classes become refunds owed, waitlist places go), their payments
-- stay for the accounts with the member reference cleared, an unused part of a paid membership is
-- owed back, and their email's free trial is remembered. Returns the auth user id: the caller (the
-- delete-member function) removes the login too. The unused days of a membership are counted from
-- the latest payment that granted a tier (a package is not a month). Callers check who may.
create function private.remove_member(p_member_id uuid)
returns public.member_removal
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_plan public.payments;
  v_refunds integer;
  r public.member_removal;
begin
  select * into v_member from public.members where id = p_member_id for update;
  if not found then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;

  insert into private.trial_emails (email_hash) values (private.email_hash(v_member.email))
  on conflict (email_hash) do nothing;

  -- The unused days of a membership paid for and still running, at the price paid.
  if v_member.plan_renews_at > now() then
    select * into v_plan from public.payments p
     where p.member_id = v_member.id and p.kind = 'plan' and p.status = 'paid' and p.grants_tier is not null
       and not p.needs_refund
     order by p.paid_at desc nulls last limit 1;
    if found and v_plan.paid_at is not null and v_member.plan_renews_at > v_plan.paid_at then
      insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, amount, reason)
      select v_plan.id, v_member.id, v_member.name, v_member.email, v_plan.description || ' (unused days)',
             round(v_plan.amount * extract(epoch from v_member.plan_renews_at - now())
                                 / extract(epoch from v_member.plan_renews_at - v_plan.paid_at), 2),
             'member_deleted'
       where round(v_plan.amount * extract(epoch from v_member.plan_renews_at - now())
                                 / extract(epoch from v_member.plan_renews_at - v_plan.paid_at), 2) > 0
      on conflict (payment_id, reason, place_booking_id) do nothing;
    end if;
  end if;

  perform set_config('app.booking_removal', 'member_deleted', true);
  delete from public.members where id = v_member.id;
  perform set_config('app.booking_removal', '', true);

  select count(*)::int into v_refunds from public.refunds_owed o
   where o.member_email = v_member.email::text and o.reason = 'member_deleted' and o.created_at = now();
  r.member_id := v_member.id;
  r.user_id := v_member.user_id;
  r.refunds_owed := v_refunds;
  return r;
end;
$$;

revoke execute on function private.remove_member(uuid) from public;

-- Deletes a member for an admin (private.remove_member), never the admin's own account.
create function private.admin_delete_member(p_member_id uuid)
returns public.member_removal
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_member_id = private.current_member_id() then
    raise exception 'You cannot delete your own account here' using errcode = 'P0001', hint = 'cannot_delete_self';
  end if;
  return private.remove_member(p_member_id);
end;
$$;

revoke execute on function private.admin_delete_member(uuid) from public;

grant execute on function private.admin_delete_member(uuid) to authenticated, service_role;

create function public.admin_delete_member(p_member_id uuid)
returns public.member_removal
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_delete_member(p_member_id) $$;

revoke execute on function public.admin_delete_member(uuid) from public, anon;

grant execute on function public.admin_delete_member(uuid) to authenticated, service_role;

-- Refunding a refund owed through the card provider from the admin screen (decision 0010), or a
-- Direct Debit payment's through GoCardless's Refunds API the same way (decision 0103: only a
-- collection confirmed or paid out, never more than it collected, 18_direct_debit.sql).
--
-- The refund-provider function (netlify/functions/refund-provider.ts) calls the provider between
-- two database steps, as the admin:
--   1. begin_provider_refund claims the record (one claim at a time: a double click, a second tab
--      or a retry while the first call is out gets refund_in_progress and sends nothing);
--   2. finish_provider_refund records what the provider said: refunded (the record is marked
--      refunded with the provider's reference), refused (the claim is released, the reason kept,
--      the admin may try again) or unconfirmed (a timeout or a provider error after the request
--      left: the money may have moved, so the claim stays and only a person, having looked at the
--      provider's dashboard, marks it refunded).
-- A claim whose function died before step 2 counts as unconfirmed once it is older than
-- private.provider_refund_claim_ttl() (the provider's timeout is seconds).

create function private.provider_refund_claim_ttl()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 minutes' $$;

-- The two helpers run only inside the definer functions above.
revoke execute on function private.provider_refund_claim_ttl() from public;

-- The record's provider state as of p_now: a claim left in progress past the TTL is unconfirmed.
create function private.provider_refund_state_at(p_refund public.refunds_owed, p_now timestamptz)
returns text
language sql stable set search_path = ''
as $$
  select case
           when p_refund.provider_refund_state = 'in_progress'
                and p_refund.provider_refund_started_at < p_now - private.provider_refund_claim_ttl() then 'unconfirmed'
           else p_refund.provider_refund_state
         end
$$;

revoke execute on function private.provider_refund_state_at(public.refunds_owed, timestamptz) from public;

create type public.provider_refund_claim as (
  refund_id uuid,
  -- true when the record was already refunded (a repeat after success): nothing to send.
  already_refunded boolean,
  amount numeric(10, 2),
  currency text,
  provider_checkout_id text,
  -- How the payment was taken (card | direct_debit): which provider refunds it (decision 0103).
  collected_by text,
  -- A Direct Debit payment: GoCardless's payment (the collection confirmed or paid out), and the
  -- total refunded through GoCardless once this refund is (its total_amount_confirmation).
  direct_debit_payment_id text,
  total_refunded numeric(10, 2),
  -- The Idempotency-Key to send GoCardless: the refund owed's id, numbered again after a refund of
  -- it failed (decision 0103), so the new request is a new refund.
  direct_debit_idempotency_key text
);

create function private.begin_provider_refund(p_refund_id uuid, p_now timestamptz)
returns public.provider_refund_claim
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
  v_payment public.payments;
  v_provider text;
  v_dd record;
  r public.provider_refund_claim;
begin
  perform private.require_admin();
  select * into v_refund from public.refunds_owed where id = p_refund_id for update;
  if not found then
    raise exception 'This refund is not owed any more' using errcode = 'P0002', hint = 'refund_not_found';
  end if;
  r.refund_id := v_refund.id;
  r.already_refunded := v_refund.refunded_at is not null;
  if r.already_refunded then
    return r;
  end if;
  -- A Direct Debit payment is refunded through GoCardless (decision 0103); its row is locked so two
  -- refunds of one payment at once (two reasons, two tabs) count each other against what was paid.
  select * into v_payment from public.payments where id = v_refund.payment_id for no key update;
  v_provider := case when v_payment.collected_by = 'direct_debit' then 'GoCardless' else 'SumUp' end;

  case private.provider_refund_state_at(v_refund, p_now)
    when 'in_progress' then
      raise exception 'A refund through % is already under way for this payment', v_provider using errcode = 'P0001', hint = 'refund_in_progress';
    when 'unconfirmed' then
      raise exception '% did not confirm the last refund attempt. Check the % dashboard, then mark it refunded', v_provider, v_provider
        using errcode = 'P0001', hint = 'refund_unconfirmed';
    else null;
  end case;

  if v_payment.id is null or v_payment.status <> 'paid'
     or (v_payment.collected_by = 'card' and v_payment.provider_checkout_id is null) then
    raise exception 'This payment did not go through %: refund it another way, then mark it refunded', v_provider
      using errcode = 'P0001', hint = 'not_refundable_by_provider';
  end if;
  if v_payment.collected_by = 'direct_debit' then
    select * into v_dd from private.direct_debit_refund_for(v_payment, v_refund);
    r.direct_debit_payment_id := v_dd.provider_payment_id;
    r.total_refunded := v_dd.total_refunded;
    r.direct_debit_idempotency_key := v_dd.idempotency_key;
  end if;

  update public.refunds_owed
     set provider_refund_state = 'in_progress', provider_refund_started_at = p_now, provider_refund_error = null
   where id = v_refund.id;
  r.amount := v_refund.amount;
  r.currency := v_payment.currency;
  -- A Direct Debit payment's checkout id is GoCardless's payment: never sent to the card provider.
  r.provider_checkout_id := case when v_payment.collected_by = 'card' then v_payment.provider_checkout_id end;
  r.collected_by := v_payment.collected_by;
  return r;
end;
$$;

revoke execute on function private.begin_provider_refund(uuid, timestamptz) from public;

grant execute on function private.begin_provider_refund(uuid, timestamptz) to authenticated, service_role;

-- What the provider said about the claimed refund. Only the claim this function started is
-- finished: a record no longer in progress (marked by hand meanwhile, say) is left alone.
create function private.finish_provider_refund(
  p_refund_id uuid, p_outcome text, p_provider_refund_id text, p_error text, p_now timestamptz
)
returns public.refunds_owed
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
begin
  perform private.require_admin();
  if p_outcome is null or p_outcome not in ('refunded', 'refused', 'unconfirmed') then
    raise exception 'Unknown refund outcome' using errcode = '22023', hint = 'invalid_request';
  end if;
  if p_outcome = 'refunded' and nullif(p_provider_refund_id, '') is null then
    raise exception 'A refund the provider confirmed needs its reference' using errcode = '22023', hint = 'invalid_request';
  end if;

  update public.refunds_owed
     set refunded_at = case when p_outcome = 'refunded' then p_now else refunded_at end,
         refunded_by = case when p_outcome = 'refunded' then private.current_member_id() else refunded_by end,
         provider_refund_id = case when p_outcome = 'refunded' then p_provider_refund_id else provider_refund_id end,
         provider_refund_state = case p_outcome when 'unconfirmed' then 'unconfirmed' end,
         provider_refund_started_at = case when p_outcome = 'unconfirmed' then provider_refund_started_at end,
         provider_refund_error = case when p_outcome = 'refunded' then null else left(p_error, 500) end
   where id = p_refund_id and refunded_at is null and provider_refund_state = 'in_progress'
  returning * into v_refund;
  if not found then
    raise exception 'This refund is not being refunded through SumUp' using errcode = 'P0002', hint = 'refund_not_found';
  end if;
  return v_refund;
end;
$$;

revoke execute on function private.finish_provider_refund(uuid, text, text, text, timestamptz) from public;

grant execute on function private.finish_provider_refund(uuid, text, text, text, timestamptz) to authenticated, service_role;

-- What the delete-member function checks before it removes the login: the caller is an admin,
-- the member exists and is not the caller (ids compared as uuids, so case cannot slip past).
create function private.admin_member_removal_target(p_member_id uuid)
returns uuid
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members;
begin
  perform private.require_admin();
  select * into v_member from public.members where id = p_member_id;
  if not found then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_member.id = private.current_member_id() or v_member.user_id = (select auth.uid()) then
    raise exception 'You cannot delete your own account here' using errcode = 'P0001', hint = 'cannot_delete_self';
  end if;
  return v_member.user_id;
end;
$$;

revoke execute on function private.admin_member_removal_target(uuid) from public;

grant execute on function private.admin_member_removal_target(uuid) to authenticated, service_role;

create function public.admin_member_removal_target(p_member_id uuid)
returns uuid
language sql stable security invoker set search_path = ''
as $$ select private.admin_member_removal_target(p_member_id) $$;

revoke execute on function public.admin_member_removal_target(uuid) from public, anon;

grant execute on function public.admin_member_removal_target(uuid) to authenticated, service_role;

-- A removed member's open checkouts end: a payment that still arrives is recorded and owed back
-- (apply_checkout_result, member_removed).
create function private.members_end_open_checkouts()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.payments set status = 'expired' where member_id = old.id and status = 'pending';
  update private.card_setups set status = 'expired' where member_id = old.id and status = 'pending';
  return old;
end;
$$;

revoke execute on function private.members_end_open_checkouts() from public;

create function public.begin_provider_refund(p_refund_id uuid)
returns public.provider_refund_claim
language sql volatile security invoker set search_path = ''
as $$ select * from private.begin_provider_refund(p_refund_id, now()) $$;

revoke execute on function public.begin_provider_refund(uuid) from public, anon;

grant execute on function public.begin_provider_refund(uuid) to authenticated, service_role;

create function public.finish_provider_refund(
  p_refund_id uuid, p_outcome text, p_provider_refund_id text default null, p_error text default null
)
returns public.refunds_owed
language sql volatile security invoker set search_path = ''
as $$ select * from private.finish_provider_refund(p_refund_id, p_outcome, p_provider_refund_id, p_error, now()) $$;

revoke execute on function public.finish_provider_refund(uuid, text, text, text) from public, anon;

grant execute on function public.finish_provider_refund(uuid, text, text, text) to authenticated, service_role;

-- The member's billing history (/membership) -----------------------------------------------------
-- Money that moved, and only that: a payment once it is paid, a refund once it is made. A checkout
-- that took nothing (a card page left, a declined renewal, a hold let go: pending, failed,
-- expired) is not a line of anyone's billing history. The member's own rows; a refund is read here
-- because members have no policy on refunds_owed (its reasons and admin fields are the studio's).
create type public.billing_entry as (
  id uuid,
  -- payment | refund
  kind text,
  -- When the money moved: paid_at, or refunded_at.
  happened_at timestamptz,
  description text,
  -- Positive both ways: a refund's is the money given back.
  amount numeric,
  currency text,
  -- The payment's checkout reference (a refund's payment's).
  reference text,
  billed_name text,
  billed_email text
);

create function private.my_billing_history(p_limit integer)
returns setof public.billing_entry
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member_id uuid := (private.require_member()).id;
begin
  return query
    select h.*
      from (select p.id, 'payment'::text, coalesce(p.paid_at, p.created_at), p.description, p.amount::numeric, p.currency,
                   p.checkout_reference, p.billed_name, p.billed_email
              from public.payments p
             where p.member_id = v_member_id and p.status = 'paid'
            union all
            select r.id, 'refund'::text, r.refunded_at, r.description, r.amount::numeric, coalesce(p.currency, 'GBP'),
                   p.checkout_reference, r.member_name, r.member_email
              from public.refunds_owed r
              left join public.payments p on p.id = r.payment_id
             where r.member_id = v_member_id and r.refunded_at is not null) h
     order by 3 desc, 1
     limit greatest(least(coalesce(p_limit, 50), 200), 1);
end;
$$;

revoke execute on function private.my_billing_history(integer) from public;

grant execute on function private.my_billing_history(integer) to authenticated;

create function public.my_billing_history(p_limit integer default 50)
returns setof public.billing_entry
language sql stable security invoker set search_path = ''
as $$ select * from private.my_billing_history(p_limit) $$;

revoke execute on function public.my_billing_history(integer) from public, anon;

grant execute on function public.my_billing_history(integer) to authenticated;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Admins read refunds owed"
  on public.refunds_owed for select to authenticated
  using ((select private.is_admin()));

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger bookings_record_refund_owed
  before delete on public.bookings
  for each row execute function private.bookings_record_refund_owed();

create trigger classes_record_refunds_owed
  before delete on public.classes
  for each row execute function private.classes_record_refunds_owed();

create trigger members_end_open_checkouts
  before delete on public.members
  for each row execute function private.members_end_open_checkouts();
