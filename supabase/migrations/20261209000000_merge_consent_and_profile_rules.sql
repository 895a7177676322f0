-- Two changes made side by side meet here: the member row's creation records the sign-up's
-- marketing choice and cuts a long full name to the profile's limit, and the outbox takes both new
-- email kinds (the waitlist's class cancelled, and the host told their guest cancelled).
alter table public.notification_outbox drop constraint notification_outbox_kind_check;

alter table public.notification_outbox add constraint notification_outbox_kind_check
  check (kind in ('booking_confirmed', 'booking_cancelled', 'waitlist_promoted', 'class_reminder', 'contact_message',
                  'renewal_receipt', 'payment_failed', 'membership_ended', 'trial_ending', 'renewal_reminder',
                  'credits_expiring', 'payment_receipt', 'refund_receipt', 'class_moved', 'guest_invited',
                  'guest_cancelled', 'studio_message', 'win_back', 'waitlist_cancelled', 'host_guest_cancelled'));

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
