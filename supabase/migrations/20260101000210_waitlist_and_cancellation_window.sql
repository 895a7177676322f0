-- Waitlist and late-cancellation window.
--
-- * A member may join the waitlist of a full class; when a spot frees (a cancellation, a lapsed
--   payment hold, a member deleted, a larger capacity) the first eligible member in line is booked
--   in the same transaction, with book_class's own checks and tier transitions (shared helpers
--   below), and emailed. The waitlist closes `waitlist_closes_before` the start: nobody is
--   promoted too late to come.
-- * A member cancelling their own booking less than `late_cancel_window` before the start is told
--   (`late: true`); the spot is freed all the same, and the cancellation is recorded so it still
--   counts against the plan this month (my_plan_usage).
--
-- Lock order everywhere: the class row first, then member rows (FOR NO KEY UPDATE). book_class
-- used to lock the member first; the promotion runs with the class row already locked (the spot
-- trigger holds it), so the same order in both is what keeps them from deadlocking.

-- Studio defaults, in one place ----------------------------------------------------------------

create function private.default_waitlist_closes_before()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 hours' $$;

create function private.default_late_cancel_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '12 hours' $$;

revoke execute on function private.default_waitlist_closes_before(), private.default_late_cancel_window() from public;
-- Column defaults run as the inserting role (an admin creating a class).
grant execute on function private.default_waitlist_closes_before(), private.default_late_cancel_window()
  to authenticated, service_role;

alter table public.classes
  add column waitlist_closes_before interval not null default private.default_waitlist_closes_before()
    constraint classes_waitlist_closes_before_range
      check (waitlist_closes_before >= interval '0' and waitlist_closes_before <= interval '7 days'),
  add column late_cancel_window interval not null default private.default_late_cancel_window()
    constraint classes_late_cancel_window_range
      check (late_cancel_window >= interval '0' and late_cancel_window <= interval '7 days');

comment on column public.classes.waitlist_closes_before is
  'Nobody joins or is promoted from the waitlist later than start_time minus this.';
comment on column public.classes.late_cancel_window is
  'A member cancelling later than start_time minus this still has the class counted against their plan.';

grant insert (waitlist_closes_before, late_cancel_window), update (waitlist_closes_before, late_cancel_window)
  on public.classes to authenticated;

-- Waitlist table -----------------------------------------------------------------------------

create table public.class_waitlist (
  id uuid primary key default gen_random_uuid(),
  class_id uuid not null references public.classes (id) on delete cascade,
  member_id uuid not null references public.members (id) on delete cascade,
  -- Order in line: an identity, so two members joining in the same instant still have an order.
  seq bigint generated always as identity,
  joined_at timestamptz not null default now(),
  constraint class_waitlist_member_id_class_id_key unique (member_id, class_id)
);
comment on table public.class_waitlist is 'Members waiting for a spot in a full class, first in line = lowest seq.';

create index class_waitlist_class_id_seq_idx on public.class_waitlist (class_id, seq);

alter table public.class_waitlist enable row level security;

-- Members join and leave only through join_waitlist / leave_waitlist; admins may remove a row.
revoke all on public.class_waitlist from anon, authenticated;
grant select, delete on public.class_waitlist to authenticated;
grant all on public.class_waitlist to service_role;

create policy "Members read their own waitlist rows; admins read all"
  on public.class_waitlist for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create policy "Admins remove members from waitlists"
  on public.class_waitlist for delete to authenticated
  using ((select private.is_admin()));

-- Late cancellations ---------------------------------------------------------------------------

create table public.late_cancellations (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  class_id uuid references public.classes (id) on delete set null,
  -- The cancelled booking's id and facts (its row is gone).
  booking_id uuid not null unique,
  booking_type text not null check (booking_type in ('paid', 'trial', 'payg')),
  booked_at timestamptz not null,
  class_start_time timestamptz not null,
  cancelled_at timestamptz not null default now()
);
comment on table public.late_cancellations is
  'Bookings a member cancelled inside the late-cancel window: they still count against the plan.';

create index late_cancellations_member_id_booked_at_idx on public.late_cancellations (member_id, booked_at);
create index late_cancellations_class_id_idx on public.late_cancellations (class_id);

alter table public.late_cancellations enable row level security;
revoke all on public.late_cancellations from anon, authenticated;
grant select on public.late_cancellations to authenticated;
grant all on public.late_cancellations to service_role;

create policy "Members read their own late cancellations; admins read all"
  on public.late_cancellations for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Booking rules shared by book_class and the waitlist promotion -----------------------------------

-- True when the member still has the free trial (trial tier, or payg who never used it). A plan
-- member never books a trial class, even past their allowance: the trial is for newcomers.
create function private.trial_available(p_member public.members)
returns boolean
language sql immutable set search_path = ''
as $$ select p_member.membership_tier = 'trial' or (p_member.membership_tier = 'payg' and not p_member.has_used_trial) $$;

-- Monthly class allowance of a plan (spec section 9); null: no allowance (pay per class).
create function private.plan_allowance(p_tier text)
returns integer
language sql immutable set search_path = ''
as $$ select case p_tier when 'standard' then 12 when 'premium' then 20 end $$;

-- The month the allowance counts, from day 1 00:00 London.
create function private.allowance_month_start(p_at timestamptz)
returns timestamptz
language sql immutable set search_path = ''
as $$ select date_trunc('month', p_at at time zone 'Europe/London') at time zone 'Europe/London' $$;

-- Classes this member's plan has paid for this month: their 'paid' bookings made this month plus
-- the late cancellations of such bookings (decision 0005: a late cancellation still counts).
-- Pay-as-you-go and trial bookings never use the allowance.
create function private.allowance_used(p_member_id uuid, p_at timestamptz)
returns integer
language sql stable security definer set search_path = ''
as $$
  select (select count(*)::int from public.bookings b
           where b.member_id = p_member_id and b.type = 'paid'
             and b.booked_at >= private.allowance_month_start(p_at))
       + (select count(*)::int from public.late_cancellations l
           where l.member_id = p_member_id and l.booking_type = 'paid'
             and l.booked_at >= private.allowance_month_start(p_at))
$$;

-- Why this member may not book with this booking type, or null. 'paid' (the booking form's
-- "Member") needs a plan with classes left this month; 'trial' the free trial; 'payg' is open to
-- everyone (they pay the class price, the allowance is untouched).
create function private.booking_type_refusal(p_member public.members, p_booking_type text)
returns text
language sql stable set search_path = ''
as $$
  select case p_booking_type
    when 'paid' then
      case
        when private.plan_allowance(p_member.membership_tier) is null then 'plan_required'
        when private.allowance_used(p_member.id, now()) >= private.plan_allowance(p_member.membership_tier) then 'allowance_used'
      end
    when 'trial' then case when not private.trial_available(p_member) then 'trial_unavailable' end
  end
$$;

-- The first reason (a book_class hint) this member may not book this class now, or null. In the
-- contract's order: class_started, already_booked, class_locked, class_full, trial_unavailable.
-- `p_class` must be the freshly locked row (its spots_left is read).
create function private.booking_refusal(p_member public.members, p_class public.classes, p_booking_type text)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  if p_class.start_time <= now() then
    return 'class_started';
  end if;
  if exists (select 1 from public.bookings b where b.member_id = p_member.id and b.class_id = p_class.id) then
    return 'already_booked';
  end if;
  if private.is_class_locked(p_member.membership_tier, p_class.is_premium, p_class.start_time,
                             p_class.unlock_for_standard, now()) then
    return 'class_locked';
  end if;
  if p_class.spots_left <= 0 then
    return 'class_full';
  end if;
  return private.booking_type_refusal(p_member, p_booking_type);
end;
$$;

-- Raises the refusal `p_hint` with the contract's SQLSTATE and message.
create function private.raise_booking_refusal(p_hint text, p_class public.classes, p_member public.members)
returns void
language plpgsql volatile set search_path = ''
as $$
begin
  case p_hint
    when 'class_started' then
      raise exception 'This class has already started' using errcode = 'P0001', hint = p_hint;
    when 'already_booked' then
      raise exception 'You have already booked this class' using errcode = '23505', hint = p_hint;
    when 'class_locked' then
      raise exception 'This premium class opens for booking on %',
        to_char(private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard)
                  at time zone 'Europe/London', 'Mon FMDD, YYYY, FMHH12:MI AM')
        using errcode = 'P0001', hint = p_hint;
    when 'class_full' then
      raise exception 'This class is fully booked' using errcode = 'P0001', hint = p_hint;
    when 'trial_unavailable' then
      raise exception 'Your free trial has already been used' using errcode = 'P0001', hint = p_hint;
    when 'plan_required' then
      raise exception 'Member bookings are for Standard and Platinum Premium members' using errcode = 'P0001', hint = p_hint;
    when 'allowance_used' then
      raise exception 'You''ve used your % classes this month', private.plan_allowance(p_member.membership_tier)
        using errcode = 'P0001', hint = p_hint;
    else
      raise exception 'Unknown booking refusal %', p_hint using errcode = 'XX000';
  end case;
end;
$$;

-- The booking type recorded: the booking form's choice when there is one (booking_refusal has
-- checked it is allowed), otherwise the member's best: the plan while it has classes left this
-- month, then the free trial, then pay-as-you-go (spec section 4; issue 14).
create function private.booking_type_for(p_member public.members, p_booking_type text)
returns text
language sql stable set search_path = ''
as $$
  select case
    when p_booking_type is not null then p_booking_type
    when private.booking_type_refusal(p_member, 'paid') is null then 'paid'
    when private.trial_available(p_member) then 'trial'
    else 'payg'
  end
$$;

-- A pay-as-you-go booking of a priced class goes through the payments function, not here.
create function private.needs_payment(p_type text, p_class public.classes)
returns boolean
language sql immutable set search_path = ''
as $$ select p_type = 'payg' and coalesce(p_class.price_payg, 0) > 0 $$;

-- Inserts a confirmed booking and applies the trial transition. The caller has locked the class
-- and member rows and checked booking_refusal / needs_payment. Returns the booking id.
create function private.create_booking(p_member_id uuid, p_class_id uuid, p_type text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking_id uuid;
begin
  insert into public.bookings (member_id, class_id, type, payment_status)
  values (p_member_id, p_class_id, p_type, 'completed')
  returning id into v_booking_id;

  if p_type = 'trial' then
    update public.members
       set membership_tier = case when membership_tier = 'trial' then 'payg' else membership_tier end,
           has_used_trial = true,
           trial_expires_at = null
     where id = p_member_id;
  end if;
  return v_booking_id;
end;
$$;

revoke execute on function private.plan_allowance(text), private.allowance_month_start(timestamptz),
  private.allowance_used(uuid, timestamptz), private.booking_type_refusal(public.members, text) from public;
revoke execute on function private.trial_available(public.members),
  private.booking_refusal(public.members, public.classes, text),
  private.raise_booking_refusal(text, public.classes, public.members),
  private.booking_type_for(public.members, text),
  private.needs_payment(text, public.classes),
  private.create_booking(uuid, uuid, text) from public;

-- book_class: same contract, now on the shared helpers, class locked before member ----------------

create or replace function public.book_class(p_class_id uuid, p_booking_type text default null)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_member public.members;
  v_class public.classes;
  v_previous_tier text;
  v_refusal text;
  v_type text;
  v_booking_id uuid;
begin
  if v_uid is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  if p_booking_type is not null and p_booking_type not in ('paid', 'trial', 'payg') then
    raise exception 'Unknown booking type' using errcode = '22023', hint = 'invalid_booking_type';
  end if;

  perform public.release_expired_holds();

  select * into v_member from public.members where user_id = v_uid;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;

  -- Lock the class row: concurrent bookings of the last spots queue here.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  -- Then the member row, re-read: two bookings at once must not both use the one free trial.
  -- NO KEY UPDATE, not UPDATE: it still queues other bookings of this member, but not the
  -- key-share locks that inserts referencing the member take (see promote_waitlist).
  select * into v_member from public.members where id = v_member.id for no key update;

  v_refusal := private.booking_refusal(v_member, v_class, p_booking_type);
  if v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;

  v_previous_tier := v_member.membership_tier;
  v_type := private.booking_type_for(v_member, p_booking_type);

  if private.needs_payment(v_type, v_class) then
    -- Pay-as-you-go with the trial used: no booking here; the payments function holds a spot.
    return json_build_object(
      'status', 'payment_required', 'booking_id', null, 'class_id', v_class.id,
      'booking_type', 'payg', 'payment_status', 'pending', 'needs_payment', true,
      'price_payg', v_class.price_payg, 'previous_tier', v_previous_tier,
      'tier', v_member.membership_tier, 'trial_used', v_member.has_used_trial,
      'spots_left', v_class.spots_left);
  end if;

  v_booking_id := private.create_booking(v_member.id, v_class.id, v_type);
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, v_booking_id);
  select * into v_member from public.members where id = v_member.id;

  return json_build_object(
    'status', 'booked', 'booking_id', v_booking_id, 'class_id', v_class.id,
    'booking_type', v_type, 'payment_status', 'completed', 'needs_payment', false,
    'price_payg', v_class.price_payg, 'previous_tier', v_previous_tier,
    'tier', v_member.membership_tier, 'trial_used', v_member.has_used_trial,
    'spots_left', (select c.spots_left from public.classes c where c.id = v_class.id));
end;
$$;

-- Promotion ------------------------------------------------------------------------------------

-- When the waitlist of a class closes.
create function private.waitlist_closes_at(p_class public.classes)
returns timestamptz
language sql immutable set search_path = ''
as $$ select p_class.start_time - p_class.waitlist_closes_before $$;

-- Fills the class's free spots from its waitlist, first in line first, skipping members the
-- booking would be refused to (the premium lock: they keep their place) and members who would
-- have to pay per class (pay-as-you-go with the trial used: the spot cannot wait for a card
-- payment; they keep their place too). Does nothing once the waitlist has closed. Each promoted
-- member leaves the line, gets book_class's tier transition and an email. Returns how many.
create function private.promote_waitlist(p_class_id uuid)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_entry public.class_waitlist;
  v_member public.members;
  v_refusal text;
  v_type text;
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
    continue when private.needs_payment(private.booking_type_for(v_member, null), v_class);

    -- NO KEY UPDATE: serialises with the member's own bookings (trial use) but not with rows
    -- that merely reference the member. With FOR UPDATE, two members each promoted into the
    -- other's cancelled class deadlocked on their own cancellation emails' foreign keys.
    select * into v_member from public.members where id = v_entry.member_id for no key update;
    v_type := private.booking_type_for(v_member, null);
    continue when private.needs_payment(v_type, v_class);

    v_booking_id := private.create_booking(v_member.id, v_class.id, v_type);
    delete from public.class_waitlist where id = v_entry.id;
    perform private.enqueue_class_email('waitlist_promoted', v_member.id, v_class.id, v_booking_id);
    v_promoted := v_promoted + 1;
    select * into v_class from public.classes where id = p_class_id;
  end loop;
  return v_promoted;
end;
$$;

-- Any freed spot promotes: cancel_booking, an admin's delete, a lapsed or failed payment hold,
-- a deleted member. Runs after bookings_count_spots (triggers fire in name order), so spots_left
-- already counts the freed spot. A cascade from a deleted class finds no class and does nothing.
create function private.bookings_promote_waitlist()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.promote_waitlist(old.class_id);
  return null;
end;
$$;

create trigger bookings_promote_waitlist
  after delete on public.bookings
  for each row execute function private.bookings_promote_waitlist();

-- A larger capacity (or a later waitlist cut-off) may open spots to the line too.
create function private.classes_promote_waitlist()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.spots_left > 0 then
    perform private.promote_waitlist(new.id);
  end if;
  return null;
end;
$$;

create trigger classes_promote_waitlist
  after update of capacity, waitlist_closes_before on public.classes
  for each row execute function private.classes_promote_waitlist();

revoke execute on function private.waitlist_closes_at(public.classes), private.promote_waitlist(uuid),
  private.bookings_promote_waitlist(), private.classes_promote_waitlist() from public;

-- Waitlist RPCs --------------------------------------------------------------------------------

create function private.waitlist_position(p_class_id uuid, p_seq bigint)
returns integer
language sql stable security definer set search_path = ''
as $$ select count(*)::int from public.class_waitlist w where w.class_id = p_class_id and w.seq <= p_seq $$;

revoke execute on function private.waitlist_position(uuid, bigint) from public;

-- Joins a full class's waitlist. Returns { class_id, position, waitlist_size, closes_at }.
create function public.join_waitlist(p_class_id uuid)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_member public.members;
  v_class public.classes;
  v_refusal text;
  v_seq bigint;
begin
  if v_uid is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;

  -- A lapsed hold frees a spot (and promotes) before we decide the class is full.
  perform public.release_expired_holds();

  select * into v_member from public.members where user_id = v_uid;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  -- Same lock as promotions and bookings: the line cannot change under us.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;

  v_refusal := private.booking_refusal(v_member, v_class, null);
  if v_refusal in ('class_started', 'already_booked') then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;
  if exists (select 1 from public.class_waitlist w where w.member_id = v_member.id and w.class_id = v_class.id) then
    raise exception 'You are already on the waitlist for this class' using errcode = '23505', hint = 'already_waitlisted';
  end if;
  if now() >= private.waitlist_closes_at(v_class) then
    raise exception 'The waitlist for this class has closed' using errcode = 'P0001', hint = 'waitlist_closed';
  end if;
  if v_refusal = 'class_locked' then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;
  if v_refusal is null then
    raise exception 'This class still has spots. Book it instead.' using errcode = 'P0001', hint = 'class_not_full';
  end if;
  if private.needs_payment(private.booking_type_for(v_member, null), v_class) then
    raise exception 'Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.'
      using errcode = 'P0001', hint = 'waitlist_payment_required';
  end if;

  insert into public.class_waitlist (class_id, member_id) values (v_class.id, v_member.id)
  returning seq into v_seq;

  return json_build_object(
    'class_id', v_class.id,
    'position', private.waitlist_position(v_class.id, v_seq),
    'waitlist_size', (select count(*)::int from public.class_waitlist w where w.class_id = v_class.id),
    'closes_at', private.waitlist_closes_at(v_class));
end;
$$;

-- Leaves a waitlist. Returns { class_id, left: true }.
create function public.leave_waitlist(p_class_id uuid)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid;
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  v_member_id := private.current_member_id();
  if v_member_id is null then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  -- The class row first, as a promotion does, so leaving and being promoted cannot cross.
  perform 1 from public.classes where id = p_class_id for update;
  delete from public.class_waitlist where class_id = p_class_id and member_id = v_member_id;
  if not found then
    raise exception 'You are not on the waitlist for this class' using errcode = 'P0002', hint = 'not_on_waitlist';
  end if;
  return json_build_object('class_id', p_class_id, 'left', true);
end;
$$;

-- The caller's waitlist places for classes not yet started, soonest class first:
-- [{ class_id, position, waitlist_size, joined_at, closes_at, is_closed }].
create function public.my_waitlist()
returns json
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member_id uuid := private.current_member_id();
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  return coalesce((
    select json_agg(json_build_object(
             'class_id', c.id,
             'position', private.waitlist_position(c.id, w.seq),
             'waitlist_size', (select count(*)::int from public.class_waitlist x where x.class_id = c.id),
             'joined_at', w.joined_at,
             'closes_at', private.waitlist_closes_at(c),
             'is_closed', now() >= private.waitlist_closes_at(c))
           order by c.start_time, c.id)
      from public.class_waitlist w
      join public.classes c on c.id = w.class_id
     where w.member_id = v_member_id and c.start_time > now()), '[]'::json);
end;
$$;

-- cancel_booking: same contract plus `late`; promotion follows from the delete (trigger) --------

create or replace function public.cancel_booking(p_booking_id uuid)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_booking public.bookings;
  v_class public.classes;
  v_late boolean;
begin
  if v_uid is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  select b.* into v_booking from public.bookings b where b.id = p_booking_id for update;
  if not found
     or not (v_booking.member_id = private.current_member_id() or private.is_admin()) then
    -- Same answer for "not yours" and "not there": nothing to learn about others' bookings.
    raise exception 'Could not cancel this booking (permission).' using errcode = '42501', hint = 'not_permitted';
  end if;
  select * into v_class from public.classes where id = v_booking.class_id;

  -- Late only for the member's own confirmed booking: an admin cancelling (the studio's call) or
  -- a member dropping an unpaid hold does not use up the plan.
  v_late := v_booking.member_id = private.current_member_id()
        and v_booking.payment_status = 'completed'
        and now() >= v_class.start_time - v_class.late_cancel_window;
  if v_late then
    insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
    values (v_booking.member_id, v_booking.class_id, v_booking.id, v_booking.type, v_booking.booked_at, v_class.start_time);
  end if;

  -- A member's own cancellation owes no refund; an admin's does (bookings_record_refund_owed).
  if v_booking.member_id = private.current_member_id() then
    perform set_config('app.booking_removal', 'member_cancelled', true);
  end if;
  delete from public.bookings where id = v_booking.id;
  perform set_config('app.booking_removal', '', true);

  if v_booking.payment_status = 'completed' then
    perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, v_booking.class_id,
                                        v_booking.id, v_late);
  end if;

  return json_build_object(
    'booking_id', v_booking.id, 'class_id', v_booking.class_id,
    'spots_left', (select c.spots_left from public.classes c where c.id = v_booking.class_id),
    'late', v_late);
end;
$$;

-- Plan usage -----------------------------------------------------------------------------------

-- The caller's usage this month, the numbers book_class enforces: { month_start, allowance (null
-- without a plan), used (classes the plan paid for, late cancellations included), remaining,
-- bookings (every booking made this month, for pay-as-you-go meters), late_cancellations }.
create type public.plan_usage as (
  month_start timestamptz,
  allowance integer,
  used integer,
  remaining integer,
  bookings integer,
  late_cancellations integer
);

create function public.my_plan_usage()
returns public.plan_usage
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members;
  r public.plan_usage;
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  select * into v_member from public.members m where m.id = private.current_member_id();
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  r.month_start := private.allowance_month_start(now());
  r.allowance := private.plan_allowance(v_member.membership_tier);
  r.used := private.allowance_used(v_member.id, now());
  r.remaining := greatest(r.allowance - r.used, 0);
  select count(*)::int into r.bookings from public.bookings
   where member_id = v_member.id and booked_at >= r.month_start;
  select count(*)::int into r.late_cancellations from public.late_cancellations
   where member_id = v_member.id and booked_at >= r.month_start;
  return r;
end;
$$;

-- Confirmation email when a pay-as-you-go hold is paid (the payments RPC flips the status).
create function private.bookings_confirm_on_payment()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if old.payment_status = 'pending' and new.payment_status = 'completed' then
    perform private.enqueue_class_email('booking_confirmed', new.member_id, new.class_id, new.id);
  end if;
  return null;
end;
$$;

create trigger bookings_confirm_on_payment
  after update of payment_status on public.bookings
  for each row execute function private.bookings_confirm_on_payment();

revoke execute on function private.bookings_confirm_on_payment() from public;

revoke execute on function public.join_waitlist(uuid), public.leave_waitlist(uuid), public.my_waitlist(),
  public.my_plan_usage() from public, anon, authenticated;
grant execute on function public.join_waitlist(uuid), public.leave_waitlist(uuid), public.my_waitlist(),
  public.my_plan_usage() to authenticated;
