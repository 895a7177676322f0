-- Comments inside four function bodies name the decision record instead of the issue tracker's
-- number (decision 0098); the bodies are otherwise unchanged.
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
         -- The slot's meeting point (decision 0055), or the hall.
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
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
  -- The class's meeting point (with its directions) or the hall (decision 0055).
  v_where := private.class_where(v_class) || private.class_directions_line(v_class);
  v_hello := private.greeting(v_member.name);

  case p_kind
    when 'booking_confirmed' then
      v_subject := 'Booking confirmed: ' || v_class.name || ', ' || v_when;
      -- Every place booked together, each person named (a family's: private.booking_confirmed_line).
      v_body := concat_ws(E'\n\n', v_hello,
        private.booking_confirmed_line(p_booking_id, v_class),
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
    when 'class_changed' then
      -- p_reason: what changed, one line each (class_change_text, 26_class_changes.sql).
      v_subject := 'Class changed: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has changed ' || v_class.name || ':' || E'\n' || p_reason,
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        case when p_booking_id is null then 'You are still on its waitlist.'
             else 'Your place is kept. If the change does not suit you, cancel from My Bookings.' end);
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

  return private.enqueue_email(p_kind, v_member.email, v_member.id, v_class.id, p_booking_id, v_subject, v_body, v_links,
                               p_dedupe_key);
end;
$$;

revoke execute on function private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text, timestamptz) from public;

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

create or replace function private.publish_document(p_kind text, p_title text, p_body text, p_summary text, p_questions jsonb)
returns public.document_versions
language plpgsql security definer set search_path = ''
as $$
declare
  v_kind public.document_kind;
  v_row public.document_versions;
begin
  perform private.require_admin();
  if p_kind is null or p_kind not in ('terms', 'privacy', 'cookies', 'waiver', 'parq', 'child_parq') then
    raise exception 'Unknown document' using errcode = '22023', hint = 'invalid_document_kind';
  end if;
  v_kind := p_kind::public.document_kind;
  if char_length(btrim(coalesce(p_title, ''))) = 0 or char_length(btrim(coalesce(p_body, ''))) = 0 then
    raise exception 'A document needs a title and text' using errcode = '22023', hint = 'document_empty';
  end if;
  if v_kind in ('parq', 'child_parq') and (p_questions is null or jsonb_typeof(p_questions) <> 'array' or jsonb_array_length(p_questions) = 0
       or exists (select 1 from jsonb_array_elements(p_questions) q
                   where jsonb_typeof(q) <> 'string' or char_length(btrim(q #>> '{}')) = 0)) then
    raise exception 'The health questions need at least one question' using errcode = '22023', hint = 'questions_required';
  end if;
  -- One publisher of a kind at a time: the next number is taken once.
  perform pg_advisory_xact_lock(hashtext('document_versions:' || p_kind));
  -- A new booking document and a booking never cross: bookings (and waitlist places) under way
  -- commit first, and those that reach the table after this wait and then see the new version
  -- (decision 0027; supabase/tests/waiver-race.test.ts). Publishing is rare and short.
  if v_kind = any (private.booking_document_kinds()) then
    lock table public.bookings, public.class_waitlist in share row exclusive mode;
  end if;
  insert into public.document_versions (kind, version, title, body, summary, questions, published_by)
  values (v_kind,
          coalesce((select max(d.version) from public.document_versions d where d.kind = v_kind), 0) + 1,
          btrim(p_title), btrim(p_body), nullif(btrim(p_summary), ''),
          case when v_kind in ('parq', 'child_parq') then p_questions end,
          private.current_member_id())
  returning * into v_row;
  -- A new version of a document members must accept is emailed to every active member, in this
  -- transaction (decision 0071: not left for them to find when they next book). The first is not:
  -- it is part of the studio opening, and every booking asks for it anyway.
  if v_kind = any (private.booking_document_kinds()) and v_row.version > 1 then
    perform private.enqueue_membership_email(
      'document_updated', m.id,
      'We have updated our ' || v_row.title,
      array['We have published a new version of our ' || v_row.title || ' (version ' || v_row.version || ').']
        || case when v_row.summary is not null then array['What changed: ' || v_row.summary] else array[]::text[] end
        || array['Please read and accept it before your next booking: the studio will ask you to when you book.'],
      jsonb_build_array(jsonb_build_object('label', 'Read and accept it', 'path', '/agreements')),
      'document_updated:' || v_row.id || ':' || m.id)
      from public.members m
     where m.status = 'active' and m.user_id is not null and not m.awaiting_confirmation;
  end if;
  return v_row;
end;
$$;

revoke execute on function private.publish_document(text, text, text, text, jsonb) from public;

grant execute on function private.publish_document(text, text, text, text, jsonb) to authenticated;
