-- The place model (decision 0035): every roster reads one function of who is in the room, each
-- place showing the person in it with their own documents and health answers (a child's place
-- showed the parent's answers to the coach, and hid the child's); a provider's PAID never fails on
-- a booking rule (a class filled by guests made the late PAID path break the capacity rule and roll
-- the whole application back, so money taken was recorded nowhere); the documents rule lets through
-- only the place of the payment being applied, not any member who once had a checkout.

-- Refunds owed: a payment whose place a booking rule refused when it arrived.
alter table public.refunds_owed drop constraint refunds_owed_reason_check;

alter table public.refunds_owed add constraint refunds_owed_reason_check
  check (reason in ('admin_cancelled', 'class_deleted', 'timetable_regenerated', 'member_deleted',
                    'class_filled', 'duplicate_payment', 'superseded_checkout', 'member_removed', 'period_already_paid',
                    'member_cancelled_in_time', 'package_refunded', 'booking_refused'));

-- The rosters: one type, one function.
drop function public.admin_class_register(uuid);
drop function private.admin_class_register(uuid);
drop type public.register_entry;
drop function public.coach_class_roster(uuid);
drop function private.coach_class_roster(uuid);
drop type public.coach_roster_entry;

create type public.place_kind as enum ('member', 'child', 'guest');

comment on type public.place_kind is 'Who a place in a class is for: a member''s own booking, their child''s, or their guest''s.';

create type public.class_place as (
  -- The booking's id, or the guest place's.
  place_id uuid,
  kind public.place_kind,
  class_id uuid,
  -- The booking behind the place: the member's or child's own; the host's for a guest.
  booking_id uuid,
  guest_place_id uuid,
  -- The account answerable for the place: the member, the child's parent, the guest's host.
  member_id uuid,
  dependant_id uuid,
  -- The person in the room.
  name text,
  -- Who to call about them when they are not the account holder: the parent, or the host.
  contact_name text,
  -- The member's; a child's parent's; the guest's own (admins only).
  email text,
  -- The member's; the parent's for a child.
  phone text,
  emergency_contact_name text,
  emergency_contact_phone text,
  -- The person's own date of birth, PAR-Q flag, questions answered yes (in the answered version's
  -- words) and details; a guest gives none.
  date_of_birth date,
  health_flag boolean,
  health_yes text[],
  health_details text,
  -- A child's: what the coach should know, and who may collect them.
  medical_notes text,
  collected_by text,
  -- The person's own documents are the current versions: a member's terms, waiver and PAR-Q; the
  -- waiver and PAR-Q a parent signed for the child; the waiver a guest signed from their email.
  documents_current boolean,
  -- How a booking's place was taken (plan, pay-as-you-go, trial…); null for a guest.
  booking_type public.booking_type,
  attendance public.attendance_status,
  -- Held while its card payment is made.
  pending boolean,
  booked_at timestamptz
);

comment on type public.class_place is
  'One place in a class (member, child or guest) with the person in it and their own documents and health answers (class_places).';

comment on type public.class_place is
  'One place in a class (member, child or guest) with the person in it and their own documents and health answers (class_places).';

create function private.class_has_room(p_class public.classes)
returns boolean
language sql immutable set search_path = ''
as $$ select p_class.current_bookings < p_class.capacity $$;

revoke execute on function private.class_has_room(public.classes) from public;

create function private.member_display_name(p_member public.members)
returns text
language sql immutable set search_path = ''
as $$ select coalesce(nullif(btrim(p_member.name), ''), split_part(p_member.email::text, '@', 1)) $$;

revoke execute on function private.member_display_name(public.members) from public;

create function private.class_places(p_class_ids uuid[])
returns setof public.class_place
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query
  select r.place_id, r.kind, r.class_id, r.booking_id, r.guest_place_id, r.member_id, r.dependant_id, r.name, r.contact_name,
         r.email, r.phone, r.emergency_contact_name, r.emergency_contact_phone, r.date_of_birth, r.health_flag, r.health_yes,
         r.health_details, r.medical_notes, r.collected_by, r.documents_current, r.booking_type, r.attendance, r.pending, r.booked_at
    from (
    select b.id as place_id, case when d.id is null then 'member' else 'child' end::public.place_kind as kind, b.class_id,
           b.id as booking_id, null::uuid as guest_place_id, m.id as member_id, d.id as dependant_id,
           coalesce(d.name, private.member_display_name(m)) as name,
           case when d.id is not null then private.member_display_name(m) end as contact_name,
           m.email::text as email, m.phone, m.emergency_contact_name, m.emergency_contact_phone,
           case when d.id is null then m.date_of_birth else d.date_of_birth end as date_of_birth,
           coalesce(private.health_flag(h.answers), false) as health_flag,
           coalesce((select array_agg(q.value #>> '{}' order by q.ordinality)
                       from jsonb_array_elements(v.questions) with ordinality q
                      where h.answers -> (q.ordinality::int - 1) = 'true'::jsonb), '{}') as health_yes,
           h.details as health_details, d.medical_notes, d.collected_by,
           case when d.id is null then cardinality(private.missing_documents(m.id)) = 0
                else cardinality(private.missing_dependant_documents(d.id)) = 0 end as documents_current,
           b.type as booking_type, b.attendance, b.payment_status = 'pending' as pending, b.booked_at,
           -- Families and hosts together: the account holder, then the people they brought.
           private.member_display_name(m) as sort_group, case when d.id is null then 0 else 1 end as sort_kind
      from public.bookings b
      join public.members m on m.id = b.member_id
      left join public.dependants d on d.id = b.dependant_id
      -- The health answers of the person in the place: the child's (given by the parent) or the member's.
      left join lateral (
        select x.answers, x.details, x.document_id from public.health_answers x where d.id is null and x.member_id = m.id
        union all
        select y.answers, y.details, y.document_id from public.dependant_health_answers y where y.dependant_id = d.id
      ) h on true
      left join public.document_versions v on v.id = h.document_id
     where b.class_id = any (p_class_ids)
    union all
    select g.id, 'guest'::public.place_kind, g.class_id, g.host_booking_id, g.id, m.id, null::uuid, g.guest_name,
           private.member_display_name(m), g.guest_email, null::text, null::text, null::text, null::date, false, '{}'::text[],
           null::text, null::text, null::text, private.guest_waiver_signed(g.guest_email), null::public.booking_type,
           null::public.attendance_status,
           g.payment_status = 'pending', g.created_at, private.member_display_name(m), 2
      from public.guest_places g
      join public.members m on m.id = g.host_member_id
     where g.class_id = any (p_class_ids)
  ) r
   order by r.class_id, r.sort_group, r.sort_kind, r.name, r.place_id;
end;
$$;

revoke execute on function private.class_places(uuid[]) from public;

create function private.admin_class_places(p_class_ids uuid[])
returns setof public.class_place
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  if p_class_ids is null or cardinality(p_class_ids) > 100 then
    raise exception 'Choose between 1 and 100 classes' using errcode = '22023', hint = 'invalid_classes';
  end if;
  return query select * from private.class_places(p_class_ids);
end;
$$;

revoke execute on function private.admin_class_places(uuid[]) from public;

grant execute on function private.admin_class_places(uuid[]) to authenticated;

create function public.admin_class_places(p_class_ids uuid[])
returns setof public.class_place
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_class_places(p_class_ids) $$;

revoke execute on function public.admin_class_places(uuid[]) from public, anon, authenticated;

grant execute on function public.admin_class_places(uuid[]) to authenticated;

create function private.coach_class_roster(p_class_id uuid)
returns setof public.class_place
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_class public.classes := private.require_coach_of(p_class_id);
begin
  return query
  select p.place_id, p.kind, p.class_id, p.booking_id, p.guest_place_id, p.member_id, p.dependant_id, p.name, p.contact_name,
         null::text, p.phone, p.emergency_contact_name, p.emergency_contact_phone, p.date_of_birth, p.health_flag, p.health_yes,
         p.health_details, p.medical_notes, p.collected_by, p.documents_current, p.booking_type, p.attendance, p.pending,
         p.booked_at
    from private.class_places(array[v_class.id]) p;
end;
$$;

revoke execute on function private.coach_class_roster(uuid) from public;

grant execute on function private.coach_class_roster(uuid) to authenticated;

create function public.coach_class_roster(p_class_id uuid)
returns setof public.class_place
language sql stable security invoker set search_path = ''
as $$ select * from private.coach_class_roster(p_class_id) $$;

revoke execute on function public.coach_class_roster(uuid) from public, anon, authenticated;

grant execute on function public.coach_class_roster(uuid) to authenticated;


-- A provider's PAID: applied by apply_paid_checkout, anything refused owed back.
create or replace function private.apply_paid_checkout(p_payment public.payments)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_booking_id uuid;
begin
  if p_payment.kind = 'plan' then
    update public.payments set status = 'paid', paid_at = now() where id = p_payment.id;
    return;
  end if;
  if p_payment.family_places is not null then
    perform private.settle_family_payment(p_payment);
    return;
  end if;

  update public.bookings
     set payment_status = 'completed', hold_expires_at = null
   where id = p_payment.booking_id
  returning id into v_booking_id;

  if v_booking_id is null then
    select * into v_class from public.classes where id = p_payment.class_id for update;
    if found
       and v_class.start_time > now()
       and private.class_has_room(v_class)
       and not exists (select 1 from public.bookings
                        where member_id = p_payment.member_id and class_id = v_class.id and dependant_id is null) then
      -- The documents rule lets this one insert through (bookings_require_documents): the hold it
      -- replaces was admitted with them, and the money is already taken.
      perform set_config('studio.paid_checkout', p_payment.id::text, true);
      insert into public.bookings (member_id, class_id, type, payment_status)
      values (p_payment.member_id, v_class.id, 'payg', 'completed')
      returning id into v_booking_id;
      perform set_config('studio.paid_checkout', '', true);
    end if;
  end if;

  if v_booking_id is null then
    perform private.owe_payment_back(p_payment.id, 'class_filled', now());
  else
    update public.payments set status = 'paid', paid_at = now(), booking_id = v_booking_id where id = p_payment.id;
  end if;
end;
$$;

revoke execute on function private.apply_paid_checkout(public.payments) from public;

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
  v_result public.checkout_status;
  v_refusal text;
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

  -- The money is taken whatever the booking rules say now: anything they refuse (the class filled
  -- with other places meanwhile, a rule the place no longer meets) is rolled back to here and owed
  -- back in this transaction (decision 0016), so the provider's notification is always answered.
  -- Lock waits and deadlocks are not refusals: the caller retries those.
  begin
    perform private.apply_paid_checkout(v_payment);
  exception
    when serialization_failure or deadlock_detected or lock_not_available then
      raise;
    when others then
      get stacked diagnostics v_refusal = pg_exception_hint;
      perform private.owe_payment_back(v_payment.id,
                                       case when v_refusal in ('capacity_below_bookings', 'class_full') then 'class_filled'
                                            else 'booking_refused' end,
                                       now());
  end;
  return ('applied', v_payment.id, 'paid')::public.checkout_result;
end;
$$;

revoke execute on function private.apply_checkout_result(text, text, text, numeric, text) from public;

grant execute on function private.apply_checkout_result(text, text, text, numeric, text) to service_role;

create or replace function private.bookings_require_documents()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if exists (select 1 from public.class_waitlist w where w.member_id = new.member_id and w.class_id = new.class_id)
     or (new.payment_status = 'completed' and new.dependant_id is null
         and exists (select 1 from public.payments p
                      where p.id::text = nullif(current_setting('studio.paid_checkout', true), '')
                        and p.member_id = new.member_id and p.class_id = new.class_id)) then
    return new;
  end if;
  if cardinality(private.missing_documents(new.member_id)) > 0 then
    perform private.raise_documents_required(new.member_id);
  end if;
  return new;
end;
$$;

revoke execute on function private.bookings_require_documents() from public;
