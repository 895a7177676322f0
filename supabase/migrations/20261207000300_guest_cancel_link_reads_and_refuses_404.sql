-- A guest's cancel page named the class only after cancelling, and a used (or unknown) link
-- answered 500: guest_not_found was raised as P0002, which PostgREST answers 500. Now
-- guest_place_by_token(p_token) reads the place before the guest confirms (the class, its time,
-- the host), and guest_not_found is PT404 (PostgREST answers 404) on the cancel link, this read
-- and the waiver link. The definitions are those of supabase/schemas/14_guests.sql and
-- supabase/schemas/17_consent.sql.

create function private.guest_place_for_link(p_token text)
returns public.guest_places
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_place public.guest_places;
begin
  select * into v_place from public.guest_places where cancel_token = coalesce(p_token, '');
  if v_place.id is null then
    raise exception 'This guest place has already been cancelled, or the link is not complete'
      using errcode = 'PT404', hint = 'guest_not_found';
  end if;
  return v_place;
end;
$$;

revoke execute on function private.guest_place_for_link(text) from public;

create function private.guest_place_by_token(p_token text)
returns public.guest_place_view
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_view public.guest_place_view := private.guest_place_view(private.guest_place_for_link(p_token), false);
begin
  if v_view.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  return v_view;
end;
$$;

revoke execute on function private.guest_place_by_token(text) from public;

grant execute on function private.guest_place_by_token(text) to anon, authenticated;

create or replace function private.cancel_guest_place(p_token text)
returns public.guest_place_view
language plpgsql security definer set search_path = ''
as $$
declare
  v_place public.guest_places := private.guest_place_for_link(p_token);
  v_view public.guest_place_view;
begin
  perform 1 from public.classes where id = v_place.class_id for update;
  -- Again under the class's lock: the link pressed twice at once cancels once, and the second
  -- press is told the place is gone.
  v_place := private.guest_place_for_link(p_token);
  v_view := private.guest_place_view(v_place, true);
  if v_view.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  delete from public.guest_places where id = v_place.id;
  -- The host is told (the guest is, by the delete's trigger), after the delete decided what came back.
  perform private.enqueue_guest_email('host_guest_cancelled', v_place);
  return v_view;
end;
$$;

create or replace function private.guest_place_for_waiver(p_token text)
returns public.guest_places
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_place public.guest_places;
begin
  select * into v_place from public.guest_places
   where cancel_token = coalesce(p_token, '') and payment_status = 'completed';
  if v_place.id is null then
    raise exception 'This guest place has been cancelled, or the link is not complete'
      using errcode = 'PT404', hint = 'guest_not_found';
  end if;
  if (select c.start_time from public.classes c where c.id = v_place.class_id) <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  return v_place;
end;
$$;

create function public.guest_place_by_token(p_token text)
returns public.guest_place_view
language sql stable security invoker set search_path = ''
as $$ select * from private.guest_place_by_token(p_token) $$;

revoke execute on function public.guest_place_by_token(text) from public;

grant execute on function public.guest_place_by_token(text) to anon, authenticated;
