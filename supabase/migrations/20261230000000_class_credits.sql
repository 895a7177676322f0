-- Class credits (decision 0102): a new kind in the one credit ledger, booked through
-- book_with_credit for a paid group class, the referral reward "a free class credit", and a kind
-- admins grant. Credits already granted are left as they are (personal-training sessions stay so).
alter type public.credit_kind add value if not exists 'class';

alter table public.referral_settings drop constraint referral_settings_reward_kind_check;

alter table public.referral_settings
  add constraint referral_settings_reward_kind_check check (reward_kind in ('class_credit', 'session_credit', 'renewal_discount'));

alter table public.referral_rewards drop constraint referral_rewards_kind_check;

alter table public.referral_rewards
  add constraint referral_rewards_kind_check check (kind in ('class_credit', 'session_credit', 'renewal_discount'));

comment on table public.referral_rewards is
  'Referral rewards: a class or session credit (in the credit ledger) or money off the next renewal, and the renewal it was taken off.';

create or replace function private.credit_for(p_member_id uuid, p_class public.classes)
returns public.credit_choice
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_week timestamptz := private.london_week_start(p_class.start_time);
  v_kind public.credit_kind := case when p_class.type = 'One-to-One' then 'personal_training' else 'class' end;
  v_credit public.credits;
  v_capped public.credits;
  v_booked text;
  r public.credit_choice;
begin
  for v_credit in
    select * from public.credits c
     where c.member_id = p_member_id and c.kind = v_kind
       and private.credit_usable(c, now()) and c.expires_at > p_class.start_time
     order by c.expires_at, c.created_at, c.seq
  loop
    if v_credit.weekly_cap is null or (
         select count(*) from public.credits u join public.bookings b on b.id = u.booking_id
           join public.classes k on k.id = b.class_id
          where u.grant_key = v_credit.grant_key and u.kind = v_credit.kind
            and k.start_time >= v_week and k.start_time < v_week + interval '7 days') < v_credit.weekly_cap then
      r.credit_id := v_credit.id;
      r.expires_at := v_credit.expires_at;
      return r;
    end if;
    v_capped := coalesce(v_capped, v_credit);
  end loop;
  if v_capped.id is not null then
    select string_agg(to_char(k.start_time at time zone 'Europe/London', 'Dy FMDD Mon HH24:MI'), ', ' order by k.start_time)
      into v_booked
      from public.credits u join public.bookings b on b.id = u.booking_id join public.classes k on k.id = b.class_id
     where u.grant_key = v_capped.grant_key and u.kind = v_capped.kind
       and k.start_time >= v_week and k.start_time < v_week + interval '7 days';
    r.refusal := 'weekly_cap_reached';
    r.message := 'Your package allows ' || v_capped.weekly_cap || ' sessions a week, and that week you have booked '
                 || coalesce(v_booked, 'them') || '.';
    return r;
  end if;
  r.refusal := 'no_credit';
  if v_kind = 'class' then
    r.message := 'You have no class credit to use for this class: it is ' || private.gbp(coalesce(p_class.price_payg, 0)) || '.';
    return r;
  end if;
  r.message := 'You have no personal-training session to use for this class: it is '
               || private.gbp(coalesce(nullif(p_class.price_payg, 0), private.personal_training_price())) || '.';
  return r;
end;
$$;

revoke execute on function private.credit_for(uuid, public.classes) from public;

create or replace function private.my_credit_for_class(p_class_id uuid)
returns public.credit_choice
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_class public.classes;
begin
  select * into v_class from public.classes where id = p_class_id;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  if v_class.type <> 'One-to-One' and coalesce(v_class.price_payg, 0) <= 0 then
    raise exception 'Credits are for classes that are paid for' using errcode = 'P0001', hint = 'credit_not_for_class';
  end if;
  return private.credit_for(v_member.id, v_class);
end;
$$;

revoke execute on function private.my_credit_for_class(uuid) from public;

grant execute on function private.my_credit_for_class(uuid) to authenticated, service_role;

create or replace function private.book_with_credit(p_class_id uuid)
returns public.booking_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_class public.classes;
  v_refusal text;
  v_choice public.credit_choice;
  r public.booking_result;
begin
  select * into v_class from public.classes where id = p_class_id for update;
  if not found then
    raise exception 'Class not found' using errcode = 'P0002', hint = 'class_not_found';
  end if;
  select * into v_member from public.members where id = v_member.id for no key update;
  if v_class.type <> 'One-to-One' and coalesce(v_class.price_payg, 0) <= 0 then
    raise exception 'Credits are for classes that are paid for' using errcode = 'P0001', hint = 'credit_not_for_class';
  end if;
  v_refusal := private.booking_refusal(v_member, v_class, 'payg');
  if v_refusal is not null then
    perform private.raise_booking_refusal(v_refusal, v_class, v_member);
  end if;
  if v_class.type <> 'One-to-One'
     and (private.booking_refusal(v_member, v_class, 'paid') is null or private.trial_available(v_member)) then
    raise exception 'Your % covers this class: book it without your class credit',
      case when private.trial_available(v_member) then 'free trial' else 'plan' end
      using errcode = 'P0001', hint = 'credit_not_needed';
  end if;
  v_choice := private.credit_for(v_member.id, v_class);
  if v_choice.credit_id is null then
    raise exception '%', v_choice.message using errcode = 'P0001', hint = v_choice.refusal;
  end if;

  r.booking_id := private.create_booking(v_member.id, v_class.id, 'credit');
  update public.credits set booking_id = r.booking_id, used_at = now() where id = v_choice.credit_id;
  perform private.enqueue_class_email('booking_confirmed', v_member.id, v_class.id, r.booking_id);

  r.status := 'booked';
  r.class_id := v_class.id;
  r.booking_type := 'credit';
  r.payment_status := 'completed';
  r.needs_payment := false;
  r.price_payg := v_class.price_payg;
  r.previous_tier := v_member.membership_tier;
  r.tier := v_member.membership_tier;
  r.trial_used := v_member.has_used_trial;
  r.spots_left := (select c.spots_left from public.classes c where c.id = v_class.id);
  return r;
end;
$$;

revoke execute on function private.book_with_credit(uuid) from public;

grant execute on function private.book_with_credit(uuid) to authenticated, service_role;

create or replace function private.enqueue_credit_expiry_reminders(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_row record;
  v_count integer := 0;
begin
  for v_row in
    select c.member_id, (c.expires_at at time zone 'Europe/London')::date as day, min(c.expires_at) as expires_at,
           count(*) filter (where c.kind = 'personal_training') as sessions,
           count(*) filter (where c.kind = 'guest_pass') as passes,
           count(*) filter (where c.kind = 'class') as classes
      from public.credits c
     where private.credit_usable(c, p_now) and c.expires_at <= p_now + private.credit_expiry_notice()
     group by c.member_id, day
  loop
    if private.enqueue_membership_email('credits_expiring', v_row.member_id,
         'Your credits expire on ' || private.london_date_text(v_row.expires_at),
         array['You have ' || concat_ws(' and ',
                  case when v_row.sessions > 0 then v_row.sessions || ' personal-training session'
                                                     || case when v_row.sessions > 1 then 's' else '' end end,
                  case when v_row.passes > 0 then v_row.passes || ' guest pass'
                                                    || case when v_row.passes > 1 then 'es' else '' end end,
                  case when v_row.classes > 0 then v_row.classes || ' class credit'
                                                     || case when v_row.classes > 1 then 's' else '' end end)
                || ' that expire on ' || private.london_date_text(v_row.expires_at) || '.',
               case when v_row.classes > 0 and v_row.sessions + v_row.passes = 0
                    then 'Book a class before then so they are not lost.'
                    else 'Book a One-to-One session before then so they are not lost.' end],
         jsonb_build_array(jsonb_build_object('label', 'Your credits', 'path', '/membership')),
         'credits_expiring:' || v_row.member_id || ':' || v_row.day) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_credit_expiry_reminders(timestamptz) from public;

grant execute on function private.enqueue_credit_expiry_reminders(timestamptz) to service_role;

create or replace function private.admin_grant_credits(
  p_member_id uuid, p_kind text, p_count integer, p_valid_days integer, p_reason text
)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin public.members;
begin
  perform private.require_admin();
  v_admin := private.require_member();
  if p_kind is null or p_kind not in ('personal_training', 'guest_pass', 'class') then
    raise exception 'Choose personal-training sessions, guest passes or class credits.' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if p_count is null or p_count < 1 or p_count > 50 then
    raise exception 'Grant between 1 and 50.' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if p_valid_days is null or p_valid_days < 1 or p_valid_days > 366 then
    raise exception 'Credits are valid for 1 to 366 days.' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if nullif(btrim(coalesce(p_reason, '')), '') is null or char_length(p_reason) > 300 then
    raise exception 'Give a reason (at most 300 characters).' using errcode = '22023', hint = 'invalid_credit';
  end if;
  if not exists (select 1 from public.members where id = p_member_id) then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  return private.grant_credits(p_member_id, p_kind::public.credit_kind, p_count, 'admin_grant',
    'grant:' || gen_random_uuid(), now(), now() + make_interval(days => p_valid_days), null, null, null, null, null,
    v_admin.id, btrim(p_reason));
end;
$$;

revoke execute on function private.admin_grant_credits(uuid, text, integer, integer, text) from public;

grant execute on function private.admin_grant_credits(uuid, text, integer, integer, text) to authenticated, service_role;

create or replace function private.admin_set_referral_settings(
  p_enabled boolean, p_reward_kind text, p_renewal_amount numeric, p_credit_valid_days integer
)
returns public.referral_settings
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.referral_settings;
begin
  perform private.require_admin();
  if p_reward_kind is null or p_reward_kind not in ('class_credit', 'session_credit', 'renewal_discount') then
    raise exception 'Choose a class credit, a session credit or money off the next renewal.' using errcode = '22023', hint = 'invalid_reward';
  end if;
  if p_renewal_amount is null or p_renewal_amount <= 0 or p_renewal_amount > 500 or p_renewal_amount <> round(p_renewal_amount, 2) then
    raise exception 'Money off a renewal is £0.01 to £500.' using errcode = '22023', hint = 'invalid_amount';
  end if;
  if p_credit_valid_days is null or p_credit_valid_days not between 7 and 365 then
    raise exception 'A session credit is valid 7 to 365 days.' using errcode = '22023', hint = 'invalid_days';
  end if;
  update public.referral_settings
     set enabled = coalesce(p_enabled, true), reward_kind = p_reward_kind, renewal_amount = p_renewal_amount,
         credit_valid_days = p_credit_valid_days, updated_at = now()
   where id
  returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.admin_set_referral_settings(boolean, text, numeric, integer) from public;

grant execute on function private.admin_set_referral_settings(boolean, text, numeric, integer) to authenticated;

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
          case when v_settings.reward_kind <> 'renewal_discount' then p_now end, p_now)
  on conflict (referral_id, member_id) do nothing;
  if not found then
    return;
  end if;
  -- A class credit (decision 0102) or a personal-training session, in the one credit ledger.
  if v_settings.reward_kind <> 'renewal_discount' then
    perform private.grant_credits(p_member_id,
      case when v_settings.reward_kind = 'class_credit' then 'class' else 'personal_training' end::public.credit_kind, 1, 'referral',
      'referral:' || p_referral.id || ':' || p_member_id, p_now, p_now + make_interval(days => v_settings.credit_valid_days),
      null, null, null, null, null, null, 'Referral reward');
  end if;
  -- Told in the same transaction (decision 0040), once per reward.
  perform private.enqueue_membership_email('referral_reward', p_member_id,
    'Your referral reward: ' || case v_settings.reward_kind when 'class_credit' then 'a free class credit'
                                     when 'session_credit' then 'a free personal-training session'
                                     else private.gbp(v_settings.renewal_amount) || ' off your next renewal' end,
    array[case when p_member_id = p_referral.referrer_member_id
               then 'Thank you for bringing a friend to the studio: their first payment has gone through.'
               else 'Welcome to the studio: you joined through a friend''s link and your first payment has gone through.' end,
          case when v_settings.reward_kind = 'class_credit'
               then 'You have a free class to book until '
                    || private.london_date_text(p_now + make_interval(days => v_settings.credit_valid_days))
                    || ': choose "Use a class credit" when you book a class you would pay for.'
               when v_settings.reward_kind = 'session_credit'
               then 'You have a free personal-training session to book until '
                    || private.london_date_text(p_now + make_interval(days => v_settings.credit_valid_days)) || '.'
               else 'We will take ' || private.gbp(v_settings.renewal_amount)
                    || ' off your next membership renewal (at least £1 is still charged).' end],
    case when v_settings.reward_kind <> 'renewal_discount'
         then jsonb_build_array(jsonb_build_object('label', 'Book a session', 'path', '/schedule'))
         else jsonb_build_array(jsonb_build_object('label', 'Your membership', 'path', '/membership')) end,
    'referral_reward:' || p_referral.id || ':' || p_member_id);
end;
$$;

revoke execute on function private.give_referral_reward(public.referrals, uuid, timestamptz) from public;

