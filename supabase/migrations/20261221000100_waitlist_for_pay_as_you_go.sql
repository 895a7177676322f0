-- A pay-as-you-go waitlist (decision 0081): a member with a saved card joins a full class's
-- waitlist at its price; promotion holds the place and the renewal job charges the card once; a
-- failed charge releases the place to the next in line.
alter table public.class_waitlist add column price numeric(10, 2) check (price > 0);

alter type public.waitlist_joined add attribute price numeric;

alter table public.payments drop constraint payments_billing_reason_check;

alter table public.payments add constraint payments_billing_reason_check
  check (billing_reason in ('start', 'renewal', 'upgrade', 'hold_fee', 'attendance_fee', 'waitlist_place'));

create function private.waitlist_place_hold()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 hours' $$;

revoke execute on function private.waitlist_place_hold() from public;

create function private.may_promote_paying(p_entry public.class_waitlist, p_member_id uuid)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select p_entry.price is not null and exists (select 1 from private.member_cards c where c.member_id = p_member_id)
$$;

revoke execute on function private.may_promote_paying(public.class_waitlist, uuid) from public;

create function private.promote_paying(p_entry public.class_waitlist, p_class public.classes)
returns uuid
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_booking_id uuid;
begin
  -- The documents rule admits this one promotion (bookings_require_documents, private.admit).
  perform private.admit('waitlist', p_entry.id);
  v_booking_id := private.create_booking(p_entry.member_id, p_class.id, 'payg',
                                         least(now() + private.waitlist_place_hold(), p_class.start_time));
  perform private.admit(null, null);
  insert into public.payments (member_id, kind, class_id, booking_id, amount, description, checkout_reference, billing_reason)
  values (p_entry.member_id, 'class', p_class.id, v_booking_id, p_entry.price,
          p_class.name || ', ' || private.london_time_text(p_class.start_time) || ' (from the waitlist)',
          'wait-' || p_entry.id::text, 'waitlist_place');
  return v_booking_id;
end;
$$;

revoke execute on function private.promote_paying(public.class_waitlist, public.classes) from public;

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

create function private.release_waitlist_place(p_payment public.payments)
returns void
language plpgsql volatile security definer set search_path = ''
as $$
begin
  delete from public.bookings where id = p_payment.booking_id and payment_status = 'pending';
end;
$$;

revoke execute on function private.release_waitlist_place(public.payments) from public;

create or replace function private.promote_waitlist(p_class_id uuid)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_entry public.class_waitlist;
  v_member public.members;
  v_refusal text;
  v_type public.booking_type;
  v_booking_id uuid;
  v_promoted integer := 0;
begin
  select * into v_class from public.classes where id = p_class_id for update;
  if not found or v_class.spots_left <= 0 or now() >= private.waitlist_closes_at(v_class) then
    return 0;
  end if;

  for v_entry in
    select * from public.class_waitlist where class_id = p_class_id order by seq
  loop
    exit when v_class.spots_left <= 0;
    -- Locked only once chosen: fewer member locks held, fewer chances to wait on a member's own booking.
    select * into v_member from public.members where id = v_entry.member_id;
    continue when not found;
    v_refusal := private.booking_refusal(v_member, v_class, null);
    if v_refusal = 'already_booked' then
      delete from public.class_waitlist where id = v_entry.id;
      continue;
    end if;
    continue when v_refusal is not null;
    -- The documents a promotion still needs (the bookings trigger admits a promotion, as it must
    -- not raise inside the cancellation that freed the place): skip, do not raise.
    continue when private.promotion_documents_refusal(v_member.id) is not null;
    continue when private.needs_payment(private.booking_type_for(v_member, null), v_class)
                  and not private.may_promote_paying(v_entry, v_member.id);

    -- NO KEY UPDATE: serialises with the member's own bookings (trial use) but not with rows
    -- that merely reference the member. With FOR UPDATE, two members each promoted into the
    -- other's cancelled class deadlocked on their own cancellation emails' foreign keys.
    select * into v_member from public.members where id = v_entry.member_id for no key update;
    v_type := private.booking_type_for(v_member, null);
    if private.needs_payment(v_type, v_class) then
      continue when not private.may_promote_paying(v_entry, v_member.id);
      -- A place held while the saved card is charged (28_attendance_policy.sql).
      perform private.promote_paying(v_entry, v_class);
      delete from public.class_waitlist where id = v_entry.id;
      v_promoted := v_promoted + 1;
      select * into v_class from public.classes where id = p_class_id;
      continue;
    end if;

    -- The documents rule admits this one promotion (bookings_require_documents, private.admit).
    perform private.admit('waitlist', v_entry.id);
    v_booking_id := private.create_booking(v_member.id, v_class.id, v_type);
    perform private.admit(null, null);
    delete from public.class_waitlist where id = v_entry.id;
    perform private.enqueue_class_email('waitlist_promoted', v_member.id, v_class.id, v_booking_id);
    v_promoted := v_promoted + 1;
    select * into v_class from public.classes where id = p_class_id;
  end loop;
  return v_promoted;
end;
$$;

revoke execute on function private.promote_waitlist(uuid) from public;

create or replace function private.waitlist_refusal(p_member public.members, p_class public.classes)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_refusal text := private.booking_refusal(p_member, p_class, null);
begin
  if v_refusal in ('class_started', 'already_booked') then
    return v_refusal;
  end if;
  if exists (select 1 from public.class_waitlist w where w.member_id = p_member.id and w.class_id = p_class.id) then
    return 'already_waitlisted';
  end if;
  if now() >= private.waitlist_closes_at(p_class) then
    return 'waitlist_closed';
  end if;
  if v_refusal = 'class_locked' then
    return v_refusal;
  end if;
  if v_refusal is null then
    return 'class_not_full';
  end if;
  -- Pay-as-you-go waits only with a saved card to charge on promotion (decision 0081).
  if private.needs_payment(private.booking_type_for(p_member, null), p_class)
     and not exists (select 1 from private.member_cards c where c.member_id = p_member.id) then
    return 'waitlist_payment_required';
  end if;
  return null;
end;
$$;

revoke execute on function private.waitlist_refusal(public.members, public.classes) from public;

create or replace function private.join_waitlist(p_class_id uuid)
returns public.waitlist_joined
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_refusal text;
  v_seq bigint;
  v_price numeric;
begin
  perform private.require_user_id();
  -- A lapsed hold frees a spot (and promotes) before we decide the class is full.
  perform private.release_expired_holds();
  v_member := private.require_member();
  -- Same lock as promotions and bookings: the line cannot change under us.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;

  v_refusal := private.waitlist_refusal(v_member, v_class);
  if v_refusal is not null then
    perform private.raise_waitlist_refusal(v_refusal, v_class, v_member);
  end if;

  insert into public.class_waitlist (class_id, member_id, price)
  values (v_class.id, v_member.id,
          case when private.needs_payment(private.booking_type_for(v_member, null), v_class) then v_class.price_payg end)
  returning seq, price into v_seq, v_price;

  return (v_class.id, private.waitlist_position(v_class.id, v_seq),
          (select count(*)::int from public.class_waitlist w where w.class_id = v_class.id),
          private.waitlist_closes_at(v_class), v_price)::public.waitlist_joined;
end;
$$;

revoke execute on function private.join_waitlist(uuid) from public;

grant execute on function private.join_waitlist(uuid) to authenticated;

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
  -- Late-cancel and no-show fees, and places given from a waitlist (28_attendance_policy.sql).
  return query select * from private.claim_due_attendance_fees(p_now);
  return query select * from private.claim_due_waitlist_places(p_now);
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

create or replace function private.fail_membership_charge(p_checkout_reference text, p_attempt integer, p_reason text, p_now timestamptz)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_m public.memberships;
  v_retry timestamptz;
  -- The first charge of a membership an admin set up (admin_put_on_plan), with no card saved.
  v_never_started boolean;
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
        from unnest(private.renewal_retry_days()) d
       where v_m.period_end + make_interval(days => d) > p_now
       order by d limit 1;
      if v_retry is null then
        update public.memberships
           set status = 'lapsed', renews = false, ended_at = p_now, retry_count = retry_count + 1,
               next_retry_at = null, updated_at = p_now
         where id = v_m.id
        returning * into v_m;
        perform private.sync_member_from_membership(v_m);
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
