-- System health (decision 0046): each run of a scheduled job (its start, end,
-- outcome and what it did), payment notifications that could not be applied, and a watchdog that
-- opens an alert when something has stopped or keeps failing, emails the studio once when it opens,
-- and clears it when the cause has gone (a later occurrence opens a new alert).

-- Tables -----------------------------------------------------------------------------------------
-- One row per run of a scheduled job: 'hourly' (run-jobs: renewals, reminders, no-shows, the
-- watchdog, retention), 'emails' (deliver-emails, every minute), 'pushes' (deliver-pushes).
create table public.job_runs (
  id bigint generated always as identity primary key,
  job text not null constraint job_runs_job_check check (job in ('hourly', 'emails', 'pushes')),
  started_at timestamptz not null,
  finished_at timestamptz,
  outcome text not null default 'running' constraint job_runs_outcome_check check (outcome in ('running', 'succeeded', 'failed')),
  -- What it did ('sent 3, retrying 0, failed 0') or why it failed.
  summary text not null default '' check (char_length(summary) <= 4000),
  constraint job_runs_finished_when_done check ((outcome = 'running') = (finished_at is null))
);

comment on table public.job_runs is 'Each run of a scheduled job: start, end, outcome and what it did (decision 0046).';

create index job_runs_job_started_idx on public.job_runs (job, started_at desc);

alter table public.job_runs enable row level security;

revoke all on public.job_runs from public, anon, authenticated;

grant select on public.job_runs to authenticated;

grant all on public.job_runs to service_role;

-- A payment notification that was verified with the provider but could not be applied (no payment
-- matches it, or applying it failed). Resolved when a later notification for the same checkout applies.
create table public.payment_notification_failures (
  id bigint generated always as identity primary key,
  checkout_id text not null check (char_length(checkout_id) between 1 and 100),
  reason text not null check (char_length(reason) between 1 and 100),
  detail text not null default '' check (char_length(detail) <= 2000),
  failed_at timestamptz not null,
  resolved_at timestamptz
);

comment on table public.payment_notification_failures is
  'Payment notifications that could not be applied, until a later notification for the checkout applies (decision 0046).';

create index payment_notification_failures_open_idx on public.payment_notification_failures (checkout_id) where resolved_at is null;

alter table public.payment_notification_failures enable row level security;

revoke all on public.payment_notification_failures from public, anon, authenticated;

grant select on public.payment_notification_failures to authenticated;

grant all on public.payment_notification_failures to service_role;

-- An alert, open from opened_at until its cause has gone (cleared_at). One open alert per cause.
create table public.system_alerts (
  id bigint generated always as identity primary key,
  -- The cause: 'missed:hourly', 'failing:emails', 'emails_failed', 'pushes_failed', 'payments_unapplied', 'refunds_failed'.
  cause text not null check (char_length(cause) between 1 and 100),
  message text not null check (char_length(message) between 1 and 1000),
  opened_at timestamptz not null,
  cleared_at timestamptz
);

comment on table public.system_alerts is
  'Alerts the watchdog opened (emailed to the studio once) and cleared when their cause went (decision 0046).';

create unique index system_alerts_one_open_per_cause on public.system_alerts (cause) where cleared_at is null;

create index system_alerts_opened_idx on public.system_alerts (opened_at desc);

alter table public.system_alerts enable row level security;

revoke all on public.system_alerts from public, anon, authenticated;

grant select on public.system_alerts to authenticated;

grant all on public.system_alerts to service_role;

-- The windows the watchdog holds each job to ----------------------------------------------------
-- The hourly job must have succeeded within this (it runs every hour: one missed run is allowed).
create function private.hourly_job_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '2 hours' $$;

revoke execute on function private.hourly_job_window() from public;

-- Queued email older than this with no delivery run since means deliver-emails has stopped.
create function private.email_job_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '10 minutes' $$;

revoke execute on function private.email_job_window() from public;

-- Emails or pushes given up on within this count as failing now.
create function private.delivery_failure_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '24 hours' $$;

revoke execute on function private.delivery_failure_window() from public;

-- Unapplied payment notifications within this are alerted on.
create function private.payment_failure_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '7 days' $$;

revoke execute on function private.payment_failure_window() from public;

-- Recording runs ------------------------------------------------------------------------------------
-- A job run starts: returns its id, for finish_job_run.
create function private.start_job_run(p_job text, p_now timestamptz)
returns bigint
language sql security definer set search_path = ''
as $$
  insert into public.job_runs (job, started_at) values (p_job, p_now) returning id
$$;

revoke execute on function private.start_job_run(text, timestamptz) from public;

grant execute on function private.start_job_run(text, timestamptz) to service_role;

-- A job run ends, as succeeded or failed, with what it did (or its error). A run ends once.
create function private.finish_job_run(p_id bigint, p_now timestamptz, p_succeeded boolean, p_summary text)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  update public.job_runs
     set finished_at = greatest(p_now, started_at),
         outcome = case when p_succeeded then 'succeeded' else 'failed' end,
         summary = left(coalesce(p_summary, ''), 4000)
   where id = p_id and outcome = 'running';
end;
$$;

revoke execute on function private.finish_job_run(bigint, timestamptz, boolean, text) from public;

grant execute on function private.finish_job_run(bigint, timestamptz, boolean, text) to service_role;

-- The payment webhook's outcome for a verified checkout: a failure is remembered; a success
-- resolves the checkout's earlier failures.
create function private.record_payment_notification(p_checkout_id text, p_applied boolean, p_reason text, p_detail text, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  if p_applied then
    update public.payment_notification_failures set resolved_at = p_now
     where checkout_id = p_checkout_id and resolved_at is null;
  else
    insert into public.payment_notification_failures (checkout_id, reason, detail, failed_at)
    values (left(p_checkout_id, 100), left(coalesce(nullif(p_reason, ''), 'failed'), 100), left(coalesce(p_detail, ''), 2000), p_now);
  end if;
end;
$$;

revoke execute on function private.record_payment_notification(text, boolean, text, text, timestamptz) from public;

grant execute on function private.record_payment_notification(text, boolean, text, text, timestamptz) to service_role;

-- The watchdog --------------------------------------------------------------------------------------
-- What is wrong as of p_now, one row per cause, in words an owner reads. A job that never ran is
-- not "missed" (a new install, or a job not yet deployed): it is alerted once it has run.
create function private.system_health_causes(p_now timestamptz)
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

-- Opens an alert for each new cause (emailing the studio once), clears those whose cause has
-- gone. Idempotent as of p_now: a second run opens and sends nothing. Returns how many are open.
create function private.check_system_health(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_cause record;
  v_causes text[];
  v_alert public.system_alerts;
begin
  -- One watchdog at a time: two at once would both see a cause as new.
  perform pg_advisory_xact_lock(hashtextextended('check_system_health', 0));
  select coalesce(array_agg(c.cause), '{}') into v_causes from private.system_health_causes(p_now) c;

  update public.system_alerts a set cleared_at = p_now
   where a.cleared_at is null and a.opened_at <= p_now and a.cause <> all (v_causes);

  for v_cause in
    select c.* from private.system_health_causes(p_now) c
     where not exists (select 1 from public.system_alerts a where a.cause = c.cause and a.cleared_at is null)
  loop
    insert into public.system_alerts (cause, message, opened_at)
    values (v_cause.cause, v_cause.message, p_now)
    returning * into v_alert;
    -- Through the one notification pipeline (decision 0040), to the studio's address.
    perform private.enqueue_email('system_alert', private.studio_email(), null, null, null,
            left('System alert: ' || v_cause.message, 300),
            concat_ws(E'\n\n', v_cause.message,
                      'Opened ' || private.london_time_text(p_now) || ' (London time). It clears itself once the cause has gone; you will not be emailed again about it until then.'),
            jsonb_build_array(jsonb_build_object('label', 'Open System health', 'path', '/admin/system-health')),
            'system_alert:' || v_alert.id, null, p_now);
  end loop;
  return (select count(*)::int from public.system_alerts where cleared_at is null);
end;
$$;

revoke execute on function private.check_system_health(timestamptz) from public;

grant execute on function private.check_system_health(timestamptz) to service_role;

-- The watchdog as an admin opening the portal runs it (the scheduled job calls it as the service role).
create function private.admin_check_system_health(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return private.check_system_health(p_now);
end;
$$;

revoke execute on function private.admin_check_system_health(timestamptz) from public;

grant execute on function private.admin_check_system_health(timestamptz) to authenticated, service_role;

-- What an outside uptime check is told (decision 0096): the watchdog runs in the database and is
-- woken by the hourly job and by an admin opening the portal, so if every scheduled function stops
-- and nobody opens the portal it says nothing. The health endpoint (netlify/functions/health.ts)
-- answers an uptime monitor with each job's latest run and latest success, and whether the
-- watchdog finds it overdue or failing (its 'missed:' and 'failing:' causes), as of p_now. Times
-- and outcomes only: no summary (it can name checkouts), nothing about members.
create type public.job_health as (
  job text,
  last_started_at timestamptz,
  last_outcome text,
  last_succeeded_at timestamptz,
  overdue boolean
);

create function private.job_health(p_now timestamptz)
returns setof public.job_health
language sql stable security definer set search_path = ''
as $$
  select j.job,
         (select r.started_at from public.job_runs r where r.job = j.job and r.started_at <= p_now order by r.started_at desc, r.id desc limit 1),
         (select r.outcome from public.job_runs r where r.job = j.job and r.started_at <= p_now order by r.started_at desc, r.id desc limit 1),
         (select max(r.started_at) from public.job_runs r where r.job = j.job and r.started_at <= p_now and r.outcome = 'succeeded'),
         exists (select 1 from private.system_health_causes(p_now) c where c.cause in ('missed:' || j.job, 'failing:' || j.job))
    from unnest(array['hourly', 'emails', 'pushes']) with ordinality as j(job, n)
   order by j.n
$$;

revoke execute on function private.job_health(timestamptz) from public;

grant execute on function private.job_health(timestamptz) to service_role;

-- Runs older than this are removed by the retention job (a month of minute-by-minute runs).
create function private.job_run_retention()
returns interval
language sql immutable set search_path = ''
as $$ select interval '30 days' $$;

revoke execute on function private.job_run_retention() from public;

create function private.purge_job_runs(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_count integer;
begin
  delete from public.job_runs where started_at < p_now - private.job_run_retention();
  get diagnostics v_count = row_count;
  return v_count;
end;
$$;

revoke execute on function private.purge_job_runs(timestamptz) from public;

grant execute on function private.purge_job_runs(timestamptz) to service_role;

-- API ---------------------------------------------------------------------------------------------
create function public.start_job_run(p_job text, p_now timestamptz)
returns bigint
language sql volatile security invoker set search_path = ''
as $$ select private.start_job_run(p_job, p_now) $$;

revoke execute on function public.start_job_run(text, timestamptz) from public, anon, authenticated;

grant execute on function public.start_job_run(text, timestamptz) to service_role;

create function public.finish_job_run(p_id bigint, p_now timestamptz, p_succeeded boolean, p_summary text)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.finish_job_run(p_id, p_now, p_succeeded, p_summary) $$;

revoke execute on function public.finish_job_run(bigint, timestamptz, boolean, text) from public, anon, authenticated;

grant execute on function public.finish_job_run(bigint, timestamptz, boolean, text) to service_role;

create function public.record_payment_notification(p_checkout_id text, p_applied boolean, p_reason text, p_detail text, p_now timestamptz)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.record_payment_notification(p_checkout_id, p_applied, p_reason, p_detail, p_now) $$;

revoke execute on function public.record_payment_notification(text, boolean, text, text, timestamptz) from public, anon, authenticated;

grant execute on function public.record_payment_notification(text, boolean, text, text, timestamptz) to service_role;

create function public.check_system_health(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.check_system_health(p_now) $$;

revoke execute on function public.check_system_health(timestamptz) from public, anon, authenticated;

grant execute on function public.check_system_health(timestamptz) to service_role;

create function public.admin_check_system_health()
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.admin_check_system_health(now()) $$;

revoke execute on function public.admin_check_system_health() from public, anon;

grant execute on function public.admin_check_system_health() to authenticated, service_role;

create function public.job_health(p_now timestamptz)
returns setof public.job_health
language sql stable security invoker set search_path = ''
as $$ select * from private.job_health(p_now) $$;

revoke execute on function public.job_health(timestamptz) from public, anon, authenticated;

grant execute on function public.job_health(timestamptz) to service_role;

create function public.purge_job_runs(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.purge_job_runs(p_now) $$;

revoke execute on function public.purge_job_runs(timestamptz) from public, anon, authenticated;

grant execute on function public.purge_job_runs(timestamptz) to service_role;

-- Row-level security ----------------------------------------------------------------------------
create policy "Admins read job runs"
  on public.job_runs for select to authenticated
  using ((select private.is_admin()));

create policy "Admins read payment notification failures"
  on public.payment_notification_failures for select to authenticated
  using ((select private.is_admin()));

create policy "Admins read system alerts"
  on public.system_alerts for select to authenticated
  using ((select private.is_admin()));
