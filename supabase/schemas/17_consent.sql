-- Who is in the room (decision 0021): the studio's documents (terms of membership, privacy notice,
-- cookie notice, liability waiver, PAR-Q health questions) as versions an admin publishes; a
-- member's signature of the terms and waiver (typed full name) and their PAR-Q answers, each
-- against the exact version; and the rule that nobody books without the current ones, enforced
-- by a trigger on every booking row whatever path inserts it (decision 0021).
--
-- Health answers are UK GDPR special-category data: kept only with the member's explicit,
-- separate consent, readable by the member and admins only, withdrawn by deleting them.
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- Documents -------------------------------------------------------------------------------------
-- child_parq: the children's health questionnaire a parent answers for each child (decision 0093);
-- children never answer the adult PAR-Q.
create type public.document_kind as enum ('terms', 'privacy', 'cookies', 'waiver', 'parq', 'child_parq');

create table public.document_versions (
  id uuid primary key default gen_random_uuid(),
  kind public.document_kind not null,
  version integer not null check (version >= 1),
  title text not null check (char_length(btrim(title)) between 1 and 200),
  -- Plain text; a blank line starts a new paragraph.
  body text not null check (char_length(btrim(body)) between 1 and 50000),
  -- The health questionnaires' yes/no questions in order (a JSON array of strings): the adult
  -- PAR-Q's and the children's; null on every other kind.
  questions jsonb,
  -- What changed from the previous version, shown to members asked to sign again.
  summary text check (char_length(summary) <= 500),
  published_at timestamptz not null default now(),
  published_by uuid references public.members (id) on delete set null,
  constraint document_versions_kind_version_key unique (kind, version),
  constraint document_versions_questions_only_parq check (
    (kind::text in ('parq', 'child_parq')) = (questions is not null)
    and (questions is null or (jsonb_typeof(questions) = 'array' and jsonb_array_length(questions) between 1 and 30))
  )
);

comment on table public.document_versions is
  'Every published version of the studio''s documents; the highest version of a kind is the current one.';

alter table public.document_versions enable row level security;

revoke all on public.document_versions from anon, authenticated;

-- Published documents are public (the footer links them); admins publish through publish_document.
grant select on public.document_versions to anon, authenticated;

grant all on public.document_versions to service_role;

create policy "Everyone reads published documents"
  on public.document_versions for select to anon, authenticated
  using (true);

-- The kinds a member must have accepted (terms, waiver) or answered (parq) before booking.
create function private.booking_document_kinds()
returns public.document_kind[]
language sql immutable set search_path = ''
as $$ select array['terms', 'waiver', 'parq']::public.document_kind[] $$;

revoke execute on function private.booking_document_kinds() from public;

-- The current (highest) version of each kind that has one.
create function private.current_documents()
returns setof public.document_versions
language plpgsql stable security definer set search_path = ''
as $$
begin
  return query select distinct on (d.kind) d.* from public.document_versions d order by d.kind, d.version desc;
end;
$$;

revoke execute on function private.current_documents() from public;

-- Signatures and answers ------------------------------------------------------------------------
create table public.document_acceptances (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  document_id uuid not null references public.document_versions (id) on delete restrict,
  -- The full name the member typed as their signature.
  signed_name text not null check (char_length(btrim(signed_name)) between 2 and 200),
  accepted_at timestamptz not null default now(),
  constraint document_acceptances_member_id_document_id_key unique (member_id, document_id)
);

comment on table public.document_acceptances is
  'A member''s signature of one document version (terms, waiver, and the PAR-Q they answered): kept when a newer version is published.';

create index document_acceptances_document_id_idx on public.document_acceptances (document_id);

alter table public.document_acceptances enable row level security;

revoke all on public.document_acceptances from anon, authenticated;

grant select on public.document_acceptances to authenticated;

grant all on public.document_acceptances to service_role;

create policy "Members read their own signatures; admins read all"
  on public.document_acceptances for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- The member's current PAR-Q answers (one row; an update replaces it, a withdrawal deletes it).
create table public.health_answers (
  member_id uuid primary key references public.members (id) on delete cascade,
  -- The PAR-Q version answered.
  document_id uuid not null references public.document_versions (id) on delete restrict,
  -- One boolean per question of that version, in order (true = yes).
  answers jsonb not null check (jsonb_typeof(answers) = 'array'),
  -- Anything the member wants the coach to know (a yes answer's details).
  details text check (char_length(details) <= 2000),
  -- When the member gave explicit consent to the studio keeping these answers.
  consented_at timestamptz not null,
  answered_at timestamptz not null default now(),
  signed_name text not null check (char_length(btrim(signed_name)) between 2 and 200)
);

comment on table public.health_answers is
  'A member''s PAR-Q answers (UK GDPR special-category data): the member and admins read them; withdrawn = deleted.';

create index health_answers_document_id_idx on public.health_answers (document_id);

alter table public.health_answers enable row level security;

revoke all on public.health_answers from anon, authenticated;

grant select on public.health_answers to authenticated;

grant all on public.health_answers to service_role;

create policy "Members read their own health answers; admins read all"
  on public.health_answers for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Any yes answer: the roster flags the member so the coach can ask.
create function private.health_flag(p_answers jsonb)
returns boolean
language sql immutable set search_path = ''
as $$ select coalesce(p_answers @> '[true]'::jsonb, false) $$;

revoke execute on function private.health_flag(jsonb) from public;

-- Profile: date of birth and emergency contact ---------------------------------------------------
-- The columns are public.members' (01_members.sql); the rule on the date is here.
-- A date of birth in the future (London's today) is refused, whoever writes it.
create function private.members_check_date_of_birth()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.date_of_birth > (now() at time zone 'Europe/London')::date then
    raise exception 'Date of birth cannot be in the future' using errcode = '22007', hint = 'date_of_birth_in_future';
  end if;
  return new;
end;
$$;

revoke execute on function private.members_check_date_of_birth() from public;

-- The rule: no booking without the current documents ---------------------------------------------
-- The kinds (in booking_document_kinds order) whose current version this member has not accepted
-- (terms, waiver) or answered (parq). A kind nothing has been published for asks nothing.
create function private.missing_documents(p_member_id uuid)
returns public.document_kind[]
language plpgsql stable security definer set search_path = ''
as $$
begin
  return (
    select coalesce(array_agg(d.kind order by array_position(private.booking_document_kinds(), d.kind)), '{}')
      from private.current_documents() d
     where d.kind = any (private.booking_document_kinds())
       and not case d.kind
         when 'parq' then exists (select 1 from public.health_answers h where h.member_id = p_member_id and h.document_id = d.id)
         else exists (select 1 from public.document_acceptances a where a.member_id = p_member_id and a.document_id = d.id)
       end);
end;
$$;

revoke execute on function private.missing_documents(uuid) from public;

-- Raises the refusal: first time, or a newer version to sign again.
create function private.raise_documents_required(p_member_id uuid)
returns void
language plpgsql stable security definer set search_path = ''
as $$
begin
  if exists (select 1 from public.document_acceptances a where a.member_id = p_member_id) then
    raise exception 'We have updated our terms, waiver or health questions: please read and sign them before booking'
      using errcode = 'P0001', hint = 'documents_required';
  end if;
  raise exception 'Before your first class, please read and sign our terms and waiver and answer the health questions'
    using errcode = 'P0001', hint = 'documents_required';
end;
$$;

revoke execute on function private.raise_documents_required(uuid) from public;

-- The one insert a path admits in this transaction past the documents rule (bookings_require_documents):
-- 'waitlist' and the waitlist entry being promoted, or 'payment' and the payment being applied.
-- Transaction-local, set just before that insert and cleared after it; no API call can set it.
create function private.admit(p_kind text, p_id uuid)
returns void
language sql volatile set search_path = ''
as $$ select set_config('studio.admitting', coalesce(p_kind || ':' || p_id::text, ''), true) $$;

revoke execute on function private.admit(text, uuid) from public;

-- The id the current transaction admits for p_kind (private.admit), or null.
create function private.admitted(p_kind text)
returns uuid
language plpgsql stable set search_path = ''
as $$
begin
  return case when split_part(current_setting('studio.admitting', true), ':', 1) = p_kind
              then nullif(split_part(current_setting('studio.admitting', true), ':', 2), '')::uuid end;
end;
$$;

revoke execute on function private.admitted(text) from public;

-- BEFORE INSERT on bookings: book_class, a credit booking, a payment hold, anything else. Two
-- inserts were agreed to earlier and go through, each named by the exact case (private.admit), never
-- by what the member has done before: a waitlist promotion (joining the waitlist needed the
-- documents; promote_waitlist itself passes over a member whose PAR-Q answers are gone) and the one
-- place apply_paid_checkout takes for a class paid after its hold lapsed (the hold needed them; the
-- money is already taken).
create function private.bookings_require_documents()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- A child's place: the child's waiver and health answers are bookings_check_dependant's
  -- (21_families.sql). The parent is not in the room, so only the terms they book under are
  -- asked of them, never their own waiver or PAR-Q (an adult's health answers on a child's place).
  if new.dependant_id is not null then
    if 'terms' = any (private.missing_documents(new.member_id)) then
      perform private.raise_documents_required(new.member_id);
    end if;
    return new;
  end if;
  if (exists (select 1 from public.class_waitlist w
                   where w.id = private.admitted('waitlist') and w.member_id = new.member_id and w.class_id = new.class_id)
          or (new.payment_status = 'completed'
              and exists (select 1 from public.payments p
                           where p.id = private.admitted('payment') and p.member_id = new.member_id and p.class_id = new.class_id))) then
    return new;
  end if;
  if cardinality(private.missing_documents(new.member_id)) > 0 then
    perform private.raise_documents_required(new.member_id);
  end if;
  return new;
end;
$$;

revoke execute on function private.bookings_require_documents() from public;

-- Why a waitlisted member may not be moved into a place now as far as the documents go, or null:
-- documents_required when a PAR-Q is published and the studio holds no answers of theirs (they
-- withdrew them since joining). bookings_require_documents lets a promotion's insert through, as
-- refusing there would roll back the cancellation that freed the place, so promote_waitlist asks
-- this first and skips them (they keep their place in line, as for the premium lock) to promote
-- the next. A version published since they joined does not stop them (decision 0021: they signed
-- when joining, and answers of an older PAR-Q are still answers the coach can read); withdrawn
-- answers do: nobody is in the room without a PAR-Q the studio holds.
create function private.promotion_documents_refusal(p_member_id uuid)
returns text
language sql stable security definer set search_path = ''
as $$
  select 'documents_required'
   where exists (select 1 from private.current_documents() d where d.kind = 'parq')
     and not exists (select 1 from public.health_answers h where h.member_id = p_member_id)
$$;

revoke execute on function private.promotion_documents_refusal(uuid) from public;

-- BEFORE INSERT on the waitlist: a place in line becomes a booking without asking again.
create function private.waitlist_require_documents()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if cardinality(private.missing_documents(new.member_id)) > 0 then
    perform private.raise_documents_required(new.member_id);
  end if;
  return new;
end;
$$;

revoke execute on function private.waitlist_require_documents() from public;

-- Member RPCs ------------------------------------------------------------------------------------
-- One booking document as the caller stands with it.
create type public.my_document as (
  kind public.document_kind,
  document_id uuid,
  version integer,
  title text,
  summary text,
  -- The version the caller last accepted (or answered, for the PAR-Q), and when; null if never.
  accepted_version integer,
  accepted_at timestamptz,
  -- The current version is accepted (or answered).
  is_current boolean
);

comment on type public.my_document is 'A document the caller must accept before booking, and where they stand (my_documents).';

-- The current terms, waiver and PAR-Q with the caller's latest signature of each.
create function private.my_documents()
returns setof public.my_document
language sql stable security definer set search_path = ''
as $$
  select d.kind, d.id, d.version, d.title, d.summary, last.version, last.accepted_at,
         not (d.kind = any (private.missing_documents(m.id)))
    from private.current_documents() d
    cross join (select * from public.members where user_id = private.require_user_id()) m
    left join lateral (
      select v.version, a.accepted_at from public.document_acceptances a
        join public.document_versions v on v.id = a.document_id
       where a.member_id = m.id and v.kind = d.kind
       order by v.version desc limit 1
    ) last on true
   where d.kind = any (private.booking_document_kinds())
   order by array_position(private.booking_document_kinds(), d.kind)
$$;

revoke execute on function private.my_documents() from public;

grant execute on function private.my_documents() to authenticated;

-- A typed name as a signature compares: lower case, without spaces or punctuation (a phone's
-- curly apostrophe, a hyphen, a full stop), Unicode-normalised so an accent typed either way is
-- one letter. The /agreements form compares the same way (src/features/documents/lib/sign-form.ts).
create function private.signature_key(p_name text)
returns text
language sql immutable set search_path = ''
as $$ select regexp_replace(lower(normalize(coalesce(p_name, ''), nfc)), '[[:space:][:punct:]]', '', 'g') $$;

revoke execute on function private.signature_key(text) from public;

-- Signs the given current versions (terms, waiver, PAR-Q) with the typed full name; with the
-- PAR-Q, stores the answers (one boolean per question) and details, which needs the explicit
-- health consent. A version that is no longer current (the page was open while an admin
-- published) is refused, so a member never signs what they did not read. The typed name must be
-- the name on the member's account (signature_key): a signature in someone else's name is not the
-- member's (signature_mismatch); an account without a name is asked for one first
-- (account_name_required), as there is nothing to sign against.
create function private.sign_documents(
  p_signed_name text, p_document_ids uuid[], p_answers jsonb, p_details text, p_health_consent boolean
)
returns setof public.my_document
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_name text := btrim(coalesce(p_signed_name, ''));
  v_doc public.document_versions;
  v_id uuid;
begin
  if char_length(v_name) < 2 or char_length(v_name) > 200 then
    raise exception 'Type your full name to sign' using errcode = '22023', hint = 'signature_required';
  end if;
  if private.signature_key(v_member.name) = '' then
    raise exception 'Your account has no name yet: add your full name to your profile, then sign with it.'
      using errcode = '22023', hint = 'account_name_required';
  end if;
  if private.signature_key(v_name) <> private.signature_key(v_member.name) then
    raise exception 'Type the name on your account to sign: %. If that is not your full name, change it in Edit Profile first.',
      btrim(v_member.name) using errcode = '22023', hint = 'signature_mismatch';
  end if;
  if coalesce(cardinality(p_document_ids), 0) = 0 then
    raise exception 'Nothing to sign' using errcode = '22023', hint = 'nothing_to_sign';
  end if;
  foreach v_id in array p_document_ids loop
    select c.* into v_doc from private.current_documents() c where c.id = v_id;
    if v_doc.id is null or not (v_doc.kind = any (private.booking_document_kinds())) then
      raise exception 'This document has changed since you opened it: please read the new version'
        using errcode = 'P0001', hint = 'document_not_current';
    end if;
    if v_doc.kind = 'parq' then
      if not coalesce(p_health_consent, false) then
        raise exception 'Please consent to us keeping your health answers' using errcode = 'P0001', hint = 'health_consent_required';
      end if;
      if p_answers is null or jsonb_typeof(p_answers) <> 'array'
         or jsonb_array_length(p_answers) <> jsonb_array_length(v_doc.questions)
         or exists (select 1 from jsonb_array_elements(p_answers) e where jsonb_typeof(e) <> 'boolean') then
        raise exception 'Please answer every health question' using errcode = '22023', hint = 'answers_incomplete';
      end if;
      if char_length(p_details) > 2000 then
        raise exception 'Please keep the details under 2000 characters' using errcode = '22023', hint = 'details_too_long';
      end if;
      insert into public.health_answers (member_id, document_id, answers, details, consented_at, answered_at, signed_name)
      values (v_member.id, v_doc.id, p_answers, nullif(btrim(p_details), ''), now(), now(), v_name)
      on conflict (member_id) do update
        set document_id = excluded.document_id, answers = excluded.answers, details = excluded.details,
            consented_at = excluded.consented_at, answered_at = excluded.answered_at, signed_name = excluded.signed_name;
    end if;
    insert into public.document_acceptances (member_id, document_id, signed_name)
    values (v_member.id, v_doc.id, v_name)
    on conflict (member_id, document_id) do update set signed_name = excluded.signed_name, accepted_at = now();
  end loop;
  return query select * from private.my_documents();
end;
$$;

revoke execute on function private.sign_documents(text, uuid[], jsonb, text, boolean) from public;

grant execute on function private.sign_documents(text, uuid[], jsonb, text, boolean) to authenticated;

-- Withdraws the health consent: the answers are deleted (the record that a version was answered
-- stays). The next booking asks for them again. Returns whether there were answers.
create function private.withdraw_health_answers()
returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := (private.require_member()).id;
begin
  delete from public.health_answers where member_id = v_member_id;
  return found;
end;
$$;

revoke execute on function private.withdraw_health_answers() from public;

grant execute on function private.withdraw_health_answers() to authenticated;

-- Admin RPCs -------------------------------------------------------------------------------------
-- Publishes the next version of a document (admins only). p_questions: a health questionnaire's
-- questions (the adult PAR-Q's, or the children's: child_parq).
create function private.publish_document(p_kind text, p_title text, p_body text, p_summary text, p_questions jsonb)
returns public.document_versions
language plpgsql security definer set search_path = ''
as $$
declare
  v_kind public.document_kind;
  v_row public.document_versions;
begin
  perform private.require_admin();
  if p_kind is null or p_kind not in ('terms', 'privacy', 'cookies', 'waiver', 'parq', 'child_parq') then
    raise exception 'Unknown document' using errcode = '22023', hint = 'invalid_document_kind';
  end if;
  v_kind := p_kind::public.document_kind;
  if char_length(btrim(coalesce(p_title, ''))) = 0 or char_length(btrim(coalesce(p_body, ''))) = 0 then
    raise exception 'A document needs a title and text' using errcode = '22023', hint = 'document_empty';
  end if;
  if v_kind in ('parq', 'child_parq') and (p_questions is null or jsonb_typeof(p_questions) <> 'array' or jsonb_array_length(p_questions) = 0
       or exists (select 1 from jsonb_array_elements(p_questions) q
                   where jsonb_typeof(q) <> 'string' or char_length(btrim(q #>> '{}')) = 0)) then
    raise exception 'The health questions need at least one question' using errcode = '22023', hint = 'questions_required';
  end if;
  -- One publisher of a kind at a time: the next number is taken once.
  perform pg_advisory_xact_lock(hashtext('document_versions:' || p_kind));
  -- A new booking document and a booking never cross: bookings (and waitlist places) under way
  -- commit first, and those that reach the table after this wait and then see the new version
  -- (decision 0027; supabase/tests/waiver-race.test.ts). Publishing is rare and short.
  if v_kind = any (private.booking_document_kinds()) then
    lock table public.bookings, public.class_waitlist in share row exclusive mode;
  end if;
  insert into public.document_versions (kind, version, title, body, summary, questions, published_by)
  values (v_kind,
          coalesce((select max(d.version) from public.document_versions d where d.kind = v_kind), 0) + 1,
          btrim(p_title), btrim(p_body), nullif(btrim(p_summary), ''),
          case when v_kind in ('parq', 'child_parq') then p_questions end,
          private.current_member_id())
  returning * into v_row;
  -- A new version of a document members must accept is emailed to every active member, in this
  -- transaction (decision 0071: not left for them to find when they next book). The first is not:
  -- it is part of the studio opening, and every booking asks for it anyway.
  if v_kind = any (private.booking_document_kinds()) and v_row.version > 1 then
    perform private.enqueue_membership_email(
      'document_updated', m.id,
      'We have updated our ' || v_row.title,
      array['We have published a new version of our ' || v_row.title || ' (version ' || v_row.version || ').']
        || case when v_row.summary is not null then array['What changed: ' || v_row.summary] else array[]::text[] end
        || array['Please read and accept it before your next booking: the studio will ask you to when you book.'],
      jsonb_build_array(jsonb_build_object('label', 'Read and accept it', 'path', '/agreements')),
      'document_updated:' || v_row.id || ':' || m.id)
      from public.members m
     where m.status = 'active' and m.user_id is not null and not m.awaiting_confirmation;
  end if;
  return v_row;
end;
$$;

revoke execute on function private.publish_document(text, text, text, text, jsonb) from public;

grant execute on function private.publish_document(text, text, text, text, jsonb) to authenticated;

-- Where each member stands with the booking documents (admins only).
create type public.member_documents as (
  member_id uuid,
  name text,
  email text,
  terms_version integer,
  waiver_version integer,
  parq_version integer,
  -- The latest signature of any document, and whether every current one is accepted.
  last_signed_at timestamptz,
  all_current boolean,
  health_flag boolean
);

comment on type public.member_documents is 'A member''s latest accepted version of each booking document (admin_member_documents).';

create function private.admin_member_documents(p_unsigned_only boolean)
returns setof public.member_documents
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
  select m.id, m.name, m.email::text,
         (select max(v.version) from public.document_acceptances a join public.document_versions v on v.id = a.document_id
           where a.member_id = m.id and v.kind = 'terms'),
         (select max(v.version) from public.document_acceptances a join public.document_versions v on v.id = a.document_id
           where a.member_id = m.id and v.kind = 'waiver'),
         (select v.version from public.health_answers h join public.document_versions v on v.id = h.document_id
           where h.member_id = m.id),
         (select max(a.accepted_at) from public.document_acceptances a where a.member_id = m.id),
         cardinality(private.missing_documents(m.id)) = 0,
         coalesce((select private.health_flag(h.answers) from public.health_answers h where h.member_id = m.id), false)
    from public.members m
   where not coalesce(p_unsigned_only, false) or cardinality(private.missing_documents(m.id)) > 0
   order by m.name nulls last, m.email;
end;
$$;

revoke execute on function private.admin_member_documents(boolean) from public;

grant execute on function private.admin_member_documents(boolean) to authenticated;

-- The class register (admins, for the coach) reads the place model: admin_class_places in
-- 24_places.sql, with each person's own documents and health answers.

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
-- guest_not_found (no such token: cancelled, never paid for, or cut short; PT404, which PostgREST
-- answers 404, as guest_place_for_link in 14_guests.sql), class_started.
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
      using errcode = 'PT404', hint = 'guest_not_found';
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

-- API --------------------------------------------------------------------------------------------
create function public.my_documents()
returns setof public.my_document
language sql stable security invoker set search_path = ''
as $$ select * from private.my_documents() $$;

revoke execute on function public.my_documents() from public, anon, authenticated;

grant execute on function public.my_documents() to authenticated;

create function public.sign_documents(
  p_signed_name text, p_document_ids uuid[], p_answers jsonb default null, p_details text default null,
  p_health_consent boolean default false
)
returns setof public.my_document
language sql volatile security invoker set search_path = ''
as $$ select * from private.sign_documents(p_signed_name, p_document_ids, p_answers, p_details, p_health_consent) $$;

revoke execute on function public.sign_documents(text, uuid[], jsonb, text, boolean) from public, anon, authenticated;

grant execute on function public.sign_documents(text, uuid[], jsonb, text, boolean) to authenticated;

create function public.withdraw_health_answers()
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.withdraw_health_answers() $$;

revoke execute on function public.withdraw_health_answers() from public, anon, authenticated;

grant execute on function public.withdraw_health_answers() to authenticated;

create function public.publish_document(
  p_kind text, p_title text, p_body text, p_summary text default null, p_questions jsonb default null
)
returns public.document_versions
language sql volatile security invoker set search_path = ''
as $$ select * from private.publish_document(p_kind, p_title, p_body, p_summary, p_questions) $$;

revoke execute on function public.publish_document(text, text, text, text, jsonb) from public, anon, authenticated;

grant execute on function public.publish_document(text, text, text, text, jsonb) to authenticated;

create function public.admin_member_documents(p_unsigned_only boolean default false)
returns setof public.member_documents
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_member_documents(p_unsigned_only) $$;

revoke execute on function public.admin_member_documents(boolean) from public, anon, authenticated;

grant execute on function public.admin_member_documents(boolean) to authenticated;

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

-- Triggers ---------------------------------------------------------------------------------------

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger members_check_date_of_birth
  before insert or update of date_of_birth on public.members
  for each row execute function private.members_check_date_of_birth();

-- BEFORE triggers fire in name order; this one runs on every insert, whoever makes it.
create trigger bookings_require_documents
  before insert on public.bookings
  for each row execute function private.bookings_require_documents();

create trigger class_waitlist_require_documents
  before insert on public.class_waitlist
  for each row execute function private.waitlist_require_documents();
