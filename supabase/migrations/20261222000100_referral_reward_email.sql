-- A referral's reward is told to each of the two members by email (decision 0084), in the
-- transaction that gives it.

insert into public.notification_types (type, category, label) values
  ('referral_reward', 'service', 'Referral rewards');

create or replace function private.give_referral_reward(p_referral public.referrals, p_member_id uuid, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_settings public.referral_settings;
begin
  select * into v_settings from public.referral_settings where id;
  insert into public.referral_rewards (referral_id, member_id, kind, amount, used_at, created_at)
  values (p_referral.id, p_member_id, v_settings.reward_kind,
          case when v_settings.reward_kind = 'renewal_discount' then v_settings.renewal_amount end,
          case when v_settings.reward_kind = 'session_credit' then p_now end, p_now)
  on conflict (referral_id, member_id) do nothing;
  if not found then
    return;
  end if;
  if v_settings.reward_kind = 'session_credit' then
    perform private.grant_credits(p_member_id, 'personal_training', 1, 'referral',
      'referral:' || p_referral.id || ':' || p_member_id, p_now, p_now + make_interval(days => v_settings.credit_valid_days),
      null, null, null, null, null, null, 'Referral reward');
  end if;
  -- Told in the same transaction (decision 0040), once per reward.
  perform private.enqueue_membership_email('referral_reward', p_member_id,
    'Your referral reward: ' || case when v_settings.reward_kind = 'session_credit' then 'a free personal-training session'
                                     else private.gbp(v_settings.renewal_amount) || ' off your next renewal' end,
    array[case when p_member_id = p_referral.referrer_member_id
               then 'Thank you for bringing a friend to the studio: their first payment has gone through.'
               else 'Welcome to the studio: you joined through a friend''s link and your first payment has gone through.' end,
          case when v_settings.reward_kind = 'session_credit'
               then 'You have a free personal-training session to book until '
                    || private.london_date_text(p_now + make_interval(days => v_settings.credit_valid_days)) || '.'
               else 'We will take ' || private.gbp(v_settings.renewal_amount)
                    || ' off your next membership renewal (at least £1 is still charged).' end],
    case when v_settings.reward_kind = 'session_credit'
         then jsonb_build_array(jsonb_build_object('label', 'Book a session', 'path', '/schedule'))
         else jsonb_build_array(jsonb_build_object('label', 'Your membership', 'path', '/membership')) end,
    'referral_reward:' || p_referral.id || ':' || p_member_id);
end;
$$;

revoke execute on function private.give_referral_reward(public.referrals, uuid, timestamptz) from public;
