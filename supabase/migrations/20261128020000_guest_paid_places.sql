-- Guests paid for at the class's pay-as-you-go price (issue 26): a guest place can be held as
-- pending while the host pays on the hosted checkout, lapses like any hold, is confirmed (once)
-- when the provider's PAID is applied, and is owed back when cancelled in time. add_guest's
-- checks move to lock_class_for_guest, shared by the pass and the payment.
alter table public.guest_places
  add column payment_status text not null default 'completed' check (payment_status in ('pending', 'completed')),
  add column hold_expires_at timestamptz,
  add column payment_id uuid unique references public.payments (id) on delete set null,
  add constraint guest_places_pending_is_held check (payment_status = 'completed' or (hold_expires_at is not null and credit_id is null));

grant select (payment_status, hold_expires_at, payment_id) on public.guest_places to authenticated;

create index guest_places_pending_idx on public.guest_places (hold_expires_at) where payment_status = 'pending';

create or replace function private.release_expired_holds()
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  delete from public.bookings where payment_status = 'pending' and hold_expires_at <= now();
  get diagnostics v_count = row_count;
  -- Guests' places held while their host pays for them (14_guests.sql) lapse the same way.
  delete from public.guest_places where payment_status = 'pending' and hold_expires_at <= now();
  return v_count;
end;
$$;

revoke execute on function private.release_expired_holds() from public;

grant execute on function private.release_expired_holds() to service_role;

create or replace function private.release_expired_holds_at(p_now timestamptz)
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

create or replace function private.guest_places_count_spots()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update public.classes set current_bookings = current_bookings + 1 where id = new.class_id;
  else
    update public.classes set current_bookings = current_bookings - 1 where id = old.class_id;
    perform private.promote_waitlist(old.class_id);
    -- A paid place that lapsed or went before it was paid: its checkout can no longer buy it
    -- (AFTER DELETE: the payment's own trigger then finds no place to release).
    update public.payments set status = 'expired' where id = old.payment_id and status = 'pending';
  end if;
  return null;
end;
$$;

revoke execute on function private.guest_places_count_spots() from public;

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
    on conflict (payment_id, reason) do nothing;
  end if;
  if v_class.id is not null and v_class.start_time > now() and old.payment_status = 'completed' then
    perform private.enqueue_guest_email('guest_cancelled', old);
  end if;
  return old;
end;
$$;

revoke execute on function private.guest_places_on_delete() from public;

create or replace function private.lock_class_for_guest(p_member_id uuid, p_booking_id uuid, p_name text, p_email text)
returns public.classes
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_booking public.bookings;
  v_class public.classes;
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_name text := btrim(coalesce(p_name, ''));
begin
  select c.* into v_class from public.classes c join public.bookings b on b.class_id = c.id
   where b.id = p_booking_id for update of c;
  select * into v_booking from public.bookings where id = p_booking_id;
  if v_booking.id is null or v_booking.member_id is distinct from p_member_id or v_booking.payment_status <> 'completed' then
    raise exception 'You can add a guest only to your own confirmed booking' using errcode = '42501', hint = 'not_your_booking';
  end if;
  select * into v_member from public.members where id = p_member_id for no key update;
  if v_class.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  if v_class.type <> 'Group' then
    raise exception 'Guests come to group classes only' using errcode = 'P0001', hint = 'guest_not_for_class';
  end if;
  if char_length(v_name) not between 1 and 100 then
    raise exception 'Enter your guest''s name (at most 100 characters)' using errcode = '22023', hint = 'invalid_guest';
  end if;
  if v_email is null or char_length(v_email) > 254 or v_email !~ '^[^@\s]+@[^@\s]+\.[^@\s]+$' then
    raise exception 'Enter your guest''s email address' using errcode = '22023', hint = 'invalid_guest';
  end if;
  if v_email = lower(v_member.email::text) then
    raise exception 'Your guest needs their own email address, not yours' using errcode = '22023', hint = 'guest_is_you';
  end if;
  if exists (select 1 from public.guest_places g where g.class_id = v_class.id and g.guest_email = v_email) then
    raise exception '% is already a guest on this class', v_name using errcode = '23505', hint = 'guest_already_booked';
  end if;
  if (select count(*) from public.guest_places g join public.classes c on c.id = g.class_id
       where g.guest_email = v_email
         and c.start_time > v_class.start_time - interval '1 year' and c.start_time < v_class.start_time + interval '1 year')
     >= private.guest_visits_per_year() then
    raise exception '% has been a guest % times this year: they are welcome to join the studio', v_name, private.guest_visits_per_year()
      using errcode = 'P0001', hint = 'guest_visits_used';
  end if;
  if v_class.spots_left <= 0 then
    raise exception 'This class is fully booked' using errcode = 'P0001', hint = 'class_full';
  end if;
  return v_class;
end;
$$;

revoke execute on function private.lock_class_for_guest(uuid, uuid, text, text) from public;

create or replace function private.add_guest(p_booking_id uuid, p_name text, p_email text)
returns public.guest_places
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_class public.classes := private.lock_class_for_guest(v_member.id, p_booking_id, p_name, p_email);
  v_pass uuid;
  v_place public.guest_places;
begin
  select cr.id into v_pass from public.credits cr
   where cr.member_id = v_member.id and cr.kind = 'guest_pass' and private.credit_usable(cr, v_class.start_time)
   order by cr.expires_at, cr.id
   limit 1
   for update;
  if v_pass is null then
    raise exception 'You have no guest pass valid on that day' using errcode = 'P0001', hint = 'no_guest_pass';
  end if;

  insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email, credit_id)
  values (v_class.id, p_booking_id, v_member.id, btrim(p_name), lower(btrim(p_email)), v_pass)
  returning * into v_place;
  update public.credits set used_at = now() where id = v_pass;
  perform private.enqueue_guest_email('guest_invited', v_place);
  return v_place;
end;
$$;

revoke execute on function private.add_guest(uuid, text, text) from public;

grant execute on function private.add_guest(uuid, text, text) to authenticated;

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

  insert into public.payments (member_id, kind, class_id, booking_id, amount, description, checkout_reference)
  values (p_member_id, 'class', v_class.id, p_booking_id, v_class.price_payg,
          v_class.name || ' - Guest place (' || btrim(p_name) || ')', 'guest-' || gen_random_uuid()::text)
  returning * into v_payment;
  insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email,
                                   payment_status, hold_expires_at, payment_id)
  values (v_class.id, p_booking_id, p_member_id, btrim(p_name), lower(btrim(p_email)),
          'pending', now() + make_interval(mins => p_hold_minutes), v_payment.id)
  returning * into v_place;

  return (v_payment.id, p_booking_id, v_payment.checkout_reference, v_payment.amount, v_payment.currency,
          v_payment.description, v_place.hold_expires_at)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_guest_payment_hold(uuid, uuid, text, text, integer) from public;

grant execute on function private.create_guest_payment_hold(uuid, uuid, text, text, integer) to service_role;

create or replace function private.payments_settle_guest_place()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_place public.guest_places;
begin
  if new.status = 'paid' and not new.needs_refund then
    update public.guest_places set payment_status = 'completed', hold_expires_at = null
     where payment_id = new.id and payment_status = 'pending'
    returning * into v_place;
    if v_place.id is not null then
      perform private.enqueue_guest_email('guest_invited', v_place);
    elsif not exists (select 1 from public.guest_places where payment_id = new.id) then
      perform private.owe_payment_back(new.id, 'class_filled', now());
    end if;
  elsif new.status in ('failed', 'expired') then
    delete from public.guest_places where payment_id = new.id and payment_status = 'pending';
  end if;
  return null;
end;
$$;

revoke execute on function private.payments_settle_guest_place() from public;

create or replace function private.payments_guest_follow_booking()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  new.class_id := null;
  return new;
end;
$$;

revoke execute on function private.payments_guest_follow_booking() from public;

-- What My Bookings and the Add a guest form say before the member confirms.
create type public.guest_option as (
  booking_id uuid,
  pass_expires_at timestamptz,
  price numeric
);

create or replace function private.my_guest_options()
returns setof public.guest_option
language sql stable security definer set search_path = ''
as $$
  select o.booking_id, o.pass_expires_at, o.price
    from (select b.id as booking_id,
                 (select min(cr.expires_at) from public.credits cr
                   where cr.member_id = b.member_id and cr.kind = 'guest_pass' and private.credit_usable(cr, c.start_time)) as pass_expires_at,
                 case when c.price_payg > 0 then c.price_payg end as price,
                 c.start_time
            from public.bookings b join public.classes c on c.id = b.class_id
           where b.member_id = private.current_member_id() and b.payment_status = 'completed'
             and c.type = 'Group' and c.start_time > now()) o
   where o.pass_expires_at is not null or o.price is not null
   order by o.start_time
$$;

revoke execute on function private.my_guest_options() from public;

grant execute on function private.my_guest_options() to authenticated;

create or replace function private.remove_guest(p_guest_place_id uuid)
returns public.guest_places
language plpgsql security definer set search_path = ''
as $$
declare
  v_place public.guest_places;
begin
  perform private.require_user_id();
  select * into v_place from public.guest_places where id = p_guest_place_id;
  if v_place.id is null or not (v_place.host_member_id = private.current_member_id() or private.is_admin()) then
    raise exception 'Guest place not found' using errcode = 'P0002', hint = 'guest_not_found';
  end if;
  perform 1 from public.classes where id = v_place.class_id for update;
  -- The studio removing someone else's guest: a paid place is owed back whenever it is.
  if v_place.host_member_id is distinct from private.current_member_id() then
    perform set_config('app.booking_removal', 'admin_cancelled', true);
  end if;
  delete from public.guest_places where id = v_place.id returning * into v_place;
  perform set_config('app.booking_removal', '', true);
  return v_place;
end;
$$;

revoke execute on function private.remove_guest(uuid) from public;

grant execute on function private.remove_guest(uuid) to authenticated;

create or replace function public.create_guest_payment_hold(
  p_member_id uuid, p_booking_id uuid, p_name text, p_email text, p_hold_minutes integer
)
returns public.class_payment_hold
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_guest_payment_hold(p_member_id, p_booking_id, p_name, p_email, p_hold_minutes) $$;

revoke execute on function public.create_guest_payment_hold(uuid, uuid, text, text, integer) from public, anon, authenticated;

grant execute on function public.create_guest_payment_hold(uuid, uuid, text, text, integer) to service_role;

create or replace function public.my_guest_options()
returns setof public.guest_option
language sql stable security invoker set search_path = ''
as $$ select * from private.my_guest_options() $$;

revoke execute on function public.my_guest_options() from public, anon;

grant execute on function public.my_guest_options() to authenticated;

create trigger payments_settle_guest_place
  after update of status on public.payments
  for each row when (new.status is distinct from old.status and new.checkout_reference like 'guest-%')
  execute function private.payments_settle_guest_place();

create trigger payments_guest_follow_booking
  before update of booking_id on public.payments
  for each row when (new.booking_id is null and old.booking_id is not null and new.checkout_reference like 'guest-%')
  execute function private.payments_guest_follow_booking();
