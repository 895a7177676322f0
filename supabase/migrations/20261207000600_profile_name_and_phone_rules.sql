-- Edit Profile took a 150-character name and "not a phone <b>" as a phone. Names now take at most
-- 100 characters and phones (the member's own and their emergency contact's) only phone numbers:
-- UK, or international with + or 00, written with digits, spaces, brackets and hyphens
-- (private.is_phone_number). Existing rows are brought within the rules first: a longer name is
-- cut to 100 characters, a phone is trimmed and kept when it is then a phone number, else cleared
-- (it could not be dialled as it was). A sign-up's longer full name is cut too, not refused. The
-- definitions are those of supabase/schemas/00_foundation.sql, 01_members.sql and 17_consent.sql.

create function private.is_phone_number(p_phone text)
returns boolean
language sql immutable set search_path = ''
as $$
  select p_phone is null or (
    p_phone = btrim(p_phone) and p_phone ~ '^\+?[0-9() -]+$'
    and case
      when p_phone like '+%' then t.digits ~ '^[1-9][0-9]{6,14}$'
      when t.digits like '00%' then t.digits ~ '^00[1-9][0-9]{6,14}$'
      else t.digits ~ '^0[0-9]{9,10}$'
    end)
    -- '(0)' is the trunk prefix written after a country code (+44 (0)20 …): not dialled.
    from (select regexp_replace(replace(coalesce(p_phone, ''), '(0)', ''), '[^0-9]', '', 'g') as digits) as t
$$;

revoke execute on function private.is_phone_number(text) from public;

grant execute on function private.is_phone_number(text) to authenticated, service_role;

update public.members set name = btrim(left(name, 100)) where char_length(name) > 100;

update public.members
   set phone = case when private.is_phone_number(btrim(phone)) then btrim(phone) end
 where phone is distinct from btrim(phone) or not private.is_phone_number(phone);

update public.members
   set emergency_contact_phone = case when private.is_phone_number(btrim(emergency_contact_phone)) then btrim(emergency_contact_phone) end
 where emergency_contact_phone is distinct from btrim(emergency_contact_phone) or not private.is_phone_number(emergency_contact_phone);

alter table public.members drop constraint members_name_check;

alter table public.members add constraint members_name_check check (char_length(name) <= 100);

alter table public.members add constraint members_phone_is_a_phone_number check (private.is_phone_number(phone));

alter table public.members add constraint members_emergency_contact_phone_is_a_phone_number
  check (private.is_phone_number(emergency_contact_phone));

create or replace function private.create_member_for_user(p_user_id uuid)
returns public.members
language plpgsql security definer set search_path = ''
as $$
declare
  v_user auth.users;
  v_member public.members;
  v_is_trial boolean;
  v_trial_used boolean;
begin
  select * into v_user from auth.users where id = p_user_id;
  if not found or v_user.email is null then
    return null;
  end if;
  -- The free trial is once per email: a member deleted and signing up again gets none.
  v_trial_used := exists (select 1 from private.trial_emails t where t.email_hash = private.email_hash(v_user.email));
  v_is_trial := coalesce(v_user.raw_user_meta_data ->> 'signup_source', '') = 'free-trial' and not v_trial_used;

  insert into public.members as m (user_id, email, name, membership_tier, has_used_trial, trial_expires_at)
  values (
    v_user.id,
    v_user.email,
    -- A name longer than an account takes is cut to it rather than refusing the sign-up (which
    -- GoTrue could only answer with a server error).
    nullif(btrim(left(btrim(v_user.raw_user_meta_data ->> 'full_name'), 100)), ''),
    (case when v_is_trial then 'trial' else 'payg' end)::public.membership_tier,
    v_trial_used,
    case when v_is_trial then now() + private.trial_length() end
  )
  on conflict (email) do update set user_id = excluded.user_id
    where m.user_id is null
  returning * into v_member;

  if v_member.id is null then
    -- The email's row belongs to another user id (should not happen: auth emails are unique).
    select * into v_member from public.members where user_id = p_user_id;
  end if;
  return v_member;
end;
$$;
