-- Member creation, booking, cancelling, analytics and timetable RPCs.
-- Each refusal raises with a stable `hint` (the UI branches on it), a SQLSTATE, and a message the
-- UI shows as is (docs/data-contract.md lists them). All SECURITY DEFINER with an empty
-- search_path, executable only by the roles that need them.

-- Member rows -------------------------------------------------------------------------------

-- Length of the free trial a free-trial sign-up gets (spec section 9: 7 days).
create function private.trial_length()
returns interval
language sql immutable set search_path = ''
as $$ select interval '7 days' $$;

-- Creates (or links, when an unlinked row with the same email exists) the member row of an auth
-- user: 'trial' for sign-ups from the free-trial page, else 'payg'. Returns the row, or null when
-- the user has no email.
-- Emails whose free trial is spent, remembered after the member is deleted so a new account with
-- the same email gets no second trial. A one-way hash: the address itself is not kept.
create function private.email_hash(p_email text)
returns text
language sql immutable set search_path = ''
as $$ select encode(extensions.digest(lower(btrim(p_email)), 'sha256'), 'hex') $$;

create table private.trial_emails (
  email_hash text primary key,
  recorded_at timestamptz not null default now()
);

revoke all on private.trial_emails from public, anon, authenticated;
revoke execute on function private.email_hash(text) from public;

create function private.create_member_for_user(p_user_id uuid)
returns public.members
language plpgsql security definer set search_path = ''
as $$
declare
  v_user auth.users;
  v_member public.members;
  v_is_trial boolean;
  v_trial_used boolean;
begin
  select * into v_user from auth.users where id = p_user_id;
  if not found or v_user.email is null then
    return null;
  end if;
  -- The free trial is once per email: a member deleted and signing up again gets none (issue 14).
  v_trial_used := exists (select 1 from private.trial_emails t where t.email_hash = private.email_hash(v_user.email));
  v_is_trial := coalesce(v_user.raw_user_meta_data ->> 'signup_source', '') = 'free-trial' and not v_trial_used;

  insert into public.members as m (user_id, email, name, membership_tier, has_used_trial, trial_expires_at)
  values (
    v_user.id,
    v_user.email,
    nullif(btrim(v_user.raw_user_meta_data ->> 'full_name'), ''),
    case when v_is_trial then 'trial' else 'payg' end,
    v_trial_used,
    case when v_is_trial then now() + private.trial_length() end
  )
  on conflict (email) do update set user_id = excluded.user_id
    where m.user_id is null
  returning * into v_member;

  if v_member.id is null then
    -- The email's row belongs to another user id (should not happen: auth emails are unique).
    select * into v_member from public.members where user_id = p_user_id;
  end if;
  return v_member;
end;
$$;

create function private.members_on_auth_user_created()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.create_member_for_user(new.id);
  return new;
end;
$$;

revoke execute on function private.create_member_for_user(uuid), private.members_on_auth_user_created(),
  private.trial_length() from public;

-- No path leaves a user without a member row: every new auth user gets one.
create trigger members_on_auth_user_created
  after insert on auth.users
  for each row execute function private.members_on_auth_user_created();

-- Returns the caller's member row, creating it when missing. Idempotent.
create function public.ensure_member()
returns public.members
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_member public.members;
begin
  if v_uid is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  select * into v_member from public.members where user_id = v_uid;
  if found then
    return v_member;
  end if;
  v_member := private.create_member_for_user(v_uid);
  if v_member.id is null then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return v_member;
end;
$$;

-- Premium lock ------------------------------------------------------------------------------

-- When a premium class opens to members whose tier is locked out of it.
create function private.premium_unlocks_at(p_start_time timestamptz, p_unlock_window text)
returns timestamptz
language sql immutable set search_path = ''
as $$ select p_start_time - p_unlock_window::interval $$;

-- Spec section 4/6: premium members book premium classes at any time; standard and
-- pay-as-you-go members only from start_time - unlock window; trial members are not locked.
create function private.is_class_locked(
  p_tier text, p_is_premium boolean, p_start_time timestamptz, p_unlock_window text, p_at timestamptz
)
returns boolean
language sql immutable set search_path = ''
as $$
  select p_is_premium
     and p_tier in ('standard', 'payg')
     and p_at < private.premium_unlocks_at(p_start_time, p_unlock_window)
$$;

revoke execute on function private.premium_unlocks_at(timestamptz, text),
  private.is_class_locked(text, boolean, timestamptz, text, timestamptz) from public;

-- Holds -------------------------------------------------------------------------------------

-- Deletes pending pay-as-you-go bookings whose hold has lapsed, freeing their spots.
create function public.release_expired_holds()
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  delete from public.bookings where payment_status = 'pending' and hold_expires_at <= now();
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

-- Booking -----------------------------------------------------------------------------------

create function public.book_class(p_class_id uuid, p_booking_type text default null)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_member public.members;
  v_class public.classes;
  v_previous_tier text;
  v_trial_available boolean;
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

  -- Lock the member row: two bookings at once must not both use the one free trial.
  select * into v_member from public.members where user_id = v_uid for update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;

  -- Lock the class row: concurrent bookings of the last spots queue here.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  if v_class.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  if exists (select 1 from public.bookings b where b.member_id = v_member.id and b.class_id = v_class.id) then
    raise exception 'You have already booked this class' using errcode = '23505', hint = 'already_booked';
  end if;
  if private.is_class_locked(v_member.membership_tier, v_class.is_premium, v_class.start_time,
                             v_class.unlock_for_standard, now()) then
    raise exception 'This premium class opens for booking on %',
      to_char(private.premium_unlocks_at(v_class.start_time, v_class.unlock_for_standard)
                at time zone 'Europe/London', 'Mon FMDD, YYYY, FMHH12:MI AM')
      using errcode = 'P0001', hint = 'class_locked';
  end if;
  if v_class.spots_left <= 0 then
    raise exception 'This class is fully booked' using errcode = 'P0001', hint = 'class_full';
  end if;

  v_previous_tier := v_member.membership_tier;
  v_trial_available := v_member.membership_tier = 'trial' or not v_member.has_used_trial;
  if p_booking_type = 'trial' and not v_trial_available then
    raise exception 'Your free trial has already been used' using errcode = 'P0001', hint = 'trial_unavailable';
  end if;

  -- The tier decides (spec section 4); the form's choice only matters when it asks for the trial.
  v_type := case
    when p_booking_type = 'trial' then 'trial'
    when v_member.membership_tier in ('standard', 'premium') then 'paid'
    when v_trial_available then 'trial'
    else 'payg'
  end;

  if v_type = 'payg' and coalesce(v_class.price_payg, 0) > 0 then
    -- Pay-as-you-go with the trial used: no booking here; the payments function holds a spot.
    return json_build_object(
      'status', 'payment_required', 'booking_id', null, 'class_id', v_class.id,
      'booking_type', 'payg', 'payment_status', 'pending', 'needs_payment', true,
      'price_payg', v_class.price_payg, 'previous_tier', v_previous_tier,
      'tier', v_member.membership_tier, 'trial_used', v_member.has_used_trial,
      'spots_left', v_class.spots_left);
  end if;

  insert into public.bookings (member_id, class_id, type, payment_status)
  values (v_member.id, v_class.id, v_type, 'completed')
  returning id into v_booking_id;

  if v_type = 'trial' then
    update public.members
       set membership_tier = case when membership_tier = 'trial' then 'payg' else membership_tier end,
           has_used_trial = true,
           trial_expires_at = null
     where id = v_member.id
    returning * into v_member;
  end if;

  return json_build_object(
    'status', 'booked', 'booking_id', v_booking_id, 'class_id', v_class.id,
    'booking_type', v_type, 'payment_status', 'completed', 'needs_payment', false,
    'price_payg', v_class.price_payg, 'previous_tier', v_previous_tier,
    'tier', v_member.membership_tier, 'trial_used', v_member.has_used_trial,
    'spots_left', (select c.spots_left from public.classes c where c.id = v_class.id));
end;
$$;

create function public.cancel_booking(p_booking_id uuid)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_uid uuid := (select auth.uid());
  v_booking public.bookings;
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
  delete from public.bookings where id = v_booking.id;
  return json_build_object(
    'booking_id', v_booking.id, 'class_id', v_booking.class_id,
    'spots_left', (select c.spots_left from public.classes c where c.id = v_booking.class_id));
end;
$$;

-- Admin -------------------------------------------------------------------------------------

create function private.require_admin()
returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if not private.is_admin() then
    raise exception 'Access denied' using errcode = '42501', hint = 'not_admin';
  end if;
end;
$$;

revoke execute on function private.require_admin() from public;

create function public.admin_stats()
returns json
language plpgsql stable security definer set search_path = ''
as $$
declare
  -- The current month starts on day 1 at 00:00 in the studio's time zone.
  v_month_start timestamptz :=
    date_trunc('month', now() at time zone 'Europe/London') at time zone 'Europe/London';
begin
  perform private.require_admin();
  return (
    select json_build_object(
      'total_members', (select count(*) from public.members)::int,
      'total_classes', (select count(*) from public.classes)::int,
      'total_bookings', (select count(*) from public.bookings)::int,
      'upcoming_classes', (select count(*) from public.classes where start_time >= now())::int,
      'premium_members', (select count(*) from public.members where membership_tier = 'premium')::int,
      'standard_members', (select count(*) from public.members where membership_tier = 'standard')::int,
      'payg_members',
        (select count(*) from public.members where membership_tier not in ('premium', 'standard'))::int,
      'bookings_this_month', (select count(*) from public.bookings where booked_at >= v_month_start)::int
    )
  );
end;
$$;

-- The spec's recurring timetable (section 9) for [p_start, p_end], at London wall-clock times
-- (06:00 in London in summer too). Used by regenerate_timetable and by the demo seed.
create function private.insert_timetable(p_start date, p_end date)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  insert into public.classes (name, duration, start_time, trainer, type, capacity, price_payg,
                              is_premium, unlock_for_standard)
  select slot.name, 45, (day::date + slot.at) at time zone 'Europe/London', 'Coach Alex', 'Group', 12,
         10.00, false, '3 days'
    from generate_series(p_start, p_end, interval '1 day') as day
    cross join (values
      ('Breakfast Club', time '06:00', false),
      ('Breakfast Club', time '07:15', false),
      ('Breakfast Club', time '08:30', false),
      ('Breakfast Club', time '10:00', false),
      ('Kids Club', time '16:45', true)
    ) as slot(name, at, mondays_only)
   where extract(isodow from day) between 1 and 5
     and (not slot.mondays_only or extract(isodow from day) = 1)
   order by 3;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.insert_timetable(date, date) from public;

create function public.regenerate_timetable(p_start date, p_end date)
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_deleted integer;
  v_created integer;
begin
  perform private.require_admin();
  if p_start is null or p_end is null or p_end < p_start then
    raise exception 'The end date must not be before the start date'
      using errcode = '22023', hint = 'invalid_period';
  end if;
  if p_end - p_start > 366 then
    raise exception 'The period must be at most 366 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  -- Paid bookings of the removed classes become refunds owed with this reason (bookings trigger).
  perform set_config('app.booking_removal', 'timetable_regenerated', true);
  -- Every class (the spec: "all rows except a null id"); hosted's pg-safeupdate wants a WHERE.
  delete from public.classes where id is not null;
  get diagnostics v_deleted = row_count;
  v_created := private.insert_timetable(p_start, p_end);
  return json_build_object('deleted', v_deleted, 'created', v_created);
end;
$$;

-- Who may call what ---------------------------------------------------------------------------
revoke execute on function public.ensure_member(), public.book_class(uuid, text), public.cancel_booking(uuid),
  public.admin_stats(), public.regenerate_timetable(date, date), public.release_expired_holds()
  from public, anon, authenticated;
grant execute on function public.ensure_member(), public.book_class(uuid, text), public.cancel_booking(uuid),
  public.admin_stats(), public.regenerate_timetable(date, date)
  to authenticated;
grant execute on function public.release_expired_holds() to service_role;
