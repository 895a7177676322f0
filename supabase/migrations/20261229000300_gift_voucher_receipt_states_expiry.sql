-- Every gift voucher buyer's receipt (a member's too) states the delivery date and the expiry (decision 0100).
create or replace function private.payments_issue_gift_voucher()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_voucher public.gift_vouchers;
  v_now timestamptz := coalesce(new.paid_at, now());
  v_months integer := (select s.expiry_months from public.gift_voucher_settings s where s.id);
begin
  if new.needs_refund then
    return null;
  end if;
  loop
    begin
      update public.gift_vouchers
         set code = private.new_voucher_code(), issued_at = v_now, expires_at = v_now + make_interval(months => v_months)
       where payment_id = new.id and issued_at is null
      returning * into v_voucher;
      exit;
    exception when unique_violation then
      -- Another voucher has this code (1 in 2^80): draw again.
      null;
    end;
  end loop;
  if v_voucher.id is null then
    return null;
  end if;
  perform private.enqueue_email('payment_receipt', v_voucher.buyer_email, new.member_id, null, null,
    'Receipt: ' || new.description,
    array_to_string(array[private.greeting(v_voucher.buyer_name),
      'Thank you: we received ' || private.gbp(new.amount) || ' for ' || new.description || ' on '
        || private.london_date_text(v_now) || '.',
      'We will email ' || v_voucher.recipient_name || ' their code on ' || to_char(v_voucher.deliver_on, 'FMDay FMDD FMMonth YYYY')
        || '. The voucher can be redeemed until ' || private.london_date_text(v_voucher.expires_at) || '.',
      'Keep this email as your receipt.'], E'\n\n'),
    '[]'::jsonb, 'payment_receipt:' || new.id);
  if v_voucher.deliver_on <= (v_now at time zone 'Europe/London')::date then
    perform private.deliver_gift_voucher(v_voucher, v_now);
  end if;
  return null;
end;
$$;

revoke execute on function private.payments_issue_gift_voucher() from public;

drop trigger payments_send_receipt on public.payments;

-- A gift voucher's receipt states its delivery date and expiry: payments_issue_gift_voucher
-- (29_gift_vouchers.sql) sends it, to members and visitors alike.
create trigger payments_send_receipt
  after update of status on public.payments
  for each row
  when (new.status = 'paid' and old.status is distinct from 'paid' and not new.needs_refund
        and new.member_id is not null and new.billing_reason is distinct from 'renewal' and new.kind <> 'gift_voucher')
  execute function private.payments_send_receipt();
