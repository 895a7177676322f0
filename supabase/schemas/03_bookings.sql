-- Bookings and the booking rules: who may book what and how (book_class), cancelling
-- (cancel_booking, late cancellations), pay-as-you-go holds, the monthly plan allowance
-- (my_plan_usage) and attendance (mark_attendance). Refusals raise with a stable `hint` the UI
-- branches on, a SQLSTATE and a message shown as is (docs/data-contract.md).
--
-- Lock order everywhere: the class row first, then member rows (FOR NO KEY UPDATE). The
-- waitlist promotion runs with the class row already locked (the spot trigger holds it), so the
-- same order in book_class is what keeps them from deadlocking (decision 0005).
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Tables -----------------------------------------------------------------------------------------
create table public.bookings (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  class_id uuid not null references public.classes (id) on delete cascade,
  type public.booking_type not null,
  payment_status public.payment_status not null default 'completed',
  booked_at timestamptz not null default now(),
  -- A pending pay-as-you-go booking holds its spot until then (see release_expired_holds).
  hold_expires_at timestamptz,
  -- Set by an admin through mark_attendance; null = not marked.
  attendance public.attendance_status,
  attendance_marked_at timestamptz,
  -- A child's place (family accounts): the member's child it is for; null = the member's own place.
  dependant_id uuid references public.dependants (id) on delete cascade,
  -- The family's payment this place was held for and paid by (create_family_payment_hold); null for
  -- any other place. Its key bookings_family_payment_id_fkey is added in 21_families.sql.
  family_payment_id uuid,
  constraint bookings_hold_only_when_pending check (hold_expires_at is null or payment_status = 'pending')
);

-- Triggers other domains add to public.bookings: bookings_promote_waitlist (04_waitlist.sql),
--  payments_end_pending_on_booking_delete (06_payments.sql), bookings_record_refund_owed
--  (08_refunds.sql), bookings_return_credit (09_credits.sql), bookings_confirm_on_payment
--  (10_notifications.sql), bookings_require_documents (17_consent.sql),
--  bookings_push_reminder_on_confirm (20_push.sql), bookings_push_reminder_on_insert (20_push.sql),
--  bookings_check_dependant (21_families.sql).

comment on column public.bookings.attendance is 'Set by an admin through mark_attendance; null = not marked.';

comment on column public.bookings.dependant_id is 'The member''s child this place is for (book_family); null = the member''s own place.';

comment on column public.bookings.family_payment_id is
  'The family''s payment this place was held for and paid by (create_family_payment_hold); null for any other place.';

-- One place per person per class: the member's own, and each of their children's.
create unique index bookings_member_id_class_id_key on public.bookings (member_id, class_id) where dependant_id is null;

create unique index bookings_dependant_id_class_id_key on public.bookings (dependant_id, class_id) where dependant_id is not null;

create index bookings_family_payment_id_idx on public.bookings (family_payment_id) where family_payment_id is not null;

create index bookings_class_id_idx on public.bookings (class_id);

-- Places nobody has marked yet (upcoming, or past and waiting for mark_no_shows, 19_reports.sql).
create index bookings_unmarked_idx on public.bookings (class_id) where attendance is null and payment_status = 'completed';

create index bookings_booked_at_idx on public.bookings (booked_at);

create index bookings_pending_hold_idx on public.bookings (hold_expires_at) where payment_status = 'pending';

-- A member's bookings, newest first, with what the bookings search and "my bookings" read from the
-- row: the search reaches a matching member's bookings without a visit to each heap row (decision 0029).
create index bookings_member_booked_at_idx on public.bookings (member_id, booked_at desc) include (id, class_id);

-- Row-level security -----------------------------------------------------------------------------
alter table public.bookings enable row level security;

-- Members create and cancel bookings only through book_class / cancel_booking.
revoke all on public.bookings from anon, authenticated;

grant select, delete on public.bookings to authenticated;

grant all on public.bookings to service_role;

create table public.late_cancellations (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  class_id uuid references public.classes (id) on delete set null,
  -- The cancelled booking's id and facts (its row is gone).
  booking_id uuid not null unique,
  booking_type public.booking_type not null,
  booked_at timestamptz not null,
  class_start_time timestamptz not null,
  cancelled_at timestamptz not null default now()
);

comment on table public.late_cancellations is
  'Bookings a member cancelled inside the late-cancel window: they still count against the plan.';

create index late_cancellations_member_id_booked_at_idx on public.late_cancellations (member_id, booked_at);

-- The no-show and late-cancel rates by class start (19_reports.sql).
create index late_cancellations_class_start_time_idx on public.late_cancellations (class_start_time);

create index late_cancellations_class_id_idx on public.late_cancellations (class_id);

alter table public.late_cancellations enable row level security;

revoke all on public.late_cancellations from anon, authenticated;

grant select on public.late_cancellations to authenticated;

grant all on public.late_cancellations to service_role;

-- Every confirmed booking that was cancelled before its class, whoever cancelled it, so the member's
-- Cancelled tab shows it on any visit (late_cancellations stays the plan's count).
create table public.booking_cancellations (
  id uuid primary key default gen_random_uuid(),
  -- The cancelled booking's id and facts (its row is gone; the class may be gone too).
  booking_id uuid not null unique,
  member_id uuid not null references public.members (id) on delete cascade,
  -- No foreign key: the class may be gone, and the key check's share lock on the class row, taken
  -- before the spot count updates it, deadlocks two cancellations of one class.
  class_id uuid,
  class_name text not null,
  trainer text not null,
  class_start_time timestamptz not null,
  duration integer not null,
  booking_type public.booking_type not null,
  booked_at timestamptz not null,
  cancelled_at timestamptz not null default now(),
  -- member: the member cancelled; studio: an admin, a closure, a regeneration or a deleted class;
  -- plan_ended: the membership that booked it ended first.
  cancelled_by text not null check (cancelled_by in ('member', 'studio', 'plan_ended')),
  -- Inside the late-cancel window (it still counts against the plan).
  late boolean not null default false,
  -- Why the studio cancelled it, in the members' words (e.g. 'the studio is closed').
  reason text check (char_length(reason) <= 300)
);

comment on table public.booking_cancellations is
  'Confirmed bookings cancelled before their class, by whom and why: the member''s Cancelled tab.';

create index booking_cancellations_member_id_idx on public.booking_cancellations (member_id, cancelled_at desc);

alter table public.booking_cancellations enable row level security;

revoke all on public.booking_cancellations from anon, authenticated;

grant select on public.booking_cancellations to authenticated;

grant all on public.booking_cancellations to service_role;

-- Records one cancelled booking (idempotent per booking).
create function private.remember_cancellation(p_booking public.bookings, p_class public.classes, p_by text, p_reason text)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.booking_cancellations (booking_id, member_id, class_id, class_name, trainer, class_start_time,
                                            duration, booking_type, booked_at, cancelled_by, late, reason)
  values (p_booking.id, p_booking.member_id, p_class.id, p_class.name, p_class.trainer, p_class.start_time,
          p_class.duration, p_booking.type, p_booking.booked_at, p_by,
          exists (select 1 from public.late_cancellations l where l.booking_id = p_booking.id), p_reason)
  on conflict (booking_id) do nothing
$$;

revoke execute on function private.remember_cancellation(public.bookings, public.classes, text, text) from public;

-- A confirmed booking deleted before its class starts is remembered (BEFORE DELETE, while its class
-- is readable). Not here: unpaid holds (never confirmed), bookings going with their member (the
-- member row is already gone) or with their class (classes_tell_members_removed records those,
-- with the reason, while the class is still there).
create function private.bookings_remember_cancellation()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
begin
  if old.payment_status <> 'completed' or not exists (select 1 from public.members m where m.id = old.member_id) then
    return old;
  end if;
  select * into v_class from public.classes where id = old.class_id;
  if not found or v_class.start_time <= now() then
    return old;
  end if;
  perform private.remember_cancellation(old, v_class,
    case
      when current_setting('app.booking_removal', true) <> 'member_cancelled' then 'studio'
      when private.current_member_id() = old.member_id then 'member'
      else 'plan_ended'
    end,
    null);
  return old;
end;
$$;

revoke execute on function private.bookings_remember_cancellation() from public;

-- Spot counting --------------------------------------------------------------------------------
-- Every booking row takes a spot. The class's check constraint refuses a count above capacity,
-- whichever path inserted the row. The class row update also serialises concurrent inserts.
-- SECURITY DEFINER: whoever deletes a booking (an admin, a cascade) cannot write these columns.
create function private.bookings_count_spots()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op in ('INSERT', 'UPDATE') then
    update public.classes set current_bookings = current_bookings + 1 where id = new.class_id;
  end if;
  if tg_op in ('DELETE', 'UPDATE') then
    update public.classes set current_bookings = current_bookings - 1 where id = old.class_id;
  end if;
  return null;
end;
$$;

revoke execute on function private.bookings_count_spots() from public;

-- Class tallies (decision 0029) -------------------------------------------------------------------
-- Per class, the counts Analytics and the reports need, kept in the same transaction as the rows
-- they count, so a figure over ten years of bookings reads one narrow row per class instead of
-- every booking. Every class has its row (classes_tally makes it); the bookings and guest places
-- triggers move the counts. attended / no_shows count marks on any booking, confirmed_attended /
-- confirmed_no_shows those on confirmed (completed) ones. supabase/tests/class-tallies.test.ts
-- compares them with a direct count after every kind of change.
create table private.class_tallies (
  class_id uuid primary key references public.classes (id) on delete cascade,
  -- The class's start_time and capacity, followed by classes_tally, and what the reports group
  -- by, worked out once from the start in London time: its month and ISO week (first days), ISO
  -- weekday (1 = Monday) and start 'HH:MI'.
  start_time timestamptz not null,
  london_month date not null,
  london_week date not null,
  weekday smallint not null,
  slot text not null,
  capacity integer not null,
  -- Every booking row (pending holds included), and the confirmed ones.
  bookings integer not null default 0,
  confirmed integer not null default 0,
  attended integer not null default 0,
  no_shows integer not null default 0,
  confirmed_attended integer not null default 0,
  confirmed_no_shows integer not null default 0,
  -- Guest places (public.guest_places, 14_guests.sql).
  guests integer not null default 0
);

comment on table private.class_tallies is
  'Per class: bookings, confirmed, attendance marks and guest places, kept by triggers (decision 0029).';

create index class_tallies_start_time_idx on private.class_tallies (start_time);

alter table private.class_tallies enable row level security;

revoke all on private.class_tallies from public, anon, authenticated;

-- A class's tally row follows its start and capacity. SECURITY DEFINER: an admin writes classes,
-- never tallies.
create function private.classes_tally()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into private.class_tallies (class_id, start_time, london_month, london_week, weekday, slot, capacity)
    select new.id, new.start_time, date_trunc('month', l.t)::date, date_trunc('week', l.t)::date,
           extract(isodow from l.t)::smallint, to_char(l.t, 'HH24:MI'), new.capacity
      from (select new.start_time at time zone 'Europe/London' as t) l;
  else
    update private.class_tallies
       set start_time = new.start_time, london_month = date_trunc('month', l.t)::date, london_week = date_trunc('week', l.t)::date,
           weekday = extract(isodow from l.t)::smallint, slot = to_char(l.t, 'HH24:MI'), capacity = new.capacity
      from (select new.start_time at time zone 'Europe/London' as t) l
     where class_id = new.id;
  end if;
  return null;
end;
$$;

revoke execute on function private.classes_tally() from public;

-- A booking's row moves its class's counts: out of the old values, into the new. The class row is
-- already locked by then (bookings_count_spots runs first, triggers fire in name order), so this
-- adds no lock a booking did not already wait for. A class being deleted has lost its tally: the
-- update then touches nothing.
create function private.bookings_tally()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if tg_op in ('DELETE', 'UPDATE') then
    update private.class_tallies t
       set bookings = t.bookings - 1,
           confirmed = t.confirmed - (old.payment_status = 'completed')::int,
           attended = t.attended - (old.attendance is not distinct from 'attended')::int,
           no_shows = t.no_shows - (old.attendance is not distinct from 'no_show')::int,
           confirmed_attended = t.confirmed_attended - (old.payment_status = 'completed' and old.attendance is not distinct from 'attended')::int,
           confirmed_no_shows = t.confirmed_no_shows - (old.payment_status = 'completed' and old.attendance is not distinct from 'no_show')::int
     where t.class_id = old.class_id;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    update private.class_tallies t
       set bookings = t.bookings + 1,
           confirmed = t.confirmed + (new.payment_status = 'completed')::int,
           attended = t.attended + (new.attendance is not distinct from 'attended')::int,
           no_shows = t.no_shows + (new.attendance is not distinct from 'no_show')::int,
           confirmed_attended = t.confirmed_attended + (new.payment_status = 'completed' and new.attendance is not distinct from 'attended')::int,
           confirmed_no_shows = t.confirmed_no_shows + (new.payment_status = 'completed' and new.attendance is not distinct from 'no_show')::int
     where t.class_id = new.class_id;
  end if;
  return null;
end;
$$;

revoke execute on function private.bookings_tally() from public;

-- Premium lock ---------------------------------------------------------------------------------
-- When a premium class opens to members whose tier is locked out of it.
create function private.premium_unlocks_at(p_start_time timestamptz, p_unlock_window text)
returns timestamptz
language plpgsql immutable set search_path = ''
as $$
begin
  return p_start_time - p_unlock_window::interval;
end;
$$;

revoke execute on function private.premium_unlocks_at(timestamptz, text) from public;

-- Spec section 4/6: premium members book premium classes at any time; standard and
-- pay-as-you-go members only from start_time - unlock window; trial members are not locked.
create function private.is_class_locked(
  p_tier public.membership_tier, p_is_premium boolean, p_start_time timestamptz, p_unlock_window text, p_at timestamptz
)
returns boolean
language plpgsql immutable set search_path = ''
as $$
begin
  return p_is_premium
     and p_tier in ('standard', 'payg')
     and p_at < private.premium_unlocks_at(p_start_time, p_unlock_window);
end;
$$;

revoke execute on function private.is_class_locked(public.membership_tier, boolean, timestamptz, text, timestamptz) from public;

-- Holds ----------------------------------------------------------------------------------------
-- Deletes pending pay-as-you-go bookings whose hold has lapsed, freeing their spots (and promoting
-- the waitlist). Every path that counts spots calls it first.
create function private.release_expired_holds()
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

-- Booking rules shared by book_class, the payment hold, the waitlist and the schedule ----------
-- True when the member still has the free trial (trial tier, or payg who never used it). A plan
-- member never books a trial class, even past their allowance: the trial is for newcomers.
-- The trial is taken from the moment a place is held with it (a family's checkout holds the
-- parent's own place as a trial place until the payment confirms it, 21_families.sql): while that
-- place exists no other path may grant it, or paying the checkout would confirm a second trial
-- (decision 0021). Every path that grants the trial locks the member row before asking, as the
-- checkout does before it holds the place, so two of them at once cannot both find it free. The
-- bookings are read only for members the tier still allows the trial (newcomers: few bookings),
-- so the schedule does not pay for it on every class for everyone else.
create function private.trial_available(p_member public.members)
returns boolean
language plpgsql stable security definer set search_path = ''
as $$
begin
  return case
    when not (p_member.membership_tier = 'trial' or (p_member.membership_tier = 'payg' and not p_member.has_used_trial)) then false
    else not exists (select 1 from public.bookings b
                      where b.member_id = p_member.id and b.dependant_id is null and b.type = 'trial')
  end;
end;
$$;

revoke execute on function private.trial_available(public.members) from public;

-- Monthly class allowance of a tier (spec section 9), from the plan catalogue (07_memberships.sql:
-- the plans granting that tier); null: no allowance (pay per class). plpgsql: the catalogue is
-- created after this file.
create function private.plan_allowance(p_tier public.membership_tier)
returns integer
language plpgsql stable set search_path = ''
as $$
begin
  return (select max(p.classes_per_month) from public.plans p where p.category = 'membership' and p.grants_tier = p_tier);
end;
$$;

revoke execute on function private.plan_allowance(public.membership_tier) from public;

-- The month the allowance counts, from day 1 00:00 London.
create function private.allowance_month_start(p_at timestamptz)
returns timestamptz
language plpgsql immutable set search_path = ''
as $$
begin
  return date_trunc('month', p_at at time zone 'Europe/London') at time zone 'Europe/London';
end;
$$;

revoke execute on function private.allowance_month_start(timestamptz) from public;

-- Classes this member's plan has paid for in the period that p_at falls in (one paid period
-- gives one allowance, whatever calendar months it spans). A member with a plan tier but no plan
-- membership (set by hand, as test fixtures do) counts bookings made this calendar month, as before.
create function private.allowance_used(p_member_id uuid, p_at timestamptz)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  -- One row: a member has one membership at most (memberships.member_id is unique).
  return (
    select case
      when ms.id is null then
        (select count(*)::int from public.bookings b
          where b.member_id = p_member_id and b.type = 'paid' and b.booked_at >= private.allowance_month_start(p_at))
        + (select count(*)::int from public.late_cancellations l
            where l.member_id = p_member_id and l.booking_type = 'paid' and l.booked_at >= private.allowance_month_start(p_at))
      else coalesce(private.plan_classes_in(p_member_id, private.plan_period_of(ms, p_at)), 0)
    end
    from (select 1) one
    left join public.memberships ms on ms.member_id = p_member_id and ms.tier <> 'trial');
end;
$$;

revoke execute on function private.allowance_used(uuid, timestamptz) from public;

-- Why this member may not book with this booking type, or null. 'paid' (the booking form's
-- "Member") needs a plan with classes left this month; 'trial' the free trial; 'payg' is open to
-- everyone (they pay the class price, the allowance is untouched).
create function private.booking_type_refusal(p_member public.members, p_booking_type public.booking_type)
returns text
language plpgsql stable set search_path = ''
as $$
begin
  return case p_booking_type
    when 'paid' then
      case
        when private.plan_allowance(p_member.membership_tier) is null then 'plan_required'
        when private.allowance_used(p_member.id, now()) >= private.plan_allowance(p_member.membership_tier) then 'allowance_used'
      end
    when 'trial' then case when not private.trial_available(p_member) then 'trial_unavailable' end
  end;
end;
$$;

revoke execute on function private.booking_type_refusal(public.members, public.booking_type) from public;

-- The first reason (a book_class hint) this member may not book this class now, or null. In the
-- contract's order: class_started, already_booked, booking_blocked (the attendance policy's
-- strikes, 28_attendance_policy.sql), class_locked, class_full, then the booking type's
-- (trial_unavailable, plan_required, allowance_used, outside_plan_period, plan_paused).
-- `p_class` must be the freshly locked row (its spots_left is read).
create function private.booking_refusal(
  p_member public.members, p_class public.classes, p_booking_type public.booking_type
)
returns text
language plpgsql stable security definer set search_path = ''
as $$
begin
  if p_class.start_time <= now() then
    return 'class_started';
  end if;
  -- The member's own place (a child's place is theirs: 21_families.sql).
  if exists (select 1 from public.bookings b where b.member_id = p_member.id and b.class_id = p_class.id and b.dependant_id is null) then
    return 'already_booked';
  end if;
  if private.booking_blocked_until(p_member.id, now()) is not null then
    return 'booking_blocked';
  end if;
  if private.is_class_locked(p_member.membership_tier, p_class.is_premium, p_class.start_time,
                             p_class.unlock_for_standard, now()) then
    return 'class_locked';
  end if;
  if p_class.spots_left <= 0 then
    return 'class_full';
  end if;
  -- A plan booking is checked against the period the class falls in (not only this one's usage).
  if coalesce(p_booking_type, private.booking_type_for(p_member, null)) = 'paid' then
    return private.plan_class_refusal(p_member, p_class.start_time);
  end if;
  return private.booking_type_refusal(p_member, p_booking_type);
end;
$$;

revoke execute on function private.booking_refusal(public.members, public.classes, public.booking_type) from public;

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
    when 'booking_blocked' then
      raise exception 'You cannot book classes until %: % late cancellations or no-shows within 30 days',
        private.london_time_text(private.booking_blocked_until(p_member.id, now())),
        (private.attendance_policy_at(now())).strike_limit
        using errcode = 'P0001', hint = p_hint;
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
    when 'plan_paused' then
      raise exception 'Your membership is paused then: book this one as pay-as-you-go'
        using errcode = 'P0001', hint = p_hint;
    when 'outside_plan_period' then
      raise exception 'Your plan covers classes until %: book this one as pay-as-you-go',
        coalesce(private.london_date_text(private.plan_covers_until(p_member.id)), 'its last day')
        using errcode = 'P0001', hint = p_hint;
    else
      raise exception 'Unknown booking refusal %', p_hint using errcode = 'XX000';
  end case;
end;
$$;

revoke execute on function private.raise_booking_refusal(text, public.classes, public.members) from public;

-- The booking type recorded: the booking form's choice when there is one (booking_refusal has
-- checked it is allowed), otherwise the member's best: the plan while it has classes left this
-- month, then the free trial, then pay-as-you-go (spec section 4; decision 0010).
create function private.booking_type_for(p_member public.members, p_booking_type public.booking_type)
returns public.booking_type
language plpgsql stable set search_path = ''
as $$
begin
  return case
    when p_booking_type is not null then p_booking_type
    when private.booking_type_refusal(p_member, 'paid') is null then 'paid'
    when private.trial_available(p_member) then 'trial'
    else 'payg'
  end;
end;
$$;

revoke execute on function private.booking_type_for(public.members, public.booking_type) from public;

-- A booking of this type needs a card payment: pay-as-you-go at a price, and any One-to-One
-- session not booked with a credit (a plan allowance or the free trial never pays for one).
create function private.needs_payment(p_type public.booking_type, p_class public.classes)
returns boolean
language plpgsql immutable set search_path = ''
as $$
begin
  return coalesce(p_class.price_payg, 0) > 0
     and (p_type = 'payg' or (p_class.type = 'One-to-One' and p_type::text <> 'credit'));
end;
$$;

revoke execute on function private.needs_payment(public.booking_type, public.classes) from public;

-- Inserts a confirmed booking and applies the trial transition. The caller has locked the class
-- and member rows and checked booking_refusal / needs_payment; a plan booking is checked against
-- the plan's paid period once more here, whatever path made it, unless the caller says it has
-- just done exactly that under the same locks (p_plan_checked: book_class, where the plan's usage
-- is the costliest read made while every other booking of the class waits). Returns the booking id.
create function private.create_booking(
  p_member_id uuid,
  p_class_id uuid,
  p_type public.booking_type,
  -- A place held while its family's payment is made (21_families.sql): pending until then.
  p_hold_until timestamptz default null,
  p_family_payment_id uuid default null,
  p_plan_checked boolean default false
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
  if p_type = 'paid' and not p_plan_checked then
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

revoke execute on function private.create_booking(uuid, uuid, public.booking_type, timestamptz, uuid, boolean) from public;

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

-- The booking form's choice as sent (text, so an unknown value gets the contract's refusal rather
-- than a cast error), checked and typed. 'credit' is booked through book_with_credit.
create function private.booking_type_choice(p_booking_type text)
returns public.booking_type
language plpgsql immutable set search_path = ''
as $$
begin
  if p_booking_type is not null and p_booking_type not in ('paid', 'trial', 'payg') then
    raise exception 'Unknown booking type' using errcode = '22023', hint = 'invalid_booking_type';
  end if;
  return p_booking_type::public.booking_type;
end;
$$;

revoke execute on function private.booking_type_choice(text) from public;

-- book_class -----------------------------------------------------------------------------------
-- What book_class did: booked, or payment_required (no booking: the payments function holds a
-- spot while the member pays by card).
create type public.booking_result as (
  status text,
  booking_id uuid,
  class_id uuid,
  booking_type public.booking_type,
  payment_status public.payment_status,
  needs_payment boolean,
  price_payg numeric,
  previous_tier public.membership_tier,
  tier public.membership_tier,
  trial_used boolean,
  spots_left integer
);

create function private.book_class(p_class_id uuid, p_booking_type text)
returns public.booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_choice public.booking_type;
  v_refusal text;
  r public.booking_result;
begin
  perform private.require_user_id();
  v_choice := private.booking_type_choice(p_booking_type);

  perform private.release_expired_holds();

  v_member := private.require_member();

  -- Lock the class row: concurrent bookings of the last spots queue here.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  -- Then the member row, re-read: two bookings at once must not both use the one free trial.
  -- NO KEY UPDATE, not UPDATE: it still queues other bookings of this member, but not the
  -- key-share locks that inserts referencing the member take (see promote_waitlist).
  select * into v_member from public.members where id = v_member.id for no key update;

  -- The type first, once: it reads the plan's usage, the costliest part of a booking, while every
  -- other booking of this class waits on its row. The refusals given the type are those given the
  -- choice it came from (booking_refusal works the type out the same way when it is not given).
  r.booking_type := private.booking_type_for(v_member, v_choice);
  v_refusal := private.booking_refusal(v_member, v_class, r.booking_type);
  if v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;

  r.class_id := v_class.id;
  r.price_payg := v_class.price_payg;
  r.previous_tier := v_member.membership_tier;

  if private.needs_payment(r.booking_type, v_class) then
    -- Pay-as-you-go with the trial used: no booking here; the payments function holds a spot.
    r.status := 'payment_required';
    r.payment_status := 'pending';
    r.needs_payment := true;
    r.tier := v_member.membership_tier;
    r.trial_used := v_member.has_used_trial;
    r.spots_left := v_class.spots_left;
    return r;
  end if;

  -- booking_refusal has just checked a plan booking against its period, under these locks.
  r.booking_id := private.create_booking(v_member.id, v_class.id, r.booking_type, p_plan_checked => true);
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_id);
  select * into v_member from public.members where id = v_member.id;

  r.status := 'booked';
  r.payment_status := 'completed';
  r.needs_payment := false;
  r.tier := v_member.membership_tier;
  r.trial_used := v_member.has_used_trial;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.book_class(uuid, text) from public;

grant execute on function private.book_class(uuid, text) to authenticated;

-- cancel_booking: promotion follows from the delete (waitlist trigger) ----------------------------
create type public.cancellation_result as (
  booking_id uuid,
  class_id uuid,
  spots_left integer,
  -- The member cancelled their own confirmed booking inside the late-cancel window.
  late boolean
);

-- Late cancellation ----------------------------------------------------------------------------
-- From this instant a member's own cancellation of a confirmed booking still counts against their
-- plan (decision 0005). The one place it is computed: cancel_booking's `late`, the schedule's and
-- My Bookings' `late_cancel_from` all ask this function.
create function private.late_cancel_from(p_class public.classes)
returns timestamptz
language sql immutable set search_path = ''
as $$ select p_class.start_time - p_class.late_cancel_window $$;

revoke execute on function private.late_cancel_from(public.classes) from public;

grant execute on function private.late_cancel_from(public.classes) to authenticated, service_role;

-- From when cancelling one booking is late: the class's window, or never when the studio moved the
-- class after the place was booked (the member never agreed to the new time: cancelling is free
-- until the start, money, credit and plan class back). cancel_booking decides with it; My Bookings
-- and the schedule show it, so the dialog says what will happen.
create function private.booking_late_cancel_from(p_class public.classes, p_booked_at timestamptz)
returns timestamptz
language sql immutable set search_path = ''
as $$
  select case when p_class.studio_changed_at > p_booked_at then null else private.late_cancel_from(p_class) end
$$;

revoke execute on function private.booking_late_cancel_from(public.classes, timestamptz) from public;

grant execute on function private.booking_late_cancel_from(public.classes, timestamptz) to authenticated, service_role;

create function private.cancel_booking(p_booking_id uuid)
returns public.cancellation_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_class public.classes;
  r public.cancellation_result;
begin
  perform private.require_user_id();
  -- The place's payment before the place, as applying a payment takes them (a place given from the
  -- waitlist charged while the member cancels it deadlocked otherwise: decision 0081).
  perform 1 from public.payments p where p.booking_id = p_booking_id for update;
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
        and coalesce(now() >= private.booking_late_cancel_from(v_class, v_booking.booked_at), false);
  if r.late then
    insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time)
    values (v_booking.member_id, v_booking.class_id, v_booking.id, v_booking.type, v_booking.booked_at, v_class.start_time);
    -- Under an attendance policy it is a strike, and its fee is charged (28_attendance_policy.sql).
    perform private.record_attendance_incident(v_booking.member_id, v_booking.id, 'late_cancel', v_class,
                                               v_booking.booked_at, now(), now());
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

-- Plan usage -----------------------------------------------------------------------------------
-- The caller's usage this month, the numbers book_class enforces: month_start, allowance (null
-- without a plan), used (classes the plan paid for, late cancellations included), remaining,
-- bookings (every booking made this month, for pay-as-you-go meters), late_cancellations.
create type public.plan_usage as (
  month_start timestamptz,
  allowance integer,
  used integer,
  remaining integer,
  bookings integer,
  late_cancellations integer
);

-- The caller's usage in the current allowance window (the plan's paid period, or the calendar
-- month without a plan), the numbers book_class enforces: month_start (the window's start),
-- allowance (null without a plan), used, remaining, bookings (every booking made since the window
-- started, for pay-as-you-go meters), late_cancellations.
create function private.my_plan_usage()
returns public.plan_usage
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_m public.memberships;
  r public.plan_usage;
begin
  select * into v_m from public.memberships where member_id = v_member.id and tier <> 'trial';
  r.month_start := coalesce(lower(private.plan_period_of(v_m, now())), private.allowance_month_start(now()));
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

revoke execute on function private.my_plan_usage() from public;

grant execute on function private.my_plan_usage() to authenticated;

-- Attendance -----------------------------------------------------------------------------------
-- How early before the start a roster may be marked (members check in at the door).
create function private.attendance_opens_before()
returns interval
language sql immutable set search_path = ''
as $$ select interval '1 hour' $$;

revoke execute on function private.attendance_opens_before() from public;

-- When a roster mark may be given (mark_attendance, and a coach's coach_mark_attendance in
-- 22_coaches.sql): 'attended', or clearing a mark, from attendance_opens_before() before the start,
-- as people arrive; 'no_show' only once the class has started, because until then the member may
-- still come (and mark_no_shows waits no_show_after() past the start for the same reason).
create function private.require_attendance_open(p_start_time timestamptz, p_status text)
returns void
language plpgsql stable set search_path = ''
as $$
begin
  if now() < p_start_time - private.attendance_opens_before() then
    raise exception 'Attendance can be marked from 1 hour before the class starts'
      using errcode = 'P0001', hint = 'attendance_too_early';
  end if;
  if p_status = 'no_show' and now() < p_start_time then
    raise exception 'A no-show can be marked once the class has started'
      using errcode = 'P0001', hint = 'no_show_too_early';
  end if;
end;
$$;

revoke execute on function private.require_attendance_open(timestamptz, text) from public;

create type public.attendance_mark as (
  booking_id uuid,
  class_id uuid,
  attendance public.attendance_status,
  attendance_marked_at timestamptz
);

-- Admin only: a mark on any place of a class (p_booking_id: a booking's id, or a guest place's;
-- the name is kept for the clients already calling it), written by private.mark_place
-- (24_places.sql) with its rules: 'attended' | 'no_show' or null to clear, when
-- require_attendance_open says.
create function private.mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.mark_place(p_booking_id, p_status);
end;
$$;

revoke execute on function private.mark_attendance(uuid, text) from public;

grant execute on function private.mark_attendance(uuid, text) to authenticated;

-- API ------------------------------------------------------------------------------------------
-- p_booking_type: the booking form's choice ('paid' = Member, 'trial' = Free Trial, 'payg'), or
-- null to let the server decide.
create function public.book_class(p_class_id uuid, p_booking_type text default null)
returns public.booking_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.book_class(p_class_id, p_booking_type) $$;

revoke execute on function public.book_class(uuid, text) from public, anon, authenticated;

grant execute on function public.book_class(uuid, text) to authenticated;

create function public.cancel_booking(p_booking_id uuid)
returns public.cancellation_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.cancel_booking(p_booking_id) $$;

revoke execute on function public.cancel_booking(uuid) from public, anon, authenticated;

grant execute on function public.cancel_booking(uuid) to authenticated;

create function public.my_plan_usage()
returns public.plan_usage
language sql stable security invoker set search_path = ''
as $$ select * from private.my_plan_usage() $$;

revoke execute on function public.my_plan_usage() from public, anon, authenticated;

grant execute on function public.my_plan_usage() to authenticated;

create function public.mark_attendance(p_booking_id uuid, p_status text)
returns public.attendance_mark
language sql volatile security invoker set search_path = ''
as $$ select * from private.mark_attendance(p_booking_id, p_status) $$;

revoke execute on function public.mark_attendance(uuid, text) from public, anon, authenticated;

grant execute on function public.mark_attendance(uuid, text) to authenticated;

-- Service role (the payments functions and jobs); members' calls release holds by themselves.
create function public.release_expired_holds()
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.release_expired_holds() $$;

revoke execute on function public.release_expired_holds() from public, anon, authenticated;

grant execute on function public.release_expired_holds() to service_role;

-- Booking facts for the member's own screens (decision 0005: "the server states the facts; the UI
-- shows them"). My Bookings and the dashboard read the member's bookings with what the rules say
-- about each (when a cancellation starts to count, the hold's expiry) from here; the schedule's
-- facts (class_schedule) now release lapsed holds first, as book_class does, so a class is "full"
-- on the screen exactly when book_class would say so; and its upcoming-classes filter is a range
-- on the start_time index. Nothing here copies a rule: it calls the private helpers book_class,
-- join_waitlist and cancel_booking use.

-- The member's bookings ----------------------------------------------------------------------------
create type public.my_booking as (
  id uuid,
  class_id uuid,
  -- paid | trial | payg, and completed | pending (a pay-as-you-go hold waiting for the card payment).
  type text,
  payment_status text,
  booked_at timestamptz,
  -- Until when a pending hold keeps the spot; it disappears from this list once lapsed.
  hold_expires_at timestamptz,
  class_name text,
  trainer text,
  start_time timestamptz,
  duration integer,
  description text,
  -- From then on cancelling still counts against the plan; null when it never does (a hold).
  late_cancel_from timestamptz,
  -- A child's place (book_family): the child's id and name; null for the member's own place.
  dependant_id uuid,
  dependant_name text,
  -- Where the class meets (decision 0055): the meeting point's name and map link (null in the hall),
  -- private.class_where (the hall's address when none), and the point's directions.
  meeting_point_name text,
  meeting_point_map_url text,
  location text,
  directions text
);

comment on type public.my_booking is 'One of the caller''s bookings with its class and what cancelling it means (my_bookings).';

-- public.my_bookings() is in 21_families.sql (it names each child's place).

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own bookings; admins read all"
  on public.bookings for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create policy "Admins cancel bookings"
  on public.bookings for delete to authenticated
  using ((select private.is_admin()));

-- Realtime: screens follow bookings as they change.
alter publication supabase_realtime add table public.bookings;

create policy "Members read their own late cancellations; admins read all"
  on public.late_cancellations for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create policy "Members read their own cancellations; admins read all"
  on public.booking_cancellations for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create trigger bookings_remember_cancellation
  before delete on public.bookings
  for each row execute function private.bookings_remember_cancellation();

create trigger bookings_count_spots
  after insert or delete or update of class_id on public.bookings
  for each row execute function private.bookings_count_spots();

-- After bookings_count_spots (name order): the class row is locked first.
create trigger bookings_tally
  after insert or delete or update of class_id, payment_status, attendance on public.bookings
  for each row execute function private.bookings_tally();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger classes_tally
  after insert or update of start_time, capacity on public.classes
  for each row execute function private.classes_tally();
