-- A guest's place follows the host's late rule: a class the studio moved after the guest was added
-- is free to cancel, pass or money back, as the host's own place is.

create or replace function private.guest_places_on_delete()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_in_time boolean;
  v_reason text := nullif(current_setting('app.booking_removal', true), '');
begin
  -- The host cancelling their own booking (cancel_booking, or their plan's bookings ending) is a
  -- member's cancellation, not the studio's: the guest's paid place is owed back only in time, as
  -- the booking's own payment is (bookings_record_refund_owed), and late it is kept.
  -- 'member_cancelled' is no reason refunds_owed takes.
  if v_reason = 'member_cancelled' then
    v_reason := null;
  end if;
  select * into v_class from public.classes where id = old.class_id;
  -- The same late rule as the host's own booking: never late when the studio moved the class after
  -- the guest was added (booking_late_cancel_from).
  v_in_time := not found or coalesce(now() < private.booking_late_cancel_from(v_class, old.created_at), true);
  if v_in_time then
    update public.credits set used_at = null where id = old.credit_id;
  end if;
  -- A paid place: owed back when the studio removes it, or when it is cancelled in time, unless
  -- the path that removed the host's booking (or the class) has already recorded it.
  if old.payment_status = 'completed' and old.payment_id is not null and (v_class.id is null or v_class.start_time > now())
     and (v_reason is not null or v_in_time) then
    insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time, amount, reason)
    select p.id, m.id, coalesce(m.name, p.billed_name), coalesce(m.email::text, p.billed_email, ''),
           p.description, v_class.start_time, p.amount,
           coalesce(v_reason, case when v_class.id is null then 'class_deleted' else 'member_cancelled_in_time' end)
      from public.payments p left join public.members m on m.id = p.member_id
     where p.id = old.payment_id and p.status = 'paid' and not p.needs_refund
       and not exists (select 1 from public.refunds_owed o where o.payment_id = p.id)
    on conflict (payment_id, reason, place_booking_id) do nothing;
  end if;
  if v_class.id is not null and v_class.start_time > now() and old.payment_status = 'completed' then
    perform private.enqueue_guest_email('guest_cancelled', old);
  end if;
  return old;
end;
$$;

revoke execute on function private.guest_places_on_delete() from public;
