-- Gift vouchers and the member's balance (decisions 0100, 0101).
--
-- Anyone (a visitor or a member) buys a voucher: an amount in whole pounds between the studio's
-- minimum and maximum, or a named package of the catalogue at its price. It is a payment like any
-- other (payments.kind 'gift_voucher', the card checkout of 06_payments.sql, applied once by
-- apply_checkout_result); nothing is issued until the provider says paid. Paid, the voucher gets its
-- code; on its delivery date the job send_gift_vouchers_at(p_now) emails the recipient, once.
--
-- A signed-in member redeems the code: it credits their balance. The balance is a ledger
-- (balance_entries): the balance is the sum of the member's entries (private.member_balance), never
-- a stored total. A voucher credits it once (balance_entries.gift_voucher_id is unique, and the
-- voucher row is locked while it is redeemed), however many tabs redeem it at once.

-- Tables -----------------------------------------------------------------------------------------
-- The studio's voucher rules (one row, admins set it).
create table public.gift_voucher_settings (
  id boolean primary key default true check (id),
  min_amount integer not null default 10 check (min_amount between 1 and 1000),
  max_amount integer not null default 500 check (max_amount between 1 and 5000),
  -- How long a voucher may be redeemed, from its purchase (UK law sets no minimum: docs/data-contract.md).
  expiry_months integer not null default 12 check (expiry_months between 1 and 120),
  updated_at timestamptz not null default now(),
  constraint gift_voucher_settings_range check (min_amount <= max_amount)
);

comment on table public.gift_voucher_settings is
  'The studio''s gift voucher rules: the smallest and largest amount (whole pounds) and how many months a voucher lasts from purchase.';

alter table public.gift_voucher_settings enable row level security;

revoke all on public.gift_voucher_settings from public, anon, authenticated;

grant select on public.gift_voucher_settings to anon, authenticated;

grant all on public.gift_voucher_settings to service_role;

insert into public.gift_voucher_settings (id) values (true);

-- A voucher: bought with one payment, issued (a code) when that payment is paid, delivered on its
-- date, redeemed once into a member's balance, unless it expired first.
create table public.gift_vouchers (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null unique references public.payments (id) on delete restrict,
  -- Set when the payment is paid: 16 letters and digits without look-alikes (no I, O, 0, 1),
  -- kept without dashes (80 random bits: nobody guesses one).
  code text unique check (code ~ '^[A-HJ-NP-Z2-9]{16}$'),
  amount numeric(10, 2) not null check (amount >= 1),
  -- A named package (its price when bought is the amount it credits: decision 0100).
  plan_slug text references public.plans (slug),
  buyer_member_id uuid references public.members (id) on delete set null,
  buyer_name text not null check (char_length(buyer_name) between 1 and 100),
  buyer_email text not null check (char_length(buyer_email) between 3 and 254),
  recipient_name text not null check (char_length(recipient_name) between 1 and 100),
  recipient_email text not null check (char_length(recipient_email) between 3 and 254),
  message text not null default '' check (char_length(message) <= 500),
  deliver_on date not null,
  issued_at timestamptz,
  expires_at timestamptz,
  delivered_at timestamptz,
  redeemed_at timestamptz,
  redeemed_by uuid references public.members (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint gift_vouchers_issued check ((code is null) = (issued_at is null) and (issued_at is null) = (expires_at is null)),
  constraint gift_vouchers_redeemed check (redeemed_at is null or issued_at is not null)
);

comment on table public.gift_vouchers is
  'Gift vouchers: who bought one for whom, the amount, the delivery date, and when it was issued, delivered, redeemed or expires. Admins read them; members redeem a code.';

create index gift_vouchers_due_idx on public.gift_vouchers (deliver_on) where issued_at is not null and delivered_at is null;

create index gift_vouchers_buyer_idx on public.gift_vouchers (buyer_member_id);

create index gift_vouchers_redeemed_by_idx on public.gift_vouchers (redeemed_by);

create index gift_vouchers_plan_slug_idx on public.gift_vouchers (plan_slug);

alter table public.gift_vouchers enable row level security;

revoke all on public.gift_vouchers from public, anon, authenticated;

grant select on public.gift_vouchers to authenticated;

grant all on public.gift_vouchers to service_role;

-- The balance ledger: money held for a member. A redeemed voucher adds; a purchase paid from the
-- balance takes (spent); a purchase that failed, was abandoned or refunded gives it back (returned).
create table public.balance_entries (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  amount numeric(10, 2) not null check (amount <> 0),
  kind text not null check (kind in ('voucher', 'spent', 'returned')),
  gift_voucher_id uuid unique references public.gift_vouchers (id) on delete restrict,
  payment_id uuid references public.payments (id) on delete restrict,
  -- The refund a 'returned' entry gives back the balance part of. No foreign key: it is written
  -- while that refunds_owed row is being inserted (refunds_owed_return_balance, before it exists).
  refund_id uuid,
  description text not null check (char_length(description) between 1 and 300),
  created_at timestamptz not null default now(),
  -- The order entries were written in: one transaction writes several at the same created_at (a
  -- replaced checkout gives its balance back and the new one spends it), and the history and its
  -- running balance must list them as they happened.
  seq bigint generated always as identity,
  constraint balance_entries_kind_fields check (
    (kind = 'voucher' and gift_voucher_id is not null and payment_id is null and amount > 0)
    or (kind = 'spent' and payment_id is not null and gift_voucher_id is null and amount < 0)
    or (kind = 'returned' and payment_id is not null and gift_voucher_id is null and amount > 0))
);

comment on table public.balance_entries is
  'The balance ledger: a member''s balance is the sum of their entries (vouchers redeemed, purchases paid from it, and what came back). Written only by the database.';

create index balance_entries_member_idx on public.balance_entries (member_id, created_at);

create index balance_entries_payment_idx on public.balance_entries (payment_id);

-- A payment that failed or was abandoned gives its balance part back once; a refund once.
create unique index balance_entries_returned_key on public.balance_entries (payment_id) where kind = 'returned' and refund_id is null;

create unique index balance_entries_refund_key on public.balance_entries (refund_id) where refund_id is not null;

alter table public.balance_entries enable row level security;

revoke all on public.balance_entries from public, anon, authenticated;

grant select on public.balance_entries to authenticated;

grant all on public.balance_entries to service_role;

-- Failed redemption tries, for the limit on guessing (private.redeem_gift_voucher).
create table private.gift_voucher_tries (
  id bigint generated always as identity primary key,
  member_id uuid not null references public.members (id) on delete cascade,
  tried_at timestamptz not null
);

create index gift_voucher_tries_member_idx on private.gift_voucher_tries (member_id, tried_at);

-- Rules ----------------------------------------------------------------------------------------
-- The one rule of the balance: the sum of the member's ledger entries.
create function private.member_balance(p_member_id uuid)
returns numeric
language sql stable security definer set search_path = ''
as $$ select coalesce(sum(e.amount), 0)::numeric(10, 2) from public.balance_entries e where e.member_id = p_member_id $$;

revoke execute on function private.member_balance(uuid) from public;

-- Paying from the balance (decision 0101) --------------------------------------------------------
-- The balance a member's own open plan checkout holds (pending, not superseded): a new checkout
-- supersedes it (decision 0016), so that balance is theirs to spend again.
create function private.balance_held_by_open_purchases(p_member_id uuid)
returns numeric
language sql stable security definer set search_path = ''
as $$
  select coalesce(sum(p.balance_used), 0)
    from public.payments p
   where p.member_id = p_member_id and p.kind = 'plan' and p.status = 'pending' and p.balance_used is not null
     and coalesce(p.billing_reason, 'start') = 'start'
     and not exists (select 1 from public.balance_entries e where e.payment_id = p.id and e.kind = 'returned' and e.refund_id is null)
$$;

revoke execute on function private.balance_held_by_open_purchases(uuid) from public;

-- How much of p_price the balance pays: all of it when it can, else as much as leaves £1 for the
-- card (a card provider cannot take less). The caller holds the member's row.
create function private.balance_cover_from(p_member_id uuid, p_available numeric, p_price numeric)
returns numeric
language sql immutable set search_path = ''
as $$
  select case when p_member_id is null or coalesce(p_available, 0) <= 0 then 0
              when p_available >= p_price then p_price
              else greatest(least(p_available, p_price - 1), 0) end
$$;

revoke execute on function private.balance_cover_from(uuid, numeric, numeric) from public;

create function private.balance_cover(p_member_id uuid, p_price numeric)
returns numeric
language sql stable security definer set search_path = ''
as $$ select private.balance_cover_from(p_member_id, private.member_balance(p_member_id), p_price) $$;

revoke execute on function private.balance_cover(uuid, numeric) from public;

-- What a payment's description adds when the balance paid part of it.
create function private.balance_label(p_balance_used numeric)
returns text
language sql immutable set search_path = ''
as $$ select case when coalesce(p_balance_used, 0) > 0 then ', ' || private.gbp(p_balance_used) || ' from your balance' else '' end $$;

revoke execute on function private.balance_label(numeric) from public;

-- The one pricing path's last step (private.offer_price, 28_offers.sql): how much of a package's
-- or a membership's first month's price the balance pays (decision 0108). With p_lock (the
-- checkout, holding the member's row) the balance held by the member's own open checkout is given
-- back first, as this checkout supersedes it; the preview counts it as available.
create function private.with_balance(p_price public.offer_price, p_member_id uuid, p_plan public.plans, p_lock boolean)
returns public.offer_price
language plpgsql volatile security definer set search_path = ''
as $$
declare
  r public.offer_price := p_price;
  v_available numeric;
begin
  if p_lock then
    perform private.return_open_purchase_balance(p_member_id);
    r.balance_used := private.balance_cover(p_member_id, r.price);
  else
    v_available := private.member_balance(p_member_id) + private.balance_held_by_open_purchases(p_member_id);
    r.balance_used := private.balance_cover_from(p_member_id, v_available, r.price);
  end if;
  r.to_charge := r.price - r.balance_used;
  return r;
end;
$$;

revoke execute on function private.with_balance(public.offer_price, uuid, public.plans, boolean) from public;

-- Takes a payment's balance part from the ledger (the checkout that recorded it, once).
create function private.spend_balance(p_payment public.payments)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.balance_entries (member_id, amount, kind, payment_id, description, created_at)
  select p_payment.member_id, -p_payment.balance_used, 'spent', p_payment.id, left(p_payment.description, 300), p_payment.created_at
   where p_payment.balance_used is not null and p_payment.member_id is not null
$$;

revoke execute on function private.spend_balance(public.payments) from public;

-- Gives back the balance part of a payment that will not be paid (failed, abandoned, superseded),
-- once (balance_entries_returned_key).
create function private.return_balance(p_payment public.payments, p_now timestamptz)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.balance_entries (member_id, amount, kind, payment_id, description, created_at)
  select p_payment.member_id, p_payment.balance_used, 'returned', p_payment.id,
         left('Not paid, given back: ' || p_payment.description, 300), p_now
   where p_payment.balance_used is not null and p_payment.member_id is not null
     and exists (select 1 from public.balance_entries e where e.payment_id = p_payment.id and e.kind = 'spent')
  on conflict (payment_id) where kind = 'returned' and refund_id is null do nothing
$$;

revoke execute on function private.return_balance(public.payments, timestamptz) from public;

-- The member's own open plan checkouts give their balance back (a new checkout supersedes them).
create function private.return_open_purchase_balance(p_member_id uuid)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  for v_payment in
    select * from public.payments p
     where p.member_id = p_member_id and p.kind = 'plan' and p.status = 'pending' and p.balance_used is not null
       and coalesce(p.billing_reason, 'start') = 'start'
  loop
    perform private.return_balance(v_payment, now());
  end loop;
end;
$$;

revoke execute on function private.return_open_purchase_balance(uuid) from public;

-- A payment paid after its balance part came back (a class hold that lapsed, then paid): the
-- balance part is taken again when the member still has it (true), else it cannot be (false: the
-- caller owes the payment back). True for every other payment. The caller holds the payment row.
create function private.take_balance_again(p_payment public.payments)
returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  if p_payment.balance_used is null or p_payment.member_id is null
     or coalesce((select sum(e.amount) from public.balance_entries e where e.payment_id = p_payment.id and e.refund_id is null), 0) < 0 then
    return true;
  end if;
  perform 1 from public.members where id = p_payment.member_id for no key update;
  if private.member_balance(p_payment.member_id) < p_payment.balance_used then
    return false;
  end if;
  insert into public.balance_entries (member_id, amount, kind, payment_id, description, created_at)
  values (p_payment.member_id, -p_payment.balance_used, 'spent', p_payment.id, left('Paid late, taken again: ' || p_payment.description, 300), now());
  return true;
end;
$$;

revoke execute on function private.take_balance_again(public.payments) from public;

-- A payment that will not be paid gives its balance part back (failed, expired, superseded). A
-- renewal whose card or Direct Debit part failed is tried again for the same period, and keeps its
-- balance part until it is paid or the membership ends unpaid (return_renewal_balance, decision 0108).
create function private.payments_return_balance()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.billing_reason = 'renewal' and new.status = 'failed' then
    return null;
  end if;
  perform private.return_balance(new, now());
  return null;
end;
$$;

revoke execute on function private.payments_return_balance() from public;

-- A membership that ended with a renewal unpaid (lapsed after its retries, or cancelled while past
-- due): the balance part that renewal took comes back, once (return_balance's key, decision 0108).
create function private.return_renewal_balance(p_membership_id uuid, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
begin
  for v_payment in
    select * from public.payments p
     where p.membership_id = p_membership_id and p.billing_reason = 'renewal' and p.status <> 'paid'
       and p.balance_used is not null
  loop
    perform private.return_balance(v_payment, p_now);
  end loop;
end;
$$;

revoke execute on function private.return_renewal_balance(uuid, timestamptz) from public;

-- The balance part of a new renewal payment (claim_due_renewals, once per period: the payment's
-- reference is the membership and period): taken under the member's row lock, the same rule as
-- any checkout (balance_cover). Answers the payment as recorded.
create function private.spend_balance_on_renewal(p_payment public.payments)
returns public.payments
language plpgsql security definer set search_path = ''
as $$
declare
  v_cover numeric;
  v_payment public.payments := p_payment;
begin
  if p_payment.member_id is null or p_payment.balance_used is not null then
    return v_payment;
  end if;
  perform 1 from public.members where id = p_payment.member_id for no key update;
  v_cover := private.balance_cover(p_payment.member_id, p_payment.amount);
  if v_cover <= 0 then
    return v_payment;
  end if;
  update public.payments
     set balance_used = v_cover, description = description || private.balance_label(v_cover)
   where id = p_payment.id
  returning * into v_payment;
  perform private.spend_balance(v_payment);
  return v_payment;
end;
$$;

revoke execute on function private.spend_balance_on_renewal(public.payments) from public;

-- A refund of a payment part paid from the balance: the balance's share of it (in proportion) goes
-- back to the balance, and only the card's share is owed through the provider. A refund the balance
-- paid all of is not listed (nothing to refund by card). A share already given back (the payment
-- failed first, or was superseded) is not given twice.
create function private.refunds_owed_return_balance()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_payment public.payments;
  v_share numeric;
  v_back numeric;
begin
  select * into v_payment from public.payments where id = new.payment_id;
  if not found or v_payment.balance_used is null then
    return new;
  end if;
  -- A replay of a refund already recorded: the insert will do nothing, and neither does this.
  if exists (select 1 from public.refunds_owed r
              where r.payment_id = new.payment_id and r.reason = new.reason and r.place_booking_id is not distinct from new.place_booking_id) then
    return new;
  end if;
  v_share := least(round(new.amount * v_payment.balance_used / v_payment.amount, 2), new.amount);
  -- What the balance still has out for this payment (spent, less what came back).
  v_back := least(v_share, greatest(-coalesce((select sum(e.amount) from public.balance_entries e where e.payment_id = v_payment.id), 0), 0));
  if v_back > 0 and v_payment.member_id is not null then
    insert into public.balance_entries (member_id, amount, kind, payment_id, refund_id, description)
    values (v_payment.member_id, v_back, 'returned', v_payment.id, new.id, left('Refunded to your balance: ' || new.description, 300))
    on conflict do nothing;
  end if;
  new.amount := new.amount - v_share;
  if new.amount <= 0 then
    return null;
  end if;
  return new;
end;
$$;

revoke execute on function private.refunds_owed_return_balance() from public;

-- How many wrong codes a member may try in a day before redeeming is refused for the rest of it.
create function private.gift_voucher_tries_allowed()
returns integer
language sql immutable set search_path = ''
as $$ select 10 $$;

revoke execute on function private.gift_voucher_tries_allowed() from public;

-- A voucher's state as of p_now: pending (not paid), sold (issued, not yet delivered), delivered,
-- redeemed, expired (past its date, not redeemed).
create function private.gift_voucher_status(p_voucher public.gift_vouchers, p_now timestamptz)
returns text
language sql stable set search_path = ''
as $$
  select case
    when p_voucher.redeemed_at is not null then 'redeemed'
    when p_voucher.issued_at is null then 'pending'
    when p_voucher.expires_at <= p_now then 'expired'
    when p_voucher.delivered_at is not null then 'delivered'
    else 'sold'
  end
$$;

revoke execute on function private.gift_voucher_status(public.gift_vouchers, timestamptz) from public;

-- A code as members type it: upper case, without spaces or dashes.
create function private.normalised_voucher_code(p_code text)
returns text
language sql immutable set search_path = ''
as $$ select nullif(upper(regexp_replace(coalesce(p_code, ''), '[\s-]', '', 'g')), '') $$;

revoke execute on function private.normalised_voucher_code(text) from public;

-- A code as it is shown and emailed: four groups of four.
create function private.voucher_code_text(p_code text)
returns text
language sql immutable set search_path = ''
as $$ select substr(p_code, 1, 4) || '-' || substr(p_code, 5, 4) || '-' || substr(p_code, 9, 4) || '-' || substr(p_code, 13, 4) $$;

revoke execute on function private.voucher_code_text(text) from public;

-- A new random code: 16 symbols of 32 (5 bits each) from the cryptographic generator.
create function private.new_voucher_code()
returns text
language sql volatile set search_path = ''
as $$
  select string_agg(substr('ABCDEFGHJKLMNPQRSTUVWXYZ23456789', (get_byte(b, i) % 32) + 1, 1), '' order by i)
    from (select extensions.gen_random_bytes(16) as b) r, generate_series(0, 15) i
$$;

revoke execute on function private.new_voucher_code() from public;

-- Buying ---------------------------------------------------------------------------------------
-- Records a voucher and its pending payment (the card checkout then charges it). The buyer is the
-- signed-in member (p_buyer_member_id, their name and email) or a visitor (the name and email they
-- give). An amount in whole pounds within the studio's limits, or a package of the catalogue at its
-- price (p_plan_slug; then p_amount is ignored). Nothing is issued until the payment is paid.
create function private.create_gift_voucher_payment(
  p_buyer_member_id uuid, p_buyer_name text, p_buyer_email text, p_recipient_name text, p_recipient_email text,
  p_message text, p_deliver_on date, p_amount numeric, p_plan_slug text, p_now timestamptz
)
returns public.plan_payment
language plpgsql security definer set search_path = ''
as $$
declare
  v_settings public.gift_voucher_settings;
  v_buyer public.members;
  v_plan public.plans;
  v_amount numeric;
  v_today date := (p_now at time zone 'Europe/London')::date;
  v_email_pattern constant text := '^[^@\s]+@[^@\s]+\.[^@\s]+$';
  v_payment public.payments;
  v_name text := btrim(coalesce(p_buyer_name, ''));
  v_email text := lower(btrim(coalesce(p_buyer_email, '')));
begin
  select * into v_settings from public.gift_voucher_settings where id;
  if p_buyer_member_id is not null then
    select * into v_buyer from public.members where id = p_buyer_member_id;
    if not found then
      raise exception 'Member not found. Please sign in again.' using errcode = 'P0002', hint = 'member_not_found';
    end if;
    v_name := coalesce(nullif(btrim(v_buyer.name), ''), v_name);
    v_email := v_buyer.email::text;
  end if;
  if v_name = '' or char_length(v_name) > 100 then
    raise exception 'Give your name (up to 100 characters).' using errcode = '22023', hint = 'invalid_buyer';
  end if;
  if v_email !~ v_email_pattern or char_length(v_email) > 254 then
    raise exception 'Give your email address, for the receipt.' using errcode = '22023', hint = 'invalid_buyer';
  end if;
  if nullif(btrim(p_recipient_name), '') is null or char_length(btrim(p_recipient_name)) > 100 then
    raise exception 'Give the recipient''s name (up to 100 characters).' using errcode = '22023', hint = 'invalid_recipient';
  end if;
  if coalesce(btrim(p_recipient_email), '') !~ v_email_pattern or char_length(btrim(p_recipient_email)) > 254 then
    raise exception 'Give the recipient''s email address: the voucher is sent there.' using errcode = '22023', hint = 'invalid_recipient';
  end if;
  if char_length(coalesce(p_message, '')) > 500 then
    raise exception 'The message is up to 500 characters.' using errcode = '22023', hint = 'invalid_message';
  end if;
  if p_deliver_on is null or p_deliver_on < v_today or p_deliver_on > (v_today + interval '1 year')::date then
    raise exception 'The delivery date is today or later, at most a year ahead.' using errcode = '22023', hint = 'invalid_delivery_date';
  end if;
  if p_plan_slug is not null then
    select * into v_plan from public.plans where slug = p_plan_slug and category = 'training';
    if not found then
      raise exception 'A gift voucher for a package names one of the studio''s packages.' using errcode = '22023', hint = 'invalid_package';
    end if;
    v_amount := v_plan.price;
  else
    if p_amount is null or p_amount <> trunc(p_amount) or p_amount < v_settings.min_amount or p_amount > v_settings.max_amount then
      raise exception 'A gift voucher is a whole number of pounds from % to %.', private.gbp(v_settings.min_amount), private.gbp(v_settings.max_amount)
        using errcode = '22023', hint = 'invalid_amount';
    end if;
    v_amount := p_amount;
  end if;

  insert into public.payments (member_id, kind, amount, description, checkout_reference)
  values (p_buyer_member_id, 'gift_voucher', v_amount,
          'Gift voucher for ' || btrim(p_recipient_name) || coalesce(': ' || v_plan.name, '') || ' (' || private.gbp(v_amount) || ')',
          'voucher-' || gen_random_uuid()::text)
  returning * into v_payment;
  -- A visitor's payment has no member: the accounts still say who paid.
  update public.payments set billed_name = v_name, billed_email = v_email where id = v_payment.id;
  insert into public.gift_vouchers (payment_id, amount, plan_slug, buyer_member_id, buyer_name, buyer_email,
                                    recipient_name, recipient_email, message, deliver_on, created_at)
  values (v_payment.id, v_amount, v_plan.slug, p_buyer_member_id, v_name, v_email, btrim(p_recipient_name),
          lower(btrim(p_recipient_email)), btrim(coalesce(p_message, '')), p_deliver_on, p_now);

  return (v_payment.id, v_payment.checkout_reference, v_payment.amount, v_payment.currency,
          v_payment.description)::public.plan_payment;
end;
$$;

revoke execute on function private.create_gift_voucher_payment(uuid, text, text, text, text, text, date, numeric, text, timestamptz) from public;

grant execute on function private.create_gift_voucher_payment(uuid, text, text, text, text, text, date, numeric, text, timestamptz) to service_role;

-- Delivering -------------------------------------------------------------------------------------
-- Emails the recipient their code and message, once (delivered_at, and the email's dedupe key).
create function private.deliver_gift_voucher(p_voucher public.gift_vouchers, p_now timestamptz)
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

-- The job: every issued voucher whose delivery date (London) has come is emailed, once. Two runs at
-- once skip each other's rows; a second run finds nothing left.
create function private.send_gift_vouchers_at(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_voucher public.gift_vouchers;
  v_sent integer := 0;
begin
  for v_voucher in
    select * from public.gift_vouchers
     where issued_at is not null and delivered_at is null and redeemed_at is null
       and deliver_on <= (p_now at time zone 'Europe/London')::date
     order by deliver_on, created_at
     for update skip locked
  loop
    perform private.deliver_gift_voucher(v_voucher, p_now);
    v_sent := v_sent + 1;
  end loop;
  return v_sent;
end;
$$;

revoke execute on function private.send_gift_vouchers_at(timestamptz) from public;

grant execute on function private.send_gift_vouchers_at(timestamptz) to service_role;

-- Issuing (the payment is paid) ---------------------------------------------------------------------
-- The voucher's payment is paid (apply_checkout_result, once): it gets its code and expiry, the
-- buyer (a visitor or a member) gets a receipt stating the delivery date and the expiry (UK: the
-- expiry is stated at sale), and a voucher due today is delivered at once. A payment owed back
-- (needs_refund) issues nothing.
create function private.payments_issue_gift_voucher()
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

-- Redeeming --------------------------------------------------------------------------------------
create type public.gift_voucher_redemption as (
  -- redeemed | unknown_code | expired | already_redeemed | too_many_tries
  outcome text,
  amount numeric,
  balance numeric,
  message text
);

-- The caller redeems a code into their balance. The voucher row is locked, so two tabs queue and
-- the second finds it redeemed. A wrong code is remembered (not raised, so the try is kept): after
-- private.gift_voucher_tries_allowed() wrong codes in 24 hours, redeeming waits.
create function private.redeem_gift_voucher(p_code text, p_now timestamptz)
returns public.gift_voucher_redemption
language plpgsql security definer set search_path = ''
as $$
declare
  v_member uuid := private.current_member_id();
  v_voucher public.gift_vouchers;
  v_code text := private.normalised_voucher_code(p_code);
begin
  if v_member is null then
    raise exception 'Please sign in to redeem a gift voucher.' using errcode = '42501', hint = 'not_signed_in';
  end if;
  if (select count(*) from private.gift_voucher_tries t where t.member_id = v_member and t.tried_at > p_now - interval '24 hours')
     >= private.gift_voucher_tries_allowed() then
    return ('too_many_tries', null, private.member_balance(v_member),
            'Too many codes that did not match: please try again tomorrow, or ask the studio.')::public.gift_voucher_redemption;
  end if;
  select * into v_voucher from public.gift_vouchers where code = v_code and v_code ~ '^[A-HJ-NP-Z2-9]{16}$' for update;
  if not found then
    insert into private.gift_voucher_tries (member_id, tried_at) values (v_member, p_now);
    return ('unknown_code', null, private.member_balance(v_member),
            'That code does not match a gift voucher. Check it against the email (16 letters and digits).')::public.gift_voucher_redemption;
  end if;
  if v_voucher.redeemed_at is not null then
    return ('already_redeemed', v_voucher.amount, private.member_balance(v_member),
            case when v_voucher.redeemed_by = v_member then 'You have already redeemed this gift voucher.'
                 else 'This gift voucher has already been redeemed.' end)::public.gift_voucher_redemption;
  end if;
  if v_voucher.expires_at <= p_now then
    return ('expired', v_voucher.amount, private.member_balance(v_member),
            'This gift voucher expired on ' || private.london_date_text(v_voucher.expires_at) || '. Please ask the studio.')::public.gift_voucher_redemption;
  end if;
  update public.gift_vouchers
     set redeemed_at = p_now, redeemed_by = v_member, delivered_at = coalesce(delivered_at, p_now)
   where id = v_voucher.id;
  insert into public.balance_entries (member_id, amount, kind, gift_voucher_id, description, created_at)
  values (v_member, v_voucher.amount, 'voucher', v_voucher.id,
          'Gift voucher from ' || v_voucher.buyer_name || coalesce(' (' || (select pl.name from public.plans pl where pl.slug = v_voucher.plan_slug) || ')', ''),
          p_now);
  return ('redeemed', v_voucher.amount, private.member_balance(v_member),
          private.gbp(v_voucher.amount) || ' has been added to your balance.')::public.gift_voucher_redemption;
end;
$$;

revoke execute on function private.redeem_gift_voucher(text, timestamptz) from public;

grant execute on function private.redeem_gift_voucher(text, timestamptz) to authenticated;

-- The caller's balance and its history (newest first).
create type public.balance_line as (
  id uuid,
  amount numeric,
  kind text,
  description text,
  created_at timestamptz,
  balance_after numeric
);

create function private.my_balance_history()
returns setof public.balance_line
language sql stable security definer set search_path = ''
as $$
  select e.id, e.amount, e.kind, e.description, e.created_at,
         sum(e.amount) over (order by e.created_at, e.seq rows between unbounded preceding and current row)
    from public.balance_entries e
   where e.member_id = private.current_member_id()
   order by e.created_at desc, e.seq desc
$$;

revoke execute on function private.my_balance_history() from public;

grant execute on function private.my_balance_history() to authenticated;

create function private.my_balance()
returns numeric
language sql stable security definer set search_path = ''
as $$ select private.member_balance(private.current_member_id()) $$;

revoke execute on function private.my_balance() from public;

grant execute on function private.my_balance() to authenticated;

-- Before paying for a price that is not a catalogue plan (a family's places, a guest's place:
-- decision 0108): how much of p_price the caller's balance pays and what the card is charged, by the
-- checkout's own rule (balance_cover). The checkout decides again under the member's row lock.
create function private.my_balance_cover(p_price numeric)
returns public.offer_price
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member uuid := private.current_member_id();
  r public.offer_price;
begin
  if p_price is null or p_price < 0 then
    raise exception 'A price is an amount of pounds, not less than nothing.' using errcode = '22023', hint = 'invalid_price';
  end if;
  r.list_price := p_price;
  r.discount := 0;
  r.price := p_price;
  r.balance_used := private.balance_cover(v_member, p_price);
  r.to_charge := p_price - r.balance_used;
  return r;
end;
$$;

revoke execute on function private.my_balance_cover(numeric) from public;

grant execute on function private.my_balance_cover(numeric) to authenticated;

-- What a buyer sees before buying (visitors too): the limits and the packages one can give.
create type public.gift_voucher_options as (
  min_amount integer,
  max_amount integer,
  expiry_months integer,
  packages jsonb
);

create function private.gift_voucher_options()
returns public.gift_voucher_options
language sql stable security definer set search_path = ''
as $$
  select s.min_amount, s.max_amount, s.expiry_months,
         coalesce((select jsonb_agg(jsonb_build_object('slug', pl.slug, 'name', pl.name, 'price', pl.price) order by pl.price)
                     from public.plans pl where pl.category = 'training'), '[]'::jsonb)
    from public.gift_voucher_settings s where s.id
$$;

revoke execute on function private.gift_voucher_options() from public;

grant execute on function private.gift_voucher_options() to anon, authenticated;

-- A voucher checkout's state for its return page (the reference is the unguessable secret).
create type public.gift_voucher_checkout as (
  status text,
  amount numeric,
  recipient_name text,
  deliver_on date,
  expires_at timestamptz
);

create function private.gift_voucher_checkout(p_checkout_reference text)
returns public.gift_voucher_checkout
language sql stable security definer set search_path = ''
as $$
  select p.status::text, v.amount, v.recipient_name, v.deliver_on, v.expires_at
    from public.payments p join public.gift_vouchers v on v.payment_id = p.id
   where p.checkout_reference = p_checkout_reference and p.kind = 'gift_voucher'
$$;

revoke execute on function private.gift_voucher_checkout(text) from public;

grant execute on function private.gift_voucher_checkout(text) to service_role;

-- Admin ------------------------------------------------------------------------------------------
create type public.gift_voucher_row as (
  id uuid,
  code text,
  status text,
  amount numeric,
  package_name text,
  buyer_name text,
  buyer_email text,
  recipient_name text,
  recipient_email text,
  deliver_on date,
  created_at timestamptz,
  delivered_at timestamptz,
  redeemed_at timestamptz,
  redeemed_by_name text,
  expires_at timestamptz
);

-- Every paid voucher (newest first), searched by code or either email.
create function private.admin_gift_vouchers(p_search text, p_now timestamptz)
returns setof public.gift_voucher_row
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_search text := nullif(lower(btrim(coalesce(p_search, ''))), '');
begin
  perform private.require_admin();
  return query
  select v.id, private.voucher_code_text(v.code), private.gift_voucher_status(v, p_now), v.amount, pl.name,
         v.buyer_name, v.buyer_email, v.recipient_name, v.recipient_email, v.deliver_on, v.created_at,
         v.delivered_at, v.redeemed_at, m.name, v.expires_at
    from public.gift_vouchers v
    left join public.plans pl on pl.slug = v.plan_slug
    left join public.members m on m.id = v.redeemed_by
   where v.issued_at is not null
     and (v_search is null
          or v.code = private.normalised_voucher_code(v_search)
          or v.buyer_email ilike '%' || v_search || '%'
          or v.recipient_email ilike '%' || v_search || '%')
   order by v.created_at desc
   limit 500;
end;
$$;

revoke execute on function private.admin_gift_vouchers(text, timestamptz) from public;

grant execute on function private.admin_gift_vouchers(text, timestamptz) to authenticated;

-- An admin moves an unredeemed voucher's expiry later (an expired one comes back to life).
create function private.admin_extend_gift_voucher(p_voucher_id uuid, p_expires_at timestamptz)
returns public.gift_vouchers
language plpgsql security definer set search_path = ''
as $$
declare
  v_voucher public.gift_vouchers;
begin
  perform private.require_admin();
  select * into v_voucher from public.gift_vouchers where id = p_voucher_id for update;
  if not found or v_voucher.issued_at is null then
    raise exception 'Gift voucher not found.' using errcode = 'P0002', hint = 'voucher_not_found';
  end if;
  if v_voucher.redeemed_at is not null then
    raise exception 'This gift voucher has been redeemed: its expiry no longer matters.' using errcode = 'P0001', hint = 'voucher_redeemed';
  end if;
  if p_expires_at is null or p_expires_at <= v_voucher.expires_at or p_expires_at <= now() then
    raise exception 'The new expiry must be later than the current one (%) and in the future.', private.london_date_text(v_voucher.expires_at)
      using errcode = '22023', hint = 'invalid_expiry';
  end if;
  if p_expires_at > now() + interval '5 years' then
    raise exception 'The new expiry is at most five years ahead.' using errcode = '22023', hint = 'invalid_expiry';
  end if;
  update public.gift_vouchers set expires_at = p_expires_at where id = v_voucher.id returning * into v_voucher;
  return v_voucher;
end;
$$;

revoke execute on function private.admin_extend_gift_voucher(uuid, timestamptz) from public;

grant execute on function private.admin_extend_gift_voucher(uuid, timestamptz) to authenticated;

create function private.admin_set_gift_voucher_settings(p_min_amount integer, p_max_amount integer, p_expiry_months integer)
returns public.gift_voucher_settings
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.gift_voucher_settings;
begin
  perform private.require_admin();
  if p_min_amount is null or p_max_amount is null or p_min_amount not between 1 and 1000 or p_max_amount not between 1 and 5000
     or p_min_amount > p_max_amount then
    raise exception 'The smallest amount is £1 to £1000, the largest up to £5000, and not below the smallest.'
      using errcode = '22023', hint = 'invalid_amount';
  end if;
  if p_expiry_months is null or p_expiry_months not between 1 and 120 then
    raise exception 'A voucher lasts 1 to 120 months.' using errcode = '22023', hint = 'invalid_expiry';
  end if;
  update public.gift_voucher_settings
     set min_amount = p_min_amount, max_amount = p_max_amount, expiry_months = p_expiry_months, updated_at = now()
   where id
  returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.admin_set_gift_voucher_settings(integer, integer, integer) from public;

grant execute on function private.admin_set_gift_voucher_settings(integer, integer, integer) to authenticated;

-- Money held for members as of p_now: vouchers sold and not redeemed (past their expiry excluded),
-- and members' unspent balances. Not revenue: it becomes revenue when it is spent (decision 0101).
create type public.money_held as (
  vouchers numeric,
  voucher_count integer,
  balances numeric,
  members_with_balance integer,
  total numeric
);

create function private.admin_money_held(p_now timestamptz)
returns public.money_held
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.money_held;
begin
  perform private.require_admin();
  select coalesce(sum(v.amount), 0), count(*)::integer into r.vouchers, r.voucher_count
    from public.gift_vouchers v
   where v.issued_at is not null and v.redeemed_at is null and v.expires_at > p_now;
  select coalesce(sum(b.balance), 0), count(*)::integer into r.balances, r.members_with_balance
    from (select sum(e.amount) as balance from public.balance_entries e group by e.member_id having sum(e.amount) > 0) b;
  r.total := r.vouchers + r.balances;
  return r;
end;
$$;

revoke execute on function private.admin_money_held(timestamptz) from public;

grant execute on function private.admin_money_held(timestamptz) to authenticated;

-- Public RPCs (thin wrappers) --------------------------------------------------------------------
create function public.create_gift_voucher_payment(
  p_buyer_member_id uuid, p_buyer_name text, p_buyer_email text, p_recipient_name text, p_recipient_email text,
  p_message text, p_deliver_on date, p_amount numeric, p_plan_slug text, p_now timestamptz
)
returns public.plan_payment
language sql volatile security invoker set search_path = ''
as $$
  select * from private.create_gift_voucher_payment(p_buyer_member_id, p_buyer_name, p_buyer_email, p_recipient_name,
                                                    p_recipient_email, p_message, p_deliver_on, p_amount, p_plan_slug, p_now)
$$;

revoke execute on function public.create_gift_voucher_payment(uuid, text, text, text, text, text, date, numeric, text, timestamptz) from public, anon, authenticated;

grant execute on function public.create_gift_voucher_payment(uuid, text, text, text, text, text, date, numeric, text, timestamptz) to service_role;

create function public.gift_voucher_checkout(p_checkout_reference text)
returns public.gift_voucher_checkout
language sql stable security invoker set search_path = ''
as $$ select * from private.gift_voucher_checkout(p_checkout_reference) $$;

revoke execute on function public.gift_voucher_checkout(text) from public, anon, authenticated;

grant execute on function public.gift_voucher_checkout(text) to service_role;

create function public.send_gift_vouchers_at(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.send_gift_vouchers_at(p_now) $$;

revoke execute on function public.send_gift_vouchers_at(timestamptz) from public, anon, authenticated;

grant execute on function public.send_gift_vouchers_at(timestamptz) to service_role;

create function public.redeem_gift_voucher(p_code text)
returns public.gift_voucher_redemption
language sql volatile security invoker set search_path = ''
as $$ select * from private.redeem_gift_voucher(p_code, now()) $$;

revoke execute on function public.redeem_gift_voucher(text) from public, anon;

grant execute on function public.redeem_gift_voucher(text) to authenticated;

create function public.my_balance()
returns numeric
language sql stable security invoker set search_path = ''
as $$ select private.my_balance() $$;

revoke execute on function public.my_balance() from public, anon;

grant execute on function public.my_balance() to authenticated;

create function public.my_balance_cover(p_price numeric)
returns public.offer_price
language sql stable security invoker set search_path = ''
as $$ select * from private.my_balance_cover(p_price) $$;

revoke execute on function public.my_balance_cover(numeric) from public, anon;

grant execute on function public.my_balance_cover(numeric) to authenticated;

create function public.my_balance_history()
returns setof public.balance_line
language sql stable security invoker set search_path = ''
as $$ select * from private.my_balance_history() $$;

revoke execute on function public.my_balance_history() from public, anon;

grant execute on function public.my_balance_history() to authenticated;

create function public.gift_voucher_options()
returns public.gift_voucher_options
language sql stable security invoker set search_path = ''
as $$ select * from private.gift_voucher_options() $$;

revoke execute on function public.gift_voucher_options() from public;

grant execute on function public.gift_voucher_options() to anon, authenticated;

create function public.admin_gift_vouchers(p_search text default null)
returns setof public.gift_voucher_row
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_gift_vouchers(p_search, now()) $$;

revoke execute on function public.admin_gift_vouchers(text) from public, anon;

grant execute on function public.admin_gift_vouchers(text) to authenticated;

create function public.admin_money_held()
returns public.money_held
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_money_held(now()) $$;

revoke execute on function public.admin_money_held() from public, anon;

grant execute on function public.admin_money_held() to authenticated;

create function public.admin_extend_gift_voucher(p_voucher_id uuid, p_expires_at timestamptz)
returns public.gift_vouchers
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_extend_gift_voucher(p_voucher_id, p_expires_at) $$;

revoke execute on function public.admin_extend_gift_voucher(uuid, timestamptz) from public, anon;

grant execute on function public.admin_extend_gift_voucher(uuid, timestamptz) to authenticated;

create function public.admin_set_gift_voucher_settings(p_min_amount integer, p_max_amount integer, p_expiry_months integer)
returns public.gift_voucher_settings
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_set_gift_voucher_settings(p_min_amount, p_max_amount, p_expiry_months) $$;

revoke execute on function public.admin_set_gift_voucher_settings(integer, integer, integer) from public, anon;

grant execute on function public.admin_set_gift_voucher_settings(integer, integer, integer) to authenticated;

-- Row-level security -------------------------------------------------------------------------------
create policy "Everyone reads the gift voucher rules" on public.gift_voucher_settings for select to anon, authenticated using (true);

create policy "Admins read gift vouchers" on public.gift_vouchers for select to authenticated using ((select private.is_admin()));

create policy "Members read their own balance entries; admins read all"
  on public.balance_entries for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Audit -------------------------------------------------------------------------------------------
create trigger audit_trail
  after insert or update or delete on public.gift_voucher_settings
  for each row execute function private.audit_change();

-- An admin extending a voucher's expiry is in the audit trail too (the buyer's and the job's own
-- changes are not an admin's, and audit_change records only those).
create trigger audit_trail
  after update on public.gift_vouchers
  for each row execute function private.audit_change();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger payments_return_balance
  after update of status on public.payments
  for each row when (old.status = 'pending' and new.status in ('failed', 'expired') and new.balance_used is not null)
  execute function private.payments_return_balance();

create trigger refunds_owed_return_balance
  before insert on public.refunds_owed
  for each row execute function private.refunds_owed_return_balance();

create trigger payments_issue_gift_voucher
  after update of status on public.payments
  for each row when (new.kind = 'gift_voucher' and new.status = 'paid' and old.status is distinct from 'paid')
  execute function private.payments_issue_gift_voucher();
