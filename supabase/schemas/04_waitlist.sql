-- Waitlist: a member may join the waitlist of a full class; when a spot frees (a cancellation, a
-- lapsed payment hold, a member deleted, a larger capacity) the first eligible member in line is
-- booked in the same transaction, with book_class's own rules and tier transitions, and emailed.
-- The waitlist closes `waitlist_closes_before` the start: nobody is promoted too late to come.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Table ------------------------------------------------------------------------------------------
create table public.class_waitlist (
  id uuid primary key default gen_random_uuid(),
  class_id uuid not null references public.classes (id) on delete cascade,
  member_id uuid not null references public.members (id) on delete cascade,
  -- Order in line: an identity, so two members joining in the same instant still have an order.
  seq bigint generated always as identity,
  joined_at timestamptz not null default now(),
  -- The pay-as-you-go price a member with a saved card agreed, when joining, to be charged on
  -- promotion (28_attendance_policy.sql, decision 0081); null: the place costs nothing more.
  price numeric(10, 2) check (price > 0),
  constraint class_waitlist_member_id_class_id_key unique (member_id, class_id)
);

-- Triggers other domains add to public.class_waitlist: class_waitlist_require_documents
--  (17_consent.sql).

comment on table public.class_waitlist is 'Members waiting for a spot in a full class, first in line = lowest seq.';

create index class_waitlist_class_id_seq_idx on public.class_waitlist (class_id, seq);

alter table public.class_waitlist enable row level security;

-- Members join and leave only through join_waitlist / leave_waitlist; admins may remove a row.
revoke all on public.class_waitlist from anon, authenticated;

grant select, delete on public.class_waitlist to authenticated;

grant all on public.class_waitlist to service_role;

-- Promotion --------------------------------------------------------------------------------------
-- When the waitlist of a class closes.
create function private.waitlist_closes_at(p_class public.classes)
returns timestamptz
language sql immutable set search_path = ''
as $$ select p_class.start_time - p_class.waitlist_closes_before $$;

revoke execute on function private.waitlist_closes_at(public.classes) from public;

-- Fills the class's free spots from its waitlist, first in line first, skipping members the
-- booking would be refused to (the premium lock: they keep their place), members who would
-- have to pay per class without having agreed, when joining, to be charged with their saved card
-- (they keep their place too; those who agreed get a place held while the card is charged:
-- promote_paying, decision 0081) and members who withdrew their health answers since
-- joining (promotion_documents_refusal, 17_consent.sql; they keep their place and are promoted
-- once they answer again). Does nothing once the waitlist has closed. Each promoted member leaves
-- the line, gets book_class's tier transition and an email. Returns how many.
create function private.promote_waitlist(p_class_id uuid)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_entry public.class_waitlist;
  v_member public.members;
  v_refusal text;
  v_type public.booking_type;
  v_booking_id uuid;
  v_promoted integer := 0;
begin
  select * into v_class from public.classes where id = p_class_id for update;
  if not found or v_class.spots_left <= 0 or now() >= private.waitlist_closes_at(v_class) then
    return 0;
  end if;

  for v_entry in
    select * from public.class_waitlist where class_id = p_class_id order by seq
  loop
    exit when v_class.spots_left <= 0;
    -- Locked only once chosen: fewer member locks held, fewer chances to wait on a member's own booking.
    select * into v_member from public.members where id = v_entry.member_id;
    continue when not found;
    v_refusal := private.booking_refusal(v_member, v_class, null);
    if v_refusal = 'already_booked' then
      delete from public.class_waitlist where id = v_entry.id;
      continue;
    end if;
    continue when v_refusal is not null;
    -- The documents a promotion still needs (the bookings trigger admits a promotion, as it must
    -- not raise inside the cancellation that freed the place): skip, do not raise.
    continue when private.promotion_documents_refusal(v_member.id) is not null;
    continue when private.needs_payment(private.booking_type_for(v_member, null), v_class)
                  and not private.may_promote_paying(v_entry, v_member.id);

    -- NO KEY UPDATE: serialises with the member's own bookings (trial use) but not with rows
    -- that merely reference the member. With FOR UPDATE, two members each promoted into the
    -- other's cancelled class deadlocked on their own cancellation emails' foreign keys.
    select * into v_member from public.members where id = v_entry.member_id for no key update;
    v_type := private.booking_type_for(v_member, null);
    if private.needs_payment(v_type, v_class) then
      continue when not private.may_promote_paying(v_entry, v_member.id);
      -- A place held while the saved card is charged (28_attendance_policy.sql).
      perform private.promote_paying(v_entry, v_class);
      delete from public.class_waitlist where id = v_entry.id;
      v_promoted := v_promoted + 1;
      select * into v_class from public.classes where id = p_class_id;
      continue;
    end if;

    -- The documents rule admits this one promotion (bookings_require_documents, private.admit).
    perform private.admit('waitlist', v_entry.id);
    v_booking_id := private.create_booking(v_member.id, v_class.id, v_type);
    perform private.admit(null, null);
    delete from public.class_waitlist where id = v_entry.id;
    perform private.enqueue_class_email('waitlist_promoted', v_member.id, v_class.id, v_booking_id);
    v_promoted := v_promoted + 1;
    select * into v_class from public.classes where id = p_class_id;
  end loop;
  return v_promoted;
end;
$$;

revoke execute on function private.promote_waitlist(uuid) from public;

-- Any freed spot promotes: cancel_booking, an admin's delete, a lapsed or failed payment hold,
-- a deleted member. Runs after bookings_count_spots (triggers fire in name order), so spots_left
-- already counts the freed spot. A cascade from a deleted class finds no class and does nothing.
create function private.bookings_promote_waitlist()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.promote_waitlist(old.class_id);
  return null;
end;
$$;

revoke execute on function private.bookings_promote_waitlist() from public;

-- A larger capacity (or a later waitlist cut-off) may open spots to the line too.
create function private.classes_promote_waitlist()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.spots_left > 0 then
    perform private.promote_waitlist(new.id);
  end if;
  return null;
end;
$$;

revoke execute on function private.classes_promote_waitlist() from public;

create function private.waitlist_position(p_class_id uuid, p_seq bigint)
returns integer
language sql stable security definer set search_path = ''
as $$ select count(*)::int from public.class_waitlist w where w.class_id = p_class_id and w.seq <= p_seq $$;

revoke execute on function private.waitlist_position(uuid, bigint) from public;

-- Why the caller may not join this class's waitlist now, or null (join_waitlist's order and hints).
create function private.waitlist_refusal(p_member public.members, p_class public.classes)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_refusal text := private.booking_refusal(p_member, p_class, null);
begin
  if v_refusal in ('class_started', 'already_booked') then
    return v_refusal;
  end if;
  if exists (select 1 from public.class_waitlist w where w.member_id = p_member.id and w.class_id = p_class.id) then
    return 'already_waitlisted';
  end if;
  if now() >= private.waitlist_closes_at(p_class) then
    return 'waitlist_closed';
  end if;
  if v_refusal = 'class_locked' then
    return v_refusal;
  end if;
  if v_refusal is null then
    return 'class_not_full';
  end if;
  -- Pay-as-you-go waits only with a saved card to charge on promotion (decision 0081).
  if private.needs_payment(private.booking_type_for(p_member, null), p_class)
     and not exists (select 1 from private.member_cards c where c.member_id = p_member.id) then
    return 'waitlist_payment_required';
  end if;
  return null;
end;
$$;

revoke execute on function private.waitlist_refusal(public.members, public.classes) from public;

-- Raises a waitlist refusal with the contract's SQLSTATE and message (booking hints as book_class).
create function private.raise_waitlist_refusal(p_hint text, p_class public.classes, p_member public.members)
returns void
language plpgsql volatile set search_path = ''
as $$
begin
  case p_hint
    when 'already_waitlisted' then
      raise exception 'You are already on the waitlist for this class' using errcode = '23505', hint = p_hint;
    when 'waitlist_closed' then
      raise exception 'The waitlist for this class has closed' using errcode = 'P0001', hint = p_hint;
    when 'class_not_full' then
      raise exception 'This class still has spots. Book it instead.' using errcode = 'P0001', hint = p_hint;
    when 'waitlist_payment_required' then
      raise exception 'Pay-as-you-go bookings cannot wait on the waitlist. Book when a spot opens.'
        using errcode = 'P0001', hint = p_hint;
    else
      perform private.raise_booking_refusal(p_hint, p_class, p_member);
  end case;
end;
$$;

revoke execute on function private.raise_waitlist_refusal(text, public.classes, public.members) from public;

-- Waitlist RPCs --------------------------------------------------------------------------------
-- The caller's place in a class's line.
create type public.waitlist_joined as (
  class_id uuid,
  position integer,
  waitlist_size integer,
  closes_at timestamptz,
  -- Charged to the saved card on promotion (pay-as-you-go); null: nothing to pay.
  price numeric
);

create type public.waitlist_left as (
  class_id uuid,
  "left" boolean
);

-- One of the caller's waitlist places (my_waitlist).
create type public.waitlist_spot as (
  class_id uuid,
  position integer,
  waitlist_size integer,
  joined_at timestamptz,
  closes_at timestamptz,
  is_closed boolean
);

-- Joins a full class's waitlist (refusals in waitlist_refusal's order). A member who would pay
-- per class (with a saved card) joins at the class's price, charged on promotion (decision 0081).
create function private.join_waitlist(p_class_id uuid)
returns public.waitlist_joined
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_refusal text;
  v_seq bigint;
  v_price numeric;
begin
  perform private.require_user_id();
  -- A lapsed hold frees a spot (and promotes) before we decide the class is full.
  perform private.release_expired_holds();
  v_member := private.require_member();
  -- Same lock as promotions and bookings: the line cannot change under us.
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;

  v_refusal := private.waitlist_refusal(v_member, v_class);
  if v_refusal is not null then
    perform private.raise_waitlist_refusal(v_refusal, v_class, v_member);
  end if;

  insert into public.class_waitlist (class_id, member_id, price)
  values (v_class.id, v_member.id,
          case when private.needs_payment(private.booking_type_for(v_member, null), v_class) then v_class.price_payg end)
  returning seq, price into v_seq, v_price;

  return (v_class.id, private.waitlist_position(v_class.id, v_seq),
          (select count(*)::int from public.class_waitlist w where w.class_id = v_class.id),
          private.waitlist_closes_at(v_class), v_price)::public.waitlist_joined;
end;
$$;

revoke execute on function private.join_waitlist(uuid) from public;

grant execute on function private.join_waitlist(uuid) to authenticated;

create function private.leave_waitlist(p_class_id uuid)
returns public.waitlist_left
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := (private.require_member()).id;
begin
  -- The class row first, as a promotion does, so leaving and being promoted cannot cross.
  perform 1 from public.classes where id = p_class_id for update;
  delete from public.class_waitlist where class_id = p_class_id and member_id = v_member_id;
  if not found then
    raise exception 'You are not on the waitlist for this class' using errcode = 'P0002', hint = 'not_on_waitlist';
  end if;
  return (p_class_id, true)::public.waitlist_left;
end;
$$;

revoke execute on function private.leave_waitlist(uuid) from public;

grant execute on function private.leave_waitlist(uuid) to authenticated;

-- The caller's waitlist places for classes not yet started, soonest class first.
create function private.my_waitlist()
returns setof public.waitlist_spot
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member_id uuid;
begin
  perform private.require_user_id();
  v_member_id := private.current_member_id();
  return query
    select c.id,
           private.waitlist_position(c.id, w.seq),
           (select count(*)::int from public.class_waitlist x where x.class_id = c.id),
           w.joined_at,
           private.waitlist_closes_at(c),
           now() >= private.waitlist_closes_at(c)
      from public.class_waitlist w
      join public.classes c on c.id = w.class_id
     where w.member_id = v_member_id and c.start_time > now()
     order by c.start_time, c.id;
end;
$$;

revoke execute on function private.my_waitlist() from public;

grant execute on function private.my_waitlist() to authenticated;

-- API --------------------------------------------------------------------------------------------
create function public.join_waitlist(p_class_id uuid)
returns public.waitlist_joined
language sql volatile security invoker set search_path = ''
as $$ select * from private.join_waitlist(p_class_id) $$;

revoke execute on function public.join_waitlist(uuid) from public, anon;

grant execute on function public.join_waitlist(uuid) to authenticated;

create function public.leave_waitlist(p_class_id uuid)
returns public.waitlist_left
language sql volatile security invoker set search_path = ''
as $$ select * from private.leave_waitlist(p_class_id) $$;

revoke execute on function public.leave_waitlist(uuid) from public, anon;

grant execute on function public.leave_waitlist(uuid) to authenticated;

create function public.my_waitlist()
returns setof public.waitlist_spot
language sql stable security invoker set search_path = ''
as $$ select * from private.my_waitlist() $$;

revoke execute on function public.my_waitlist() from public, anon;

grant execute on function public.my_waitlist() to authenticated;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own waitlist rows; admins read all"
  on public.class_waitlist for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create policy "Admins remove members from waitlists"
  on public.class_waitlist for delete to authenticated
  using ((select private.is_admin()));

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger bookings_promote_waitlist
  after delete on public.bookings
  for each row execute function private.bookings_promote_waitlist();

create trigger classes_promote_waitlist
  after update of capacity, waitlist_closes_before on public.classes
  for each row execute function private.classes_promote_waitlist();
