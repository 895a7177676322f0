-- add_guest answered the whole guest_places row, cancel_token included: the host could then cancel
-- the guest's place and sign the waiver as the guest with it. The token is the guest's only
-- credential and goes to their inbox alone, so add_guest and remove_guest now answer
-- public.guest_place, the row without the token (the columns the host may read anyway).
drop function public.add_guest(uuid, text, text);
drop function public.remove_guest(uuid);
drop function private.add_guest(uuid, text, text);
drop function private.remove_guest(uuid);

-- A guest place as its host and the admins see it: every column they may read (the select grant on
-- guest_places) and never cancel_token, which is the guest's only credential. Whoever holds it
-- cancels the place and signs the waiver as the guest, so only the guest's inbox gets it (the
-- invitation's links); the member RPCs answer this instead of the table's row.
create type public.guest_place as (
  id uuid,
  class_id uuid,
  host_booking_id uuid,
  host_member_id uuid,
  guest_name text,
  guest_email text,
  credit_id uuid,
  created_at timestamptz,
  payment_status text,
  hold_expires_at timestamptz,
  payment_id uuid
);

comment on type public.guest_place is
  'A guest place without its cancel token (the guest''s own link): what add_guest and remove_guest answer the host.';

create function private.guest_place_for_host(p_place public.guest_places)
returns public.guest_place
language sql immutable set search_path = ''
as $$
  select (p_place.id, p_place.class_id, p_place.host_booking_id, p_place.host_member_id, p_place.guest_name,
          p_place.guest_email, p_place.credit_id, p_place.created_at, p_place.payment_status, p_place.hold_expires_at,
          p_place.payment_id)::public.guest_place
$$;

revoke execute on function private.guest_place_for_host(public.guest_places) from public;

-- With the caller's guest pass that expires first among those valid when the class starts, in one
-- transaction. Refusals: lock_class_for_guest's, and no_guest_pass.
create function private.add_guest(p_booking_id uuid, p_name text, p_email text)
returns public.guest_place
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_class public.classes := private.lock_class_for_guest(v_member.id, p_booking_id, p_name, p_email);
  v_pass uuid;
  v_place public.guest_places;
begin
  select cr.id into v_pass from public.credits cr
   where cr.member_id = v_member.id and cr.kind = 'guest_pass' and private.credit_usable(cr, v_class.start_time)
   order by cr.expires_at, cr.id
   limit 1
   for update;
  if v_pass is null then
    raise exception 'You have no guest pass valid on that day' using errcode = 'P0001', hint = 'no_guest_pass';
  end if;

  insert into public.guest_places (class_id, host_booking_id, host_member_id, guest_name, guest_email, credit_id)
  values (v_class.id, p_booking_id, v_member.id, btrim(p_name), lower(btrim(p_email)), v_pass)
  returning * into v_place;
  update public.credits set used_at = now() where id = v_pass;
  perform private.enqueue_guest_email('guest_invited', v_place);
  return private.guest_place_for_host(v_place);
end;
$$;

revoke execute on function private.add_guest(uuid, text, text) from public;

grant execute on function private.add_guest(uuid, text, text) to authenticated;

-- The host (or an admin) removes a guest place.
create function private.remove_guest(p_guest_place_id uuid)
returns public.guest_place
language plpgsql security definer set search_path = ''
as $$
declare
  v_place public.guest_places;
begin
  perform private.require_user_id();
  select * into v_place from public.guest_places where id = p_guest_place_id;
  if v_place.id is null or not (v_place.host_member_id = private.current_member_id() or private.is_admin()) then
    raise exception 'Guest place not found' using errcode = 'P0002', hint = 'guest_not_found';
  end if;
  perform 1 from public.classes where id = v_place.class_id for update;
  -- The studio removing someone else's guest: a paid place is owed back whenever it is.
  if v_place.host_member_id is distinct from private.current_member_id() then
    perform set_config('app.booking_removal', 'admin_cancelled', true);
  end if;
  delete from public.guest_places where id = v_place.id returning * into v_place;
  perform set_config('app.booking_removal', '', true);
  return private.guest_place_for_host(v_place);
end;
$$;

revoke execute on function private.remove_guest(uuid) from public;

grant execute on function private.remove_guest(uuid) to authenticated;

create function public.add_guest(p_booking_id uuid, p_name text, p_email text)
returns public.guest_place
language sql volatile security invoker set search_path = ''
as $$ select * from private.add_guest(p_booking_id, p_name, p_email) $$;

revoke execute on function public.add_guest(uuid, text, text) from public, anon;

grant execute on function public.add_guest(uuid, text, text) to authenticated;

create function public.remove_guest(p_guest_place_id uuid)
returns public.guest_place
language sql volatile security invoker set search_path = ''
as $$ select * from private.remove_guest(p_guest_place_id) $$;

revoke execute on function public.remove_guest(uuid) from public, anon;

grant execute on function public.remove_guest(uuid) to authenticated;
