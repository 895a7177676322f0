-- The renewal reminder says the balance pays first (decision 0108).

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
       -- It promises a charge to the saved card or a Direct Debit collection: a plan with neither
       -- (an imported one) is asked for a card instead (enqueue_import_card_requests, 25_import.sql).
       and (exists (select 1 from private.member_cards c where c.member_id = memberships.member_id)
            or private.billing_method(memberships.member_id) = 'direct_debit')
  loop
    if private.enqueue_membership_email('renewal_reminder', v_m.member_id,
         'Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
           || private.london_date_text(v_m.period_end),
         array_remove(array['Your ' || private.plan_name(coalesce(v_m.next_plan_slug, v_m.plan_slug)) || ' membership renews on '
                 || private.london_date_text(v_m.period_end)
                 -- A member paying by Direct Debit (decision 0076, 18_direct_debit.sql) is collected from.
                 || case when private.billing_method(v_m.member_id) = 'direct_debit' then ': we will collect '
                         || private.gbp(coalesce(v_m.next_price, v_m.price)) || ' by Direct Debit.'
                         else ': we will charge ' || private.gbp(coalesce(v_m.next_price, v_m.price)) || ' to your saved card.' end,
               -- The balance pays the renewal first (decision 0108): the charge is then only the rest.
               case when private.member_balance(v_m.member_id) > 0 then
                 'Your balance (' || private.gbp(private.member_balance(v_m.member_id))
                   || ' today) pays first, so only what it leaves is charged.' end,
               'Nothing to do if you are staying. To stop it renewing, cancel renewal on your membership page before then.'], null),
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
