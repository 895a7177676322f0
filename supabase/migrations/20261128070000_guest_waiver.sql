-- Issue 27, guests: a guest signs the studio's current waiver through the link in their guest
-- email (the place's token); the register and the coach's roster show whose waiver is unsigned.
-- The invitation email links the signing page. (17_consent.sql, 14_guests.sql, 22_coaches.sql.)

-- Guests: the waiver from the email's link -----------------------------------------------------
-- A guest a member brings (14_guests.sql) is not a member and never signs in: they sign the
-- current waiver through the link in their invitation email, which carries their place's token
-- (guest_places.cancel_token, the cancel link's: unguessable, and nobody's to read).
--
-- Kept against the guest's email address and the exact version, not against the place: a guest
-- who comes again (up to guest_visits_per_year) under the same waiver is not asked twice, and a
-- signature outlives a cancelled place, as a member's does. The place whose link was used is
-- kept for the record. A newer waiver is a new document_id: the guest is unsigned again.
create table public.guest_waiver_signatures (
  id uuid primary key default gen_random_uuid(),
  -- Lower case, as guest_places stores it.
  guest_email text not null check (guest_email = lower(guest_email) and char_length(guest_email) <= 254),
  document_id uuid not null references public.document_versions (id) on delete restrict,
  -- The full name the guest typed as their signature.
  signed_name text not null check (char_length(btrim(signed_name)) between 2 and 200),
  signed_at timestamptz not null default now(),
  guest_place_id uuid references public.guest_places (id) on delete set null,
  constraint guest_waiver_signatures_guest_email_document_id_key unique (guest_email, document_id)
);

comment on table public.guest_waiver_signatures is
  'A guest''s signature of one waiver version (typed full name), from the link in their guest email (sign_guest_waiver).';

create index guest_waiver_signatures_document_id_idx on public.guest_waiver_signatures (document_id);

create index guest_waiver_signatures_guest_place_id_idx on public.guest_waiver_signatures (guest_place_id);

alter table public.guest_waiver_signatures enable row level security;

revoke all on public.guest_waiver_signatures from anon, authenticated;

grant select on public.guest_waiver_signatures to authenticated;

grant all on public.guest_waiver_signatures to service_role;

create policy "Admins read guests' signatures"
  on public.guest_waiver_signatures for select to authenticated
  using ((select private.is_admin()));

-- Whether this guest has signed the current waiver (true when none is published: it asks nothing).
create function private.guest_waiver_signed(p_email text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select not exists (
    select 1 from private.current_documents() d
     where d.kind = 'waiver'
       and not exists (select 1 from public.guest_waiver_signatures s where s.guest_email = lower(p_email) and s.document_id = d.id)
  )
$$;

revoke execute on function private.guest_waiver_signed(text) from public;

-- What the guest's waiver link shows: their class, who invited them, the current waiver (null
-- fields when none is published) and their signature of it (null until signed).
create type public.guest_waiver_view as (
  guest_name text,
  class_name text,
  start_time timestamptz,
  host_name text,
  document_id uuid,
  version integer,
  title text,
  body text,
  signed_name text,
  signed_at timestamptz
);

comment on type public.guest_waiver_view is 'A guest''s class and the current waiver, with their signature of it (guest_waiver, sign_guest_waiver).';

-- The guest place behind a waiver link, paid for and its class not started. Refusals (hint):
-- guest_not_found (no such token: cancelled, never paid for, or cut short), class_started.
create function private.guest_place_for_waiver(p_token text)
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
      using errcode = 'P0002', hint = 'guest_not_found';
  end if;
  if (select c.start_time from public.classes c where c.id = v_place.class_id) <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  return v_place;
end;
$$;

revoke execute on function private.guest_place_for_waiver(text) from public;

create function private.guest_waiver_of(p_place public.guest_places)
returns public.guest_waiver_view
language sql stable security definer set search_path = ''
as $$
  select v.guest_name, v.class_name, v.start_time, v.host_name, d.id, d.version, d.title, d.body, s.signed_name, s.signed_at
    from private.guest_place_view(p_place, false) v
    left join private.current_documents() d on d.kind = 'waiver'
    left join public.guest_waiver_signatures s on s.guest_email = p_place.guest_email and s.document_id = d.id
$$;

revoke execute on function private.guest_waiver_of(public.guest_places) from public;

-- Anyone holding the link (signed in or not) reads what to sign.
create function private.guest_waiver(p_token text)
returns public.guest_waiver_view
language sql stable security definer set search_path = ''
as $$ select * from private.guest_waiver_of(private.guest_place_for_waiver(p_token)) $$;

revoke execute on function private.guest_waiver(text) from public;

grant execute on function private.guest_waiver(text) to anon, authenticated;

-- Signs the current waiver (p_document_id, the version the guest read) with the typed full name.
-- Signing again keeps the first signature. Refusals (hint): guest_place_for_waiver's, no_waiver
-- (none published), signature_required (sign_documents' rule: 2 to 200 characters),
-- document_not_current (a newer version was published while the page was open).
create function private.sign_guest_waiver(p_token text, p_signed_name text, p_document_id uuid)
returns public.guest_waiver_view
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_place public.guest_places := private.guest_place_for_waiver(p_token);
  v_name text := btrim(coalesce(p_signed_name, ''));
  v_waiver uuid := (select d.id from private.current_documents() d where d.kind = 'waiver');
begin
  if v_waiver is null then
    raise exception 'The studio has no waiver for you to sign' using errcode = 'P0001', hint = 'no_waiver';
  end if;
  if char_length(v_name) < 2 or char_length(v_name) > 200 then
    raise exception 'Type your full name to sign' using errcode = '22023', hint = 'signature_required';
  end if;
  if p_document_id is distinct from v_waiver then
    raise exception 'This document has changed since you opened it: please read the new version'
      using errcode = 'P0001', hint = 'document_not_current';
  end if;
  insert into public.guest_waiver_signatures (guest_email, document_id, signed_name, guest_place_id)
  values (v_place.guest_email, v_waiver, v_name, v_place.id)
  on conflict (guest_email, document_id) do nothing;
  return private.guest_waiver_of(v_place);
end;
$$;

revoke execute on function private.sign_guest_waiver(text, text, uuid) from public;

grant execute on function private.sign_guest_waiver(text, text, uuid) to anon, authenticated;

create function public.guest_waiver(p_token text)
returns public.guest_waiver_view
language sql stable security invoker set search_path = ''
as $$ select * from private.guest_waiver(p_token) $$;

revoke execute on function public.guest_waiver(text) from public;

grant execute on function public.guest_waiver(text) to anon, authenticated;

create function public.sign_guest_waiver(p_token text, p_signed_name text, p_document_id uuid)
returns public.guest_waiver_view
language sql volatile security invoker set search_path = ''
as $$ select * from private.sign_guest_waiver(p_token, p_signed_name, p_document_id) $$;

revoke execute on function public.sign_guest_waiver(text, text, uuid) from public;

grant execute on function public.sign_guest_waiver(text, text, uuid) to anon, authenticated;

-- The register lists guests too (after their host), with the guest's waiver as documents_current.
alter type public.register_entry add attribute guest_place_id uuid, add attribute guest_of text;

comment on type public.register_entry is 'One booked member or guest on a class register, with emergency contact and PAR-Q flag (admin_class_register).';

create or replace function private.admin_class_register(p_class_id uuid)
returns setof public.register_entry
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
  select r.booking_id, r.member_id, r.name, r.email, r.phone, r.emergency_contact_name, r.emergency_contact_phone, r.date_of_birth,
         r.health_flag, r.health_yes, r.health_details, r.documents_current, r.dependant_id, r.parent_name, r.collected_by,
         r.medical_notes, r.guest_place_id, r.guest_of
    from (
    select b.id as booking_id, m.id as member_id, coalesce(d.name, m.name) as name, m.email::text as email, m.phone,
           m.emergency_contact_name, m.emergency_contact_phone,
           case when d.id is null then m.date_of_birth else d.date_of_birth end as date_of_birth,
           coalesce(private.health_flag(h.answers), false) as health_flag,
           coalesce((select array_agg(q.value #>> '{}' order by q.ordinality)
                       from jsonb_array_elements(v.questions) with ordinality q
                      where h.answers -> (q.ordinality::int - 1) = 'true'::jsonb), '{}') as health_yes,
           h.details as health_details,
           cardinality(private.missing_documents(m.id)) = 0
             and (d.id is null or cardinality(private.missing_dependant_documents(d.id)) = 0) as documents_current,
           d.id as dependant_id, case when d.id is not null then m.name end as parent_name, d.collected_by, d.medical_notes,
           null::uuid as guest_place_id, null::text as guest_of,
           m.name as sort_name, m.email::text as sort_email, 0 as sort_guest, d.id as sort_dependant, d.name as sort_sub
      from public.bookings b
      join public.members m on m.id = b.member_id
      left join public.dependants d on d.id = b.dependant_id
      -- The health answers of whoever takes the place: the child's (given by the parent) or the member's.
      left join lateral (
        select x.answers, x.details, x.document_id from public.health_answers x where d.id is null and x.member_id = m.id
        union all
        select y.answers, y.details, y.document_id from public.dependant_health_answers y where y.dependant_id = d.id
      ) h on true
      left join public.document_versions v on v.id = h.document_id
     where b.class_id = p_class_id
    union all
    -- Each guest a member brought (paid for), after their host: documents_current is the guest's
    -- signature of the current waiver from their email's link (guest_waiver_signed).
    select g.host_booking_id, m.id, g.guest_name, g.guest_email, null::text, null::text, null::text, null::date,
           false, '{}'::text[], null::text, private.guest_waiver_signed(g.guest_email),
           null::uuid, null::text, null::text, null::text,
           g.id, coalesce(nullif(btrim(m.name), ''), split_part(m.email::text, '@', 1)),
           m.name, m.email::text, 1, null::uuid, g.guest_name
      from public.guest_places g
      join public.members m on m.id = g.host_member_id
     where g.class_id = p_class_id and g.payment_status = 'completed'
  ) r
   order by r.sort_name nulls last, r.sort_email, r.sort_guest, r.sort_dependant nulls first, r.sort_sub;
end;
$$;

revoke execute on function private.admin_class_register(uuid) from public;

grant execute on function private.admin_class_register(uuid) to authenticated;

create or replace function private.enqueue_guest_email(p_kind text, p_place public.guest_places)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_host text;
  v_when text;
  v_subject text;
  v_body text;
  v_links jsonb := '[]'::jsonb;
  v_id uuid;
begin
  select * into v_class from public.classes where id = p_place.class_id;
  if not found then
    return null;
  end if;
  v_host := coalesce((select nullif(btrim(m.name), '') from public.members m where m.id = p_place.host_member_id), 'A member');
  v_when := private.london_time_text(v_class.start_time);
  case p_kind
    when 'guest_invited' then
      v_subject := 'You are booked on ' || v_class.name || ' as ' || v_host || '''s guest, ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        v_host || ' has booked you a place on ' || v_class.name || ' with ' || v_class.trainer || ' as their guest.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.studio_address(),
        'Please arrive 10 minutes early. Cannot come? Cancel with the link below so someone else can have the place.');
      v_links := jsonb_build_array(jsonb_build_object('label', 'Cancel my guest place',
                                                      'path', '/guest/cancel?token=' || p_place.cancel_token));
      -- The studio's waiver, when it has one (17_consent.sql): the guest signs it from this link
      -- before the class (the same token), unless they already signed this version as a guest.
      if not private.guest_waiver_signed(p_place.guest_email) then
        v_body := v_body || E'\n\n' || 'Before the class, please read and sign the studio''s waiver with the link below: '
          || 'you cannot take part until you have signed it.';
        v_links := jsonb_build_array(jsonb_build_object('label', 'Sign the waiver', 'path', '/guest/waiver?token=' || p_place.cancel_token))
          || v_links;
      end if;
    when 'guest_cancelled' then
      v_subject := 'Guest place cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        'Your guest place on ' || v_class.name || ' (' || v_when || ', London time) with ' || v_host || ' has been cancelled.');
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;
  insert into public.notification_outbox (kind, to_email, class_id, subject, body_text, links, dedupe_key)
  values (p_kind, p_place.guest_email, v_class.id, v_subject, v_body, v_links, p_kind || ':' || p_place.id)
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

revoke execute on function private.enqueue_guest_email(text, public.guest_places) from public;

create or replace function private.coach_class_roster(p_class_id uuid)
returns setof public.coach_roster_entry
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_class public.classes := private.require_coach_of(p_class_id);
begin
  return query
  select r.* from (
    select b.id, coalesce(nullif(btrim(m.name), ''), split_part(m.email::text, '@', 1)), null::text, b.attendance,
           b.payment_status = 'pending', m.phone, m.emergency_contact_name, m.emergency_contact_phone, m.date_of_birth,
           coalesce(private.health_flag(h.answers), false),
           coalesce((select array_agg(q.value #>> '{}' order by q.ordinality)
                       from jsonb_array_elements(v.questions) with ordinality q
                      where h.answers -> (q.ordinality::int - 1) = 'true'::jsonb), '{}'),
           h.details,
           cardinality(private.missing_documents(m.id)) = 0
      from public.bookings b
      join public.members m on m.id = b.member_id
      left join public.health_answers h on h.member_id = m.id
      left join public.document_versions v on v.id = h.document_id
     where b.class_id = v_class.id
    union all
    select null::uuid, g.guest_name, coalesce(nullif(btrim(m.name), ''), split_part(m.email::text, '@', 1)), null::public.attendance_status,
           g.payment_status = 'pending', null::text, null::text, null::text, null::date, false, '{}'::text[], null::text,
           private.guest_waiver_signed(g.guest_email)
      from public.guest_places g
      join public.members m on m.id = g.host_member_id
     where g.class_id = v_class.id
  ) r (booking_id, name, guest_of, attendance, pending, phone, emergency_contact_name, emergency_contact_phone, date_of_birth,
       health_flag, health_yes, health_details, documents_current)
  order by coalesce(r.guest_of, r.name), r.guest_of nulls first, r.name;
end;
$$;

revoke execute on function private.coach_class_roster(uuid) from public;

grant execute on function private.coach_class_roster(uuid) to authenticated;
