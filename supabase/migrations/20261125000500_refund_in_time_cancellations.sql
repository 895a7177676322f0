-- A pay-as-you-go class paid by card and cancelled by the member inside the free-cancellation
-- window is owed back (issue 31): every class card promises "Free cancellation up to 12 hours
-- before the start", yet the £10 was kept. A late cancellation still keeps it.
--
-- Replaced here (create or replace, same signature): private.bookings_record_refund_owed.

alter table public.refunds_owed drop constraint refunds_owed_reason_check;
alter table public.refunds_owed add constraint refunds_owed_reason_check
  check (reason in ('admin_cancelled', 'class_deleted', 'timetable_regenerated', 'member_deleted',
                    'class_filled', 'duplicate_payment', 'superseded_checkout', 'member_removed', 'period_already_paid',
                    -- The member cancelled a paid class in time (free cancellation).
                    'member_cancelled_in_time'));

-- A paid class booking removed before its class starts: the payment becomes a refund owed.
-- BEFORE DELETE, while the payment still points at the booking. By the studio (an admin's cancel,
-- a deleted class, a regeneration, a removed member): always. By the member: only inside the free
-- cancellation window (cancel_booking records a late cancellation first, so none exists then).
-- Classes already started are not refunded (the member had the class).
create or replace function private.bookings_record_refund_owed()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reason text := private.booking_removal_reason();
begin
  if current_setting('app.booking_removal', true) = 'member_cancelled' then
    if exists (select 1 from public.late_cancellations l where l.booking_id = old.id) then
      return old;
    end if;
    v_reason := 'member_cancelled_in_time';
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
