-- publish_document waits for bookings under way and makes later ones wait for it, so a booking
-- never commits after a new terms, waiver or PAR-Q version it has not signed (decision 0027);
-- supabase/schemas/17_consent.sql's function as it now is.
create or replace function private.publish_document(p_kind text, p_title text, p_body text, p_summary text, p_questions jsonb)
returns public.document_versions
language plpgsql security definer set search_path = ''
as $$
declare
  v_kind public.document_kind;
  v_row public.document_versions;
begin
  perform private.require_admin();
  if p_kind is null or p_kind not in ('terms', 'privacy', 'cookies', 'waiver', 'parq') then
    raise exception 'Unknown document' using errcode = '22023', hint = 'invalid_document_kind';
  end if;
  v_kind := p_kind::public.document_kind;
  if char_length(btrim(coalesce(p_title, ''))) = 0 or char_length(btrim(coalesce(p_body, ''))) = 0 then
    raise exception 'A document needs a title and text' using errcode = '22023', hint = 'document_empty';
  end if;
  if v_kind = 'parq' and (p_questions is null or jsonb_typeof(p_questions) <> 'array' or jsonb_array_length(p_questions) = 0
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
          case when v_kind = 'parq' then p_questions end,
          private.current_member_id())
  returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.publish_document(text, text, text, text, jsonb) from public;

grant execute on function private.publish_document(text, text, text, text, jsonb) to authenticated;
