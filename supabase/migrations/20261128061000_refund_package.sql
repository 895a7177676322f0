-- An admin refunds a package's unused sessions (issue 26): admin_refund_package revokes them and
-- owes their unit price back on Refunds owed (reason package_refunded).

alter table public.refunds_owed drop constraint refunds_owed_reason_check;
alter table public.refunds_owed add constraint refunds_owed_reason_check
  check (reason in ('admin_cancelled', 'class_deleted', 'timetable_regenerated', 'member_deleted',
                    'class_filled', 'duplicate_payment', 'superseded_checkout', 'member_removed', 'period_already_paid',
                    -- The member cancelled a paid class in time (free cancellation).
                    'member_cancelled_in_time',
                    -- An admin refunded a package's unused sessions (admin_refund_package).
                    'package_refunded'));

-- An admin refunds a package's unused sessions (issue 26): they are revoked at once, in the same
-- statement that counts them (a booking that took one first keeps it), and their unit price is owed
-- back on Refunds owed, paid through the provider there. Used and expired sessions are not refunded.
-- Returns the refund owed.
create function private.admin_refund_package(p_payment_id uuid, p_reason text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin public.members;
  v_payment public.payments;
  v_member public.members;
  v_count integer;
  v_amount numeric(10, 2);
  v_refund uuid;
begin
  perform private.require_admin();
  v_admin := private.require_member();
  if nullif(btrim(coalesce(p_reason, '')), '') is null or char_length(p_reason) > 300 then
    raise exception 'Give a reason (at most 300 characters).' using errcode = '22023', hint = 'invalid_credit';
  end if;
  select * into v_payment from public.payments where id = p_payment_id for update;
  if not found or not exists (select 1 from public.credits c where c.payment_id = p_payment_id and c.source = 'package') then
    raise exception 'This is not a package payment.' using errcode = 'P0002', hint = 'package_not_found';
  end if;
  select * into v_member from public.members where id = v_payment.member_id;
  with revoked as (
    update public.credits c
       set revoked_at = now(), revoked_by = v_admin.id, revoke_reason = 'Package refunded: ' || btrim(p_reason)
     where c.payment_id = p_payment_id and c.source = 'package' and c.used_at is null and c.revoked_at is null
       and c.expires_at > now()
    returning c.unit_price
  )
  select count(*)::int, coalesce(sum(unit_price), 0) into v_count, v_amount from revoked;
  if v_count = 0 or v_amount <= 0 then
    raise exception 'This package has no unused sessions left to refund.' using errcode = 'P0001', hint = 'nothing_to_refund';
  end if;
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, amount, reason)
  values (p_payment_id, v_member.id, v_member.name, coalesce(v_member.email::text, ''),
          v_payment.description || ' (' || v_count || ' unused session' || case when v_count > 1 then 's' else '' end || ')',
          v_amount, 'package_refunded')
  returning id into v_refund;
  return v_refund;
end;
$$;

revoke execute on function private.admin_refund_package(uuid, text) from public;

grant execute on function private.admin_refund_package(uuid, text) to authenticated, service_role;

create function public.admin_refund_package(p_payment_id uuid, p_reason text)
returns uuid
language sql volatile security invoker set search_path = ''
as $$ select private.admin_refund_package(p_payment_id, p_reason) $$;

revoke execute on function public.admin_refund_package(uuid, text) from public, anon;

grant execute on function public.admin_refund_package(uuid, text) to authenticated, service_role;

