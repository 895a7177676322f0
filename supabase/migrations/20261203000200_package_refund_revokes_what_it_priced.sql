-- Paying a package refund out revoked every unused session of the package, including one the
-- member got back after the refund was priced (a session booked then, cancelled in time since):
-- £75 of Bronze lost without being refunded. A refund now records the credits it priced
-- (credits.refund_id, set by admin_refund_package) and paying it out revokes those only. A second
-- refund of the same package, which the one package_refunded row per payment never allowed, is
-- refused by name (package_already_refunded) instead of with the unique key's error.

alter table public.credits add column refund_id uuid references public.refunds_owed (id) on delete set null;

create index credits_refund_id_idx on public.credits (refund_id) where refund_id is not null;

comment on column public.credits.refund_id is
  'The package refund that priced this credit (admin_refund_package); paying it out revokes only the credits it priced.';

-- The refunds already priced: admin_refund_package revoked their credits in the transaction that
-- wrote the refund, so the credits' revoked_at is the refund's created_at (both now()).
update public.credits c
   set refund_id = o.id
  from public.refunds_owed o
 where o.reason = 'package_refunded' and o.payment_id = c.payment_id and c.source = 'package'
   and c.revoke_reason like 'Package refunded: %' and c.revoked_at = o.created_at;

-- A package refund paid out takes back the sessions it priced, and only those (credits.refund_id):
-- a session of the package booked when the refund was priced and given back to the member since
-- (cancelled in time) was not in the refund, so it stays theirs. admin_refund_package revokes what
-- it prices at once, so they are normally revoked already; one used meanwhile stays used, as at
-- pricing (a booking that took one first keeps it).
create or replace function private.refunds_revoke_credits()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.refunded_at is not null and old.refunded_at is null then
    update public.credits
       set revoked_at = new.refunded_at, revoked_by = new.refunded_by, revoke_reason = 'Package refunded'
     where refund_id = new.id and used_at is null and revoked_at is null;
  end if;
  return null;
end;
$$;

revoke execute on function private.refunds_revoke_credits() from public;

-- An admin refunds a package's unused sessions (issue 26): they are revoked at once, in the same
-- statement that counts them (a booking that took one first keeps it), and recorded as the
-- refund's (credits.refund_id: paying it out revokes those, never a session given back to the
-- member after it was priced); their unit price is owed back on Refunds owed, paid through the
-- provider there. Used and expired sessions are not refunded. A package is refunded once
-- (refunds_owed keeps one package_refunded row per payment): sessions given back since are the
-- member's, and a second refund is refused with package_already_refunded rather than the unique
-- key's error. Returns the refund owed.
create or replace function private.admin_refund_package(p_payment_id uuid, p_reason text)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin public.members;
  v_payment public.payments;
  v_member public.members;
  v_ids uuid[];
  v_count integer;
  v_amount numeric(10, 2);
  v_earlier public.refunds_owed;
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
    returning c.id, c.unit_price
  )
  select array_agg(id), count(*)::int, coalesce(sum(unit_price), 0) into v_ids, v_count, v_amount from revoked;
  if v_count = 0 or v_amount <= 0 then
    raise exception 'This package has no unused sessions left to refund.' using errcode = 'P0001', hint = 'nothing_to_refund';
  end if;
  select * into v_earlier from public.refunds_owed
   where payment_id = p_payment_id and reason = 'package_refunded' and place_booking_id is null;
  if found then
    raise exception 'This package was refunded on %: sessions given back to the member since then are theirs to use.',
      private.london_date_text(v_earlier.created_at)
      using errcode = 'P0001', hint = 'package_already_refunded';
  end if;
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, amount, reason)
  values (p_payment_id, v_member.id, v_member.name, coalesce(v_member.email::text, ''),
          v_payment.description || ' (' || v_count || ' unused session' || case when v_count > 1 then 's' else '' end || ')',
          v_amount, 'package_refunded')
  returning id into v_refund;
  update public.credits set refund_id = v_refund where id = any (v_ids);
  return v_refund;
end;
$$;

revoke execute on function private.admin_refund_package(uuid, text) from public;

grant execute on function private.admin_refund_package(uuid, text) to authenticated, service_role;
