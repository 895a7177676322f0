-- Admin > Settings shows how long each kind of personal data is kept (decision 0097): the two
-- periods the studio sets, read by admins.
create function private.admin_data_retention()
returns public.data_retention
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.data_retention;
begin
  perform private.require_admin();
  select s.guest_signature_days, s.contact_message_days into r.guest_signature_days, r.contact_message_days
    from private.data_retention_settings s;
  return r;
end;
$$;

revoke execute on function private.admin_data_retention() from public;

grant execute on function private.admin_data_retention() to authenticated, service_role;

create function public.admin_data_retention()
returns public.data_retention
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_data_retention() $$;

revoke execute on function public.admin_data_retention() from public, anon;

grant execute on function public.admin_data_retention() to authenticated, service_role;
