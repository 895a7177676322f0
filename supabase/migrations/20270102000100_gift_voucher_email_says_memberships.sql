-- The gift voucher email says the balance pays memberships too (decision 0108).

create or replace function private.deliver_gift_voucher(p_voucher public.gift_vouchers, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  update public.gift_vouchers set delivered_at = p_now where id = p_voucher.id and delivered_at is null;
  if not found then
    return;
  end if;
  perform private.enqueue_email('gift_voucher', p_voucher.recipient_email, null, null, null,
    p_voucher.buyer_name || ' has sent you a gift voucher for ' || private.gbp(p_voucher.amount),
    array_to_string(array[private.greeting(p_voucher.recipient_name),
      p_voucher.buyer_name || ' has sent you a gift voucher for '
        || coalesce((select pl.name || ' (' || private.gbp(p_voucher.amount) || ')' from public.plans pl where pl.slug = p_voucher.plan_slug),
                    private.gbp(p_voucher.amount)) || ' to spend at the studio.']
      || case when p_voucher.message <> '' then array['Their message: ' || p_voucher.message] else array[]::text[] end
      || array['Your code: ' || private.voucher_code_text(p_voucher.code),
               'Redeem it before ' || private.london_date_text(p_voucher.expires_at) || ' (it expires then): sign in or join, then open Redeem a gift voucher. '
                 || 'The amount goes into your balance, which pays for classes, packages and memberships.'], E'\n\n'),
    jsonb_build_array(jsonb_build_object('label', 'Redeem your gift voucher',
                                         'path', '/redeem?code=' || private.voucher_code_text(p_voucher.code))),
    'gift_voucher:' || p_voucher.id);
end;
$$;

revoke execute on function private.deliver_gift_voucher(public.gift_vouchers, timestamptz) from public;
