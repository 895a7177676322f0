-- Families book through one path and are named everywhere (decisions 0093, 0094):
-- - children answer the children's health questionnaire (child_parq), never the adult PAR-Q;
-- - a family payment records each place it bought (family_payment_lines), for the receipt;
-- - the confirmation email names every place booked together;
-- - the schedule says a class's age range, so Book Now asks a parent who is coming.

-- Documents: child_parq carries questions like the PAR-Q and is published like it.
alter table public.document_versions drop constraint document_versions_questions_only_parq;

alter table public.document_versions add constraint document_versions_questions_only_parq check (
    (kind::text in ('parq', 'child_parq')) = (questions is not null)
    and (questions is null or (jsonb_typeof(questions) = 'array' and jsonb_array_length(questions) between 1 and 30))
  );

create or replace function private.publish_document(p_kind text, p_title text, p_body text, p_summary text, p_questions jsonb)
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
  -- transaction (issue 38: they found out only when they next booked). The first version is not:
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

create or replace function private.dependant_document_kinds()
returns public.document_kind[]
language sql immutable set search_path = ''
as $$ select array['waiver', 'child_parq']::public.document_kind[] $$;

revoke execute on function private.dependant_document_kinds() from public;

create or replace function private.missing_dependant_documents(p_dependant_id uuid)
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

create or replace function private.sign_for_dependant(
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

-- The receipt's lines ------------------------------------------------------------------------------
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

create or replace function private.place_covered_by(p_type public.booking_type, p_class public.classes)
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

create or replace function private.create_family_payment_hold(
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
  -- The description says how many of the places are paid when not all are (a plan or trial covers
  -- the parent's own): "3 places" beside the price of two read as a mistake (decision 0094).
  insert into public.payments (member_id, kind, class_id, amount, description, checkout_reference, family_places, family_unit_amount)
  values (p_member_id, 'class', v_class.id, v_plan.paid_places * v_class.price_payg,
          v_class.name || ' - ' || v_plan.places || ' places'
            || case when v_plan.paid_places < v_plan.places then ' (' || v_plan.paid_places || ' paid)' else '' end,
          'family-' || gen_random_uuid()::text, v_plan.places, v_class.price_payg)
  returning * into v_payment;

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
  update public.payments set booking_id = v_first where id = v_payment.id;

  return (v_payment.id, v_first, v_payment.checkout_reference, v_payment.amount, v_payment.currency,
          v_payment.description, v_hold_until)::public.class_payment_hold;
end;
$$;

revoke execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) from public;

grant execute on function private.create_family_payment_hold(uuid, uuid, boolean, uuid[], integer) to service_role;

-- Family payments made before this migration: their lines from the places still linked to them
-- (a place cancelled since left no trace to list; such a receipt shows its total as before).
insert into public.family_payment_lines (payment_id, position, member_id, dependant_id, name, covered_by, amount)
select p.id, row_number() over (partition by p.id order by b.dependant_id is not null, b.booked_at, b.id), p.member_id, b.dependant_id,
       coalesce(d.name, nullif(btrim(m.name), ''), 'You'), private.place_covered_by(b.type, c),
       case when private.place_covered_by(b.type, c) = 'paid' then c.price_payg else 0 end
  from public.payments p
  join public.bookings b on b.family_payment_id = p.id
  join public.classes c on c.id = b.class_id
  join public.members m on m.id = p.member_id
  left join public.dependants d on d.id = b.dependant_id
 where p.family_places is not null
on conflict do nothing;

-- The confirmation email names every place ---------------------------------------------------------
create or replace function private.booking_confirmed_line(p_booking_id uuid, p_class public.classes)
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

create or replace function private.enqueue_class_email(
  p_kind text,
  p_member_id uuid,
  p_class_id uuid,
  p_booking_id uuid,
  p_late boolean default false,
  p_dedupe_key text default null,
  -- Why the studio cancelled the booking or the class (a cancellation email), e.g. 'the studio is closed'.
  p_reason text default null,
  -- The class's start before the studio moved it (a class_moved email).
  p_was timestamptz default null
)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_class public.classes;
  v_when text;
  v_where text;
  v_hello text;
  v_subject text;
  v_body text;
  v_links jsonb;
  v_manage jsonb := jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings');
  v_refund numeric;
  v_type text;
begin
  select * into v_member from public.members where id = p_member_id;
  select * into v_class from public.classes where id = p_class_id;
  if v_member.id is null or v_class.id is null then
    return null;
  end if;
  v_when := private.london_time_text(v_class.start_time);
  -- The class's meeting point (with its directions) or the hall (issue 42).
  v_where := private.class_where(v_class) || private.class_directions_line(v_class);
  v_hello := private.greeting(v_member.name);

  case p_kind
    when 'booking_confirmed' then
      v_subject := 'Booking confirmed: ' || v_class.name || ', ' || v_when;
      -- Every place booked together, each person named (a family's: private.booking_confirmed_line).
      v_body := concat_ws(E'\n\n', v_hello,
        private.booking_confirmed_line(p_booking_id, v_class),
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Plans change? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    when 'waitlist_promoted' then
      v_subject := 'A spot opened: you are booked on ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'A spot opened on ' || v_class.name || ' with ' || v_class.trainer
          || ' and you were next on the waitlist, so you are now booked.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it any more? Cancel from My Bookings so the next person on the waitlist gets the spot.');
      v_links := jsonb_build_array(v_manage);
    when 'booking_cancelled' then
      v_subject := 'Booking cancelled: ' || v_class.name || ', ' || v_when;
      select bc.booking_type::text into v_type from public.booking_cancellations bc where bc.booking_id = p_booking_id;
      -- What this cancellation owes the member back (recorded by the refunds triggers just now).
      select sum(ro.amount) into v_refund
        from public.refunds_owed ro join public.payments p on p.id = ro.payment_id
       where p.member_id = v_member.id and p.class_id = v_class.id and ro.refunded_at is null and ro.created_at = now();
      v_body := concat_ws(E'\n\n', v_hello,
        'Your booking for ' || v_class.name || ' with ' || v_class.trainer || ' has been cancelled'
          || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        -- What the cancellation cost or gave back, by what the place used (remembered with it).
        case
          when p_late then
            'This was a late cancellation (less than ' || private.interval_text(v_class.late_cancel_window)
              || ' before the start), so '
              || case v_type when 'payg' then 'the payment is kept: no refund is due.'
                             when 'credit' then 'it used your personal-training session.'
                             when 'trial' then 'it used your free trial.'
                             else 'the class still counts against your plan this month.' end
          when v_type = 'credit' then 'Your personal-training session comes back to you.'
          when p_reason is not null and coalesce(v_type, 'paid') = 'paid' then 'It does not count against your plan.'
        end,
        'The ' || private.gbp(v_refund) || ' you paid by card will be refunded to your card; you will get a receipt when it is.');
      v_links := jsonb_build_array(v_manage,
        jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'waitlist_cancelled' then
      -- A member waiting for a place in a class the studio removed (p_booking_id is null).
      v_subject := 'Class cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The class you were on the waitlist for, ' || v_class.name || ' with ' || v_class.trainer
          || ', has been cancelled' || coalesce(': ' || p_reason, '') || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'You are no longer on its waitlist.');
      v_links := jsonb_build_array(jsonb_build_object('label', 'Book another class', 'path', '/my-schedule'));
    when 'class_moved' then
      v_subject := 'Class moved: ' || v_class.name || ' is now ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has moved ' || v_class.name || ' with ' || v_class.trainer || '. Your place is kept.',
        'Was: ' || private.london_time_text(p_was) || E'\n' || 'Now: ' || v_when || ' (London time)'
          || E'\n' || 'Where: ' || v_where,
        'If the new time does not suit you, cancel from My Bookings: as the studio moved the class, '
          || 'cancelling is free at any time before it starts, and anything you paid or used for it comes back.');
      v_links := jsonb_build_array(v_manage);
    when 'class_changed' then
      -- p_reason: what changed, one line each (class_change_text, 26_class_changes.sql).
      v_subject := 'Class changed: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'The studio has changed ' || v_class.name || ':' || E'\n' || p_reason,
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        case when p_booking_id is null then 'You are still on its waitlist.'
             else 'Your place is kept. If the change does not suit you, cancel from My Bookings.' end);
      v_links := jsonb_build_array(v_manage);
    when 'class_reminder' then
      v_subject := 'Reminder: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', v_hello,
        'See you soon at ' || v_class.name || ' with ' || v_class.trainer || '.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || v_where,
        'Cannot make it? Cancel from My Bookings. Cancelling less than '
          || private.interval_text(v_class.late_cancel_window)
          || ' before the start still counts against your plan.');
      v_links := jsonb_build_array(v_manage);
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;

  return private.enqueue_email(p_kind, v_member.email, v_member.id, v_class.id, p_booking_id, v_subject, v_body, v_links,
                               p_dedupe_key);
end;
$$;

revoke execute on function private.enqueue_class_email(text, uuid, uuid, uuid, boolean, text, text, timestamptz) from public;

-- The schedule says the class's age range ----------------------------------------------------------
alter type public.schedule_class add attribute min_age integer;

alter type public.schedule_class add attribute max_age integer;

create or replace function private.schedule_facts(p_class public.classes, p_member public.members, p_signed_in boolean)
returns public.schedule_class
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.schedule_class;
  v_booking public.bookings;
  v_seq bigint;
  v_guest public.members;
begin
  r.id := p_class.id; r.name := p_class.name; r.description := p_class.description;
  r.duration := p_class.duration; r.start_time := p_class.start_time; r.trainer := p_class.trainer;
  r.type := p_class.type; r.capacity := p_class.capacity; r.current_bookings := p_class.current_bookings;
  r.spots_left := p_class.spots_left; r.is_premium := p_class.is_premium;
  r.unlock_for_standard := p_class.unlock_for_standard; r.price_payg := p_class.price_payg;
  r.waitlist_closes_at := private.waitlist_closes_at(p_class);
  r.late_cancel_from := private.late_cancel_from(p_class);
  r.waitlist_size := (select count(*)::int from public.class_waitlist w where w.class_id = p_class.id);
  r.meeting_point_id := p_class.meeting_point_id;
  select mp.name, mp.map_url, nullif(btrim(mp.directions), '') into r.meeting_point_name, r.meeting_point_map_url, r.directions
    from public.meeting_points mp where mp.id = p_class.meeting_point_id;
  r.location := private.class_where(p_class);
  r.min_age := p_class.min_age; r.max_age := p_class.max_age;

  if p_member.id is null then
    -- A guest sees the class as a pay-as-you-go member would (locked, full, started), then
    -- "sign in"; a signed-in user without a member row is told to sign in again.
    v_guest.membership_tier := 'payg';
    v_guest.has_used_trial := true;
    r.refusal := coalesce(private.booking_refusal(v_guest, p_class, null),
                          case when p_signed_in then 'member_not_found' else 'not_authenticated' end);
    r.bookable := false;
    r.can_join_waitlist := false;
    r.waitlist_refusal := r.refusal;
    if r.refusal = 'class_locked' then
      r.unlocks_at := private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard);
    end if;
    return r;
  end if;

  r.refusal := private.booking_refusal(p_member, p_class, null);
  r.bookable := r.refusal is null;
  r.booking_type := private.booking_type_for(p_member, null);
  r.needs_payment := private.needs_payment(r.booking_type, p_class);
  r.paid_refusal := private.booking_type_refusal(p_member, 'paid');
  r.trial_refusal := private.booking_type_refusal(p_member, 'trial');
  if private.is_class_locked(p_member.membership_tier, p_class.is_premium, p_class.start_time,
                             p_class.unlock_for_standard, now()) then
    r.unlocks_at := private.premium_unlocks_at(p_class.start_time, p_class.unlock_for_standard);
  end if;
  r.waitlist_refusal := private.waitlist_refusal(p_member, p_class);
  r.can_join_waitlist := r.waitlist_refusal is null;

  select * into v_booking from public.bookings b
   where b.member_id = p_member.id and b.class_id = p_class.id and b.dependant_id is null;
  if found then
    r.my_booking_id := v_booking.id;
    r.my_payment_status := v_booking.payment_status;
    r.my_hold_expires_at := v_booking.hold_expires_at;
    -- The caller's own booking may be free to cancel to the end (the studio moved the class).
    r.late_cancel_from := private.booking_late_cancel_from(p_class, v_booking.booked_at);
  end if;
  select w.seq into v_seq from public.class_waitlist w where w.member_id = p_member.id and w.class_id = p_class.id;
  if found then
    r.my_waitlist_position := private.waitlist_position(p_class.id, v_seq);
  end if;
  return r;
end;
$$;

revoke execute on function private.schedule_facts(public.classes, public.members, boolean) from public;
