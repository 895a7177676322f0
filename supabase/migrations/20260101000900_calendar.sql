-- Private calendar feed: a member's secret token makes their bookings readable as an .ics feed
-- (netlify/functions/calendar-feed.ts) without signing in, as calendar apps require. Rotating the
-- token revokes the old URL; null means no feed.

-- 32 random bytes, base64url without padding (43 characters).
create function private.new_calendar_token()
returns text
language sql volatile set search_path = ''
as $$ select rtrim(translate(encode(extensions.gen_random_bytes(32), 'base64'), '+/', '-_'), '=') $$;

revoke execute on function private.new_calendar_token() from public;

-- A new secret for the caller's feed (the previous URL stops working). Returns { calendar_token }.
create function public.rotate_calendar_token()
returns json
language plpgsql security definer set search_path = ''
as $$
declare
  v_token text := private.new_calendar_token();
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  update public.members set calendar_token = v_token where user_id = (select auth.uid());
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return json_build_object('calendar_token', v_token);
end;
$$;

-- Turns the caller's feed off. Returns { calendar_token: null }.
create function public.revoke_calendar_token()
returns json
language plpgsql security definer set search_path = ''
as $$
begin
  if (select auth.uid()) is null then
    raise exception 'Please sign in first.' using errcode = '28000', hint = 'not_authenticated';
  end if;
  update public.members set calendar_token = null where user_id = (select auth.uid());
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return json_build_object('calendar_token', null);
end;
$$;

-- Service role (the feed function): the member's confirmed bookings of classes not yet ended, or
-- null for an unknown or revoked token:
-- { member_name, events: [{ booking_id, class_id, name, description, trainer, start_time, duration }] }
create function public.calendar_feed(p_token text)
returns json
language sql stable security definer set search_path = ''
as $$
  select json_build_object(
    'member_name', m.name,
    'events', coalesce((
      select json_agg(json_build_object(
               'booking_id', b.id, 'class_id', c.id, 'name', c.name, 'description', c.description,
               'trainer', c.trainer, 'start_time', c.start_time, 'duration', c.duration)
             order by c.start_time, c.id)
        from public.bookings b
        join public.classes c on c.id = b.class_id
       where b.member_id = m.id
         and b.payment_status = 'completed'
         and c.start_time + make_interval(mins => c.duration) > now()), '[]'::json))
    from public.members m
   where p_token is not null and m.calendar_token = p_token
$$;

revoke execute on function public.rotate_calendar_token(), public.revoke_calendar_token(), public.calendar_feed(text)
  from public, anon, authenticated;
grant execute on function public.rotate_calendar_token(), public.revoke_calendar_token() to authenticated;
grant execute on function public.calendar_feed(text) to service_role;
