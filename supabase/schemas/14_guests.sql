-- Guest places (decision 0017): a member booked into a group class brings a named guest with one of their
-- guest passes (Platinum Premium grants 2 a period). The guest takes a place (capacity and the
-- waitlist count it), is emailed the class with a link to cancel, and is on the roster as "guest of
-- …". A guest comes at most guest_visits_per_year() times in any 12 months before they are asked
-- to join; being a guest never touches the guest's own free trial (a guest is not a member).
-- The guest goes with the host's booking. Cancelled in time (by the host, the guest or the studio)
-- the pass comes back; a late cancellation or a class that started keeps it used.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

create function private.guest_visits_per_year()
returns integer
language sql immutable set search_path = ''
as $$ select 3 $$;

revoke execute on function private.guest_visits_per_year() from public;

-- The mailbox a guest address reaches, by which a guest is one person: lower case and without a
-- sub-address (a '+' in the local part and what follows it), so gina+x@example.com is
-- gina@example.com's guest, counted against the same visits a year. Only compared: the address is
-- stored as typed (lower case), where the emails go. Granted to service_role too: it writes
-- guest_places directly (tests, fixes by hand), and the index below evaluates it on every insert.
create function private.guest_email_key(p_email text)
returns text
language sql immutable set search_path = ''
as $$ select regexp_replace(lower(btrim(p_email)), '^([^@+]+)\+[^@]*@', '\1@') $$;

revoke execute on function private.guest_email_key(text) from public;

grant execute on function private.guest_email_key(text) to service_role;

create table public.guest_places (
  id uuid primary key default gen_random_uuid(),
  class_id uuid not null references public.classes (id) on delete cascade,
  -- The host's own booking of the class: the guest comes with it and goes with it.
  host_booking_id uuid not null references public.bookings (id) on delete cascade,
  host_member_id uuid not null references public.members (id) on delete cascade,
  guest_name text not null check (char_length(btrim(guest_name)) between 1 and 100),
  -- Lower case (add_guest stores it so): one guest, one address, whatever case it was typed in.
  guest_email text not null
    check (guest_email = lower(guest_email) and char_length(guest_email) <= 254 and guest_email ~ '^[^@\s]+@[^@\s]+\.[^@\s]+$'),
  -- The guest pass it used.
  credit_id uuid unique references public.credits (id) on delete set null,
  -- The guest's own cancel link (the email's); whoever holds it may cancel this place only.
  cancel_token text not null unique default encode(extensions.gen_random_bytes(24), 'hex'),
  created_at timestamptz not null default now(),
  -- Paid for at the class's pay-as-you-go price instead of a pass (create_guest_payment_hold):
  -- pending while the host is on the hosted checkout, holding the place until hold_expires_at
  -- (release_expired_holds lets it lapse), completed when the provider's PAID is applied.
  payment_status text not null default 'completed' check (payment_status in ('pending', 'completed')),
  hold_expires_at timestamptz,
  payment_id uuid unique references public.payments (id) on delete set null,
  -- At the door, as a booking's (mark_attendance through private.mark_place; mark_no_shows).
  attendance public.attendance_status,
  attendance_marked_at timestamptz,
  constraint guest_places_once_per_class unique (class_id, guest_email),
  constraint guest_places_pending_is_held check (payment_status = 'completed' or (hold_expires_at is not null and credit_id is null))
);

comment on table public.guest_places is
  'Guests members bring to group classes with a guest pass (add_guest); each takes a place in the class.';

create index guest_places_host_booking_id_idx on public.guest_places (host_booking_id);

create index guest_places_host_member_id_idx on public.guest_places (host_member_id);

-- A class's guests (the rosters, the reports).
create index guest_places_class_id_idx on public.guest_places (class_id);

-- The bookings list's order (admin_bookings, 24_places.sql): guests' places merge with bookings'.
create index guest_places_created_at_idx on public.guest_places (created_at);

-- Places nobody has marked yet (upcoming, or past and waiting for mark_no_shows, 19_reports.sql).
create index guest_places_unmarked_idx on public.guest_places (class_id) where attendance is null and payment_status = 'completed';

create index guest_places_guest_email_idx on public.guest_places (guest_email);

-- A guest's visits a year, whatever sub-address each host typed (lock_class_for_guest).
create index guest_places_guest_email_key_idx on public.guest_places (private.guest_email_key(guest_email));

alter table public.guest_places enable row level security;

revoke all on public.guest_places from public, anon, authenticated;

grant select (id, class_id, host_booking_id, host_member_id, guest_name, guest_email, credit_id, created_at,
              payment_status, hold_expires_at, payment_id, attendance, attendance_marked_at)
  on public.guest_places to authenticated;

create index guest_places_pending_idx on public.guest_places (hold_expires_at) where payment_status = 'pending';

grant all on public.guest_places to service_role;

-- A guest's place counts as a booked spot (the class's capacity check refuses one too many), and a
-- freed one promotes the waitlist, as a booking's does.
create function private.guest_places_count_spots()
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

create function private.guest_places_tally()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    update private.class_tallies set guests = guests + 1 where class_id = new.class_id;
  else
    update private.class_tallies set guests = guests - 1 where class_id = old.class_id;
  end if;
  return null;
end;
$$;

revoke execute on function private.guest_places_tally() from public;

-- Emails about a guest place. To the guest (they are not a member: no preferences, no
-- unsubscribe; the host is named): the invitation links the cancel page and, when the studio has
-- a waiver the guest has not signed, the page to sign it (sign_guest_waiver, 17_consent.sql); and
-- the cancellation. To the host, host_guest_cancelled: their guest cancelled with their own link
-- (cancel_guest_place), which the host would otherwise not know; it says what the cancellation gave
-- back, as guest_places_on_delete decided it (call it after the delete).
create function private.enqueue_guest_email(p_kind text, p_place public.guest_places)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_host_member public.members;
  v_host text;
  v_when text;
  v_to text := p_place.guest_email;
  v_member_id uuid;
  v_subject text;
  v_body text;
  v_links jsonb := '[]'::jsonb;
  v_late text;
  v_paid numeric;
  v_refund numeric;
begin
  select * into v_class from public.classes where id = p_place.class_id;
  if not found then
    return null;
  end if;
  select * into v_host_member from public.members m where m.id = p_place.host_member_id;
  v_host := coalesce(nullif(btrim(v_host_member.name), ''), 'A member');
  v_when := private.london_time_text(v_class.start_time);
  case p_kind
    when 'guest_invited' then
      v_subject := 'You are booked on ' || v_class.name || ' as ' || v_host || '''s guest, ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        v_host || ' has booked you a place on ' || v_class.name || ' with ' || v_class.trainer || ' as their guest.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.class_where(v_class) || private.class_directions_line(v_class),
        'Please arrive 10 minutes early. Cannot come? Cancel with the link below so someone else can have the place.');
      v_links := jsonb_build_array(jsonb_build_object('label', 'Cancel my guest place',
                                                      'path', '/guest/cancel?token=' || p_place.cancel_token));
      -- The studio's waiver, when it has one (17_consent.sql): the guest signs it from this link
      -- before the class (the same token), unless they already signed this version as a guest.
      if not private.guest_waiver_signed(p_place.guest_email) then
        v_body := v_body || E'\n\n' || 'Before the class, please read and sign the studio''s waiver with the link below: '
          || 'you cannot take part until you have signed it.';
        v_links := jsonb_build_array(jsonb_build_object('label', 'Sign the waiver', 'path', '/guest/waiver?token=' || p_place.cancel_token))
          || v_links;
      end if;
    when 'guest_cancelled' then
      v_subject := 'Guest place cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        'Your guest place on ' || v_class.name || ' (' || v_when || ', London time) with ' || v_host || ' has been cancelled.');
    when 'host_guest_cancelled' then
      if v_host_member.id is null then
        return null;
      end if;
      v_to := v_host_member.email::text;
      v_member_id := v_host_member.id;
      v_late := 'They cancelled less than ' || private.interval_text(v_class.late_cancel_window) || ' before the start, so ';
      select p.amount into v_paid from public.payments p where p.id = p_place.payment_id;
      select sum(ro.amount) into v_refund from public.refunds_owed ro
       where ro.payment_id = p_place.payment_id and ro.refunded_at is null;
      v_subject := 'Your guest ' || btrim(p_place.guest_name) || ' cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || coalesce(nullif(btrim(v_host_member.name), ''), 'there') || ',',
        btrim(p_place.guest_name) || ' has cancelled their guest place on ' || v_class.name || ' with ' || v_class.trainer
          || ' with the link in their email. Your own booking is unchanged.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.class_where(v_class) || private.class_directions_line(v_class),
        case
          when p_place.credit_id is null then null
          when exists (select 1 from public.credits cr where cr.id = p_place.credit_id and cr.used_at is null)
            then 'Your guest pass is back: you can bring someone else.'
          else v_late || 'the guest pass stays used.'
        end,
        case
          when v_paid is null then null
          when v_refund > 0
            then 'The ' || private.gbp(v_refund) || ' you paid for their place will be refunded to your card; you will get a receipt when it is.'
          else v_late || 'the ' || private.gbp(v_paid) || ' you paid for their place is not refunded.'
        end);
      v_links := jsonb_build_array(jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings'));
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;
  return private.enqueue_email(p_kind, v_to, v_member_id, v_class.id, null, v_subject, v_body, v_links,
                               p_kind || ':' || p_place.id);
end;
$$;

revoke execute on function private.enqueue_guest_email(text, public.guest_places) from public;

-- A guest place goes (the host cancelled, the guest used their link, the studio removed the
-- class or the host's booking): the pass comes back unless it was late or the class has started,
-- a paid place is owed back on the same terms (always when the studio removed it), and a guest
-- whose class still runs is told. A pending place that lapses goes quietly.
create function private.guest_places_on_delete()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_in_time boolean;
  v_reason text := nullif(current_setting('app.booking_removal', true), '');
begin
  -- The host cancelling their own booking (cancel_booking, or their plan's bookings ending) is a
  -- member's cancellation, not the studio's: the guest's paid place is owed back only in time, as
  -- the booking's own payment is (bookings_record_refund_owed), and late it is kept.
  -- 'member_cancelled' is no reason refunds_owed takes.
  if v_reason = 'member_cancelled' then
    v_reason := null;
  end if;
  select * into v_class from public.classes where id = old.class_id;
  -- The same late rule as the host's own booking: never late when the studio moved the class after
  -- the guest was added (booking_late_cancel_from).
  v_in_time := not found or coalesce(now() < private.booking_late_cancel_from(v_class, old.created_at), true);
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

-- Adding a guest -----------------------------------------------------------------------------------
-- Every check but how the place is paid, for p_member_id adding a guest to their own confirmed
-- booking of a group class not yet started. Locks the class row, then the member row (the lock
-- order of every booking path: two guests for the last place book one), then the guest's mailbox
-- (two hosts bringing one guest count their visits one after the other). Refusals (hint):
-- not_your_booking, class_started, guest_not_for_class, invalid_guest, guest_is_you,
-- guest_already_booked, guest_visits_used, class_full. Returns the locked class.
create function private.lock_class_for_guest(p_member_id uuid, p_booking_id uuid, p_name text, p_email text)
returns public.classes
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_booking public.bookings;
  v_class public.classes;
  v_email text := nullif(lower(btrim(coalesce(p_email, ''))), '');
  v_name text := btrim(coalesce(p_name, ''));
  v_key text;
begin
  select c.* into v_class from public.classes c join public.bookings b on b.class_id = c.id
   where b.id = p_booking_id for update of c;
  select * into v_booking from public.bookings where id = p_booking_id;
  if v_booking.id is null or v_booking.member_id is distinct from p_member_id or v_booking.payment_status <> 'completed' then
    raise exception 'You can add a guest only to your own confirmed booking' using errcode = '42501', hint = 'not_your_booking';
  end if;
  -- A guest comes with the member's own place, never a child's (decision 0039).
  if v_booking.dependant_id is not null then
    raise exception 'A guest comes with your own booking, not a child''s' using errcode = 'P0001', hint = 'guest_not_for_child';
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
  -- One guest is one mailbox, whatever case or sub-address the host typed (guest_email_key).
  v_key := private.guest_email_key(v_email);
  -- The visits a year are the guest's, whoever brings them: two hosts adding the same guest to
  -- two classes hold different class and member locks, so each would count the guest's visits
  -- before the other's place exists and both would add one. Serialised on the guest's mailbox
  -- (gina+x@ and Gina@ take the same lock), taken after the class and member locks like every
  -- booking path's locks, and nothing that holds it waits for another class: it cannot deadlock with them.
  perform pg_advisory_xact_lock(hashtextextended('guest-email:' || v_key, 0));
  if v_key = private.guest_email_key(v_member.email::text) then
    raise exception 'Your guest needs their own email address, not yours' using errcode = '22023', hint = 'guest_is_you';
  end if;
  if exists (select 1 from public.guest_places g where g.class_id = v_class.id and private.guest_email_key(g.guest_email) = v_key) then
    raise exception '% is already a guest on this class', v_name using errcode = '23505', hint = 'guest_already_booked';
  end if;
  if (select count(*) from public.guest_places g join public.classes c on c.id = g.class_id
       where private.guest_email_key(g.guest_email) = v_key
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

-- A guest place as its host and the admins see it: every column they may read (the select grant on
-- guest_places) and never cancel_token, which is the guest's only credential. Whoever holds it
-- cancels the place and signs the waiver as the guest, so only the guest's inbox gets it (the
-- invitation's links); the member RPCs answer this instead of the table's row.
create type public.guest_place as (
  id uuid,
  class_id uuid,
  host_booking_id uuid,
  host_member_id uuid,
  guest_name text,
  guest_email text,
  credit_id uuid,
  created_at timestamptz,
  payment_status text,
  hold_expires_at timestamptz,
  payment_id uuid
);

comment on type public.guest_place is
  'A guest place without its cancel token (the guest''s own link): what add_guest and remove_guest answer the host.';

create function private.guest_place_for_host(p_place public.guest_places)
returns public.guest_place
language sql immutable set search_path = ''
as $$
  select (p_place.id, p_place.class_id, p_place.host_booking_id, p_place.host_member_id, p_place.guest_name,
          p_place.guest_email, p_place.credit_id, p_place.created_at, p_place.payment_status, p_place.hold_expires_at,
          p_place.payment_id)::public.guest_place
$$;

revoke execute on function private.guest_place_for_host(public.guest_places) from public;

-- With the caller's guest pass that expires first among those valid when the class starts, in one
-- transaction. Refusals: lock_class_for_guest's, and no_guest_pass.
create function private.add_guest(p_booking_id uuid, p_name text, p_email text)
returns public.guest_place
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
  return private.guest_place_for_host(v_place);
end;
$$;

revoke execute on function private.add_guest(uuid, text, text) from public;

grant execute on function private.add_guest(uuid, text, text) to authenticated;

-- Paying the class's pay-as-you-go price for the guest instead of a pass (the create-guest-checkout
-- function, as the service role, for the signed-in host): the guest's place is held as pending
-- while the host pays on the hosted checkout, with its pending payment, and lapses like any hold
-- (release_expired_holds). The payment points at the host's booking (the guest comes and goes
-- with it, so removing that booking or the class owes it back as for the booking's own payment)
-- and its class (the return page names it); once that booking is gone it points at no class, so
-- a PAID arriving then is owed back, never booked as the host (payments_guest_follow_booking).
-- One unpaid guest place per host: a new one releases the last. Refusals:
-- lock_class_for_guest's, and no_guest_price when the class has no pay-as-you-go price.
create function private.create_guest_payment_hold(
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

-- What a guest place's payment becomes (apply_checkout_result and abandon_payment set it, after
-- the provider said so): paid confirms the held place and emails the guest (once: only the
-- change to paid gets here, so a replayed notification confirms nothing twice); paid after the
-- place lapsed is owed back; failed or expired releases the place at once.
create function private.payments_settle_guest_place()
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

-- A guest place's payment whose host booking went (its foreign key cleared booking_id) no longer
-- names the class: apply_checkout_result would otherwise book the host into it with the guest's money.
create function private.payments_guest_follow_booking()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  new.class_id := null;
  return new;
end;
$$;

revoke execute on function private.payments_guest_follow_booking() from public;

-- How the caller can bring a guest to each of their confirmed upcoming group classes, for My
-- Bookings and the Add a guest form to say before they confirm: the guest pass it would use (the
-- one that expires first among those valid that day), the pay-as-you-go price to pay instead, and
-- whether the class has a place left for a guest at all. Bookings with neither a pass nor a price
-- are left out.
create type public.guest_option as (
  booking_id uuid,
  pass_expires_at timestamptz,
  price numeric,
  -- The class's room as every rule asks it (class_has_room, decision 0035): false, My Bookings says
  -- the class is full where Add a guest would be, instead of a form lock_class_for_guest would
  -- refuse (class_full) only once filled in. add_guest still decides.
  has_room boolean
);

create function private.my_guest_options()
returns setof public.guest_option
language sql stable security definer set search_path = ''
as $$
  select o.booking_id, o.pass_expires_at, o.price, o.has_room
    from (select b.id as booking_id,
                 (select min(cr.expires_at) from public.credits cr
                   where cr.member_id = b.member_id and cr.kind = 'guest_pass' and private.credit_usable(cr, c.start_time)) as pass_expires_at,
                 case when c.price_payg > 0 then c.price_payg end as price,
                 private.class_has_room(c) as has_room,
                 c.start_time
            from public.bookings b join public.classes c on c.id = b.class_id
           where b.member_id = private.current_member_id() and b.payment_status = 'completed'
             and c.type = 'Group' and c.start_time > now()) o
   where o.pass_expires_at is not null or o.price is not null
   order by o.start_time
$$;

revoke execute on function private.my_guest_options() from public;

grant execute on function private.my_guest_options() to authenticated;

-- The host (or an admin) removes a guest place.
create function private.remove_guest(p_guest_place_id uuid)
returns public.guest_place
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
  return private.guest_place_for_host(v_place);
end;
$$;

revoke execute on function private.remove_guest(uuid) from public;

grant execute on function private.remove_guest(uuid) to authenticated;

-- What the guest's cancel link shows and does: the place, by its token (anyone holding the link).
create type public.guest_place_view as (
  guest_name text,
  class_name text,
  start_time timestamptz,
  host_name text,
  cancelled boolean
);

create function private.guest_place_view(p_place public.guest_places, p_cancelled boolean)
returns public.guest_place_view
language sql stable security definer set search_path = ''
as $$
  select p_place.guest_name, c.name, c.start_time,
         coalesce((select nullif(btrim(m.name), '') from public.members m where m.id = p_place.host_member_id), 'A member'),
         p_cancelled
    from public.classes c where c.id = p_place.class_id
$$;

revoke execute on function private.guest_place_view(public.guest_places, boolean) from public;

-- The guest place whose link (its token) the guest opened. A token no place has (cancelled, the
-- link used already, or cut short by a mail app) is guest_not_found with SQLSTATE PT404, which
-- PostgREST answers 404: a refusal the page words. P0002, its code before, PostgREST answers 500,
-- so a reused link read as a server error.
create function private.guest_place_for_link(p_token text)
returns public.guest_places
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_place public.guest_places;
begin
  select * into v_place from public.guest_places where cancel_token = coalesce(p_token, '');
  if v_place.id is null then
    raise exception 'This guest place has already been cancelled, or the link is not complete'
      using errcode = 'PT404', hint = 'guest_not_found';
  end if;
  return v_place;
end;
$$;

revoke execute on function private.guest_place_for_link(text) from public;

-- What the cancel page shows before the guest confirms (a mail scanner opening the link cancels
-- nothing): their class, its time and the host. Refusals: guest_place_for_link's, class_started.
create function private.guest_place_by_token(p_token text)
returns public.guest_place_view
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_view public.guest_place_view := private.guest_place_view(private.guest_place_for_link(p_token), false);
begin
  if v_view.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  return v_view;
end;
$$;

revoke execute on function private.guest_place_by_token(text) from public;

grant execute on function private.guest_place_by_token(text) to anon, authenticated;

create function private.cancel_guest_place(p_token text)
returns public.guest_place_view
language plpgsql security definer set search_path = ''
as $$
declare
  v_place public.guest_places := private.guest_place_for_link(p_token);
  v_view public.guest_place_view;
begin
  perform 1 from public.classes where id = v_place.class_id for update;
  -- Again under the class's lock: the link pressed twice at once cancels once, and the second
  -- press is told the place is gone.
  v_place := private.guest_place_for_link(p_token);
  v_view := private.guest_place_view(v_place, true);
  if v_view.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  delete from public.guest_places where id = v_place.id;
  -- The host is told (the guest is, by the delete's trigger), after the delete decided what came back.
  perform private.enqueue_guest_email('host_guest_cancelled', v_place);
  return v_view;
end;
$$;

revoke execute on function private.cancel_guest_place(text) from public;

grant execute on function private.cancel_guest_place(text) to anon, authenticated;

-- API ---------------------------------------------------------------------------------------------
create function public.add_guest(p_booking_id uuid, p_name text, p_email text)
returns public.guest_place
language sql volatile security invoker set search_path = ''
as $$ select * from private.add_guest(p_booking_id, p_name, p_email) $$;

revoke execute on function public.add_guest(uuid, text, text) from public, anon;

grant execute on function public.add_guest(uuid, text, text) to authenticated;

create function public.create_guest_payment_hold(
  p_member_id uuid, p_booking_id uuid, p_name text, p_email text, p_hold_minutes integer
)
returns public.class_payment_hold
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_guest_payment_hold(p_member_id, p_booking_id, p_name, p_email, p_hold_minutes) $$;

revoke execute on function public.create_guest_payment_hold(uuid, uuid, text, text, integer) from public, anon, authenticated;

grant execute on function public.create_guest_payment_hold(uuid, uuid, text, text, integer) to service_role;

create function public.my_guest_options()
returns setof public.guest_option
language sql stable security invoker set search_path = ''
as $$ select * from private.my_guest_options() $$;

revoke execute on function public.my_guest_options() from public, anon;

grant execute on function public.my_guest_options() to authenticated;

create function public.remove_guest(p_guest_place_id uuid)
returns public.guest_place
language sql volatile security invoker set search_path = ''
as $$ select * from private.remove_guest(p_guest_place_id) $$;

revoke execute on function public.remove_guest(uuid) from public, anon;

grant execute on function public.remove_guest(uuid) to authenticated;

create function public.guest_place_by_token(p_token text)
returns public.guest_place_view
language sql stable security invoker set search_path = ''
as $$ select * from private.guest_place_by_token(p_token) $$;

revoke execute on function public.guest_place_by_token(text) from public;

grant execute on function public.guest_place_by_token(text) to anon, authenticated;

create function public.cancel_guest_place(p_token text)
returns public.guest_place_view
language sql volatile security invoker set search_path = ''
as $$ select * from private.cancel_guest_place(p_token) $$;

revoke execute on function public.cancel_guest_place(text) from public;

grant execute on function public.cancel_guest_place(text) to anon, authenticated;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own guests; admins read all"
  on public.guest_places for select to authenticated
  using (host_member_id = (select private.current_member_id()) or (select private.is_admin()));

create trigger guest_places_count_spots
  after insert or delete on public.guest_places
  for each row execute function private.guest_places_count_spots();

-- The class's guest count in its tally (decision 0029), after guest_places_count_spots locked the class row.
create trigger guest_places_tally
  after insert or delete on public.guest_places
  for each row execute function private.guest_places_tally();

create trigger guest_places_on_delete
  before delete on public.guest_places
  for each row execute function private.guest_places_on_delete();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger payments_settle_guest_place
  after update of status on public.payments
  for each row when (new.status is distinct from old.status and new.checkout_reference like 'guest-%')
  execute function private.payments_settle_guest_place();

create trigger payments_guest_follow_booking
  before update of booking_id on public.payments
  for each row when (new.booking_id is null and old.booking_id is not null and new.checkout_reference like 'guest-%')
  execute function private.payments_guest_follow_booking();
