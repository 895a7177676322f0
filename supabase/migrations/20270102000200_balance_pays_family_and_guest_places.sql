-- The member's balance pays family checkouts and guest places first, as pay-as-you-go places (decision 0108).

create or replace function private.create_family_payment_hold(
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
  v_cover numeric;
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
  -- The member's balance pays first, as for a pay-as-you-go place (decisions 0101 and 0108: the
  -- same balance_cover rule, under the member's row lock); the card is charged the rest.
  v_cover := private.balance_cover(p_member_id, v_plan.paid_places * v_class.price_payg);
  -- The description says how many of the places are paid when not all are (a plan or trial covers
  -- the parent's own): "3 places" beside the price of two read as a mistake (decision 0094).
  insert into public.payments (member_id, kind, class_id, amount, balance_used, description, checkout_reference, family_places,
                               family_unit_amount)
  values (p_member_id, 'class', v_class.id, v_plan.paid_places * v_class.price_payg, nullif(v_cover, 0),
          v_class.name || ' - ' || v_plan.places || ' places'
            || case when v_plan.paid_places < v_plan.places then ' (' || v_plan.paid_places || ' paid)' else '' end
            || private.balance_label(v_cover),
          'family-' || gen_random_uuid()::text, v_plan.places, v_class.price_payg)
  returning * into v_payment;
  perform private.spend_balance(v_payment);

  -- The receipt's lines: the parent's own place first, then each child's in the order chosen.
  insert into public.family_payment_lines (payment_id, position, member_id, dependant_id, name, covered_by, amount)
  select v_payment.id, row_number() over (order by l.ord), p_member_id, l.dependant_id, l.name, l.covered_by,
         case when l.covered_by = 'paid' then v_class.price_payg else 0 end
    from (select 0::bigint as ord, null::uuid as dependant_id, coalesce(nullif(btrim(v_member.name), ''), 'You') as name,
                 private.place_covered_by(v_plan.own_type, v_class) as covered_by
           where coalesce(p_include_self, false)
          union all
          select x.ord, d.id, d.name, 'paid'
            from unnest(v_ids) with ordinality x(id, ord)
            join public.dependants d on d.id = x.id) l;

  if coalesce(p_include_self, false) then
    v_first := private.create_booking(p_member_id, v_class.id, v_plan.own_type, v_hold_until, v_payment.id);
  end if;
  foreach v_id in array v_ids loop
    insert into public.bookings (member_id, class_id, dependant_id, type, payment_status, hold_expires_at, family_payment_id)
    values (p_member_id, v_class.id, v_id, 'payg', 'pending', v_hold_until, v_payment.id)
    returning id into v_booking_id;
    v_first := coalesce(v_first, v_booking_id);
  end loop;
  update public.payments set booking_id = v_first where id = v_payment.id
  returning * into v_payment;
  -- Covered whole by the balance: every place is booked now, without the card provider.
  if v_cover = v_payment.amount then
    perform private.apply_paid_checkout(v_payment);
  end if;

  -- The amount answered is what the card is charged (nothing when the balance paid it all).
  return (v_payment.id, v_first, v_payment.checkout_reference, v_payment.amount - v_cover, v_payment.currency,
          v_payment.description, v_hold_until)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) from public;

grant execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) to service_role;

create or replace function private.create_guest_payment_hold(
  p_member_id uuid,
  p_booking_id uuid,
  p_name text,
  p_email text,
  p_hold_minutes integer
)
returns public.class_payment_hold
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_place public.guest_places;
  v_payment public.payments;
  v_cover numeric;
begin
  if p_hold_minutes is null or p_hold_minutes < 1 or p_hold_minutes > 120 then
    raise exception 'Hold length must be 1 to 120 minutes' using errcode = '22023', hint = 'invalid_hold';
  end if;
  perform private.release_expired_holds();
  delete from public.guest_places where host_member_id = p_member_id and payment_status = 'pending';

  v_class := private.lock_class_for_guest(p_member_id, p_booking_id, p_name, p_email);
  if coalesce(v_class.price_payg, 0) <= 0 then
    raise exception 'This class has no pay-as-you-go price: bring your guest with a guest pass'
      using errcode = 'P0001', hint = 'no_guest_price';
  end if;

  -- The host's balance pays first, as for their own pay-as-you-go place (decisions 0101 and 0108:
  -- balance_cover, under the member's row lock lock_class_for_guest took); the card the rest.
  v_cover := private.balance_cover(p_member_id, v_class.price_payg);
  insert into public.payments (member_id, kind, class_id, booking_id, amount, balance_used, description, checkout_reference)
  values (p_member_id, 'class', v_class.id, p_booking_id, v_class.price_payg, nullif(v_cover, 0),
          v_class.name || ' - Guest place (' || btrim(p_name) || ')' || private.balance_label(v_cover),
          'guest-' || gen_random_uuid()::text)
  returning * into v_payment;
  perform private.spend_balance(v_payment);
  insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email,
                                   payment_status, hold_expires_at, payment_id)
  values (v_class.id, p_booking_id, p_member_id, btrim(p_name), lower(btrim(p_email)),
          'pending', now() + make_interval(mins => p_hold_minutes), v_payment.id)
  returning * into v_place;
  -- Covered whole by the balance: the guest's place is confirmed now, without the card provider.
  if v_cover = v_payment.amount then
    perform private.apply_paid_checkout(v_payment);
    select * into v_place from public.guest_places where id = v_place.id;
  end if;

  -- The amount answered is what the card is charged (nothing when the balance paid it all).
  return (v_payment.id, p_booking_id, v_payment.checkout_reference, v_payment.amount - v_cover, v_payment.currency,
          v_payment.description, v_place.hold_expires_at)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_guest_payment_hold(uuid, uuid, text, text, integer) from public;

grant execute on function private.create_guest_payment_hold(uuid, uuid, text, text, integer) to service_role;
