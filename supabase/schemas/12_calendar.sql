-- Private calendar feed: a member's secret token makes their bookings readable as an .ics feed
-- (netlify/functions/calendar-feed.ts) without signing in, as calendar apps require. Rotating the
-- token revokes the old URL; null means no feed.

-- 32 random bytes, base64url without padding (43 characters).
create function private.new_calendar_token()
returns text
language sql volatile set search_path = ''
as $$ select rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=') $$;

revoke execute on function private.new_calendar_token() from public;

-- Tokens -----------------------------------------------------------------------------------------
create type public.calendar_token_result as (
  calendar_token text
);

-- Sets the caller's feed secret: a new one (the previous URL stops working), or none (feed off).
create function private.set_calendar_token(p_enabled boolean)
returns public.calendar_token_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_token text := case when p_enabled then private.new_calendar_token() end;
begin
  update public.members set calendar_token = v_token where user_id = private.require_user_id();
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return row(v_token)::public.calendar_token_result;
end;
$$;

revoke execute on function private.set_calendar_token(boolean) from public;

grant execute on function private.set_calendar_token(boolean) to authenticated;

-- The feed ---------------------------------------------------------------------------------------
create type public.calendar_event as (
  booking_id uuid,
  class_id uuid,
  name text,
  description text,
  trainer text,
  start_time timestamptz,
  duration integer,
  -- Where the class meets (private.class_where: its meeting point or the hall) and, for a meeting
  -- point, its directions (decision 0055).
  location text,
  directions text
);

create type public.calendar_feed as (
  member_name text,
  events public.calendar_event[]
);

-- The member's confirmed bookings of classes not yet ended; no row for an unknown or revoked
-- token (the function answers 404 alike).
create function private.calendar_feed(p_token text)
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

-- API --------------------------------------------------------------------------------------------
create function public.rotate_calendar_token()
returns public.calendar_token_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_calendar_token(true) $$;

revoke execute on function public.rotate_calendar_token() from public, anon, authenticated;

grant execute on function public.rotate_calendar_token() to authenticated;

create function public.revoke_calendar_token()
returns public.calendar_token_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.set_calendar_token(false) $$;

revoke execute on function public.revoke_calendar_token() from public, anon, authenticated;

grant execute on function public.revoke_calendar_token() to authenticated;

-- Service role (the feed function, which reads it with maybeSingle: zero or one row).
create function public.calendar_feed(p_token text)
returns setof public.calendar_feed
language sql stable security invoker set search_path = ''
as $$ select * from private.calendar_feed(p_token) $$;

revoke execute on function public.calendar_feed(text) from public, anon, authenticated;

grant execute on function public.calendar_feed(text) to service_role;
