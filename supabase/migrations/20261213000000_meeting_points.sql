-- Meeting points (issue 42): a class or a timetable template slot can meet somewhere other than
-- the hall; every email, calendar entry and push about the class says where (private.class_where).

create table public.meeting_points (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 120),
  -- One line, as emails print it: 'Old Ford Road, London E3 5DS'.
  address text not null check (char_length(btrim(address)) between 1 and 300),
  -- How to find the exact spot: 'Meet at the gate by the cafe; look for the orange flag.'
  directions text not null default '' check (char_length(directions) <= 600),
  map_url text check (map_url ~ '^https://'),
  created_at timestamptz not null default now()
);

comment on table public.meeting_points is
  'Places other than the hall where a class meets (name, address, directions, map link); classes.meeting_point_id names one, null = the hall.';

alter table public.meeting_points enable row level security;

revoke all on public.meeting_points from anon, authenticated;

grant select on public.meeting_points to anon, authenticated;

grant insert (name, address, directions, map_url), update (name, address, directions, map_url), delete
  on public.meeting_points to authenticated;

grant all on public.meeting_points to service_role;

create policy "Anyone reads meeting points"
  on public.meeting_points for select to anon, authenticated
  using (true);

create policy "Admins add meeting points"
  on public.meeting_points for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins edit meeting points"
  on public.meeting_points for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins delete meeting points"
  on public.meeting_points for delete to authenticated
  using ((select private.is_admin()));

alter table public.classes add column meeting_point_id uuid references public.meeting_points (id);

grant insert (meeting_point_id), update (meeting_point_id) on public.classes to authenticated;

create index classes_meeting_point_id_idx on public.classes (meeting_point_id) where meeting_point_id is not null;

create or replace function private.class_where(p_class public.classes)
returns text
language sql stable security definer set search_path = ''
as $$
  select coalesce((select mp.name || ', ' || mp.address from public.meeting_points mp where mp.id = p_class.meeting_point_id),
                  private.studio_address())
$$;

revoke execute on function private.class_where(public.classes) from public;

grant execute on function private.class_where(public.classes) to authenticated, service_role;

create or replace function private.class_directions_line(p_class public.classes)
returns text
language sql stable security definer set search_path = ''
as $$
  select coalesce((select E'\nDirections: ' || nullif(btrim(mp.directions), '')
                     from public.meeting_points mp where mp.id = p_class.meeting_point_id), '')
$$;

revoke execute on function private.class_directions_line(public.classes) from public;

create or replace function private.class_meet_at(p_class public.classes)
returns text
language sql stable security definer set search_path = ''
as $$
  select case when p_class.meeting_point_id is null then '' else ' Meet at ' || private.class_where(p_class) || '.' end
$$;

revoke execute on function private.class_meet_at(public.classes) from public;

alter type public.schedule_class add attribute meeting_point_id uuid, add attribute meeting_point_name text,
  add attribute meeting_point_map_url text, add attribute location text, add attribute directions text;

alter type public.my_booking add attribute meeting_point_name text, add attribute meeting_point_map_url text,
  add attribute location text, add attribute directions text;

create or replace function private.schedule_facts(p_class public.classes, p_member public.members, p_signed_in boolean)
returns public.schedule_class
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.schedule_class;
  v_booking public.bookings;
  v_seq bigint;
  v_guest public.members;
begin
  r.id := p_class.id; r.name := p_class.name; r.description := p_class.description;
  r.duration := p_class.duration; r.start_time := p_class.start_time; r.trainer := p_class.trainer;
  r.type := p_class.type; r.capacity := p_class.capacity; r.current_bookings := p_class.current_bookings;
  r.spots_left := p_class.spots_left; r.is_premium := p_class.is_premium;
  r.unlock_for_standard := p_class.unlock_for_standard; r.price_payg := p_class.price_payg;
  r.waitlist_closes_at := private.waitlist_closes_at(p_class);
  r.late_cancel_from := private.late_cancel_from(p_class);
  r.waitlist_size := (select count(*)::int from public.class_waitlist w where w.class_id = p_class.id);
  r.meeting_point_id := p_class.meeting_point_id;
  select mp.name, mp.map_url, nullif(btrim(mp.directions), '') into r.meeting_point_name, r.meeting_point_map_url, r.directions
    from public.meeting_points mp where mp.id = p_class.meeting_point_id;
  r.location := private.class_where(p_class);

  if p_member.id is null then
    -- A guest sees the class as a pay-as-you-go member would (locked, full, started), then
    -- "sign in"; a signed-in user without a member row is told to sign in again.
    v_guest.membership_tier := 'payg';
    v_guest.has_used_trial := true;
    r.refusal := coalesce(private.booking_refusal(v_guest, p_class, null),
                          case when p_signed_in then 'member_not_found' else 'not_authenticated' end);
    r.bookable := false;
    r.can_join_waitlist := false;
    r.waitlist_refusal := r.refusal;
    if r.refusal = 'class_locked' then
      r.unlocks_at := private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard);
    end if;
    return r;
  end if;

  r.refusal := private.booking_refusal(p_member, p_class, null);
  r.bookable := r.refusal is null;
  r.booking_type := private.booking_type_for(p_member, null);
  r.needs_payment := private.needs_payment(r.booking_type, p_class);
  r.paid_refusal := private.booking_type_refusal(p_member, 'paid');
  r.trial_refusal := private.booking_type_refusal(p_member, 'trial');
  if private.is_class_locked(p_member.membership_tier, p_class.is_premium, p_class.start_time,
                             p_class.unlock_for_standard, now()) then
    r.unlocks_at := private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard);
  end if;
  r.waitlist_refusal := private.waitlist_refusal(p_member, p_class);
  r.can_join_waitlist := r.waitlist_refusal is null;

  select * into v_booking from public.bookings b
   where b.member_id = p_member.id and b.class_id = p_class.id and b.dependant_id is null;
  if found then
    r.my_booking_id := v_booking.id;
    r.my_payment_status := v_booking.payment_status;
    r.my_hold_expires_at := v_booking.hold_expires_at;
    -- The caller's own booking may be free to cancel to the end (the studio moved the class).
    r.late_cancel_from := private.booking_late_cancel_from(p_class, v_booking.booked_at);
  end if;
  select w.seq into v_seq from public.class_waitlist w where w.member_id = p_member.id and w.class_id = p_class.id;
  if found then
    r.my_waitlist_position := private.waitlist_position(p_class.id, v_seq);
  end if;
  return r;
end;
$$;

revoke execute on function private.schedule_facts(public.classes, public.members, boolean) from public;

create or replace function private.is_timetable_slot(p_slot text)
returns boolean
language sql immutable security definer set search_path = ''
as $$ select exists (select 1 from private.timetable_slots() s where s.slot = p_slot) $$;

revoke execute on function private.is_timetable_slot(text) from public;

grant execute on function private.is_timetable_slot(text) to authenticated, service_role;

create table public.timetable_slot_meeting_points (
  slot text primary key check (private.is_timetable_slot(slot)),
  meeting_point_id uuid not null references public.meeting_points (id),
  updated_at timestamptz not null default now()
);

comment on table public.timetable_slot_meeting_points is
  'The meeting point of a timetable template slot''s generated classes (no row = the hall).';

alter table public.timetable_slot_meeting_points enable row level security;

revoke all on public.timetable_slot_meeting_points from anon, authenticated;

grant select on public.timetable_slot_meeting_points to anon, authenticated;

grant insert (slot, meeting_point_id), update (meeting_point_id), delete on public.timetable_slot_meeting_points to authenticated;

grant all on public.timetable_slot_meeting_points to service_role;

create policy "Anyone reads template meeting points"
  on public.timetable_slot_meeting_points for select to anon, authenticated
  using (true);

create policy "Admins set template meeting points"
  on public.timetable_slot_meeting_points for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins change template meeting points"
  on public.timetable_slot_meeting_points for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create policy "Admins clear template meeting points"
  on public.timetable_slot_meeting_points for delete to authenticated
  using ((select private.is_admin()));

create or replace function private.insert_timetable_from(p_start date, p_end date, p_from timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg,
                              is_premium, unlock_for_standard, template_slot, template_start, meeting_point_id)
  select m.name, private.timetable_description(m.name), 45, m.start_time, 'Coach Alex', 'Group', 12, 10.00,
         false, '3 days', m.slot, m.start_time,
         -- The slot's meeting point (issue 42), or the hall.
         (select sp.meeting_point_id from public.timetable_slot_meeting_points sp where sp.slot = m.slot)
    from private.timetable_missing(p_start, p_end, p_from) m
   order by m.start_time, m.slot;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.insert_timetable_from(date, date, timestamptz) from public;

alter type public.outbox_email add attribute class_where text, add attribute class_directions text, add attribute class_map_url text;

alter type public.calendar_event add attribute location text, add attribute directions text;

create or replace function private.calendar_feed(p_token text)
returns setof public.calendar_feed
language sql stable security definer set search_path = ''
as $$
  select m.name,
         array(select (b.id, c.id, c.name, c.description, c.trainer, c.start_time, c.duration, private.class_where(c),
                        (select nullif(btrim(mp.directions), '') from public.meeting_points mp where mp.id = c.meeting_point_id)
                       )::public.calendar_event
                 from public.bookings b
                 join public.classes c on c.id = b.class_id
                where b.member_id = m.id
                  and b.payment_status = 'completed'
                  and c.start_time + make_interval(mins => c.duration) > now()
                order by c.start_time, c.id)
    from public.members m
   where p_token is not null and m.calendar_token = p_token
$$;

revoke execute on function private.calendar_feed(text) from public;

grant execute on function private.calendar_feed(text) to service_role;

create or replace function private.queue_push_reminders(p_now timestamptz, p_booking_id uuid)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer := 0;
  v_row record;
begin
  for v_row in
    select b.id as booking_id, b.member_id, c.id as class_id, c.name, c.trainer, c.start_time, l.minutes,
           private.class_meet_at(c) as meet_at
      from public.bookings b
      join public.classes c on c.id = b.class_id
      left join public.push_preferences p on p.member_id = b.member_id
      cross join lateral (select case when p.member_id is null then private.push_default_reminder_minutes()
                                      else p.reminder_minutes end as minutes) l
     where (p_booking_id is null or b.id = p_booking_id)
       and b.payment_status = 'completed'
       and c.start_time > p_now
       and c.start_time <= p_now + interval '13 hours'
       and (c.start_time at time zone 'Europe/London')::time < private.push_early_class_before()
       and l.minutes is not null
       and c.start_time - make_interval(mins => l.minutes) < p_now + private.push_reminder_horizon()
       and exists (select 1 from public.push_subscriptions s where s.member_id = b.member_id)
     order by c.start_time, b.id
  loop
    v_count := v_count + private.enqueue_push('class_reminder', v_row.member_id,
      'Reminder: ' || v_row.name || ' at ' || to_char(v_row.start_time at time zone 'Europe/London', 'FMHH12:MI AM'),
      'With ' || v_row.trainer || ', ' || private.london_time_text(v_row.start_time)
        || '.' || v_row.meet_at || ' Cannot make it? Cancel from My Bookings.',
      '/mybookings', 'class_reminder:' || v_row.booking_id, v_row.class_id, v_row.booking_id,
      greatest(v_row.start_time - make_interval(mins => v_row.minutes), p_now), v_row.start_time);
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.queue_push_reminders(timestamptz, uuid) from public;

create or replace function public.my_bookings()
returns setof public.my_booking
language sql stable security invoker set search_path = ''
as $$
  select b.id, b.class_id, b.type::text, b.payment_status::text, b.booked_at, b.hold_expires_at,
         c.name, c.trainer, c.start_time, c.duration, c.description,
         case when b.payment_status = 'completed' then private.booking_late_cancel_from(c, b.booked_at) end,
         b.dependant_id, d.name, mp.name, mp.map_url, private.class_where(c), nullif(btrim(mp.directions), '')
    from public.bookings b
    join public.classes c on c.id = b.class_id
    left join public.dependants d on d.id = b.dependant_id
    left join public.meeting_points mp on mp.id = c.meeting_point_id
   where b.member_id = (select private.current_member_id())
     and (b.payment_status = 'completed' or b.hold_expires_at > now())
   order by c.start_time desc, b.dependant_id is not null, d.name, b.id
$$;

revoke execute on function public.my_bookings() from public, anon;

grant execute on function public.my_bookings() to authenticated, service_role;
