-- A receipt for every payment and every refund (issue 31): most money events sent no email. A
-- payment that becomes paid and is honoured (a first month, an upgrade, a package, a pay-as-you-go
-- class) gets a receipt; a renewal keeps its own (renewal_receipt). A refund marked refunded (by the
-- provider or by hand) tells the person it was for, a removed member too. Once each (dedupe keys).

alter table public.notification_outbox drop constraint notification_outbox_kind_check;
alter table public.notification_outbox add constraint notification_outbox_kind_check
  check (kind in ('booking_confirmed', 'booking_cancelled', 'waitlist_promoted', 'class_reminder', 'contact_message',
                  'renewal_receipt', 'payment_failed', 'membership_ended', 'trial_ending', 'renewal_reminder',
                  'credits_expiring', 'payment_receipt', 'refund_receipt'));

create function private.payments_send_receipt()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.enqueue_membership_email('payment_receipt', new.member_id,
    'Receipt: ' || new.description,
    array['Thank you: we received ' || private.gbp(new.amount) || ' for ' || new.description || ' on '
            || private.london_date_text(coalesce(new.paid_at, now())) || '.',
          'Keep this email as your receipt. Every payment is also listed under Billing history.'],
    jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
    'payment_receipt:' || new.id);
  return null;
end;
$$;

create trigger payments_send_receipt
  after update of status on public.payments
  for each row
  when (new.status = 'paid' and old.status is distinct from 'paid' and not new.needs_refund
        and new.member_id is not null and new.billing_reason is distinct from 'renewal')
  execute function private.payments_send_receipt();

create function private.refunds_send_receipt()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_name text := coalesce(nullif(btrim(new.member_name), ''), 'there');
begin
  if coalesce(new.member_email, '') = '' then
    return null;
  end if;
  insert into public.notification_outbox (kind, to_email, member_id, subject, body_text, links, dedupe_key)
  values ('refund_receipt', new.member_email, new.member_id,
          'Refund: ' || new.description,
          array_to_string(array['Hi ' || v_name || ',',
            'We have refunded ' || private.gbp(new.amount) || ' for ' || new.description || '.',
            'A card refund usually reaches your account within 5 to 10 working days.'], E'\n\n'),
          jsonb_build_array(jsonb_build_object('label', 'Billing history and receipts', 'path', '/membership')),
          'refund_receipt:' || new.id)
  on conflict (dedupe_key) do nothing;
  return null;
end;
$$;

create trigger refunds_send_receipt
  after update of refunded_at on public.refunds_owed
  for each row when (old.refunded_at is null and new.refunded_at is not null)
  execute function private.refunds_send_receipt();

revoke execute on function private.payments_send_receipt(), private.refunds_send_receipt() from public;
