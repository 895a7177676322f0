-- Issue 29: no NOTIFY in production's booking path. A transaction that notifies takes a lock for
-- the whole database at commit (to append to the notification queue in commit order), so each
-- booking's confirmation email serialised the bookings' commits at 50 clients. Production sends
-- on a schedule; the local stack wakes its senders from its own triggers (supabase/local/gateway.sql).
drop trigger notification_outbox_notify on public.notification_outbox;

drop function private.notification_outbox_notify();

-- Admins: a retry ----------------------------------------------------------------------------------
-- Puts a failed email back in the queue, due at p_now with a fresh set of attempts.
create or replace function private.retry_email(p_id uuid, p_now timestamptz)
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
  return (v_id, p_now)::public.email_retry;
end;
$$;

revoke execute on function private.retry_email(uuid, timestamptz) from public;

grant execute on function private.retry_email(uuid, timestamptz) to authenticated, service_role;

-- Queues one push for every device of the member who wants this kind. p_event_key names the
-- event (with the device's id it is the row's dedupe key: a second call for the same event queues
-- nothing). Returns how many devices it was queued for.
create or replace function private.enqueue_push(
  p_kind text,
  p_member_id uuid,
  p_title text,
  p_body text,
  p_path text,
  p_event_key text,
  p_class_id uuid default null,
  p_booking_id uuid default null,
  p_send_at timestamptz default null,
  p_expires_at timestamptz default null
)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  if p_member_id is null or not private.push_wanted(p_member_id, p_kind) then
    return 0;
  end if;
  insert into public.push_outbox (subscription_id, member_id, kind, title, body, path, class_id, booking_id,
                                  dedupe_key, next_attempt_at, expires_at)
  select s.id, s.member_id, p_kind, left(p_title, 120), left(p_body, 300), p_path, p_class_id, p_booking_id,
         p_event_key || ':' || s.id, coalesce(p_send_at, now()), p_expires_at
    from public.push_subscriptions s
   where s.member_id = p_member_id
   order by s.created_at
  on conflict (dedupe_key) do nothing;
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_push(text, uuid, text, text, text, text, uuid, uuid, timestamptz, timestamptz) from public;
