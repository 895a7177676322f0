-- Plan changes members can live with (issue 31). A membership an admin set up for a member with no
-- saved card gets, as its first notice, an invitation to add one ('Add a card to start your …
-- membership'), not 'Payment failed … there is no saved card'; if no card ever comes, the ending
-- email says the plan did not start. A scheduled downgrade (or an admin's change at the period
-- end) can be undone by the member: keep_current_plan().
-- Definitions are copied from supabase/schemas/07_memberships.sql.

create or replace function private.fail_membership_charge(p_checkout_reference text, p_attempt integer, p_reason text, p_now timestamptz)
returns public.checkout_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_m public.memberships;
  v_retry timestamptz;
  -- The first charge of a membership an admin set up (admin_put_on_plan), with no card saved.
  v_never_started boolean;
begin
  perform 1 from public.memberships
   where id = (select p.membership_id from public.payments p where p.checkout_reference = p_checkout_reference)
   for update;
  select * into v_payment from public.payments
   where checkout_reference = p_checkout_reference and billing_reason is not null
   for update;
  if not found then
    return ('unknown_reference', null, null)::public.checkout_result;
  end if;
  if v_payment.status = 'paid' or p_attempt is distinct from v_payment.attempts
     or v_payment.failed_attempt is not distinct from p_attempt then
    return ('already_applied', v_payment.id, v_payment.status)::public.checkout_result;
  end if;
  update public.payments
     set status = 'failed', failed_attempt = p_attempt, failure_reason = left(coalesce(p_reason, 'declined'), 200),
         failed_at = p_now, claimed_until = null
   where id = v_payment.id;

  if v_payment.billing_reason = 'renewal' then
    select * into v_m from public.memberships
     where id = v_payment.membership_id and ended_at is null and period_number + 1 = v_payment.period_number
     for update;
    if found then
      v_never_started := p_reason = 'no_card' and v_payment.period_number = v_m.anchor_period
                         and not exists (select 1 from public.payments p
                                          where p.membership_id = v_m.id and p.status = 'paid'
                                            and p.period_number >= v_m.anchor_period);
      select v_m.period_end + make_interval(days => d) into v_retry
        from unnest(private.renewal_retry_days()) d
       where v_m.period_end + make_interval(days => d) > p_now
       order by d limit 1;
      if v_retry is null then
        update public.memberships
           set status = 'lapsed', renews = false, ended_at = p_now, retry_count = retry_count + 1,
               next_retry_at = null, updated_at = p_now
         where id = v_m.id
        returning * into v_m;
        perform private.sync_member_from_membership(v_m);
        perform private.enqueue_membership_email('membership_ended', v_m.member_id,
          'Your ' || private.plan_name(v_m.plan_slug) || ' membership has ended',
          array[case when v_never_started then
                  'No card was added for the ' || private.plan_name(v_m.plan_slug) || ' membership the studio set up '
                    || 'for you, so it has not started and you stay on pay-as-you-go.'
                else 'We could not take the ' || private.gbp(v_payment.amount) || ' renewal of your '
                  || private.plan_name(v_m.plan_slug) || ' membership after several tries, so it has ended '
                  || 'and you are now on pay-as-you-go.' end,
                'You can choose a plan again at any time from your membership page.'],
          jsonb_build_array(jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
          'membership_ended:' || v_m.id || ':' || v_m.period_number);
      else
        update public.memberships
           set status = 'past_due', retry_count = retry_count + 1, next_retry_at = v_retry, updated_at = p_now
         where id = v_m.id
        returning * into v_m;
        perform private.sync_member_from_membership(v_m);
        if v_never_started then
          -- A plan an admin set up for a member without a saved card: an invitation, not a failure.
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Add a card to start your ' || private.plan_name(v_m.plan_slug) || ' membership',
            array['The studio has set up a ' || private.plan_name(v_m.plan_slug) || ' membership for you at '
                    || private.gbp(v_payment.amount) || ' a month.',
                  'To start it, add a card on your membership page: the first month is taken then. Until then you '
                    || 'book as before; we will remind you on ' || private.london_date_text(v_retry) || '.'],
            jsonb_build_array(jsonb_build_object('label', 'Add a card', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        else
          perform private.enqueue_membership_email('payment_failed', v_m.member_id,
            'Payment failed: please update your card',
            array['We could not take the ' || private.gbp(v_payment.amount) || ' renewal of your '
                    || private.plan_name(v_m.plan_slug) || ' membership'
                    || case when p_reason = 'no_card' then ': there is no saved card.' else ': your card was declined.' end,
                  'You can keep booking classes while we try again on ' || private.london_date_text(v_retry)
                    || '. Update your card to pay now and keep your membership.'],
            jsonb_build_array(jsonb_build_object('label', 'Update card', 'path', '/membership')),
            'payment_failed:' || v_payment.id || ':' || p_attempt);
        end if;
      end if;
    end if;
  end if;
  return ('marked_failed', v_payment.id, 'failed')::public.checkout_result;
end;
$$;

revoke execute on function private.fail_membership_charge(text, integer, text, timestamptz) from public;

grant execute on function private.fail_membership_charge(text, integer, text, timestamptz) to service_role;

create function private.keep_current_plan(p_now timestamptz)
returns public.my_membership
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
begin
  select * into v_m from public.memberships where member_id = (private.require_member()).id for update;
  if not found or v_m.ended_at is not null or v_m.status not in ('active', 'past_due', 'cancelled') then
    raise exception 'You have no membership to change.' using errcode = 'P0001', hint = 'no_running_membership';
  end if;
  if v_m.next_plan_slug is not null then
    update public.memberships set next_plan_slug = null, next_tier = null, next_price = null, updated_at = p_now
     where id = v_m.id
    returning * into v_m;
  end if;
  return private.membership_view(v_m);
end;
$$;

revoke execute on function private.keep_current_plan(timestamptz) from public;

grant execute on function private.keep_current_plan(timestamptz) to authenticated, service_role;

create function public.keep_current_plan()
returns public.my_membership
language sql volatile security invoker set search_path = ''
as $$ select * from private.keep_current_plan(now()) $$;

revoke execute on function public.keep_current_plan() from public, anon;

grant execute on function public.keep_current_plan() to authenticated, service_role;

