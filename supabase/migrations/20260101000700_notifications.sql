-- Notifications outbox: every email the studio sends (booking confirmed, cancelled, waitlist
-- promotion, class reminder) is first a row here, written in the same transaction as the change
-- it reports. A sender (the local stack's inbox; a mail provider in production) takes unsent rows
-- with dequeue_notifications() and delivers them. So an email is never sent for a booking that
-- was rolled back, and never lost for one that was committed.
--
-- Rows are rendered here (subject, plain-text body) except absolute URLs: the database does not
-- know the site's address, so `links` holds paths ('/mybookings') the sender prefixes with SITE_URL.

create table public.notification_outbox (
  id uuid primary key default gen_random_uuid(),
  kind text not null
    check (kind in ('booking_confirmed', 'booking_cancelled', 'waitlist_promoted', 'class_reminder')),
  to_email extensions.citext not null,
  member_id uuid references public.members (id) on delete set null,
  class_id uuid references public.classes (id) on delete set null,
  -- The booking the email is about; no foreign key, a cancelled booking's row is gone.
  booking_id uuid,
  subject text not null check (char_length(subject) between 1 and 300),
  body_text text not null,
  -- [{ "label": "Manage or cancel your booking", "path": "/mybookings" }, ...]
  links jsonb not null default '[]'::jsonb check (jsonb_typeof(links) = 'array'),
  -- Makes an email idempotent (e.g. one reminder per booking); null = no deduplication.
  dedupe_key text unique,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  attempts integer not null default 0,
  last_error text
);
comment on table public.notification_outbox is
  'Emails to send. Written by the booking RPCs; delivered by a sender via dequeue_notifications().';

create index notification_outbox_unsent_idx on public.notification_outbox (created_at) where sent_at is null;
create index notification_outbox_member_id_idx on public.notification_outbox (member_id);
create index notification_outbox_class_id_idx on public.notification_outbox (class_id);

-- Service role only: members' addresses and mail are nobody else's business.
alter table public.notification_outbox enable row level security;
revoke all on public.notification_outbox from public, anon, authenticated;
grant all on public.notification_outbox to service_role;

-- A sender can LISTEN on this channel instead of polling (payload: the new row's id).
create function private.notification_outbox_notify()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform pg_notify('notification_outbox', new.id::text);
  return null;
end;
$$;

create trigger notification_outbox_notify
  after insert on public.notification_outbox
  for each row execute function private.notification_outbox_notify();

-- What an email says -------------------------------------------------------------------------

-- The studio's address as emails print it. Mirrors STUDIO_ADDRESS_LINES in src/config/studio.ts
-- (a test compares the two, so they cannot drift apart).
create function private.studio_address()
returns text
language sql immutable set search_path = ''
as $$ select 'Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom' $$;

-- A class's start as members read it: London wall-clock time, e.g. 'Monday 6 October 2025, 6:00 AM'.
create function private.london_time_text(p_at timestamptz)
returns text
language sql stable set search_path = ''
as $$ select to_char(p_at at time zone 'Europe/London', 'FMDay FMDD FMMonth YYYY, FMHH12:MI AM') $$;

-- '12 hours', '90 minutes', '1 day'.
create function private.interval_text(p_interval interval)
returns text
language sql immutable set search_path = ''
as $$
  select case
    when s % 86400 = 0 then (s / 86400) || case when s = 86400 then ' day' else ' days' end
    when s % 3600 = 0 then (s / 3600) || case when s = 3600 then ' hour' else ' hours' end
    else (s / 60) || case when s = 60 then ' minute' else ' minutes' end
  end
  from (select extract(epoch from p_interval)::bigint as s) as t
$$;

-- Queues one email about a member's booking of a class. Returns the outbox row id, or null when
-- the member or class no longer exists or the dedupe key was already used.
create function private.enqueue_class_email(
  p_kind text,
  p_member_id uuid,
  p_class_id uuid,
  p_booking_id uuid,
  p_late boolean default false,
  p_dedupe_key text default null,
  -- Why the studio cancelled the booking (a cancellation email), e.g. 'the studio is closed'.
  p_reason text default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_when text;
  v_where text := private.studio_address();
  v_hello text;
  v_subject text;
  v_body text;
  v_links jsonb;
  v_manage jsonb := jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings');
  v_id uuid;
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
  v_hello := 'Hi ' || coalesce(nullif(btrim(v_member.name), ''), 'there') || ',';

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
      v_body := concat_ws(E'\n\n', v_hello,
        'Your booking for ' || v_class.name || ' with ' || v_class.trainer || ' has been cancelled'
          || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        case
          when p_late then
            'This was a late cancellation (less than ' || private.interval_text(v_class.late_cancel_window)
              || ' before the start), so the class still counts against your plan this month.'
          when p_reason is not null then 'It does not count against your plan.'
        end);
      v_links := jsonb_build_array(v_manage,
        jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
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

revoke execute on function private.notification_outbox_notify(), private.studio_address(),
  private.london_time_text(timestamptz), private.interval_text(interval),
  private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text) from public;

-- Booking emails from triggers ------------------------------------------------------------------

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

-- Delivery and reminders (service role; private code) -------------------------------------------

-- Delivery itself (dequeue, requeue with backoff, failures) is in 20261122000300_email_delivery.sql.

-- Queues a reminder for every confirmed booking of a class starting within the next
-- p_within_hours hours. Idempotent: one reminder per booking, however often it runs (the
-- scheduled function runs it hourly). Returns how many reminders were queued by this call.
create function private.enqueue_class_reminders(p_within_hours integer)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer := 0;
  v_row record;
begin
  if p_within_hours is null or p_within_hours < 1 or p_within_hours > 168 then
    raise exception 'The reminder window must be 1 to 168 hours' using errcode = '22023', hint = 'invalid_window';
  end if;
  for v_row in
    select b.id, b.member_id, b.class_id
      from public.bookings b
      join public.classes c on c.id = b.class_id
     where b.payment_status = 'completed'
       and c.start_time > now()
       and c.start_time <= now() + make_interval(hours => p_within_hours)
       and not exists (select 1 from public.notification_outbox o where o.dedupe_key = 'class_reminder:' || b.id)
     order by c.start_time
  loop
    if private.enqueue_class_email('class_reminder', v_row.member_id, v_row.class_id, v_row.id,
                                   false, 'class_reminder:' || v_row.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_class_reminders(integer) from public;
grant execute on function private.enqueue_class_reminders(integer) to service_role;

-- API (service role only: the sender and the scheduled reminders function) ------------------------

create function public.enqueue_class_reminders(p_within_hours integer default 24)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_class_reminders(p_within_hours) $$;

revoke execute on function public.enqueue_class_reminders(integer) from public, anon, authenticated;
grant execute on function public.enqueue_class_reminders(integer) to service_role;
