-- Money the studio owes back, and removing a member (issue 14).
--
-- A paid class booking that the studio removes (an admin's cancel, a class deleted, the timetable
-- regenerated, the member deleted) leaves a refund-owed record: who, what, how much, why. A
-- member's own cancellation leaves none (their choice, under the cancellation window's rules).
-- Deleting a paid member mid-period also owes the unused part of their membership.

create table public.refunds_owed (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid references public.payments (id) on delete set null,
  member_id uuid references public.members (id) on delete set null,
  member_name text,
  member_email text not null,
  description text not null,
  class_start_time timestamptz,
  amount numeric(10, 2) not null check (amount > 0),
  reason text not null check (reason in ('admin_cancelled', 'class_deleted', 'timetable_regenerated', 'member_deleted')),
  created_at timestamptz not null default now(),
  refunded_at timestamptz,
  refunded_by uuid references public.members (id) on delete set null,
  -- The provider's refund id when refunded through it; null when refunded another way.
  provider_refund_id text,
  constraint refunds_owed_one_per_payment unique (payment_id, reason)
);

comment on table public.refunds_owed is 'Payments the studio owes back because it removed what was paid for.';

create index refunds_owed_open_idx on public.refunds_owed (created_at) where refunded_at is null;
create index refunds_owed_member_id_idx on public.refunds_owed (member_id);
create index refunds_owed_refunded_by_idx on public.refunds_owed (refunded_by);

alter table public.refunds_owed enable row level security;
revoke all on public.refunds_owed from public, anon, authenticated;
grant select on public.refunds_owed to authenticated;
grant all on public.refunds_owed to service_role;

create policy "Admins read refunds owed"
  on public.refunds_owed for select to authenticated
  using ((select private.is_admin()));

-- Why the bookings being deleted in this transaction go: set by the path that deletes them.
-- Unset means an admin's cancel (cancel_booking by an admin, or the admin delete policy).
create function private.booking_removal_reason()
returns text
language sql stable set search_path = ''
as $$ select coalesce(nullif(current_setting('app.booking_removal', true), ''), 'admin_cancelled') $$;

-- A paid class booking removed by the studio: the payment becomes a refund owed. BEFORE DELETE,
-- while the payment still points at the booking. Classes already started are not refunded (the
-- member had the class) and neither is a member cancelling their own booking.
create function private.bookings_record_refund_owed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := private.booking_removal_reason();
begin
  if current_setting('app.booking_removal', true) = 'member_cancelled' then
    return old;
  end if;
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time, amount, reason)
  select p.id, m.id, coalesce(m.name, p.billed_name), coalesce(m.email::text, p.billed_email, ''),
         p.description, c.start_time, p.amount, v_reason
    from public.payments p
    join public.classes c on c.id = old.class_id
    left join public.members m on m.id = p.member_id
   where p.booking_id = old.id and p.status = 'paid' and p.kind = 'class' and c.start_time > now()
  on conflict (payment_id, reason) do nothing;
  return old;
end;
$$;

create trigger bookings_record_refund_owed
  before delete on public.bookings
  for each row execute function private.bookings_record_refund_owed();

-- Deleting a class removes its bookings by cascade, after the class row is gone: so the class's
-- paid bookings are recorded here, while the class is still readable. The reason is the
-- regeneration's when it is the one deleting, else "class deleted".
create function private.classes_record_refunds_owed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time, amount, reason)
  select p.id, m.id, coalesce(m.name, p.billed_name), coalesce(m.email::text, p.billed_email, ''),
         p.description, old.start_time, p.amount,
         case when current_setting('app.booking_removal', true) = 'timetable_regenerated' then 'timetable_regenerated' else 'class_deleted' end
    from public.bookings b
    join public.payments p on p.booking_id = b.id and p.status = 'paid' and p.kind = 'class'
    left join public.members m on m.id = p.member_id
   where b.class_id = old.id and old.start_time > now()
  on conflict (payment_id, reason) do nothing;
  return old;
end;
$$;

create trigger classes_record_refunds_owed
  before delete on public.classes
  for each row execute function private.classes_record_refunds_owed();

revoke execute on function private.booking_removal_reason(), private.bookings_record_refund_owed(),
  private.classes_record_refunds_owed() from public;

-- How many paid bookings of classes not yet started a deletion would turn into refunds owed:
-- one class, or (null) every class, as the timetable regeneration deletes them all.
create function private.paid_bookings_affected(p_class_id uuid)
returns integer
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return (select count(*)::int
            from public.bookings b
            join public.classes c on c.id = b.class_id
            join public.payments p on p.booking_id = b.id and p.status = 'paid' and p.kind = 'class'
           where c.start_time > now() and (p_class_id is null or b.class_id = p_class_id));
end;
$$;

create function public.paid_bookings_affected(p_class_id uuid default null)
returns integer
language sql stable security invoker set search_path = ''
as $$ select private.paid_bookings_affected(p_class_id) $$;

-- Marks a refund owed as refunded (by the admin, or through the provider with its refund id).
create function private.mark_refund_refunded(p_refund_id uuid, p_provider_refund_id text)
returns public.refunds_owed
language plpgsql security definer set search_path = ''
as $$
declare
  v_refund public.refunds_owed;
begin
  perform private.require_admin();
  update public.refunds_owed
     set refunded_at = now(), refunded_by = private.current_member_id(), provider_refund_id = p_provider_refund_id
   where id = p_refund_id and refunded_at is null
  returning * into v_refund;
  if not found then
    raise exception 'This refund is not owed any more' using errcode = 'P0002', hint = 'refund_not_found';
  end if;
  return v_refund;
end;
$$;

create function public.mark_refund_refunded(p_refund_id uuid, p_provider_refund_id text default null)
returns public.refunds_owed
language sql volatile security invoker set search_path = ''
as $$ select * from private.mark_refund_refunded(p_refund_id, p_provider_refund_id) $$;

-- Removing a member -------------------------------------------------------------------------------

create type public.member_removal as (
  member_id uuid,
  user_id uuid,
  refunds_owed integer
);

-- Deletes a member for an admin: their bookings go (paid future classes become refunds owed,
-- waitlist places go), their payments stay for the accounts with the member reference cleared,
-- an unused part of a paid membership is owed back, and their email's free trial is remembered.
-- Returns the auth user id: the caller (the delete-member function) removes the login too.
create function private.admin_delete_member(p_member_id uuid)
returns public.member_removal
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members;
  v_plan public.payments;
  v_refunds integer;
  r public.member_removal;
begin
  perform private.require_admin();
  select * into v_member from public.members where id = p_member_id for update;
  if not found then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  if v_member.id = private.current_member_id() then
    raise exception 'You cannot delete your own account here' using errcode = 'P0001', hint = 'cannot_delete_self';
  end if;

  insert into private.trial_emails (email_hash) values (private.email_hash(v_member.email))
  on conflict (email_hash) do nothing;

  -- The unused days of a membership paid for and still running, at the price paid.
  if v_member.plan_renews_at > now() then
    select * into v_plan from public.payments p
     where p.member_id = v_member.id and p.kind = 'plan' and p.status = 'paid'
     order by p.paid_at desc nulls last limit 1;
    if found and v_plan.paid_at is not null and v_member.plan_renews_at > v_plan.paid_at then
      insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, amount, reason)
      select v_plan.id, v_member.id, v_member.name, v_member.email, v_plan.description || ' (unused days)',
             round(v_plan.amount * extract(epoch from v_member.plan_renews_at - now())
                                 / extract(epoch from v_member.plan_renews_at - v_plan.paid_at), 2),
             'member_deleted'
       where round(v_plan.amount * extract(epoch from v_member.plan_renews_at - now())
                                 / extract(epoch from v_member.plan_renews_at - v_plan.paid_at), 2) > 0
      on conflict (payment_id, reason) do nothing;
    end if;
  end if;

  perform set_config('app.booking_removal', 'member_deleted', true);
  delete from public.members where id = v_member.id;
  perform set_config('app.booking_removal', '', true);

  select count(*)::int into v_refunds from public.refunds_owed o
   where o.member_email = v_member.email::text and o.reason = 'member_deleted' and o.created_at = now();
  r.member_id := v_member.id;
  r.user_id := v_member.user_id;
  r.refunds_owed := v_refunds;
  return r;
end;
$$;

create function public.admin_delete_member(p_member_id uuid)
returns public.member_removal
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_delete_member(p_member_id) $$;

revoke execute on function private.paid_bookings_affected(uuid), private.mark_refund_refunded(uuid, text),
  private.admin_delete_member(uuid) from public;
grant execute on function private.paid_bookings_affected(uuid), private.mark_refund_refunded(uuid, text),
  private.admin_delete_member(uuid) to authenticated, service_role;
revoke execute on function public.paid_bookings_affected(uuid), public.mark_refund_refunded(uuid, text),
  public.admin_delete_member(uuid) from public, anon;
grant execute on function public.paid_bookings_affected(uuid), public.mark_refund_refunded(uuid, text),
  public.admin_delete_member(uuid) to authenticated, service_role;
