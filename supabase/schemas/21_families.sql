-- Family accounts (decision 0021): a parent (a member) adds their children, who have no
-- email, never sign in and never use a free trial; classes get an optional age range; the parent
-- signs the waiver and answers the PAR-Q for each child; book_family books the parent and any of
-- their children into a class in one step, all places or none. A child's place is a row of
-- public.bookings (member_id = the parent, dependant_id = the child), so the spot count, the
-- capacity check, the waitlist promotion and cancel_booking (cancel per person) work unchanged.
--
-- Rules (decision 0021):
-- - A class with no age range is for adults: no child joins it. A class with a range takes
--   children whose age on the class's London date is within it. The range limits children only:
--   an adult member books any class as before (a parent stays with their children in Kids Club).
-- - A child's place is free only when the class is free; the parent's plan allowance and free
--   trial never pay for a child. Places paid by card are paid together in one checkout
--   (create_family_payment_hold, below).
--
-- audit_trail (25_audit.sql) records every change an admin or coach makes to this file's tables.

-- The classes' age range (min_age, max_age) is in 02_classes.sql.

-- Children: public.dependants is declared in 01_members.sql, beside the members who are their
-- parents, so that bookings (03_bookings.sql) declare their key to the child at the column. Its
-- date-of-birth trigger is below (Triggers on other domains' tables).


-- The parent's signatures for a child ---------------------------------------------------------------
create table public.dependant_acceptances (
  id uuid primary key default gen_random_uuid(),
  dependant_id uuid not null references public.dependants (id) on delete cascade,
  document_id uuid not null references public.document_versions (id) on delete restrict,
  -- The parent's full name, typed as their signature.
  signed_name text not null check (char_length(btrim(signed_name)) between 2 and 200),
  accepted_at timestamptz not null default now(),
  constraint dependant_acceptances_dependant_id_document_id_key unique (dependant_id, document_id)
);

comment on table public.dependant_acceptances is
  'A parent''s signature of one document version (waiver, PAR-Q) for their child; kept when a newer version is published.';

create index dependant_acceptances_document_id_idx on public.dependant_acceptances (document_id);

alter table public.dependant_acceptances enable row level security;

revoke all on public.dependant_acceptances from anon, authenticated;

grant select on public.dependant_acceptances to authenticated;

grant all on public.dependant_acceptances to service_role;

create policy "Parents read their children's signatures; admins read all"
  on public.dependant_acceptances for select to authenticated
  using (exists (select 1 from public.dependants d
                  where d.id = dependant_id and d.parent_member_id = (select private.current_member_id()))
         or (select private.is_admin()));

-- A child's current health answers (the children's questionnaire, child_parq), given by the
-- parent (special-category data, as health_answers).
create table public.dependant_health_answers (
  dependant_id uuid primary key references public.dependants (id) on delete cascade,
  document_id uuid not null references public.document_versions (id) on delete restrict,
  answers jsonb not null check (jsonb_typeof(answers) = 'array'),
  details text check (char_length(details) <= 2000),
  consented_at timestamptz not null,
  answered_at timestamptz not null default now(),
  signed_name text not null check (char_length(btrim(signed_name)) between 2 and 200)
);

comment on table public.dependant_health_answers is
  'A child''s PAR-Q answers given by the parent (UK GDPR special-category data): the parent and admins read them.';

create index dependant_health_answers_document_id_idx on public.dependant_health_answers (document_id);

alter table public.dependant_health_answers enable row level security;

revoke all on public.dependant_health_answers from anon, authenticated;

grant select on public.dependant_health_answers to authenticated;

grant all on public.dependant_health_answers to service_role;

create policy "Parents read their children's health answers; admins read all"
  on public.dependant_health_answers for select to authenticated
  using (exists (select 1 from public.dependants d
                  where d.id = dependant_id and d.parent_member_id = (select private.current_member_id()))
         or (select private.is_admin()));

-- Rules --------------------------------------------------------------------------------------------
-- The kinds a parent signs for a child before the child's first booking (the terms are the
-- parent's own contract, signed for themselves): the waiver, and the children's health
-- questionnaire, never the adult PAR-Q (decision 0093).
create function private.dependant_document_kinds()
returns public.document_kind[]
language sql immutable set search_path = ''
as $$ select array['waiver', 'child_parq']::public.document_kind[] $$;

revoke execute on function private.dependant_document_kinds() from public;

-- The kinds whose current version has not been signed (waiver) or answered (child_parq) for this child.
create function private.missing_dependant_documents(p_dependant_id uuid)
returns public.document_kind[]
language sql stable security definer set search_path = ''
as $$
  select coalesce(array_agg(d.kind order by array_position(private.dependant_document_kinds(), d.kind)), '{}')
    from private.current_documents() d
   where d.kind = any (private.dependant_document_kinds())
     and not case d.kind
       when 'child_parq' then exists (select 1 from public.dependant_health_answers h
                                 where h.dependant_id = p_dependant_id and h.document_id = d.id)
       else exists (select 1 from public.dependant_acceptances a where a.dependant_id = p_dependant_id and a.document_id = d.id)
     end
$$;

revoke execute on function private.missing_dependant_documents(uuid) from public;

-- Age in whole years on a day.
create function private.age_on(p_date_of_birth date, p_on date)
returns integer
language sql immutable set search_path = ''
as $$ select extract(year from age(p_on, p_date_of_birth))::integer $$;

revoke execute on function private.age_on(date, date) from public;

-- The child's age on the class's London date.
create function private.age_at_class(p_date_of_birth date, p_class public.classes)
returns integer
language sql immutable set search_path = ''
as $$ select private.age_on(p_date_of_birth, (p_class.start_time at time zone 'Europe/London')::date) $$;

revoke execute on function private.age_at_class(date, public.classes) from public;

-- Raises why this child may not have a place on this class (not the parent's, already booked,
-- adults only, outside the age range, documents unsigned), or returns. Used by book_family and
-- by the trigger on bookings, so every path keeps the rules.
create function private.check_dependant_place(p_dependant public.dependants, p_member_id uuid, p_class public.classes)
returns void
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_age integer;
begin
  if p_dependant.id is null or p_dependant.parent_member_id <> p_member_id then
    raise exception 'We could not find that child on your account' using errcode = 'P0002', hint = 'dependant_not_found';
  end if;
  if exists (select 1 from public.bookings b where b.dependant_id = p_dependant.id and b.class_id = p_class.id) then
    raise exception '% is already booked on this class', p_dependant.name using errcode = '23505', hint = 'dependant_already_booked';
  end if;
  if p_class.min_age is null and p_class.max_age is null then
    raise exception '% cannot be booked on this class: it is for adults', p_dependant.name
      using errcode = 'P0001', hint = 'adults_only_class';
  end if;
  v_age := private.age_at_class(p_dependant.date_of_birth, p_class);
  if v_age < coalesce(p_class.min_age, 0) or v_age > coalesce(p_class.max_age, 999) then
    raise exception '% will be % on the day; this class is for ages %', p_dependant.name, v_age,
      case when p_class.max_age is null then p_class.min_age || ' and over'
           else coalesce(p_class.min_age, 0) || ' to ' || p_class.max_age end
      using errcode = 'P0001', hint = 'outside_age_range';
  end if;
  if cardinality(private.missing_dependant_documents(p_dependant.id)) > 0 then
    raise exception 'Please sign the waiver and answer the health questions for % before booking', p_dependant.name
      using errcode = 'P0001', hint = 'dependant_documents_required';
  end if;
end;
$$;

revoke execute on function private.check_dependant_place(public.dependants, uuid, public.classes) from public;

-- BEFORE INSERT on bookings: a child's place keeps the child's rules whoever inserts it (the
-- parent's own documents are bookings_require_documents' business: the row's member is the parent).
create function private.bookings_check_dependant()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_dependant public.dependants;
  v_class public.classes;
begin
  if new.dependant_id is null then
    return new;
  end if;
  select * into v_dependant from public.dependants where id = new.dependant_id;
  select * into v_class from public.classes where id = new.class_id;
  perform private.check_dependant_place(v_dependant, new.member_id, v_class);
  return new;
end;
$$;

revoke execute on function private.bookings_check_dependant() from public;

-- Member RPCs ----------------------------------------------------------------------------------------
-- One of the caller's children with where the parent stands with their documents.
create type public.my_dependant as (
  id uuid,
  name text,
  date_of_birth date,
  medical_notes text,
  collected_by text,
  -- The kinds (waiver, child_parq) still to sign for this child; empty = ready to book.
  missing_documents text[],
  created_at timestamptz
);

comment on type public.my_dependant is 'One of the caller''s children and the documents still to sign for them (my_dependants).';

create function private.my_dependants()
returns setof public.my_dependant
language sql stable security definer set search_path = ''
as $$
  select d.id, d.name, d.date_of_birth, d.medical_notes, d.collected_by,
         private.missing_dependant_documents(d.id)::text[], d.created_at
    from public.dependants d
   where d.parent_member_id = private.current_member_id()
   order by d.created_at, d.id
$$;

revoke execute on function private.my_dependants() from public;

grant execute on function private.my_dependants() to authenticated;

-- Adds a child (p_id null) or edits one of the caller's. Returns the child's id.
create function private.save_dependant(
  p_id uuid, p_name text, p_date_of_birth date, p_medical_notes text, p_collected_by text
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_name text := btrim(coalesce(p_name, ''));
  v_id uuid;
begin
  if char_length(v_name) = 0 or char_length(v_name) > 200 then
    raise exception 'Enter the child''s name' using errcode = '22023', hint = 'dependant_name_required';
  end if;
  if p_date_of_birth is null then
    raise exception 'Enter the child''s date of birth' using errcode = '22023', hint = 'date_of_birth_required';
  end if;
  if char_length(p_medical_notes) > 2000 or char_length(p_collected_by) > 500 then
    raise exception 'Please keep the notes shorter' using errcode = '22023', hint = 'dependant_notes_too_long';
  end if;
  if p_id is null then
    insert into public.dependants (parent_member_id, name, date_of_birth, medical_notes, collected_by)
    values (v_member.id, v_name, p_date_of_birth, nullif(btrim(p_medical_notes), ''), nullif(btrim(p_collected_by), ''))
    returning id into v_id;
  else
    update public.dependants
       set name = v_name, date_of_birth = p_date_of_birth,
           medical_notes = nullif(btrim(p_medical_notes), ''), collected_by = nullif(btrim(p_collected_by), '')
     where id = p_id and parent_member_id = v_member.id
    returning id into v_id;
    if v_id is null then
      raise exception 'We could not find that child on your account' using errcode = 'P0002', hint = 'dependant_not_found';
    end if;
  end if;
  return v_id;
end;
$$;

revoke execute on function private.save_dependant(uuid, text, date, text, text) from public;

grant execute on function private.save_dependant(uuid, text, date, text, text) to authenticated;

-- Removes one of the caller's children. A child with a class still ahead is kept: cancel those
-- places first (so nobody's place disappears without the usual cancellation).
create function private.remove_dependant(p_id uuid)
returns boolean
language plpgsql security definer set search_path = ''
as $$
declare
  v_member_id uuid := (private.require_member()).id;
begin
  if not exists (select 1 from public.dependants where id = p_id and parent_member_id = v_member_id) then
    raise exception 'We could not find that child on your account' using errcode = 'P0002', hint = 'dependant_not_found';
  end if;
  if exists (select 1 from public.bookings b join public.classes c on c.id = b.class_id
              where b.dependant_id = p_id and c.start_time > now()) then
    raise exception 'Cancel this child''s upcoming classes before removing them' using errcode = 'P0001', hint = 'dependant_has_bookings';
  end if;
  delete from public.dependants where id = p_id;
  return true;
end;
$$;

revoke execute on function private.remove_dependant(uuid) from public;

grant execute on function private.remove_dependant(uuid) to authenticated;

-- The parent signs the current waiver and answers the current children's health questionnaire
-- for one child, as sign_documents does for the member (typed full name; the answers need the
-- explicit consent).
create function private.sign_for_dependant(
  p_dependant_id uuid, p_signed_name text, p_document_ids uuid[], p_answers jsonb, p_details text, p_health_consent boolean
)
returns setof public.my_dependant
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_name text := btrim(coalesce(p_signed_name, ''));
  v_doc public.document_versions;
  v_id uuid;
begin
  if not exists (select 1 from public.dependants where id = p_dependant_id and parent_member_id = v_member.id) then
    raise exception 'We could not find that child on your account' using errcode = 'P0002', hint = 'dependant_not_found';
  end if;
  if char_length(v_name) < 2 or char_length(v_name) > 200 then
    raise exception 'Type your full name to sign' using errcode = '22023', hint = 'signature_required';
  end if;
  if coalesce(cardinality(p_document_ids), 0) = 0 then
    raise exception 'Nothing to sign' using errcode = '22023', hint = 'nothing_to_sign';
  end if;
  foreach v_id in array p_document_ids loop
    select c.* into v_doc from private.current_documents() c where c.id = v_id;
    if v_doc.id is null or not (v_doc.kind = any (private.dependant_document_kinds())) then
      raise exception 'This document has changed since you opened it: please read the new version'
        using errcode = 'P0001', hint = 'document_not_current';
    end if;
    if v_doc.kind = 'child_parq' then
      if not coalesce(p_health_consent, false) then
        raise exception 'Please consent to us keeping your child''s health answers'
          using errcode = 'P0001', hint = 'health_consent_required';
      end if;
      if p_answers is null or jsonb_typeof(p_answers) <> 'array'
         or jsonb_array_length(p_answers) <> jsonb_array_length(v_doc.questions)
         or exists (select 1 from jsonb_array_elements(p_answers) e where jsonb_typeof(e) <> 'boolean') then
        raise exception 'Please answer every health question' using errcode = '22023', hint = 'answers_incomplete';
      end if;
      if char_length(p_details) > 2000 then
        raise exception 'Please keep the details under 2000 characters' using errcode = '22023', hint = 'details_too_long';
      end if;
      insert into public.dependant_health_answers (dependant_id, document_id, answers, details, consented_at, answered_at, signed_name)
      values (p_dependant_id, v_doc.id, p_answers, nullif(btrim(p_details), ''), now(), now(), v_name)
      on conflict (dependant_id) do update
        set document_id = excluded.document_id, answers = excluded.answers, details = excluded.details,
            consented_at = excluded.consented_at, answered_at = excluded.answered_at, signed_name = excluded.signed_name;
    end if;
    insert into public.dependant_acceptances (dependant_id, document_id, signed_name)
    values (p_dependant_id, v_doc.id, v_name)
    on conflict (dependant_id, document_id) do update set signed_name = excluded.signed_name, accepted_at = now();
  end loop;
  return query select * from private.my_dependants();
end;
$$;

revoke execute on function private.sign_for_dependant(uuid, text, uuid[], jsonb, text, boolean) from public;

grant execute on function private.sign_for_dependant(uuid, text, uuid[], jsonb, text, boolean) to authenticated;

-- The confirmation email's first line for a booking (enqueue_class_email's booking_confirmed): every
-- place booked with it names its person (decision 0094). The places booked together are the
-- member's places on the class made in the same transaction (book_family's, or one family payment's
-- held places): the parent's own reads "you", each child by name. A booking of the member's own
-- place alone reads as before.
create function private.booking_confirmed_line(p_booking_id uuid, p_class public.classes)
returns text
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_booking public.bookings;
  v_names text[];
  v_own boolean;
  v_with text := p_class.name || ' with ' || p_class.trainer;
begin
  select * into v_booking from public.bookings where id = p_booking_id;
  select coalesce(array_agg(coalesce(d.name, 'you') order by b.dependant_id is not null, d.name, b.id), '{}'),
         coalesce(bool_or(b.dependant_id is null), false)
    into v_names, v_own
    from public.bookings b
    left join public.dependants d on d.id = b.dependant_id
   where b.member_id = v_booking.member_id and b.class_id = v_booking.class_id
     and (b.booked_at = v_booking.booked_at
          or (v_booking.family_payment_id is not null and b.family_payment_id = v_booking.family_payment_id));
  if cardinality(v_names) = 0 or (cardinality(v_names) = 1 and v_own) then
    return 'You are booked on ' || v_with || '.';
  end if;
  if cardinality(v_names) = 1 then
    return 'You have booked a place on ' || v_with || ' for ' || v_names[1] || '.';
  end if;
  return 'You have booked ' || cardinality(v_names) || ' places on ' || v_with || ': '
    || array_to_string(v_names[1:cardinality(v_names) - 1], ', ') || ' and ' || v_names[cardinality(v_names)] || '.';
end;
$$;

revoke execute on function private.booking_confirmed_line(uuid, public.classes) from public;

-- book_family ----------------------------------------------------------------------------------------
create type public.family_booking_result as (
  class_id uuid,
  -- The places booked: the parent's own first (when included), then each child's in the order given.
  booking_ids uuid[],
  places integer,
  spots_left integer
);

comment on type public.family_booking_result is 'What book_family booked: every place asked for, or nothing.';

-- Every rule of a family booking but who pays, for p_member (row locked after p_class's, as
-- book_class locks: class, then member): each child listed once and allowed on the class, the
-- class not started, a place for each person, and the parent's own place by book_class's rules.
-- Returns the parent's booking type (null when not included) and how many places are paid by card:
-- every child's on a class with a price, and the parent's when book_class would charge them.
create function private.plan_family_booking(
  p_member public.members,
  p_class public.classes,
  p_include_self boolean,
  p_dependant_ids uuid[],
  out own_type public.booking_type,
  out places integer,
  out paid_places integer
)
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_dependant public.dependants;
  v_id uuid;
  v_refusal text;
begin
  if cardinality(p_dependant_ids) <> (select count(distinct x) from unnest(p_dependant_ids) x) then
    raise exception 'Each child can be booked once' using errcode = '22023', hint = 'dependant_listed_twice';
  end if;
  places := cardinality(p_dependant_ids) + case when p_include_self then 1 else 0 end;
  if places = 0 then
    raise exception 'Choose who is coming' using errcode = '22023', hint = 'nobody_chosen';
  end if;
  if p_class.start_time <= now() then
    perform private.raise_booking_refusal('class_started', p_class, p_member);
  end if;

  foreach v_id in array p_dependant_ids loop
    select * into v_dependant from public.dependants where id = v_id;
    perform private.check_dependant_place(v_dependant, p_member.id, p_class);
  end loop;

  if p_class.spots_left < places then
    raise exception '% left on this class: you chose %',
      case p_class.spots_left when 0 then 'No places' when 1 then 'Only 1 place' else 'Only ' || p_class.spots_left || ' places' end,
      places
      using errcode = 'P0001', hint = 'not_enough_places';
  end if;

  -- A child's place is free only when the class is free: never the plan's or the trial's.
  paid_places := case when coalesce(p_class.price_payg, 0) > 0 then cardinality(p_dependant_ids) else 0 end;
  if p_include_self then
    v_refusal := private.booking_refusal(p_member, p_class, null);
    if v_refusal is not null then
      perform private.raise_booking_refusal(v_refusal, p_class, p_member);
    end if;
    own_type := private.booking_type_for(p_member, null);
    if private.needs_payment(own_type, p_class) then
      paid_places := paid_places + 1;
    end if;
  end if;
end;
$$;

revoke execute on function private.plan_family_booking(public.members, public.classes, boolean, uuid[]) from public;

-- Books the caller (p_include_self) and the given children into one class in one transaction:
-- every place or none. Places that must be paid by card are booked through one checkout instead
-- (create_family_payment_hold): refused here with family_payment_required.
create function private.book_family(p_class_id uuid, p_include_self boolean, p_dependant_ids uuid[])
returns public.family_booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_plan record;
  v_id uuid;
  v_booking_id uuid;
  r public.family_booking_result;
begin
  perform private.require_user_id();
  perform private.release_expired_holds();
  v_member := private.require_member();

  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = v_member.id for no key update;

  select * into v_plan from private.plan_family_booking(v_member, v_class, coalesce(p_include_self, false), coalesce(p_dependant_ids, '{}'));
  if v_plan.paid_places > 0 then
    raise exception '% of these places % paid by card: pay for them in one checkout',
      v_plan.paid_places, case when v_plan.paid_places = 1 then 'is' else 'are' end
      using errcode = 'P0001', hint = 'family_payment_required';
  end if;

  r.booking_ids := '{}';
  if coalesce(p_include_self, false) then
    v_booking_id := private.create_booking(v_member.id, v_class.id, v_plan.own_type);
    r.booking_ids := r.booking_ids || v_booking_id;
  end if;
  foreach v_id in array coalesce(p_dependant_ids, '{}') loop
    -- A child's place on a free class: pay-as-you-go at no price; never the plan or the trial.
    insert into public.bookings (member_id, class_id, dependant_id, type, payment_status)
    values (v_member.id, v_class.id, v_id, 'payg', 'completed')
    returning id into v_booking_id;
    r.booking_ids := r.booking_ids || v_booking_id;
  end loop;

  -- One confirmation email for the family's booking.
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_ids[1]);

  r.class_id := v_class.id;
  r.places := v_plan.places;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.book_family(uuid, boolean, uuid[]) from public;

grant execute on function private.book_family(uuid, boolean, uuid[]) to authenticated;

-- Paying for several places in one checkout -----------------------------------------------------------
-- A family's places on a paid class are held together while the parent pays for them all on one
-- hosted checkout (the create-family-checkout function, as the service role): one payment of the
-- paid places' price, and a pending booking per place (the parent's own too, even when their plan
-- covers it: all places or none) pointing at it. The held places lapse together like any hold;
-- the provider's PAID confirms them together (settle_family_payment), FAILED or EXPIRED releases
-- them together, and cancelling one held place releases the others (cancel_booking). Once paid,
-- each place is cancelled on its own, and a paid place cancelled in time owes its share
-- (bookings_record_refund_owed, 08_refunds.sql).
-- The payment's family_places and family_unit_amount are in 06_payments.sql, the place's
-- family_payment_id in 03_bookings.sql (its key: Keys on other domains' tables, below).

-- What a family payment bought, place by place (decision 0094): who the place is for, what covers
-- it (the parent's plan or free trial, a credit, the card payment, or nothing on a free class)
-- and its price. Written with the payment in create_family_payment_hold and never changed, so a
-- receipt still names every place after one is cancelled (the place's booking row goes, its line
-- stays). The payment's amount is the sum of the lines paid by card.
create table public.family_payment_lines (
  payment_id uuid not null references public.payments (id) on delete cascade,
  -- The parent's own place first, then each child's in the order chosen.
  position integer not null check (position >= 1),
  member_id uuid not null references public.members (id) on delete cascade,
  dependant_id uuid references public.dependants (id) on delete set null,
  -- The person's name when booked (the child's, or the parent's own).
  name text not null check (char_length(btrim(name)) between 1 and 200),
  covered_by text not null check (covered_by in ('plan', 'trial', 'credit', 'paid', 'free')),
  -- What this place costs on this payment: the class price when paid, else 0.
  amount numeric(10, 2) not null check (amount >= 0),
  constraint family_payment_lines_pkey primary key (payment_id, position)
);

comment on table public.family_payment_lines is
  'Each place a family payment bought: who, what covered it (plan, trial, credit, paid, free) and its price (the receipt).';

create index family_payment_lines_member_id_idx on public.family_payment_lines (member_id);

create index family_payment_lines_dependant_id_idx on public.family_payment_lines (dependant_id);

alter table public.family_payment_lines enable row level security;

-- Written by create_family_payment_hold only.
revoke all on public.family_payment_lines from anon, authenticated;

grant select on public.family_payment_lines to authenticated;

grant all on public.family_payment_lines to service_role;

create policy "Members read their own payments' places; admins read all"
  on public.family_payment_lines for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- What covers a place of this booking type on this class (a family_payment_lines.covered_by).
create function private.place_covered_by(p_type public.booking_type, p_class public.classes)
returns text
language sql stable set search_path = ''
as $$
  select case
           when p_type::text = 'paid' then 'plan'
           when p_type::text in ('trial', 'credit') then p_type::text
           when coalesce(p_class.price_payg, 0) > 0 then 'paid'
           else 'free'
         end
$$;

revoke execute on function private.place_covered_by(public.booking_type, public.classes) from public;

-- Holds the places and records the payment. One unpaid checkout per member: any other place the
-- member holds is released first (its spot is free again at once). Refusals: book_family's, and
-- payment_not_required when nothing is paid by card (book_family books that at once).
create function private.create_family_payment_hold(
  p_member_id uuid,
  p_class_id uuid,
  p_include_self boolean,
  p_dependant_ids uuid[],
  p_hold_minutes integer
)
returns public.class_payment_hold
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_plan record;
  v_ids uuid[] := coalesce(p_dependant_ids, '{}');
  v_hold_until timestamptz;
  v_payment public.payments;
  v_first uuid;
  v_id uuid;
  v_booking_id uuid;
  v_cover numeric;
begin
  if p_hold_minutes is null or p_hold_minutes < 1 or p_hold_minutes > 120 then
    raise exception 'Hold length must be 1 to 120 minutes' using errcode = '22023', hint = 'invalid_hold';
  end if;
  perform private.release_expired_holds();

  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = p_member_id for no key update;
  if not found then
    raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
  end if;

  delete from public.bookings where member_id = p_member_id and payment_status = 'pending';
  -- The class row again: releasing a hold of this class changed its places.
  select * into v_class from public.classes where id = p_class_id;

  select * into v_plan from private.plan_family_booking(v_member, v_class, coalesce(p_include_self, false), v_ids);
  if v_plan.paid_places = 0 then
    raise exception 'No payment is needed for this booking' using errcode = 'P0001', hint = 'payment_not_required';
  end if;

  v_hold_until := now() + make_interval(mins => p_hold_minutes);
  -- The member's balance pays first, as for a pay-as-you-go place (decisions 0101 and 0108: the
  -- same balance_cover rule, under the member's row lock); the card is charged the rest.
  v_cover := private.balance_cover(p_member_id, v_plan.paid_places * v_class.price_payg);
  -- The description says how many of the places are paid when not all are (a plan or trial covers
  -- the parent's own): "3 places" beside the price of two read as a mistake (decision 0094).
  insert into public.payments (member_id, kind, class_id, amount, balance_used, description, checkout_reference, family_places,
                               family_unit_amount)
  values (p_member_id, 'class', v_class.id, v_plan.paid_places * v_class.price_payg, nullif(v_cover, 0),
          v_class.name || ' - ' || v_plan.places || ' places'
            || case when v_plan.paid_places < v_plan.places then ' (' || v_plan.paid_places || ' paid)' else '' end
            || private.balance_label(v_cover),
          'family-' || gen_random_uuid()::text, v_plan.places, v_class.price_payg)
  returning * into v_payment;
  perform private.spend_balance(v_payment);

  -- The receipt's lines: the parent's own place first, then each child's in the order chosen.
  insert into public.family_payment_lines (payment_id, position, member_id, dependant_id, name, covered_by, amount)
  select v_payment.id, row_number() over (order by l.ord), p_member_id, l.dependant_id, l.name, l.covered_by,
         case when l.covered_by = 'paid' then v_class.price_payg else 0 end
    from (select 0::bigint as ord, null::uuid as dependant_id, coalesce(nullif(btrim(v_member.name), ''), 'You') as name,
                 private.place_covered_by(v_plan.own_type, v_class) as covered_by
           where coalesce(p_include_self, false)
          union all
          select x.ord, d.id, d.name, 'paid'
            from unnest(v_ids) with ordinality x(id, ord)
            join public.dependants d on d.id = x.id) l;

  if coalesce(p_include_self, false) then
    v_first := private.create_booking(p_member_id, v_class.id, v_plan.own_type, v_hold_until, v_payment.id);
  end if;
  foreach v_id in array v_ids loop
    insert into public.bookings (member_id, class_id, dependant_id, type, payment_status, hold_expires_at, family_payment_id)
    values (p_member_id, v_class.id, v_id, 'payg', 'pending', v_hold_until, v_payment.id)
    returning id into v_booking_id;
    v_first := coalesce(v_first, v_booking_id);
  end loop;
  update public.payments set booking_id = v_first where id = v_payment.id
  returning * into v_payment;
  -- Covered whole by the balance: every place is booked now, without the card provider.
  if v_cover = v_payment.amount then
    perform private.apply_paid_checkout(v_payment);
  end if;

  -- The amount answered is what the card is charged (nothing when the balance paid it all).
  return (v_payment.id, v_first, v_payment.checkout_reference, v_payment.amount - v_cover, v_payment.currency,
          v_payment.description, v_hold_until)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) from public;

grant execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) to service_role;

-- The provider said PAID (apply_checkout_result, which locked the payment): every place still held
-- is confirmed, or, when any of them went (the hold lapsed and was released), none is and the
-- payment is owed back. A held trial place uses the trial now: it was the member's trial from the
-- moment it was held (trial_available), so no other path granted it meanwhile and confirming it
-- never gives a second one.
create function private.settle_family_payment(p_payment public.payments)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if (select count(*) from public.bookings where family_payment_id = p_payment.id and payment_status = 'pending')
     = p_payment.family_places then
    update public.bookings
       set payment_status = 'completed', hold_expires_at = null
     where family_payment_id = p_payment.id and payment_status = 'pending';
    if exists (select 1 from public.bookings
                where family_payment_id = p_payment.id and type = 'trial' and dependant_id is null) then
      perform private.use_free_trial(p_payment.member_id);
    end if;
    update public.payments set status = 'paid', paid_at = now() where id = p_payment.id;
  else
    delete from public.bookings where family_payment_id = p_payment.id and payment_status = 'pending';
    perform private.owe_payment_back(p_payment.id, 'class_filled', now());
  end if;
end;
$$;

revoke execute on function private.settle_family_payment(public.payments) from public;

-- My Bookings (moved from 03_bookings.sql: it names each child's place) ---------------------------
-- Every booking of the caller, newest class first (so a very long history loses its oldest rows
-- first to the API's row cap), lapsed holds left out: they are gone as far as the member is
-- concerned (book_class and the hold job delete them). RLS applies: a member reads only their own.
-- A child's place carries the child's id and name; a family's places on one class: the member's
-- own first, then the children by name.
create function public.my_bookings()
returns setof public.my_booking
language sql stable security invoker set search_path = ''
as $$
  select b.id, b.class_id, b.type::text, b.payment_status::text, b.booked_at, b.hold_expires_at,
         c.name, c.trainer, c.start_time, c.duration, c.description,
         case when b.payment_status = 'completed' then private.booking_late_cancel_from(c, b.booked_at) end,
         b.dependant_id, d.name, mp.name, mp.map_url, private.class_where(c), nullif(btrim(mp.directions), '')
    from public.bookings b
    join public.classes c on c.id = b.class_id
    left join public.dependants d on d.id = b.dependant_id
    left join public.meeting_points mp on mp.id = c.meeting_point_id
   where b.member_id = (select private.current_member_id())
     and (b.payment_status = 'completed' or b.hold_expires_at > now())
   order by c.start_time desc, b.dependant_id is not null, d.name, b.id
$$;

revoke execute on function public.my_bookings() from public, anon;

grant execute on function public.my_bookings() to authenticated, service_role;

-- API ------------------------------------------------------------------------------------------------
create function public.my_dependants()
returns setof public.my_dependant
language sql stable security invoker set search_path = ''
as $$ select * from private.my_dependants() $$;

revoke execute on function public.my_dependants() from public, anon, authenticated;

grant execute on function public.my_dependants() to authenticated;

-- p_id null (the default) adds a child.
create function public.save_dependant(
  p_name text, p_date_of_birth date, p_id uuid default null, p_medical_notes text default null, p_collected_by text default null
)
returns uuid
language sql volatile security invoker set search_path = ''
as $$ select private.save_dependant(p_id, p_name, p_date_of_birth, p_medical_notes, p_collected_by) $$;

revoke execute on function public.save_dependant(text, date, uuid, text, text) from public, anon, authenticated;

grant execute on function public.save_dependant(text, date, uuid, text, text) to authenticated;

create function public.remove_dependant(p_id uuid)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.remove_dependant(p_id) $$;

revoke execute on function public.remove_dependant(uuid) from public, anon, authenticated;

grant execute on function public.remove_dependant(uuid) to authenticated;

create function public.sign_for_dependant(
  p_dependant_id uuid, p_signed_name text, p_document_ids uuid[], p_answers jsonb default null, p_details text default null,
  p_health_consent boolean default false
)
returns setof public.my_dependant
language sql volatile security invoker set search_path = ''
as $$ select * from private.sign_for_dependant(p_dependant_id, p_signed_name, p_document_ids, p_answers, p_details, p_health_consent) $$;

revoke execute on function public.sign_for_dependant(uuid, text, uuid[], jsonb, text, boolean) from public, anon, authenticated;

grant execute on function public.sign_for_dependant(uuid, text, uuid[], jsonb, text, boolean) to authenticated;

create function public.book_family(p_class_id uuid, p_include_self boolean, p_dependant_ids uuid[] default '{}')
returns public.family_booking_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.book_family(p_class_id, p_include_self, p_dependant_ids) $$;

revoke execute on function public.book_family(uuid, boolean, uuid[]) from public, anon, authenticated;

grant execute on function public.book_family(uuid, boolean, uuid[]) to authenticated;

create function public.create_family_payment_hold(
  p_member_id uuid, p_class_id uuid, p_include_self boolean, p_dependant_ids uuid[], p_hold_minutes integer
)
returns public.class_payment_hold
language sql volatile security invoker set search_path = ''
as $$ select * from private.create_family_payment_hold(p_member_id, p_class_id, p_include_self, p_dependant_ids, p_hold_minutes) $$;

revoke execute on function public.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) from public, anon, authenticated;

grant execute on function public.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) to service_role;

-- Keys on other domains' tables (each named in its table's file) ---------------------------------
-- The places of public.bookings (03_bookings.sql) point at the family payments declared after them.
alter table public.bookings
  add constraint bookings_family_payment_id_fkey foreign key (family_payment_id) references public.payments (id) on delete set null;

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
-- A child's date of birth in the future is refused (the members' trigger function, 17_consent.sql,
-- reads new.date_of_birth).
create trigger dependants_check_date_of_birth
  before insert or update of date_of_birth on public.dependants
  for each row execute function private.members_check_date_of_birth();

create trigger bookings_check_dependant
  before insert on public.bookings
  for each row execute function private.bookings_check_dependant();
