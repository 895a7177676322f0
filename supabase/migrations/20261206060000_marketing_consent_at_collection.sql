-- Marketing only with consent, recorded at collection (UK PECR): come-back emails were on by
-- default and neither sign-up form offered a way to refuse. Now the forms offer an unticked
-- "Send me news and offers", each choice is kept with its words and time, and a member who never
-- chose gets no marketing. Existing members chose nothing: their come-back emails stop until they
-- opt in (the soft opt-in needs a chance to refuse when the address was collected, which they never
-- had; docs/data-contract.md).
alter table public.email_preferences alter column win_back set default false;

update public.email_preferences set win_back = false where win_back;

grant select (win_back) on public.email_preferences to authenticated;

create table public.marketing_consents (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  granted boolean not null,
  -- The words the member ticked or unticked (marketing_consent_wording at the time).
  wording text not null check (char_length(wording) between 1 and 500),
  -- Where: a sign-up form, Edit Profile, or an email's unsubscribe link.
  source text not null check (source in ('sign_up', 'free_trial', 'profile', 'unsubscribe')),
  recorded_at timestamptz not null default now()
);

comment on table public.marketing_consents is
  'Each member''s choices about news and offers, with the wording and the time (append-only; the latest is current).';

create index marketing_consents_member_id_recorded_at_idx on public.marketing_consents (member_id, recorded_at desc);

alter table public.marketing_consents enable row level security;

revoke all on public.marketing_consents from public, anon, authenticated;

grant select on public.marketing_consents to authenticated;

grant all on public.marketing_consents to service_role;

create policy "Members read their own consents; admins read all"
  on public.marketing_consents for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create function private.marketing_consent_wording()
returns text
language sql immutable set search_path = ''
as $$ select 'Send me news and offers' $$;

revoke execute on function private.marketing_consent_wording() from public;

create function private.record_marketing_consent(p_member_id uuid, p_granted boolean, p_source text)
returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.marketing_consents (member_id, granted, wording, source)
  values (p_member_id, p_granted, private.marketing_consent_wording(), p_source);
  insert into public.email_preferences as p (member_id, win_back) values (p_member_id, p_granted)
  on conflict (member_id) do update set win_back = excluded.win_back, updated_at = now();
  return p_granted;
end;
$$;

revoke execute on function private.record_marketing_consent(uuid, boolean, text) from public;

create function private.set_marketing_consent(p_granted boolean)
returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  if p_granted is null then
    raise exception 'Choose yes or no' using errcode = '22023', hint = 'invalid_consent';
  end if;
  return private.record_marketing_consent((private.require_member()).id, p_granted, 'profile');
end;
$$;

revoke execute on function private.set_marketing_consent(boolean) from public;

grant execute on function private.set_marketing_consent(boolean) to authenticated;

create function public.set_marketing_consent(p_granted boolean)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.set_marketing_consent(p_granted) $$;

revoke execute on function public.set_marketing_consent(boolean) from public, anon, authenticated;

grant execute on function public.set_marketing_consent(boolean) to authenticated;

create or replace function private.notification_outbox_prepare()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.kind in ('class_reminder', 'win_back') and new.member_id is not null then
    -- A member without a row has the defaults: reminders on, marketing off until they consent.
    insert into public.email_preferences (member_id) values (new.member_id) on conflict (member_id) do nothing;
    if exists (select 1 from public.email_preferences p
                where p.member_id = new.member_id
                  and not (case new.kind when 'win_back' then p.win_back else p.class_reminders end)) then
      return null;
    end if;
    select p.unsubscribe_token into new.unsubscribe_token from public.email_preferences p where p.member_id = new.member_id;
  end if;
  return new;
end;
$$;

revoke execute on function private.notification_outbox_prepare() from public;

create or replace function private.unsubscribe_win_back(p_token text)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_email text;
  v_member_id uuid;
begin
  select m.id, m.email::text into v_member_id, v_email
    from public.email_preferences p join public.members m on m.id = p.member_id
   where p.unsubscribe_token = p_token and p_token ~ '^[0-9a-f]{64}$';
  if v_email is null then
    raise exception 'This unsubscribe link is not valid. Sign in and turn reminder emails off on Edit Profile instead.'
      using errcode = 'P0002', hint = 'invalid_unsubscribe_token';
  end if;
  perform private.record_marketing_consent(v_member_id, false, 'unsubscribe');
  return v_email;
end;
$$;

revoke execute on function private.unsubscribe_win_back(text) from public;

grant execute on function private.unsubscribe_win_back(text) to service_role;

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
    nullif(btrim(v_user.raw_user_meta_data ->> 'full_name'), ''),
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
  -- The sign-up form's unticked "news and offers" choice, recorded once with its words
  -- (10_notifications.sql). A sign-up that showed no choice records none: marketing stays off.
  if v_member.id is not null and v_user.raw_user_meta_data ? 'marketing_opt_in'
     and not exists (select 1 from public.marketing_consents c where c.member_id = v_member.id) then
    perform private.record_marketing_consent(v_member.id, (v_user.raw_user_meta_data ->> 'marketing_opt_in') = 'true',
                                             case when v_user.raw_user_meta_data ->> 'signup_source' = 'free-trial'
                                                  then 'free_trial' else 'sign_up' end);
  end if;
  return v_member;
end;
$$;

revoke execute on function private.create_member_for_user(uuid) from public;
