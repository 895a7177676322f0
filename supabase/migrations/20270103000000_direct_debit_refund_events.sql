-- GoCardless's refund events applied (decision 0103): a refund that fails or whose money comes back
-- opens its refund owed again, the watchdog alerts until it is refunded again, and a refund the
-- studio did not make is recorded as a payment notification not applied (decision 0046).
-- GoCardless's refunds of Direct Debit payments (decision 0103), as its refund events report them:
-- created -> paid -> refund_settled, or failed / funds_returned (ends: the money did not reach the
-- member, so the refund owed is open again). A row is written by the first event of a refund the
-- studio made (the refund owed naming it) and stays when that refund owed forgets the id, so a late
-- or replayed event of a failed refund is still known.
create table private.direct_debit_refunds (
  provider_refund_id text primary key check (char_length(provider_refund_id) between 1 and 64),
  refund_owed_id uuid references public.refunds_owed (id) on delete set null,
  status text not null check (status in ('created', 'paid', 'refund_settled', 'failed', 'funds_returned')),
  -- GoCardless's cause and words for a failure, shown under Refunds owed.
  failure_cause text check (char_length(failure_cause) <= 100),
  -- When GoCardless said the money reached the member (paid, or settled first).
  confirmed_at timestamptz,
  created_at timestamptz not null,
  updated_at timestamptz not null
);

create index direct_debit_refunds_refund_owed_id_idx on private.direct_debit_refunds (refund_owed_id);

revoke all on private.direct_debit_refunds from public, anon, authenticated;

create function private.direct_debit_refund_rank(p_status text)
returns integer
language sql immutable set search_path = ''
as $$ select case p_status when 'created' then 0 when 'paid' then 1 when 'refund_settled' then 2 end $$;

revoke execute on function private.direct_debit_refund_rank(text) from public;

create function private.direct_debit_refund_event(p_action text, p_links jsonb, p_details jsonb, p_now timestamptz)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_status text := case when p_action in ('created', 'paid', 'refund_settled', 'failed', 'funds_returned') then p_action end;
  v_refund_id text := nullif(p_links ->> 'refund', '');
  v_cause text := coalesce(nullif(p_details ->> 'cause', ''), p_action);
  v_owed public.refunds_owed;
  v_row private.direct_debit_refunds;
  v_recorded boolean;
begin
  if v_status is null or v_refund_id is null then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;
  -- The lock order of begin_provider_refund: the refund owed first, then what hangs on it.
  select o.* into v_owed from public.refunds_owed o
   where o.id = coalesce((select r.refund_owed_id from private.direct_debit_refunds r where r.provider_refund_id = v_refund_id),
                         (select o2.id from public.refunds_owed o2 where o2.provider_refund_id = v_refund_id limit 1))
   for update of o;
  if not found then
    if exists (select 1 from public.refunds_owed o
                 join private.direct_debit_collections c on c.payment_id = o.payment_id
                where c.provider_payment_id = p_links ->> 'payment' and o.refunded_at is null
                  and o.provider_refund_state = 'in_progress') then
      return ('unknown_reference', null)::public.direct_debit_event_result;
    end if;
    perform private.record_payment_notification(v_refund_id, false, 'unknown_refund',
      'GoCardless refund ' || v_refund_id || ' (' || p_action || coalesce(', payment ' || (p_links ->> 'payment'), '')
        || ') matches no refund the studio made: check it in GoCardless.', p_now);
    return ('unknown_refund', null)::public.direct_debit_event_result;
  end if;
  insert into private.direct_debit_refunds (provider_refund_id, refund_owed_id, status, created_at, updated_at)
  values (v_refund_id, v_owed.id, 'created', p_now, p_now)
  on conflict (provider_refund_id) do nothing;
  v_recorded := found;
  select * into v_row from private.direct_debit_refunds where provider_refund_id = v_refund_id for update;
  -- Known now: an earlier event of this refund recorded as not applied is resolved.
  perform private.record_payment_notification(v_refund_id, true, null, null, p_now);
  if v_row.status in ('failed', 'funds_returned') then
    return ('ignored', null)::public.direct_debit_event_result;
  end if;

  if v_status in ('created', 'paid', 'refund_settled') then
    if private.direct_debit_refund_rank(v_status) <= private.direct_debit_refund_rank(v_row.status) then
      -- The first event of a refund records it (created): applied; any later one at or below its status is not.
      return (case when v_recorded and v_status = 'created' then 'applied' else 'ignored' end, null)::public.direct_debit_event_result;
    end if;
    update private.direct_debit_refunds
       set status = v_status, updated_at = p_now,
           confirmed_at = case when private.direct_debit_refund_rank(v_status) >= 1 then coalesce(confirmed_at, p_now) end
     where provider_refund_id = v_refund_id;
    return ('applied', null)::public.direct_debit_event_result;
  end if;

  update private.direct_debit_refunds set status = v_status, failure_cause = left(v_cause, 100), updated_at = p_now
   where provider_refund_id = v_refund_id;
  -- Only while the refund owed still counts this refund as made (not marked by hand meanwhile).
  update public.refunds_owed
     set refunded_at = null, refunded_by = null, provider_refund_id = null,
         provider_refund_error = left('GoCardless ' || case v_status when 'failed' then 'could not pay this refund'
                                                              else 'paid this refund but the member''s bank returned it' end
                                      || coalesce(': ' || nullif(p_details ->> 'description', ''), '') || ' (' || v_cause || ', '
                                      || v_refund_id || '). It is still owed.', 500)
   where id = v_owed.id and refunded_at is not null and provider_refund_id = v_refund_id;
  return ('applied', null)::public.direct_debit_event_result;
end;
$$;

revoke execute on function private.direct_debit_refund_event(text, jsonb, jsonb, timestamptz) from public;

create or replace function private.apply_direct_debit_event(
  p_event_id text, p_resource_type text, p_action text, p_links jsonb, p_details jsonb, p_now timestamptz
)
returns public.direct_debit_event_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_result public.direct_debit_event_result;
begin
  if p_event_id is null or p_event_id !~ '^[A-Za-z0-9_-]{1,64}$' or p_resource_type is null or p_action is null then
    raise exception 'An event needs an id, a resource type and an action' using errcode = '22023', hint = 'invalid_event';
  end if;
  insert into private.direct_debit_events (id, resource_type, action, links, received_at)
  values (p_event_id, p_resource_type, p_action, coalesce(p_links, '{}'), p_now)
  on conflict (id) do nothing;
  if not found then
    return ('already_applied', null)::public.direct_debit_event_result;
  end if;
  v_result := case p_resource_type
    when 'billing_requests' then private.direct_debit_billing_request_event(p_action, coalesce(p_links, '{}'), p_now)
    when 'mandates' then private.direct_debit_mandate_event(p_action, coalesce(p_links, '{}'), coalesce(p_details, '{}'), p_now)
    when 'payments' then private.direct_debit_payment_event(p_action, coalesce(p_links, '{}'), coalesce(p_details, '{}'), p_now)
    when 'refunds' then private.direct_debit_refund_event(p_action, coalesce(p_links, '{}'), coalesce(p_details, '{}'), p_now)
    else ('ignored', null)::public.direct_debit_event_result end;
  if v_result.outcome = 'unknown_reference' then
    delete from private.direct_debit_events where id = p_event_id;
  else
    update private.direct_debit_events set outcome = v_result.outcome where id = p_event_id;
  end if;
  return v_result;
end;
$$;

revoke execute on function private.apply_direct_debit_event(text, text, text, jsonb, jsonb, timestamptz) from public;

grant execute on function private.apply_direct_debit_event(text, text, text, jsonb, jsonb, timestamptz) to service_role;

create or replace function private.system_health_causes(p_now timestamptz)
returns table (cause text, message text)
language sql stable security definer set search_path = ''
as $$
  select 'missed:hourly',
         'The hourly jobs (renewals, reminders, no-shows) have not completed since '
           || coalesce(private.london_time_text(max(r.started_at) filter (where r.outcome = 'succeeded')), 'they first ran')
           || ' (London time). Members may not be charged or reminded until they run again.'
    from public.job_runs r
   where r.job = 'hourly' and r.started_at <= p_now
  having count(*) > 0
     and coalesce(max(r.started_at) filter (where r.outcome = 'succeeded'), '-infinity') <= p_now - private.hourly_job_window()
  union all
  select 'missed:emails',
         'Emails are queued but the email delivery has not run for ' || private.interval_text(private.email_job_window())
           || ': members are not receiving their emails.'
   where exists (select 1 from public.job_runs r where r.job = 'emails' and r.started_at <= p_now)
     and not exists (select 1 from public.job_runs r
                      where r.job = 'emails' and r.started_at > p_now - private.email_job_window() and r.started_at <= p_now)
     and exists (select 1 from public.notification_deliveries o
                  where o.channel = 'email' and o.sent_at is null and o.failed_at is null
                    and o.next_attempt_at <= p_now - private.email_job_window())
  union all
  select 'failing:' || j.job,
         case j.job when 'hourly' then 'The hourly jobs' when 'emails' then 'The email delivery' else 'The push delivery' end
           || ' failed twice running, last at ' || private.london_time_text(j.last_start) || ' (London time): ' || j.last_summary
    from (
      select r.job, max(r.started_at) as last_start,
             (array_agg(r.summary order by r.started_at desc))[1] as last_summary,
             bool_and(r.outcome = 'failed') and count(*) = 2 as both_failed
        from (select r.*, row_number() over (partition by r.job order by r.started_at desc, r.id desc) as n
                from public.job_runs r
               where r.started_at <= p_now and r.outcome <> 'running') r
       where r.n <= 2
       group by r.job
    ) j
   where j.both_failed
  union all
  select 'emails_failed',
         f.n || case when f.n = 1 then ' email' else ' emails' end || ' could not be delivered in the last '
           || private.interval_text(private.delivery_failure_window()) || ' (see Admin > Messages).'
    from (select count(*) as n from public.notification_deliveries o
           where o.channel = 'email' and o.failed_at > p_now - private.delivery_failure_window() and o.failed_at <= p_now) f
   where f.n > 0
  union all
  select 'pushes_failed',
         f.n || case when f.n = 1 then ' notification' else ' notifications' end || ' to phones failed in the last '
           || private.interval_text(private.delivery_failure_window()) || '.'
    from (select count(*) as n from public.notification_deliveries o
           where o.channel = 'push' and o.failed_at > p_now - private.delivery_failure_window() and o.failed_at <= p_now
             and o.attempts > 0) f
   where f.n > 0
  union all
  select 'payments_unapplied',
         f.n || case when f.n = 1 then ' payment notification' else ' payment notifications' end
           || ' from the card provider or GoCardless could not be applied (' || f.first_checkout
           || '): check it in SumUp or GoCardless.'
    from (select count(*) as n, min(pf.checkout_id) as first_checkout from public.payment_notification_failures pf
           where pf.resolved_at is null and pf.failed_at > p_now - private.payment_failure_window() and pf.failed_at <= p_now) f
   where f.n > 0
  union all
  -- A Direct Debit refund GoCardless could not pay, or whose money came back (decision 0103): open
  -- until the refund owed is refunded again (through GoCardless or marked by hand).
  select 'refunds_failed',
         f.n || case when f.n = 1 then ' Direct Debit refund' else ' Direct Debit refunds' end
           || ' failed at GoCardless (refund ' || f.first_refund || '): the money is still owed, see Refunds owed.'
    from (select count(*) as n, min(r.provider_refund_id) as first_refund
            from private.direct_debit_refunds r join public.refunds_owed o on o.id = r.refund_owed_id
           where r.status in ('failed', 'funds_returned') and r.updated_at <= p_now and o.refunded_at is null) f
   where f.n > 0
$$;

revoke execute on function private.system_health_causes(timestamptz) from public;
