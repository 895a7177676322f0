-- Analytics shows credits sold and not yet delivered (issue 26): admin_credits_outstanding.
-- The definitions are those of supabase/schemas/09_credits.sql.

create type public.credits_outstanding as (
  kind public.credit_kind,
  source text,
  credits integer,
  value numeric(10, 2),
  expiring_soon integer
);

create function private.admin_credits_outstanding(p_now timestamptz)
returns setof public.credits_outstanding
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
    select c.kind, c.source, count(*)::int, coalesce(sum(c.unit_price), 0)::numeric(10, 2),
           (count(*) filter (where c.expires_at <= p_now + private.credit_expiry_notice()))::int
      from public.credits c
     where c.used_at is null and c.revoked_at is null and c.expires_at > p_now
     group by c.kind, c.source
     order by c.kind, c.source;
end;
$$;

revoke execute on function private.admin_credits_outstanding(timestamptz) from public;

grant execute on function private.admin_credits_outstanding(timestamptz) to authenticated, service_role;

create function public.admin_credits_outstanding(p_now timestamptz default now())
returns setof public.credits_outstanding
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_credits_outstanding(p_now) $$;

revoke execute on function public.admin_credits_outstanding(timestamptz) from public, anon;

grant execute on function public.admin_credits_outstanding(timestamptz) to authenticated, service_role;
