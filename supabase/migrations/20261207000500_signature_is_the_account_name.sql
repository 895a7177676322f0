-- The typed signature accepted any name: "Someone Else" was stored as a member's signature of the
-- terms, waiver and PAR-Q. sign_documents now takes only the name on the member's account (case,
-- spaces and punctuation aside: signature_key), refuses signature_mismatch otherwise, and asks an
-- account without a name for one first (account_name_required). The definitions are those of
-- supabase/schemas/17_consent.sql.

create function private.signature_key(p_name text)
returns text
language sql immutable set search_path = ''
as $$ select regexp_replace(lower(normalize(coalesce(p_name, ''), nfc)), '[[:space:][:punct:]]', '', 'g') $$;

revoke execute on function private.signature_key(text) from public;

create or replace function private.sign_documents(
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
