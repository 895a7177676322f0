-- Issue 27: a family's places on a paid class are paid in one checkout (decision 0021).
-- create_family_payment_hold holds every place (pending, pointing at one payment); the provider's
-- PAID confirms them together; FAILED, EXPIRED, a lapsed hold or cancelling one held place releases
-- them together; a paid place cancelled on its own owes its share (refunds_owed.place_booking_id).

-- Refunds owed: one per payment and reason, or per family place and reason.
alter table public.refunds_owed add column place_booking_id uuid;

alter table public.refunds_owed drop constraint refunds_owed_one_per_payment;

alter table public.refunds_owed
  add constraint refunds_owed_one_per_payment unique nulls not distinct (payment_id, reason, place_booking_id);

-- Payments for several places, and the places they hold.
alter table public.payments add column family_places integer
  constraint payments_family_places_range check (family_places between 1 and 50);

alter table public.payments add column family_unit_amount numeric(10, 2)
  constraint payments_family_unit_amount_positive check (family_unit_amount > 0);

alter table public.payments add constraint payments_family_fields check (
  (family_places is null) = (family_unit_amount is null) and (family_places is null or kind = 'class')
);

comment on column public.payments.family_places is
  'A family''s payment for several places (create_family_payment_hold): how many places it holds, paid or covered.';

comment on column public.payments.family_unit_amount is
  'The price of each paid place of a family''s payment: what one of them cancelled in time owes back.';

alter table public.bookings add column family_payment_id uuid references public.payments (id) on delete set null;

create index bookings_family_payment_id_idx on public.bookings (family_payment_id) where family_payment_id is not null;

comment on column public.bookings.family_payment_id is
  'The family''s payment this place was held for and paid by (create_family_payment_hold); null for any other place.';

drop function private.create_booking(uuid, uuid, public.booking_type);

-- The member's free trial is used: a trial member becomes pay-as-you-go.
create function private.use_free_trial(p_member_id uuid)
returns void
language sql security definer set search_path = ''
as $$
  update public.members
     set membership_tier = case when membership_tier = 'trial' then 'payg' else membership_tier end,
         has_used_trial = true,
         trial_expires_at = null
   where id = p_member_id
$$;

revoke execute on function private.use_free_trial(uuid) from public;

-- Inserts a confirmed booking and applies the trial transition. The caller has locked the class
-- and member rows and checked booking_refusal / needs_payment; a plan booking is checked against
-- the plan's paid period once more here, whatever path made it. Returns the booking id.
create function private.create_booking(
  p_member_id uuid,
  p_class_id uuid,
  p_type public.booking_type,
  -- A place held while its family's payment is made (21_families.sql): pending until then.
  p_hold_until timestamptz default null,
  p_family_payment_id uuid default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking_id uuid;
  v_member public.members;
  v_class public.classes;
  v_refusal text;
begin
  if p_type = 'paid' then
    select * into v_member from public.members where id = p_member_id;
    select * into v_class from public.classes where id = p_class_id;
    v_refusal := private.plan_class_refusal(v_member, v_class.start_time);
    if v_refusal is not null then
      perform private.raise_booking_refusal(v_refusal, v_class, v_member);
    end if;
  end if;

  insert into public.bookings (member_id, class_id, type, payment_status, hold_expires_at, family_payment_id)
  values (p_member_id, p_class_id, p_type, case when p_hold_until is null then 'completed' else 'pending' end::public.payment_status,
          p_hold_until, p_family_payment_id)
  returning id into v_booking_id;

  -- A held trial place uses the trial when its payment confirms it (settle_family_payment).
  if p_type = 'trial' and p_hold_until is null then
    perform private.use_free_trial(p_member_id);
  end if;
  return v_booking_id;
end;
$$;

revoke execute on function private.create_booking(uuid, uuid, public.booking_type, timestamptz, uuid) from public;

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
        and now() >= private.late_cancel_from(v_class);
  if r.late then
    insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
    values (v_booking.member_id, v_booking.class_id, v_booking.id, v_booking.type, v_booking.booked_at, v_class.start_time);
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

-- A pending booking that goes away (hold expired and released, or cancelled) ends its pending
-- payment: the checkout can no longer buy that hold. BEFORE DELETE so it runs while booking_id
-- still points at the row (the foreign key then sets it null).
create or replace function private.payments_end_pending_on_booking_delete()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.payments
     set status = 'expired'
   where (id = old.family_payment_id or booking_id = old.id) and status = 'pending';
  return old;
end;
$$;

revoke execute on function private.payments_end_pending_on_booking_delete() from public;

-- The provider refused to create the checkout: the payment fails and its hold is released.
create or replace function private.abandon_payment(p_checkout_reference text)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  select * into v_payment from public.payments where checkout_reference = p_checkout_reference for update;
  if not found or v_payment.status <> 'pending' then
    return;
  end if;
  update public.payments set status = 'failed' where id = v_payment.id;
  delete from public.bookings
   where (id = v_payment.booking_id or family_payment_id = v_payment.id) and payment_status = 'pending';
end;
$$;

revoke execute on function private.abandon_payment(text) from public;

grant execute on function private.abandon_payment(text) to service_role;

-- Applies what the provider said about a checkout (fetched by id by the caller). Membership
-- payments go to apply_membership_charge. A class payment books the held spot (or a free one); a
-- family's payment for several places books all its held places or none (settle_family_payment); a
-- package payment is marked paid. A payment that cannot be honoured (the class filled, the
-- checkout was superseded, the member was removed) is recorded as paid and owed back.
create or replace function private.apply_checkout_result(
  p_checkout_reference text,
  p_provider_checkout_id text,
  p_provider_status text,
  p_amount numeric,
  p_currency text
)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_class public.classes;
  v_booking_id uuid;
  v_result public.checkout_status;
begin
  -- The member first, as removing a member locks it first (a removal and a payment arriving at
  -- once deadlocked): KEY SHARE only waits for a removal, never for the member's own bookings.
  perform 1 from public.members
   where id = (select p.member_id from public.payments p where p.checkout_reference = p_checkout_reference)
   for key share;
  select * into v_payment from public.payments where checkout_reference = p_checkout_reference for update;
  if not found then
    return ('unknown_reference', null, null)::public.checkout_result;
  end if;
  if v_payment.billing_reason is not null then
    return private.apply_membership_charge(p_checkout_reference, p_provider_checkout_id, p_provider_status,
                                           p_amount, p_currency, now());
  end if;

  if (v_payment.provider_checkout_id is not null and v_payment.provider_checkout_id <> p_provider_checkout_id)
     or p_amount is null or round(p_amount, 2) <> v_payment.amount
     or p_currency is distinct from v_payment.currency then
    return ('mismatch', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  if v_payment.provider_checkout_id is null then
    update public.payments set provider_checkout_id = p_provider_checkout_id where id = v_payment.id;
  end if;

  if p_provider_status = 'PENDING' then
    return ('still_pending', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  if p_provider_status in ('FAILED', 'EXPIRED') then
    if v_payment.status <> 'pending' then
      return ('already_applied', v_payment.id, v_payment.status)::public.checkout_result;
    end if;
    v_result := case p_provider_status when 'FAILED' then 'failed' else 'expired' end::public.checkout_status;
    update public.payments set status = v_result where id = v_payment.id;
    delete from public.bookings
     where (id = v_payment.booking_id or family_payment_id = v_payment.id) and payment_status = 'pending';
    return ('marked_failed', v_payment.id, v_result)::public.checkout_result;
  end if;

  if p_provider_status <> 'PAID' then
    return ('mismatch', v_payment.id, v_payment.status)::public.checkout_result;
  end if;

  if v_payment.status = 'paid' then
    return ('already_applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.member_id is null then
    perform private.owe_payment_back(v_payment.id, 'member_removed', now());
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;
  if v_payment.superseded_by is not null then
    perform private.owe_payment_back(v_payment.id, 'superseded_checkout', now());
    return ('applied', v_payment.id, 'paid')::public.checkout_result;
  end if;

  if v_payment.kind = 'plan' then
    update public.payments set status = 'paid', paid_at = now() where id = v_payment.id;
  elsif v_payment.family_places is not null then
    perform private.settle_family_payment(v_payment);
  else
    update public.bookings
       set payment_status = 'completed', hold_expires_at = null
     where id = v_payment.booking_id
    returning id into v_booking_id;

    if v_booking_id is null then
      select * into v_class from public.classes where id = v_payment.class_id for update;
      if found
         and v_class.start_time > now()
         and (select count(*) from public.bookings where class_id = v_class.id) < v_class.capacity
         and not exists (select 1 from public.bookings where member_id = v_payment.member_id and class_id = v_class.id) then
        insert into public.bookings (member_id, class_id, type, payment_status)
        values (v_payment.member_id, v_class.id, 'payg', 'completed')
        returning id into v_booking_id;
      end if;
    end if;

    if v_booking_id is null then
      perform private.owe_payment_back(v_payment.id, 'class_filled', now());
    else
      update public.payments set status = 'paid', paid_at = now(), booking_id = v_booking_id where id = v_payment.id;
    end if;
  end if;

  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

revoke execute on function private.apply_checkout_result(text, text, text, numeric, text) from public;

grant execute on function private.apply_checkout_result(text, text, text, numeric, text) to service_role;

-- The checkout page of the caller's own unpaid hold, while the hold keeps the spot. Refused with
-- hold_ended once the hold lapsed, was released or paid (the screen then drops the row), and with
-- the same answer for a booking that is not the caller's (nothing to learn about other members).
create or replace function private.my_hold_checkout(p_booking_id uuid)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_url text;
begin
  select p.checkout_url into v_url
    from public.bookings b
    join public.payments p on (p.id = b.family_payment_id or p.booking_id = b.id) and p.status = 'pending'
   where b.id = p_booking_id
     and b.member_id = private.current_member_id()
     and b.payment_status = 'pending'
     and b.hold_expires_at > now();
  if v_url is null then
    raise exception 'This payment has ended. Book the class again to pay for it.'
      using errcode = 'P0002', hint = 'hold_ended';
  end if;
  return v_url;
end;
$$;

revoke execute on function private.my_hold_checkout(uuid) from public;

grant execute on function private.my_hold_checkout(uuid) to authenticated, service_role;

-- Records a paid payment that cannot be honoured: kept as paid for the accounts, flagged, and
-- listed under Refunds owed with its reason, once (the refund record is keyed by payment and reason).
create or replace function private.owe_payment_back(p_payment_id uuid, p_reason text, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  update public.payments
     set status = 'paid', paid_at = coalesce(paid_at, p_now), needs_refund = true, refund_reason = p_reason,
         claimed_until = null
   where id = p_payment_id
  returning * into v_payment;
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time,
                                   amount, reason)
  select v_payment.id, m.id, coalesce(m.name, v_payment.billed_name),
         coalesce(m.email::text, v_payment.billed_email, ''), v_payment.description, c.start_time, v_payment.amount,
         p_reason
    from (select 1) one
    left join public.members m on m.id = v_payment.member_id
    left join public.classes c on c.id = v_payment.class_id
  on conflict (payment_id, reason, place_booking_id) do nothing;
end;
$$;

revoke execute on function private.owe_payment_back(uuid, text, timestamptz) from public;

-- A paid class booking removed before its class starts: the payment becomes a refund owed.
-- BEFORE DELETE, while the payment still points at the booking. By the studio (an admin's cancel,
-- a deleted class, a regeneration, a removed member): always. By the member: only inside the free
-- cancellation window (cancel_booking records a late cancellation first, so none exists then).
-- Classes already started are not refunded (the member had the class).
create or replace function private.bookings_record_refund_owed()
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
create or replace function private.classes_record_refunds_owed()
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
create or replace function private.paid_bookings_affected(p_class_id uuid)
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

-- Deletes a member for an admin: their bookings go (paid future classes become refunds owed,
-- waitlist places go), their payments stay for the accounts with the member reference cleared,
-- an unused part of a paid membership is owed back, and their email's free trial is remembered.
-- Returns the auth user id: the caller (the delete-member function) removes the login too.
-- The unused days of a membership are counted from the latest payment that granted a tier (a
-- package is not a month).
create or replace function private.admin_delete_member(p_member_id uuid)
returns public.member_removal
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_plan public.payments;
  v_refunds integer;
  r public.member_removal;
begin
  perform private.require_admin();
  select * into v_member from public.members where id = p_member_id for update;
  if not found then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_member.id = private.current_member_id() then
    raise exception 'You cannot delete your own account here' using errcode = 'P0001', hint = 'cannot_delete_self';
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

revoke execute on function private.admin_delete_member(uuid) from public;

grant execute on function private.admin_delete_member(uuid) to authenticated, service_role;

-- Removing a member: unused package sessions are owed back at their unit price ----------------------
create or replace function private.members_owe_unused_credits()
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

-- Booking emails from triggers ----------------------------------------------------------------
-- Confirmation email when a pay-as-you-go hold is paid (the payments RPC flips the status).
create or replace function private.bookings_confirm_on_payment()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- One email for a family's places paid together: the payment's first place sends it.
  if old.payment_status = 'pending' and new.payment_status = 'completed'
     and (new.family_payment_id is null
          or new.id = (select p.booking_id from public.payments p where p.id = new.family_payment_id)) then
    perform private.enqueue_class_email('booking_confirmed', new.member_id, new.class_id, new.id);
  end if;
  return null;
end;
$$;

revoke execute on function private.bookings_confirm_on_payment() from public;

-- A guest place goes (the host cancelled, the guest used their link, the studio removed the
-- class or the host's booking): the pass comes back unless it was late or the class has started,
-- a paid place is owed back on the same terms (always when the studio removed it), and a guest
-- whose class still runs is told. A pending place that lapses goes quietly.
create or replace function private.guest_places_on_delete()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_in_time boolean;
  v_reason text := nullif(current_setting('app.booking_removal', true), '');
begin
  select * into v_class from public.classes where id = old.class_id;
  v_in_time := not found or now() < private.late_cancel_from(v_class);
  if v_in_time then
    update public.credits set used_at = null where id = old.credit_id;
  end if;
  -- A paid place: owed back when the studio removes it, or when it is cancelled in time, unless
  -- the path that removed the host's booking (or the class) has already recorded it.
  if old.payment_status = 'completed' and old.payment_id is not null and (v_class.id is null or v_class.start_time > now())
     and (v_reason is not null or v_in_time) then
    insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time, amount, reason)
    select p.id, m.id, coalesce(m.name, p.billed_name), coalesce(m.email::text, p.billed_email, ''),
           p.description, v_class.start_time, p.amount,
           coalesce(v_reason, case when v_class.id is null then 'class_deleted' else 'member_cancelled_in_time' end)
      from public.payments p left join public.members m on m.id = p.member_id
     where p.id = old.payment_id and p.status = 'paid' and not p.needs_refund
       and not exists (select 1 from public.refunds_owed o where o.payment_id = p.id)
    on conflict (payment_id, reason, place_booking_id) do nothing;
  end if;
  if v_class.id is not null and v_class.start_time > now() and old.payment_status = 'completed' then
    perform private.enqueue_guest_email('guest_cancelled', old);
  end if;
  return old;
end;
$$;

revoke execute on function private.guest_places_on_delete() from public;

-- Every rule of a family booking but who pays, for p_member (row locked after p_class's, as
-- book_class locks: class, then member): each child listed once and allowed on the class, the
-- class not started, a place for each person, and the parent's own place by book_class's rules.
-- Returns the parent's booking type (null when not included) and how many places are paid by card:
-- every child's on a class with a price, and the parent's when book_class would charge them.
create function private.plan_family_booking(
  p_member public.members,
  p_class public.classes,
  p_include_self boolean,
  p_dependant_ids uuid[],
  out own_type public.booking_type,
  out places integer,
  out paid_places integer
)
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_dependant public.dependants;
  v_id uuid;
  v_refusal text;
begin
  if cardinality(p_dependant_ids) <> (select count(distinct x) from unnest(p_dependant_ids) x) then
    raise exception 'Each child can be booked once' using errcode = '22023', hint = 'dependant_listed_twice';
  end if;
  places := cardinality(p_dependant_ids) + case when p_include_self then 1 else 0 end;
  if places = 0 then
    raise exception 'Choose who is coming' using errcode = '22023', hint = 'nobody_chosen';
  end if;
  if p_class.start_time <= now() then
    perform private.raise_booking_refusal('class_started', p_class, p_member);
  end if;

  foreach v_id in array p_dependant_ids loop
    select * into v_dependant from public.dependants where id = v_id;
    perform private.check_dependant_place(v_dependant, p_member.id, p_class);
  end loop;

  if p_class.spots_left < places then
    raise exception '% left on this class: you chose %',
      case p_class.spots_left when 0 then 'No places' when 1 then 'Only 1 place' else 'Only ' || p_class.spots_left || ' places' end,
      places
      using errcode = 'P0001', hint = 'not_enough_places';
  end if;

  -- A child's place is free only when the class is free: never the plan's or the trial's.
  paid_places := case when coalesce(p_class.price_payg, 0) > 0 then cardinality(p_dependant_ids) else 0 end;
  if p_include_self then
    v_refusal := private.booking_refusal(p_member, p_class, null);
    if v_refusal is not null then
      perform private.raise_booking_refusal(v_refusal, p_class, p_member);
    end if;
    own_type := private.booking_type_for(p_member, null);
    if private.needs_payment(own_type, p_class) then
      paid_places := paid_places + 1;
    end if;
  end if;
end;
$$;

revoke execute on function private.plan_family_booking(public.members, public.classes, boolean, uuid[]) from public;

-- Books the caller (p_include_self) and the given children into one class in one transaction:
-- every place or none. Places that must be paid by card are booked through one checkout instead
-- (create_family_payment_hold): refused here with family_payment_required.
create or replace function private.book_family(p_class_id uuid, p_include_self boolean, p_dependant_ids uuid[])
returns public.family_booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_plan record;
  v_id uuid;
  v_booking_id uuid;
  r public.family_booking_result;
begin
  perform private.require_user_id();
  perform private.release_expired_holds();
  v_member := private.require_member();

  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = v_member.id for no key update;

  select * into v_plan from private.plan_family_booking(v_member, v_class, coalesce(p_include_self, false), coalesce(p_dependant_ids, '{}'));
  if v_plan.paid_places > 0 then
    raise exception '% of these places % paid by card: pay for them in one checkout',
      v_plan.paid_places, case when v_plan.paid_places = 1 then 'is' else 'are' end
      using errcode = 'P0001', hint = 'family_payment_required';
  end if;

  r.booking_ids := '{}';
  if coalesce(p_include_self, false) then
    v_booking_id := private.create_booking(v_member.id, v_class.id, v_plan.own_type);
    r.booking_ids := r.booking_ids || v_booking_id;
  end if;
  foreach v_id in array coalesce(p_dependant_ids, '{}') loop
    -- A child's place on a free class: pay-as-you-go at no price; never the plan or the trial.
    insert into public.bookings (member_id, class_id, dependant_id, type, payment_status)
    values (v_member.id, v_class.id, v_id, 'payg', 'completed')
    returning id into v_booking_id;
    r.booking_ids := r.booking_ids || v_booking_id;
  end loop;

  -- One confirmation email for the family's booking.
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_ids[1]);

  r.class_id := v_class.id;
  r.places := v_plan.places;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.book_family(uuid, boolean, uuid[]) from public;

grant execute on function private.book_family(uuid, boolean, uuid[]) to authenticated;

-- Holds the places and records the payment. One unpaid checkout per member: any other place the
-- member holds is released first (its spot is free again at once). Refusals: book_family's, and
-- payment_not_required when nothing is paid by card (book_family books that at once).
create function private.create_family_payment_hold(
  p_member_id uuid,
  p_class_id uuid,
  p_include_self boolean,
  p_dependant_ids uuid[],
  p_hold_minutes integer
)
returns public.class_payment_hold
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_plan record;
  v_ids uuid[] := coalesce(p_dependant_ids, '{}');
  v_hold_until timestamptz;
  v_payment public.payments;
  v_first uuid;
  v_id uuid;
  v_booking_id uuid;
begin
  if p_hold_minutes is null or p_hold_minutes < 1 or p_hold_minutes > 120 then
    raise exception 'Hold length must be 1 to 120 minutes' using errcode = '22023', hint = 'invalid_hold';
  end if;
  perform private.release_expired_holds();

  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;

  delete from public.bookings where member_id = p_member_id and payment_status = 'pending';
  -- The class row again: releasing a hold of this class changed its places.
  select * into v_class from public.classes where id = p_class_id;

  select * into v_plan from private.plan_family_booking(v_member, v_class, coalesce(p_include_self, false), v_ids);
  if v_plan.paid_places = 0 then
    raise exception 'No payment is needed for this booking' using errcode = 'P0001', hint = 'payment_not_required';
  end if;

  v_hold_until := now() + make_interval(mins => p_hold_minutes);
  insert into public.payments (member_id, kind, class_id, amount, description, checkout_reference, family_places, family_unit_amount)
  values (p_member_id, 'class', v_class.id, v_plan.paid_places * v_class.price_payg,
          v_class.name || ' - ' || v_plan.places || ' places', 'family-' || gen_random_uuid()::text,
          v_plan.places, v_class.price_payg)
  returning * into v_payment;

  if coalesce(p_include_self, false) then
    v_first := private.create_booking(p_member_id, v_class.id, v_plan.own_type, v_hold_until, v_payment.id);
  end if;
  foreach v_id in array v_ids loop
    insert into public.bookings (member_id, class_id, dependant_id, type, payment_status, hold_expires_at, family_payment_id)
    values (p_member_id, v_class.id, v_id, 'payg', 'pending', v_hold_until, v_payment.id)
    returning id into v_booking_id;
    v_first := coalesce(v_first, v_booking_id);
  end loop;
  update public.payments set booking_id = v_first where id = v_payment.id;

  return (v_payment.id, v_first, v_payment.checkout_reference, v_payment.amount, v_payment.currency,
          v_payment.description, v_hold_until)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) from public;

grant execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) to service_role;

-- The provider said PAID (apply_checkout_result, which locked the payment): every place still held
-- is confirmed, or, when any of them went (the hold lapsed and was released), none is and the
-- payment is owed back. A held trial place uses the trial now.
create function private.settle_family_payment(p_payment public.payments)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if (select count(*) from public.bookings where family_payment_id = p_payment.id and payment_status = 'pending')
     = p_payment.family_places then
    update public.bookings
       set payment_status = 'completed', hold_expires_at = null
     where family_payment_id = p_payment.id and payment_status = 'pending';
    if exists (select 1 from public.bookings
                where family_payment_id = p_payment.id and type = 'trial' and dependant_id is null) then
      perform private.use_free_trial(p_payment.member_id);
    end if;
    update public.payments set status = 'paid', paid_at = now() where id = p_payment.id;
  else
    delete from public.bookings where family_payment_id = p_payment.id and payment_status = 'pending';
    perform private.owe_payment_back(p_payment.id, 'class_filled', now());
  end if;
end;
$$;

revoke execute on function private.settle_family_payment(public.payments) from public;

create function public.create_family_payment_hold(
  p_member_id uuid, p_class_id uuid, p_include_self boolean, p_dependant_ids uuid[], p_hold_minutes integer
)
returns public.class_payment_hold
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_family_payment_hold(p_member_id, p_class_id, p_include_self, p_dependant_ids, p_hold_minutes) $$;

revoke execute on function public.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) from public, anon, authenticated;

grant execute on function public.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) to service_role;
