-- An outside check for the watchdog (decision 0096): each recorded job's latest run, latest success
-- and whether the watchdog finds it overdue or failing, for the health endpoint an uptime monitor
-- calls (netlify/functions/health.ts). Service role only.
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

create function public.job_health(p_now timestamptz)
returns setof public.job_health
language sql stable security invoker set search_path = ''
as $$ select * from private.job_health(p_now) $$;

revoke execute on function public.job_health(timestamptz) from public, anon, authenticated;

grant execute on function public.job_health(timestamptz) to service_role;
