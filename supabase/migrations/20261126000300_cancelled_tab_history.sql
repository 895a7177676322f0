-- The Cancelled tab keeps what was cancelled (issue 31): every confirmed booking cancelled before
-- its class (by the member, in time or late; by the studio, with its reason; by a plan that
-- ended) is recorded in booking_cancellations, which members read for their own.
-- Definitions are copied from supabase/schemas/03_bookings.sql and 10_notifications.sql.

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

create policy "Members read their own cancellations; admins read all"
  on public.booking_cancellations for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create trigger bookings_remember_cancellation
  before delete on public.bookings
  for each row execute function private.bookings_remember_cancellation();

create or replace function private.classes_tell_members_removed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
begin
  if old.start_time <= now() then
    return old;
  end if;
  for v_booking in
    select b.* from public.bookings b
     where b.class_id = old.id and b.payment_status = 'completed'
     order by b.booked_at
  loop
    perform private.enqueue_class_email('booking_cancelled', v_booking.member_id, old.id, v_booking.id,
                                        p_reason => private.class_removal_why());
    perform private.remember_cancellation(v_booking, old, 'studio', private.class_removal_why());
  end loop;
  return old;
end;
$$;

revoke execute on function private.classes_tell_members_removed() from public;

-- Only an admin's class write is told "The class must start in the future"; anyone else gets the
-- row policy's refusal, as before (the trigger runs before the policy's check).
create or replace function private.classes_keep_spots()
returns trigger
language plpgsql set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    new.current_bookings := 0;
  end if;
  -- Only an admin's write gets this far (the row policies refuse anyone else, after this trigger).
  if current_user = 'authenticated' and new.start_time <= now()
     and (tg_op = 'INSERT' or new.start_time is distinct from old.start_time) and (select private.is_admin()) then
    raise exception 'The class must start in the future' using errcode = '22023', hint = 'class_in_past';
  end if;
  if new.capacity < new.current_bookings then
    raise exception '% booked on this class, so the capacity cannot be less than %',
      case new.current_bookings when 1 then '1 member is' else new.current_bookings || ' members are' end,
      new.current_bookings
      using errcode = '23514', hint = 'capacity_below_bookings';
  end if;
  new.spots_left := new.capacity - new.current_bookings;
  return new;
end;
$$;

revoke execute on function private.classes_keep_spots() from public;
