-- The documents rule's two agreed exceptions are named by the exact case, in the transaction that
-- makes the insert (private.admit): the waitlist entry being promoted, or the payment being applied.
-- Before, being on a class's waitlist let a member book that class directly without their documents
-- (withdraw the PAR-Q while waiting, then book the place the promotion passed over).

create function private.admit(p_kind text, p_id uuid)
returns void
language sql volatile set search_path = ''
as $$ select set_config('studio.admitting', coalesce(p_kind || ':' || p_id::text, ''), true) $$;

revoke execute on function private.admit(text, uuid) from public;

create function private.admitted(p_kind text)
returns uuid
language sql stable set search_path = ''
as $$
  select case when split_part(current_setting('studio.admitting', true), ':', 1) = p_kind
              then nullif(split_part(current_setting('studio.admitting', true), ':', 2), '')::uuid end
$$;

revoke execute on function private.admitted(text) from public;

create or replace function private.bookings_require_documents()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.dependant_id is null
     and (exists (select 1 from public.class_waitlist w
                   where w.id = private.admitted('waitlist') and w.member_id = new.member_id and w.class_id = new.class_id)
          or (new.payment_status = 'completed'
              and exists (select 1 from public.payments p
                           where p.id = private.admitted('payment') and p.member_id = new.member_id and p.class_id = new.class_id))) then
    return new;
  end if;
  if cardinality(private.missing_documents(new.member_id)) > 0 then
    perform private.raise_documents_required(new.member_id);
  end if;
  return new;
end;
$$;

revoke execute on function private.bookings_require_documents() from public;

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
      perform private.admit('payment', p_payment.id);
      insert into public.bookings (member_id, class_id, type, payment_status)
      values (p_payment.member_id, v_class.id, 'payg', 'completed')
      returning id into v_booking_id;
      perform private.admit(null, null);
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
    continue when private.needs_payment(private.booking_type_for(v_member, null), v_class);

    -- NO KEY UPDATE: serialises with the member's own bookings (trial use) but not with rows
    -- that merely reference the member. With FOR UPDATE, two members each promoted into the
    -- other's cancelled class deadlocked on their own cancellation emails' foreign keys.
    select * into v_member from public.members where id = v_entry.member_id for no key update;
    v_type := private.booking_type_for(v_member, null);
    continue when private.needs_payment(v_type, v_class);

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
