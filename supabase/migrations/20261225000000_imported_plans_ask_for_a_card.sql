-- A member whose plan came in by import (decision 0065) is paid up to the file's next payment date
-- and has no card here: a week before that date they are emailed, through the one pipeline, that a
-- card is needed then (once per renewal; not before the admin sent the invitations). The renewal
-- reminder, which promises a charge to the saved card, skips plans with no card (decision 0095).
insert into public.notification_types (type, category, label) values
  ('import_card_request', 'service', 'A card for an imported plan');

create function private.import_card_request_ahead()
returns interval
language sql immutable set search_path = ''
as $$ select interval '7 days' $$;

revoke execute on function private.import_card_request_ahead() from public;

create function private.enqueue_import_card_requests(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select ms.* from public.memberships ms
      join public.members m on m.id = ms.member_id
     where ms.status = 'active' and ms.renews and ms.ended_at is null
       and ms.period_number = ms.anchor_period
       and ms.period_end > p_now and ms.period_end <= p_now + private.import_card_request_ahead()
       and not exists (select 1 from private.member_cards c where c.member_id = ms.member_id)
       and not exists (select 1 from public.payments p
                        where p.membership_id = ms.id and p.status = 'paid' and p.period_number >= ms.anchor_period)
       and (m.user_id is not null
            or exists (select 1 from public.imported_members i where i.member_id = m.id and i.invited_at is not null))
  loop
    if private.enqueue_membership_email('import_card_request', v_m.member_id,
         'Your ' || private.plan_name(v_m.plan_slug) || ' membership: a card is needed on '
           || private.london_date_text(v_m.period_end),
         array['Your ' || private.plan_name(v_m.plan_slug) || ' membership carried over from your previous studio is paid up to '
                 || private.london_date_text(v_m.period_end) || '.',
               'That day the next payment of ' || private.gbp(v_m.price) || ' is due here, and there is no card saved for it yet: '
                 || 'your membership page will ask you to add one, and the payment is taken when you do. Until then nothing changes.'],
         jsonb_build_array(jsonb_build_object('label', 'Your membership', 'path', '/membership')),
         'import_card_request:' || v_m.id || ':' || (v_m.period_number + 1)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_import_card_requests(timestamptz) from public;

grant execute on function private.enqueue_import_card_requests(timestamptz) to service_role;

create or replace function private.enqueue_membership_reminders(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select * from public.memberships
     where status = 'active' and renews and ended_at is null
       and period_end > p_now and period_end <= p_now + private.renewal_reminder_ahead()
       -- It promises a charge to the saved card: a plan with none (an imported one) is asked for
       -- a card instead (enqueue_import_card_requests, 25_import.sql).
       and exists (select 1 from private.member_cards c where c.member_id = memberships.member_id)
  loop
    if private.enqueue_membership_email('renewal_reminder', v_m.member_id,
         'Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
           || private.london_date_text(v_m.period_end),
         array['Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
                 || private.london_date_text(v_m.period_end) || ': we will charge '
                 || private.gbp(coalesce(v_m.next_price, v_m.price)) || ' to your saved card.',
               'Nothing to do if you are staying. To stop it renewing, cancel renewal on your membership page before then.'],
         jsonb_build_array(jsonb_build_object('label', 'Manage your membership', 'path', '/membership')),
         'renewal_reminder:' || v_m.id || ':' || (v_m.period_number + 1)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  for v_m in
    select ms.* from public.memberships ms
      join public.members m on m.id = ms.member_id
     where ms.status = 'trialing' and ms.ended_at is null and m.membership_tier = 'trial'
       and ms.period_end > p_now and ms.period_end <= p_now + interval '1 day'
  loop
    if private.enqueue_membership_email('trial_ending', v_m.member_id,
         'Your free trial ends tomorrow',
         array['Your free trial ends on ' || private.london_time_text(v_m.period_end) || ' (London time).',
               'Keep training with a Standard or Platinum Premium membership, or pay as you go.'],
         jsonb_build_array(jsonb_build_object('label', 'See memberships', 'path', '/membership')),
         'trial_ending:' || v_m.id) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  -- "Your pause ends soon" (25_membership_pauses.sql).
  v_count := v_count + private.enqueue_pause_reminders(p_now);
  -- "A card is needed on ..." before an imported plan's first renewal (25_import.sql).
  v_count := v_count + private.enqueue_import_card_requests(p_now);
  return v_count;
end;
$$;

revoke execute on function private.enqueue_membership_reminders(timestamptz) from public;

grant execute on function private.enqueue_membership_reminders(timestamptz) to service_role;
