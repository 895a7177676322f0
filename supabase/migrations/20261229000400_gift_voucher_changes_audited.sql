-- An admin extending a gift voucher's expiry is in the audit trail (decision 0045, decision 0100).
create trigger audit_trail
  after update on public.gift_vouchers
  for each row execute function private.audit_change();
