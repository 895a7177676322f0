-- Email RPCs return declared row types (issue 15; the data contract's "Row types"): the five
-- email functions of 20261122000300_email_delivery.sql returned untyped json, so `npm run db:types`
-- typed them as Json and every caller cast. Same arguments, rules, errors and field names; only
-- the return type changes, so each function is dropped and created again (public first: it is
-- the one PostgREST exposes), with its grants. requeue_notification now returns zero rows where it
-- returned null (a row that was not out for delivery), as calendar_feed does for "no such token".

drop function public.requeue_notification(uuid, text, timestamptz);
drop function private.requeue_notification(uuid, text, timestamptz);
drop function public.retry_email(uuid);
drop function private.retry_email(uuid, timestamptz);
drop function public.set_email_preferences(boolean);
drop function private.set_email_preferences(boolean);
drop function public.unsubscribe_reminders(text);
drop function private.unsubscribe_reminders(text);
drop function public.submit_contact_message(text, text, text, text, text, text);
drop function private.submit_contact_message(text, text, text, text, text, text, timestamptz);

-- Types ------------------------------------------------------------------------------------------

-- A failed delivery given back: 'retrying' (due again at next_attempt_at) or 'failed' (given up
-- on after email_max_attempts(); next_attempt_at null).
create type public.outbox_requeue as (
  id uuid,
  status text,
  attempts integer,
  next_attempt_at timestamptz
);

-- A failed email an admin queued again (due at once, fresh attempts).
create type public.email_retry as (
  id uuid,
  next_attempt_at timestamptz
);

-- The member's choice of optional emails, as saved.
create type public.reminder_preference as (
  class_reminders boolean
);

-- Whose reminders an unsubscribe link turned off.
create type public.reminders_unsubscribed as (
  email text,
  class_reminders boolean
);

-- What a visitor who wrote through Contact Us is told: always 'received' (a bot's honeypot too).
create type public.contact_receipt as (
  status text
);

-- Delivery: a failed one back ----------------------------------------------------------------------

-- A failed delivery: the row waits email_retry_delay(attempts) and goes out again, or, after
-- email_max_attempts() attempts, is marked failed (admins see it and may retry). Idempotent: a row
-- that is not out for delivery is left alone (no row returned).
create function private.requeue_notification(p_id uuid, p_error text, p_now timestamptz)
returns setof public.outbox_requeue
rows 1
language sql security definer set search_path = ''
as $$
  update public.notification_outbox o
     set sent_at = null,
         last_error = left(coalesce(nullif(btrim(p_error), ''), 'unknown error'), 2000),
         failed_at = case when o.attempts >= private.email_max_attempts() then p_now end,
         next_attempt_at = case when o.attempts >= private.email_max_attempts() then o.next_attempt_at
                                else p_now + private.email_retry_delay(o.attempts) end
   where o.id = p_id and o.sent_at is not null and o.failed_at is null
  returning o.id,
            case when o.failed_at is null then 'retrying' else 'failed' end,
            o.attempts,
            case when o.failed_at is null then o.next_attempt_at end
$$;

create function public.requeue_notification(p_id uuid, p_error text, p_now timestamptz default now())
returns setof public.outbox_requeue
rows 1
language sql volatile security invoker set search_path = ''
as $$ select * from private.requeue_notification(p_id, p_error, p_now) $$;

revoke execute on function private.requeue_notification(uuid, text, timestamptz) from public;
grant execute on function private.requeue_notification(uuid, text, timestamptz) to service_role;
revoke execute on function public.requeue_notification(uuid, text, timestamptz) from public, anon, authenticated;
grant execute on function public.requeue_notification(uuid, text, timestamptz) to service_role;

-- Admins: a retry ------------------------------------------------------------------------------------

-- Puts a failed email back in the queue, due at p_now with a fresh set of attempts.
create function private.retry_email(p_id uuid, p_now timestamptz)
returns public.email_retry
language plpgsql security definer set search_path = ''
as $$
declare
  v_id uuid;
begin
  perform private.require_admin();
  update public.notification_outbox
     set failed_at = null, sent_at = null, attempts = 0, next_attempt_at = p_now
   where id = p_id and failed_at is not null
  returning id into v_id;
  if v_id is null then
    raise exception 'This email is not waiting for a retry' using errcode = 'P0002', hint = 'email_not_failed';
  end if;
  -- A sender listening on the outbox channel (the local stack) goes at once.
  perform pg_notify('notification_outbox', v_id::text);
  return (v_id, p_now)::public.email_retry;
end;
$$;

create function public.retry_email(p_id uuid)
returns public.email_retry
language sql volatile security invoker set search_path = ''
as $$ select * from private.retry_email(p_id, now()) $$;

revoke execute on function private.retry_email(uuid, timestamptz) from public;
grant execute on function private.retry_email(uuid, timestamptz) to authenticated, service_role;
revoke execute on function public.retry_email(uuid) from public, anon;
grant execute on function public.retry_email(uuid) to authenticated, service_role;

-- Email preferences --------------------------------------------------------------------------------

create function private.set_email_preferences(p_class_reminders boolean)
returns public.reminder_preference
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := private.current_member_id();
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  if v_member_id is null then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if p_class_reminders is null then
    raise exception 'Choose whether you want reminder emails' using errcode = '22023', hint = 'invalid_preference';
  end if;
  insert into public.email_preferences as p (member_id, class_reminders)
  values (v_member_id, p_class_reminders)
  on conflict (member_id) do update set class_reminders = excluded.class_reminders, updated_at = now();
  return row(p_class_reminders)::public.reminder_preference;
end;
$$;

create function public.set_email_preferences(p_class_reminders boolean)
returns public.reminder_preference
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_email_preferences(p_class_reminders) $$;

-- The one-click unsubscribe of a reminder email (the unsubscribe function, service role).
-- Unknown or malformed tokens change nothing and raise invalid_unsubscribe_token.
create function private.unsubscribe_reminders(p_token text)
returns public.reminders_unsubscribed
language plpgsql security definer set search_path = ''
as $$
declare
  v_email text;
begin
  update public.email_preferences p
     set class_reminders = false, updated_at = now()
    from public.members m
   where p.unsubscribe_token = p_token and m.id = p.member_id
     and p_token ~ '^[0-9a-f]{64}$'
  returning m.email::text into v_email;
  if v_email is null then
    raise exception 'This unsubscribe link is not valid. Sign in and turn reminder emails off on Edit Profile instead.'
      using errcode = 'P0002', hint = 'invalid_unsubscribe_token';
  end if;
  return (v_email, false)::public.reminders_unsubscribed;
end;
$$;

create function public.unsubscribe_reminders(p_token text)
returns public.reminders_unsubscribed
language sql volatile security invoker set search_path = ''
as $$ select * from private.unsubscribe_reminders(p_token) $$;

revoke execute on function private.set_email_preferences(boolean), private.unsubscribe_reminders(text) from public;
grant execute on function private.set_email_preferences(boolean) to authenticated, service_role;
grant execute on function private.unsubscribe_reminders(text) to service_role;
revoke execute on function public.set_email_preferences(boolean), public.unsubscribe_reminders(text) from public, anon;
revoke execute on function public.unsubscribe_reminders(text) from authenticated;
grant execute on function public.set_email_preferences(boolean) to authenticated, service_role;
grant execute on function public.unsubscribe_reminders(text) to service_role;

-- Contact Us ---------------------------------------------------------------------------------------

-- Stores a message and queues an email to the studio (reply-to the visitor) in one transaction.
-- A filled honeypot (p_website, a field people never see) answers exactly like a success but
-- stores and sends nothing, so a bot learns nothing.
create function private.submit_contact_message(
  p_name text, p_email text, p_phone text, p_message text, p_topic text, p_website text, p_now timestamptz
)
returns public.contact_receipt
language plpgsql security definer set search_path = ''
as $$
declare
  v_name text := btrim(coalesce(p_name, ''));
  v_email text := lower(btrim(coalesce(p_email, '')));
  v_phone text := nullif(btrim(coalesce(p_phone, '')), '');
  v_message text := btrim(coalesce(p_message, ''));
  v_topic text := nullif(btrim(coalesce(p_topic, '')), '');
  v_received public.contact_receipt := row('received')::public.contact_receipt;
begin
  if nullif(btrim(coalesce(p_website, '')), '') is not null then
    return v_received;
  end if;
  if v_name = '' then
    raise exception 'Name is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_email = '' then
    raise exception 'Email is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_email !~ '^[^[:space:]@]+@[^[:space:]@]+\.[^[:space:]@]+$' or char_length(v_email) > 320 then
    raise exception 'Please enter a valid email address' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if v_message = '' then
    raise exception 'Message is required' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if char_length(v_name) > 200 or char_length(v_message) > 1500 or char_length(v_phone) > 40 or char_length(v_topic) > 200 then
    raise exception 'Your message is too long (at most 1500 characters)' using errcode = '22023', hint = 'invalid_contact';
  end if;

  -- One address at a time, so two simultaneous submissions cannot both pass the count.
  perform pg_advisory_xact_lock(hashtextextended('contact:' || v_email, 0));
  if (select count(*) from public.contact_messages c
       where c.email = v_email::extensions.citext and c.created_at > p_now - private.contact_rate_window()
         and c.created_at <= p_now) >= private.contact_rate_limit() then
    raise exception 'You have sent us several messages in the last hour. Please wait a little before sending another.'
      using errcode = 'P0001', hint = 'contact_rate_limited';
  end if;

  insert into public.contact_messages (name, email, phone, message, topic, created_at)
  values (v_name, v_email, v_phone, v_message, v_topic, p_now);

  insert into public.notification_outbox (kind, to_email, reply_to, subject, body_text, links, next_attempt_at)
  values (
    'contact_message',
    private.studio_email(),
    v_email,
    left('Contact Us: ' || coalesce(v_topic || ' enquiry', 'enquiry') || ' from ' || v_name, 300),
    concat_ws(E'\n\n',
      v_message,
      concat_ws(E'\n', 'Name: ' || v_name, 'Email: ' || v_email, 'Phone: ' || v_phone, 'About: ' || v_topic,
                'Sent: ' || private.london_time_text(p_now) || ' (London time)'),
      'Reply to this email to answer ' || v_name || '.'),
    jsonb_build_array(jsonb_build_object('label', 'Open Messages in the admin portal', 'path', '/admin/messages')),
    p_now
  );
  return v_received;
end;
$$;

create function public.submit_contact_message(
  p_name text, p_email text, p_message text, p_phone text default null, p_topic text default null, p_website text default null
)
returns public.contact_receipt
language sql volatile security invoker set search_path = ''
as $$ select * from private.submit_contact_message(p_name, p_email, p_phone, p_message, p_topic, p_website, now()) $$;

revoke execute on function private.submit_contact_message(text, text, text, text, text, text, timestamptz) from public;
grant execute on function private.submit_contact_message(text, text, text, text, text, text, timestamptz)
  to anon, authenticated, service_role;
revoke execute on function public.submit_contact_message(text, text, text, text, text, text) from public;
grant execute on function public.submit_contact_message(text, text, text, text, text, text) to anon, authenticated, service_role;
