-- save_push_subscription accepted any https address (or loopback) as a device's endpoint, and the
-- push sender then POSTs to it: a member could aim the studio's functions at an address of their
-- choosing. Only the browsers' push services are accepted now; loopback only on the local stack,
-- which says so in private.push_settings on every start (supabase/local/gateway.sql). Devices
-- already saved elsewhere are removed with their queued pushes: no browser's push service gave
-- them, and the sender would refuse them anyway.

-- Where pushes may go ------------------------------------------------------------------------------
-- The sender POSTs each push to its device's endpoint, which a member's browser hands over through
-- save_push_subscription: any address accepted here is one the studio's functions will request, so
-- a member could aim them at an address of their choosing. Only the push services browsers
-- subscribe through are accepted: Google's FCM (Chrome, Edge on Android, Samsung Internet, Opera),
-- Mozilla's autopush (Firefox), Apple's (Safari), Microsoft's WNS (Edge on Windows). The local
-- stack's own push service listens on loopback (supabase/local/push); loopback is accepted only
-- where private.push_settings says so, which the stack writes on every start
-- (supabase/local/gateway.sql, never applied to hosted) and no API role can write. The sender
-- keeps the same list (netlify/lib/push/push-endpoint.ts).
create table private.push_settings (
  id boolean primary key default true check (id),
  -- True only on the local stack: its push service at http://127.0.0.1:<port>/push/v1/send/<id>.
  local_push_service boolean not null default false
);

revoke all on private.push_settings from public, anon, authenticated, service_role;

insert into private.push_settings default values;

create function private.push_endpoint_allowed(p_endpoint text)
returns boolean
language sql stable set search_path = ''
as $$
  select coalesce(
    char_length(p_endpoint) <= 2000
    and (p_endpoint ~ '^https://(fcm\.googleapis\.com|updates\.push\.services\.mozilla\.com|web\.push\.apple\.com|[a-z0-9-]+\.notify\.windows\.com)/'
         or (p_endpoint ~ '^https?://(127\.0\.0\.1|localhost)(:[0-9]{1,5})?/'
             and (select s.local_push_service from private.push_settings s))),
    false)
$$;

revoke execute on function private.push_endpoint_allowed(text) from public;

-- Saves this browser's subscription for the signed-in member. A browser has one endpoint whoever
-- signs in on it: saving it moves it to this member (the previous member's pushes stop there).
-- Only a push service's endpoint (push_endpoint_allowed) is saved.
create or replace function private.save_push_subscription(p_endpoint text, p_p256dh text, p_auth text, p_device text)
returns public.push_subscriptions
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := private.current_member_id();
  v_row public.push_subscriptions;
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  if v_member_id is null then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if not private.push_endpoint_allowed(p_endpoint) then
    raise exception 'This browser gave an address for notifications that we cannot use.'
      using errcode = '22023', hint = 'invalid_push_subscription';
  end if;
  begin
    insert into public.push_subscriptions as s (member_id, endpoint, p256dh, auth, device)
    values (v_member_id, p_endpoint, p_p256dh, p_auth, coalesce(nullif(left(btrim(coalesce(p_device, '')), 120), ''), 'This device'))
    on conflict (endpoint) do update
      set member_id = excluded.member_id, p256dh = excluded.p256dh, auth = excluded.auth, device = excluded.device
    returning * into v_row;
  exception when check_violation or not_null_violation then
    raise exception 'This browser gave an address for notifications that we cannot use.'
      using errcode = '22023', hint = 'invalid_push_subscription';
  end;
  return v_row;
end;
$$;

revoke execute on function private.save_push_subscription(text, text, text, text) from public;

grant execute on function private.save_push_subscription(text, text, text, text) to authenticated;

delete from public.push_subscriptions where not private.push_endpoint_allowed(endpoint);
