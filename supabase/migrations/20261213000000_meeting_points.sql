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

create or replace function private.enqueue_class_email(
  p_kind text,
  p_member_id uuid,
  p_class_id uuid,
  p_booking_id uuid,
  p_late boolean default false,
  p_dedupe_key text default null,
  -- Why the studio cancelled the booking or the class (a cancellation email), e.g. 'the studio is closed'.
  p_reason text default null,
  -- The class's start before the studio moved it (a class_moved email).
  p_was timestamptz default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_when text;
  v_where text;
  v_hello text;
  v_subject text;
  v_body text;
  v_links jsonb;
  v_manage jsonb := jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings');
  v_refund numeric;
  v_type text;
  v_id uuid;
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
  -- The class's meeting point (with its directions) or the hall (issue 42).
  v_where := private.class_where(v_class) || private.class_directions_line(v_class);
  v_hello := private.greeting(v_member.name);

  case p_kind
    when 'booking_confirmed' then
      v_subject := 'Booking confirmed: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'You are booked on ' || v_class.name || ' with ' || v_class.trainer || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Plans change? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    when 'waitlist_promoted' then
      v_subject := 'A spot opened: you are booked on ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'A spot opened on ' || v_class.name || ' with ' || v_class.trainer
          || ' and you were next on the waitlist, so you are now booked.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it any more? Cancel from My Bookings so the next person on the waitlist gets the spot.');
      v_links := jsonb_build_array(v_manage);
    when 'booking_cancelled' then
      v_subject := 'Booking cancelled: ' || v_class.name || ', ' || v_when;
      select bc.booking_type::text into v_type from public.booking_cancellations bc where bc.booking_id = p_booking_id;
      -- What this cancellation owes the member back (recorded by the refunds triggers just now).
      select sum(ro.amount) into v_refund
        from public.refunds_owed ro join public.payments p on p.id = ro.payment_id
       where p.member_id = v_member.id and p.class_id = v_class.id and ro.refunded_at is null and ro.created_at = now();
      v_body := concat_ws(E'\n\n', v_hello,
        'Your booking for ' || v_class.name || ' with ' || v_class.trainer || ' has been cancelled'
          || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        -- What the cancellation cost or gave back, by what the place used (remembered with it).
        case
          when p_late then
            'This was a late cancellation (less than ' || private.interval_text(v_class.late_cancel_window)
              || ' before the start), so '
              || case v_type when 'payg' then 'the payment is kept: no refund is due.'
                             when 'credit' then 'it used your personal-training session.'
                             when 'trial' then 'it used your free trial.'
                             else 'the class still counts against your plan this month.' end
          when v_type = 'credit' then 'Your personal-training session comes back to you.'
          when p_reason is not null and coalesce(v_type, 'paid') = 'paid' then 'It does not count against your plan.'
        end,
        'The ' || private.gbp(v_refund) || ' you paid by card will be refunded to your card; you will get a receipt when it is.');
      v_links := jsonb_build_array(v_manage,
        jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'waitlist_cancelled' then
      -- A member waiting for a place in a class the studio removed (p_booking_id is null).
      v_subject := 'Class cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The class you were on the waitlist for, ' || v_class.name || ' with ' || v_class.trainer
          || ', has been cancelled' || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'You are no longer on its waitlist.');
      v_links := jsonb_build_array(jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'class_moved' then
      v_subject := 'Class moved: ' || v_class.name || ' is now ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has moved ' || v_class.name || ' with ' || v_class.trainer || '. Your place is kept.',
        'Was: ' || private.london_time_text(p_was) || E'\n' || 'Now: ' || v_when || ' (London time)'
          || E'\n' || 'Where: ' || v_where,
        'If the new time does not suit you, cancel from My Bookings: as the studio moved the class, '
          || 'cancelling is free at any time before it starts, and anything you paid or used for it comes back.');
      v_links := jsonb_build_array(v_manage);
    when 'class_reminder' then
      v_subject := 'Reminder: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'See you soon at ' || v_class.name || ' with ' || v_class.trainer || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;

  insert into public.notification_outbox (kind, to_email, member_id, class_id, booking_id, subject, body_text, links, dedupe_key)
  values (p_kind, v_member.email, v_member.id, v_class.id, p_booking_id, v_subject, v_body, v_links, p_dedupe_key)
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text, timestamptz) from public;

alter type public.outbox_email add attribute class_where text, add attribute class_directions text, add attribute class_map_url text;

create or replace function private.dequeue_notifications(p_limit integer, p_now timestamptz)
returns setof public.outbox_email
language sql security definer set search_path = ''
as $$
  with taken as (
    update public.notification_outbox o
       set sent_at = p_now, attempts = o.attempts + 1
     where o.id in (
       select q.id from public.notification_outbox q
        where q.sent_at is null and q.failed_at is null and q.next_attempt_at <= p_now
        order by q.next_attempt_at, q.created_at, q.id
        limit greatest(1, least(coalesce(p_limit, 50), 500))
        for update skip locked)
    returning o.*
  )
  select t.id, t.kind, t.to_email::text, t.reply_to::text, t.subject, t.body_text, t.links, t.attempts,
         t.sent_at, t.created_at, c.name, c.trainer, c.start_time, private.london_time_text(c.start_time),
         t.unsubscribe_token, case when c.id is not null then private.class_where(c) end, nullif(btrim(mp.directions), ''),
         mp.map_url
    from taken t
    left join public.classes c on c.id = t.class_id
    left join public.meeting_points mp on mp.id = c.meeting_point_id
   order by t.created_at, t.id
$$;

revoke execute on function private.dequeue_notifications(integer, timestamptz) from public;

grant execute on function private.dequeue_notifications(integer, timestamptz) to service_role;

create or replace function private.enqueue_guest_email(p_kind text, p_place public.guest_places)
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
  v_id uuid;
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
  insert into public.notification_outbox (kind, to_email, member_id, class_id, subject, body_text, links, dedupe_key)
  values (p_kind, v_to, v_member_id, v_class.id, v_subject, v_body, v_links, p_kind || ':' || p_place.id)
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.enqueue_guest_email(text, public.guest_places) from public;

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

create or replace function private.notification_outbox_push()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
begin
  select * into v_class from public.classes where id = new.class_id;
  case new.kind
    when 'waitlist_promoted' then
      if v_class.id is not null then
        perform private.enqueue_push('waitlist_promoted', new.member_id, 'A spot opened: you are booked',
          v_class.name || ' with ' || v_class.trainer || ', ' || private.london_time_text(v_class.start_time) || '.'
            || private.class_meet_at(v_class),
          '/mybookings', 'waitlist_promoted:' || new.id, v_class.id, new.booking_id, null, v_class.start_time);
      end if;
    when 'class_moved' then
      if v_class.id is not null then
        perform private.enqueue_push('class_moved', new.member_id, 'Class moved: ' || v_class.name,
          'Now ' || private.london_time_text(v_class.start_time) || '. Your place is kept.' || private.class_meet_at(v_class),
          '/mybookings', 'class_moved:' || new.id, v_class.id, new.booking_id, null, v_class.start_time);
      end if;
    when 'payment_failed' then
      perform private.enqueue_push('payment_failed', new.member_id, new.subject,
        'The details are in the email we sent to ' || new.to_email || '.',
        coalesce(new.links -> 0 ->> 'path', '/membership'), 'payment_failed:' || new.id);
    else
      null;
  end case;
  return null;
end;
$$;

revoke execute on function private.notification_outbox_push() from public;

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
