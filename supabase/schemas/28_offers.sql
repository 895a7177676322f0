-- Offers (decisions 0083, 0084): intro offers, promo codes and referral rewards.
--
-- The database decides every price (decision 0016's catalogue rule): a checkout sends a plan slug
-- and, at most, a promo code or an intro offer; private.offer_price reads the catalogue price and
-- takes the offer off it. The same function answers the member's preview (my_offer_price) and runs
-- again under the member's row lock (and the code's) when the checkout records the payment
-- (create_plan_payment, start_membership_checkout), so what is shown is what is charged, and two
-- tabs or two people at once cannot use a code more often than its rules allow. The discount is on
-- the payment (payments.discount) and in its description, so receipts and billing history show it.
--
-- Referrals: each member has a code (their link is /membership?ref=CODE); a new member claims it once;
-- when the referred person's first payment is paid (and not owed back) both get the studio's
-- reward, once per referred person. A renewal discount is taken off the next renewal payment as it
-- is made; a session credit goes into the credit ledger (09_credits.sql).

-- Tables -----------------------------------------------------------------------------------------
-- A promo code: a percentage or an amount off the named plans, until it expires, at most max_uses
-- times in all and once per person.
create table public.promo_codes (
  id uuid primary key default gen_random_uuid(),
  -- Kept upper case without spaces (private.normalised_code), as members type it any way.
  code text not null unique check (code ~ '^[A-Z0-9][A-Z0-9_-]{2,29}$'),
  percent_off integer check (percent_off between 1 and 90),
  amount_off numeric(10, 2) check (amount_off > 0 and amount_off <= 1000),
  -- The plans it takes money off (public.plans slugs); at least one.
  plan_slugs text[] not null check (cardinality(plan_slugs) between 1 and 20),
  expires_at timestamptz not null,
  max_uses integer not null check (max_uses between 1 and 100000),
  -- Expired by an admin before its date.
  ended_at timestamptz,
  created_by uuid references public.members (id) on delete set null,
  created_at timestamptz not null default now(),
  constraint promo_codes_one_discount check ((percent_off is null) <> (amount_off is null))
);

comment on table public.promo_codes is
  'Promo codes: a percentage or an amount off named plans, with an expiry, a total limit and one use per person. Admins only; members use a code at checkout.';

create index promo_codes_created_by_idx on public.promo_codes (created_by);

alter table public.promo_codes enable row level security;

revoke all on public.promo_codes from public, anon, authenticated;

grant select on public.promo_codes to authenticated;

grant all on public.promo_codes to service_role;

-- An intro offer: a package of the catalogue at a lower price, for members who have bought nothing
-- from the studio yet, once per person (any intro offer counts), optionally only within some days
-- of joining.
create table public.intro_offers (
  id uuid primary key default gen_random_uuid(),
  name text not null check (char_length(name) between 1 and 100),
  plan_slug text not null references public.plans (slug),
  price numeric(10, 2) not null check (price >= 1),
  new_within_days integer check (new_within_days between 1 and 365),
  ends_at timestamptz,
  ended_at timestamptz,
  created_by uuid references public.members (id) on delete set null,
  created_at timestamptz not null default now()
);

comment on table public.intro_offers is
  'Intro offers: a catalogue package at an intro price for new members, once per person. Everyone signed in reads them.';

create index intro_offers_plan_slug_idx on public.intro_offers (plan_slug);

create index intro_offers_created_by_idx on public.intro_offers (created_by);

alter table public.intro_offers enable row level security;

revoke all on public.intro_offers from public, anon, authenticated;

grant select on public.intro_offers to authenticated;

grant all on public.intro_offers to service_role;

-- The offer a payment was priced with (one per payment).
create table public.offer_uses (
  payment_id uuid primary key references public.payments (id) on delete cascade,
  member_id uuid references public.members (id) on delete set null,
  promo_code_id uuid references public.promo_codes (id) on delete restrict,
  intro_offer_id uuid references public.intro_offers (id) on delete restrict,
  list_price numeric(10, 2) not null check (list_price > 0),
  discount numeric(10, 2) not null check (discount > 0),
  created_at timestamptz not null default now(),
  constraint offer_uses_one_offer check ((promo_code_id is null) <> (intro_offer_id is null))
);

comment on table public.offer_uses is
  'Which promo code or intro offer priced a payment, and the money it took off. Written only by the checkout functions.';

create index offer_uses_promo_idx on public.offer_uses (promo_code_id, member_id) where promo_code_id is not null;

create index offer_uses_intro_idx on public.offer_uses (member_id) where intro_offer_id is not null;

create index offer_uses_intro_offer_id_idx on public.offer_uses (intro_offer_id);

alter table public.offer_uses enable row level security;

revoke all on public.offer_uses from public, anon, authenticated;

grant select on public.offer_uses to authenticated;

grant all on public.offer_uses to service_role;

-- The studio's referral reward, one row, set by admins: a class credit (one group class from the
-- credit ledger, decision 0102), a session credit (one personal-training session) or an amount off
-- the next renewal.
create table public.referral_settings (
  id boolean primary key default true check (id),
  enabled boolean not null default true,
  reward_kind text not null default 'session_credit'
    constraint referral_settings_reward_kind_check check (reward_kind in ('class_credit', 'session_credit', 'renewal_discount')),
  renewal_amount numeric(10, 2) not null default 10 check (renewal_amount > 0 and renewal_amount <= 500),
  credit_valid_days integer not null default 90 check (credit_valid_days between 7 and 365),
  updated_at timestamptz not null default now()
);

comment on table public.referral_settings is 'The studio''s referral reward (one row, admins set it).';

alter table public.referral_settings enable row level security;

revoke all on public.referral_settings from public, anon, authenticated;

grant select on public.referral_settings to authenticated;

grant all on public.referral_settings to service_role;

insert into public.referral_settings (id) values (true);

-- Each member's referral code (made the first time they ask for their link).
create table public.referral_codes (
  member_id uuid primary key references public.members (id) on delete cascade,
  code text not null unique check (code ~ '^[A-Z0-9]{8}$'),
  created_at timestamptz not null default now()
);

alter table public.referral_codes enable row level security;

revoke all on public.referral_codes from public, anon, authenticated;

grant select on public.referral_codes to authenticated;

grant all on public.referral_codes to service_role;

-- Who referred whom: one row per referred person (so a reward is given once per referred person).
create table public.referrals (
  id uuid primary key default gen_random_uuid(),
  referred_member_id uuid not null unique references public.members (id) on delete cascade,
  referrer_member_id uuid not null references public.members (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'rewarded', 'refused')),
  refused_reason text check (refused_reason in ('same_person', 'same_card')),
  -- The referred person's first payment that cleared.
  payment_id uuid references public.payments (id) on delete set null,
  created_at timestamptz not null default now(),
  settled_at timestamptz,
  constraint referrals_not_self check (referred_member_id <> referrer_member_id),
  constraint referrals_refused check ((status = 'refused') = (refused_reason is not null))
);

comment on table public.referrals is
  'Who referred whom (one row per referred person) and whether the reward was given when their first payment cleared.';

create index referrals_referrer_idx on public.referrals (referrer_member_id);

create index referrals_payment_id_idx on public.referrals (payment_id);

alter table public.referrals enable row level security;

revoke all on public.referrals from public, anon, authenticated;

grant select on public.referrals to authenticated;

grant all on public.referrals to service_role;

-- A reward given for a referral: one per referral and person (the referrer and the referred).
create table public.referral_rewards (
  id uuid primary key default gen_random_uuid(),
  referral_id uuid not null references public.referrals (id) on delete cascade,
  member_id uuid not null references public.members (id) on delete cascade,
  kind text not null constraint referral_rewards_kind_check check (kind in ('class_credit', 'session_credit', 'renewal_discount')),
  -- The money off a renewal (renewal_discount).
  amount numeric(10, 2) check (amount > 0),
  -- The renewal payment it was taken off. No foreign key: it is set while that payment is being
  -- inserted (payments_take_renewal_reward, before the row exists); payments are never deleted.
  used_payment_id uuid,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  constraint referral_rewards_once unique (referral_id, member_id),
  constraint referral_rewards_amount check ((kind = 'renewal_discount') = (amount is not null))
);

comment on table public.referral_rewards is
  'Referral rewards: a class or session credit (in the credit ledger) or money off the next renewal, and the renewal it was taken off.';

create index referral_rewards_member_idx on public.referral_rewards (member_id, created_at) where used_at is null;

create index referral_rewards_used_payment_idx on public.referral_rewards (used_payment_id);

alter table public.referral_rewards enable row level security;

revoke all on public.referral_rewards from public, anon, authenticated;

grant select on public.referral_rewards to authenticated;

grant all on public.referral_rewards to service_role;

-- Rules ----------------------------------------------------------------------------------------
-- A code as it is kept: upper case, no spaces.
create function private.normalised_code(p_code text)
returns text
language sql immutable set search_path = ''
as $$ select nullif(upper(regexp_replace(coalesce(p_code, ''), '\s', '', 'g')), '') $$;

revoke execute on function private.normalised_code(text) from public;

-- One mailbox, however it is written: lower case, without a +tag, and for Gmail without dots
-- (Gmail delivers jo.bloggs+x@googlemail.com to jobloggs@gmail.com).
create function private.normalised_email(p_email text)
returns text
language sql immutable set search_path = ''
as $$
  with parts as (
    select split_part(lower(btrim(p_email)), '@', 1) as local_part,
           replace(split_part(lower(btrim(p_email)), '@', 2), 'googlemail.com', 'gmail.com') as domain
  )
  select case when domain = 'gmail.com' then replace(split_part(local_part, '+', 1), '.', '')
              else split_part(local_part, '+', 1) end || '@' || domain
    from parts
$$;

revoke execute on function private.normalised_email(text) from public;

-- How long an unpaid checkout keeps its use of a promo code from others (the total limit): a
-- checkout still open after a day counts no more.
create function private.promo_hold_length()
returns interval
language sql immutable set search_path = ''
as $$ select interval '1 day' $$;

revoke execute on function private.promo_hold_length() from public;

-- A payment that counts as a use: paid and kept (not owed back).
create function private.offer_use_kept(p_payment public.payments)
returns boolean
language sql immutable set search_path = ''
as $$ select p_payment.status = 'paid' and not p_payment.needs_refund $$;

revoke execute on function private.offer_use_kept(public.payments) from public;

-- Why p_member may not buy an intro offer now (null: they may): bought from the studio before,
-- had an intro offer, or joined too long ago.
create function private.intro_offer_refusal(p_member_id uuid, p_offer public.intro_offers, p_now timestamptz)
returns text
language sql stable security definer set search_path = ''
as $$
  select case
    when p_offer.ended_at is not null or p_offer.ends_at <= p_now then 'offer_ended'
    when exists (select 1 from public.offer_uses u join public.payments p on p.id = u.payment_id
                  where u.member_id = p_member_id and u.intro_offer_id is not null and private.offer_use_kept(p)) then 'intro_offer_used'
    when exists (select 1 from public.payments p where p.member_id = p_member_id and private.offer_use_kept(p)) then 'not_new_member'
    when p_offer.new_within_days is not null
         and (select m.created_at from public.members m where m.id = p_member_id) + make_interval(days => p_offer.new_within_days) <= p_now
      then 'offer_window_passed'
  end
$$;

revoke execute on function private.intro_offer_refusal(uuid, public.intro_offers, timestamptz) from public;

create type public.offer_price as (
  plan_slug text,
  list_price numeric,
  discount numeric,
  price numeric,
  promo_code_id uuid,
  intro_offer_id uuid,
  -- What the payment's description adds: 'promo code SPRING: £10 off'.
  label text,
  -- The part of the price the member's balance pays (29_gift_vouchers.sql, decision 0101), and what
  -- is left for the card (0: the balance pays it all).
  balance_used numeric,
  to_charge numeric
);

-- The price of p_plan for p_member with a promo code or an intro offer (or neither: the catalogue
-- price), and how much of it the member's balance pays (private.with_balance). Raises a clear
-- refusal for a code or offer that does not apply. With p_lock (the checkout, which holds the
-- member's row) the code's row is locked, so uses are counted one checkout at a time.
create function private.offer_price(
  p_member_id uuid, p_plan public.plans, p_promo_code text, p_intro_offer_id uuid, p_now timestamptz, p_lock boolean
)
returns public.offer_price
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_code text := private.normalised_code(p_promo_code);
  v_promo public.promo_codes;
  v_offer public.intro_offers;
  v_refusal text;
  r public.offer_price;
begin
  r.plan_slug := p_plan.slug;
  r.list_price := p_plan.price;
  r.discount := 0;
  if p_intro_offer_id is not null then
    if v_code is not null then
      raise exception 'A promo code cannot be used with an intro offer.' using errcode = '22023', hint = 'offer_not_combinable';
    end if;
    select * into v_offer from public.intro_offers where id = p_intro_offer_id;
    if not found or v_offer.plan_slug <> p_plan.slug then
      raise exception 'That intro offer is not for %.', p_plan.name using errcode = '22023', hint = 'offer_not_for_plan';
    end if;
    v_refusal := private.intro_offer_refusal(p_member_id, v_offer, p_now);
    if v_refusal is not null then
      raise exception '%', case v_refusal
        when 'offer_ended' then 'This intro offer has ended.'
        when 'intro_offer_used' then 'You have already had an intro offer: each person can have one.'
        when 'not_new_member' then 'Intro offers are for new members, and you have bought from the studio before.'
        else 'This intro offer is for your first ' || v_offer.new_within_days || ' days as a member.' end
        using errcode = 'P0001', hint = v_refusal;
    end if;
    r.intro_offer_id := v_offer.id;
    r.discount := greatest(p_plan.price - v_offer.price, 0);
    r.price := v_offer.price;
    r.label := 'intro offer ' || v_offer.name;
    return private.with_balance(r, p_member_id, p_plan, p_lock);
  end if;
  if v_code is null then
    r.price := p_plan.price;
    return private.with_balance(r, p_member_id, p_plan, p_lock);
  end if;

  if p_lock then
    select * into v_promo from public.promo_codes where code = v_code for update;
  else
    select * into v_promo from public.promo_codes where code = v_code;
  end if;
  if not found then
    raise exception 'There is no promo code %.', v_code using errcode = 'P0001', hint = 'promo_unknown';
  end if;
  if v_promo.ended_at is not null or v_promo.expires_at <= p_now then
    raise exception 'The promo code % has expired.', v_code using errcode = 'P0001', hint = 'promo_expired';
  end if;
  if not p_plan.slug = any (v_promo.plan_slugs) then
    raise exception 'The promo code % is not for %: it is for %.', v_code, p_plan.name,
      (select string_agg(pl.name, ', ' order by pl.price) from public.plans pl where pl.slug = any (v_promo.plan_slugs))
      using errcode = 'P0001', hint = 'promo_not_for_plan';
  end if;
  if exists (select 1 from public.offer_uses u join public.payments p on p.id = u.payment_id
              where u.promo_code_id = v_promo.id and u.member_id = p_member_id and private.offer_use_kept(p)) then
    raise exception 'You have already used the promo code %.', v_code using errcode = 'P0001', hint = 'promo_used';
  end if;
  -- Kept uses, and other people's checkouts still open (the member's own open one is superseded by
  -- this checkout: decision 0016's one plan purchase in flight).
  if (select count(*) from public.offer_uses u join public.payments p on p.id = u.payment_id
       where u.promo_code_id = v_promo.id
         and (private.offer_use_kept(p)
              or (p.status = 'pending' and p.superseded_by is null and p.member_id is distinct from p_member_id
                  and p.created_at > p_now - private.promo_hold_length()))) >= v_promo.max_uses then
    raise exception 'The promo code % has been used as often as it can be.', v_code using errcode = 'P0001', hint = 'promo_used_up';
  end if;
  r.promo_code_id := v_promo.id;
  -- The card provider needs something to charge: at least £1 is left to pay.
  r.discount := least(coalesce(v_promo.amount_off, round(p_plan.price * v_promo.percent_off / 100.0, 2)), p_plan.price - 1);
  r.price := p_plan.price - r.discount;
  r.label := 'promo code ' || v_code || ': ' || private.gbp(r.discount) || ' off';
  return private.with_balance(r, p_member_id, p_plan, p_lock);
end;
$$;

revoke execute on function private.offer_price(uuid, public.plans, text, uuid, timestamptz, boolean) from public;

-- Records which offer priced a checkout's payment (called right after the insert).
create function private.record_offer_use(p_payment public.payments, p_price public.offer_price)
returns void
language sql security definer set search_path = ''
as $$
  insert into public.offer_uses (payment_id, member_id, promo_code_id, intro_offer_id, list_price, discount)
  select p_payment.id, p_payment.member_id, p_price.promo_code_id, p_price.intro_offer_id, p_price.list_price, p_price.discount
   where p_price.discount > 0 and (p_price.promo_code_id is not null or p_price.intro_offer_id is not null)
$$;

revoke execute on function private.record_offer_use(public.payments, public.offer_price) from public;

-- What the caller would pay for a plan with a code or an intro offer (the checkout shows it
-- before the member pays; the checkout itself prices again, under lock).
create function private.my_offer_price(p_plan_slug text, p_promo_code text, p_intro_offer_id uuid)
returns public.offer_price
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member uuid := private.current_member_id();
begin
  if v_member is null then
    raise exception 'Please sign in.' using errcode = '42501', hint = 'not_signed_in';
  end if;
  return private.offer_price(v_member, private.checkout_plan(p_plan_slug, null, null), p_promo_code, p_intro_offer_id, now(), false);
end;
$$;

revoke execute on function private.my_offer_price(text, text, uuid) from public;

grant execute on function private.my_offer_price(text, text, uuid) to authenticated;

-- The intro offers running now, with whether the caller may buy each (refusal null) and why not.
create type public.intro_offer_choice as (
  id uuid,
  name text,
  plan_slug text,
  plan_name text,
  list_price numeric,
  price numeric,
  ends_at timestamptz,
  refusal text
);

create function private.my_intro_offers()
returns setof public.intro_offer_choice
language sql stable security definer set search_path = ''
as $$
  select o.id, o.name, o.plan_slug, pl.name, pl.price, o.price, o.ends_at,
         private.intro_offer_refusal(private.current_member_id(), o, now())
    from public.intro_offers o join public.plans pl on pl.slug = o.plan_slug
   where o.ended_at is null and (o.ends_at is null or o.ends_at > now()) and private.current_member_id() is not null
   order by o.price, o.created_at
$$;

revoke execute on function private.my_intro_offers() from public;

grant execute on function private.my_intro_offers() to authenticated;

-- Admin: codes and offers ----------------------------------------------------------------------
create function private.admin_create_promo_code(
  p_code text, p_percent_off integer, p_amount_off numeric, p_plan_slugs text[], p_expires_at timestamptz, p_max_uses integer
)
returns public.promo_codes
language plpgsql security definer set search_path = ''
as $$
declare
  v_code text := private.normalised_code(p_code);
  v_row public.promo_codes;
begin
  perform private.require_admin();
  if v_code is null or v_code !~ '^[A-Z0-9][A-Z0-9_-]{2,29}$' then
    raise exception 'A code is 3 to 30 letters, digits, dashes or underscores.' using errcode = '22023', hint = 'invalid_code';
  end if;
  if (p_percent_off is null) = (p_amount_off is null) then
    raise exception 'Give either a percentage or an amount off.' using errcode = '22023', hint = 'invalid_discount';
  end if;
  if p_percent_off is not null and p_percent_off not between 1 and 90 then
    raise exception 'A percentage off is 1 to 90.' using errcode = '22023', hint = 'invalid_discount';
  end if;
  if p_amount_off is not null and (p_amount_off <= 0 or p_amount_off > 1000 or p_amount_off <> round(p_amount_off, 2)) then
    raise exception 'An amount off is £0.01 to £1000.' using errcode = '22023', hint = 'invalid_discount';
  end if;
  if coalesce(cardinality(p_plan_slugs), 0) = 0
     or exists (select 1 from unnest(p_plan_slugs) s where not exists (select 1 from public.plans pl where pl.slug = s)) then
    raise exception 'Choose the plans the code is for.' using errcode = '22023', hint = 'invalid_plans';
  end if;
  if p_expires_at is null or p_expires_at <= now() then
    raise exception 'The expiry must be in the future.' using errcode = '22023', hint = 'invalid_expiry';
  end if;
  if p_max_uses is null or p_max_uses not between 1 and 100000 then
    raise exception 'The limit is 1 to 100000 uses.' using errcode = '22023', hint = 'invalid_limit';
  end if;
  insert into public.promo_codes (code, percent_off, amount_off, plan_slugs, expires_at, max_uses, created_by)
  values (v_code, p_percent_off, p_amount_off, (select array_agg(distinct s order by s) from unnest(p_plan_slugs) s),
          p_expires_at, p_max_uses, private.current_member_id())
  on conflict (code) do nothing
  returning * into v_row;
  if v_row.id is null then
    raise exception 'The code % exists already.', v_code using errcode = '23505', hint = 'code_exists';
  end if;
  return v_row;
end;
$$;

revoke execute on function private.admin_create_promo_code(text, integer, numeric, text[], timestamptz, integer) from public;

grant execute on function private.admin_create_promo_code(text, integer, numeric, text[], timestamptz, integer) to authenticated;

create function private.admin_end_offer(p_promo_code_id uuid, p_intro_offer_id uuid)
returns void
language plpgsql security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  update public.promo_codes set ended_at = coalesce(ended_at, now()) where id = p_promo_code_id;
  update public.intro_offers set ended_at = coalesce(ended_at, now()) where id = p_intro_offer_id;
end;
$$;

revoke execute on function private.admin_end_offer(uuid, uuid) from public;

grant execute on function private.admin_end_offer(uuid, uuid) to authenticated;

create function private.admin_create_intro_offer(
  p_name text, p_plan_slug text, p_price numeric, p_new_within_days integer, p_ends_at timestamptz
)
returns public.intro_offers
language plpgsql security definer set search_path = ''
as $$
declare
  v_plan public.plans;
  v_row public.intro_offers;
begin
  perform private.require_admin();
  select * into v_plan from public.plans where slug = p_plan_slug;
  if not found or v_plan.category <> 'training' then
    raise exception 'An intro offer is one of the packages.' using errcode = '22023', hint = 'invalid_plans';
  end if;
  if nullif(btrim(p_name), '') is null or char_length(btrim(p_name)) > 100 then
    raise exception 'Name the offer (up to 100 characters).' using errcode = '22023', hint = 'invalid_name';
  end if;
  if p_price is null or p_price < 1 or p_price >= v_plan.price or p_price <> round(p_price, 2) then
    raise exception 'The intro price is from £1 to less than % (the package''s price).', private.gbp(v_plan.price)
      using errcode = '22023', hint = 'invalid_price';
  end if;
  if p_new_within_days is not null and p_new_within_days not between 1 and 365 then
    raise exception 'Days since joining are 1 to 365, or none.' using errcode = '22023', hint = 'invalid_days';
  end if;
  if p_ends_at is not null and p_ends_at <= now() then
    raise exception 'The end must be in the future.' using errcode = '22023', hint = 'invalid_expiry';
  end if;
  insert into public.intro_offers (name, plan_slug, price, new_within_days, ends_at, created_by)
  values (btrim(p_name), v_plan.slug, p_price, p_new_within_days, p_ends_at, private.current_member_id())
  returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.admin_create_intro_offer(text, text, numeric, integer, timestamptz) from public;

grant execute on function private.admin_create_intro_offer(text, text, numeric, integer, timestamptz) to authenticated;

create function private.admin_set_referral_settings(
  p_enabled boolean, p_reward_kind text, p_renewal_amount numeric, p_credit_valid_days integer
)
returns public.referral_settings
language plpgsql security definer set search_path = ''
as $$
declare
  v_row public.referral_settings;
begin
  perform private.require_admin();
  if p_reward_kind is null or p_reward_kind not in ('class_credit', 'session_credit', 'renewal_discount') then
    raise exception 'Choose a class credit, a session credit or money off the next renewal.' using errcode = '22023', hint = 'invalid_reward';
  end if;
  if p_renewal_amount is null or p_renewal_amount <= 0 or p_renewal_amount > 500 or p_renewal_amount <> round(p_renewal_amount, 2) then
    raise exception 'Money off a renewal is £0.01 to £500.' using errcode = '22023', hint = 'invalid_amount';
  end if;
  if p_credit_valid_days is null or p_credit_valid_days not between 7 and 365 then
    raise exception 'A session credit is valid 7 to 365 days.' using errcode = '22023', hint = 'invalid_days';
  end if;
  update public.referral_settings
     set enabled = coalesce(p_enabled, true), reward_kind = p_reward_kind, renewal_amount = p_renewal_amount,
         credit_valid_days = p_credit_valid_days, updated_at = now()
   where id
  returning * into v_row;
  return v_row;
end;
$$;

revoke execute on function private.admin_set_referral_settings(boolean, text, numeric, integer) from public;

grant execute on function private.admin_set_referral_settings(boolean, text, numeric, integer) to authenticated;

-- The offers report: every code and intro offer with its kept uses and the money they took off,
-- and the referrals' rewards (reports show discounts).
create type public.offer_report_row as (
  kind text,
  id uuid,
  name text,
  detail text,
  status text,
  uses integer,
  max_uses integer,
  discount_total numeric,
  created_at timestamptz
);

create function private.admin_offer_report()
returns setof public.offer_report_row
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
  select 'promo_code', c.id, c.code,
         coalesce(c.percent_off || '% off', private.gbp(c.amount_off) || ' off') || ' '
           || (select string_agg(pl.name, ', ' order by pl.price) from public.plans pl where pl.slug = any (c.plan_slugs))
           || ', until ' || private.london_date_text(c.expires_at),
         case when c.ended_at is not null or c.expires_at <= now() then 'ended' else 'active' end,
         u.n, c.max_uses, coalesce(u.total, 0), c.created_at
    from public.promo_codes c
    cross join lateral (select count(*)::integer as n, sum(x.discount) as total
                          from public.offer_uses x join public.payments p on p.id = x.payment_id
                         where x.promo_code_id = c.id and private.offer_use_kept(p)) u
  union all
  select 'intro_offer', o.id, o.name,
         pl.name || ' for ' || private.gbp(o.price) || ' (usually ' || private.gbp(pl.price) || ')'
           || coalesce(', first ' || o.new_within_days || ' days', '')
           || coalesce(', until ' || private.london_date_text(o.ends_at), ''),
         case when o.ended_at is not null or o.ends_at <= now() then 'ended' else 'active' end,
         u.n, null::integer, coalesce(u.total, 0), o.created_at
    from public.intro_offers o join public.plans pl on pl.slug = o.plan_slug
    cross join lateral (select count(*)::integer as n, sum(x.discount) as total
                          from public.offer_uses x join public.payments p on p.id = x.payment_id
                         where x.intro_offer_id = o.id and private.offer_use_kept(p)) u
  union all
  select 'referrals', null::uuid, 'Referrals',
         (select count(*) from public.referrals) || ' referred, '
           || (select count(*) from public.referrals where status = 'rewarded') || ' rewarded, '
           || (select count(*) from public.referrals where status = 'refused') || ' refused',
         case when s.enabled then 'active' else 'ended' end,
         (select count(*)::integer from public.referral_rewards), null::integer,
         coalesce((select sum(p.discount) from public.referral_rewards rr join public.payments p on p.id = rr.used_payment_id
                    where rr.kind = 'renewal_discount' and private.offer_use_kept(p)), 0),
         s.updated_at
    from public.referral_settings s
  order by 1, 9 desc;
end;
$$;

revoke execute on function private.admin_offer_report() from public;

grant execute on function private.admin_offer_report() to authenticated;

-- Referrals --------------------------------------------------------------------------------------
-- The caller's referral code (made on first ask) and what their referrals earned.
create type public.my_referral as (
  code text,
  referred integer,
  rewarded integer,
  reward_kind text,
  renewal_amount numeric,
  enabled boolean
);

create function private.my_referral()
returns public.my_referral
language plpgsql security definer set search_path = ''
as $$
declare
  v_member uuid := private.current_member_id();
  v_code text;
  v_settings public.referral_settings;
begin
  if v_member is null then
    raise exception 'Please sign in.' using errcode = '42501', hint = 'not_signed_in';
  end if;
  select code into v_code from public.referral_codes where member_id = v_member;
  while v_code is null loop
    insert into public.referral_codes (member_id, code)
    values (v_member, substr(translate(upper(encode(extensions.gen_random_bytes(12), 'base64')), '+/=0O1I', ''), 1, 8))
    on conflict do nothing;
    select code into v_code from public.referral_codes where member_id = v_member;
  end loop;
  select * into v_settings from public.referral_settings where id;
  return (v_code,
          (select count(*)::integer from public.referrals where referrer_member_id = v_member),
          (select count(*)::integer from public.referrals where referrer_member_id = v_member and status = 'rewarded'),
          v_settings.reward_kind, v_settings.renewal_amount, v_settings.enabled)::public.my_referral;
end;
$$;

revoke execute on function private.my_referral() from public;

grant execute on function private.my_referral() to authenticated;

-- A new member names who referred them (the link's code), once. Refused: one's own code, a code
-- of another account of the same person (the same mailbox), and anyone who has paid the studio
-- already (a referral is for a new person).
create function private.claim_referral(p_code text)
returns public.referrals
language plpgsql security definer set search_path = ''
as $$
declare
  v_me public.members;
  v_referrer public.members;
  v_row public.referrals;
begin
  select * into v_me from public.members where id = private.current_member_id() for no key update;
  if not found then
    raise exception 'Please sign in.' using errcode = '42501', hint = 'not_signed_in';
  end if;
  select m.* into v_referrer from public.referral_codes c join public.members m on m.id = c.member_id
   where c.code = private.normalised_code(p_code);
  if not found then
    raise exception 'That referral link is not valid.' using errcode = 'P0001', hint = 'referral_unknown';
  end if;
  if v_referrer.id = v_me.id then
    raise exception 'You cannot refer yourself.' using errcode = 'P0001', hint = 'self_referral';
  end if;
  if private.normalised_email(v_referrer.email::text) = private.normalised_email(v_me.email::text) then
    raise exception 'This link belongs to another account of yours: you cannot refer yourself.'
      using errcode = 'P0001', hint = 'same_person';
  end if;
  if not (select s.enabled from public.referral_settings s where s.id) then
    raise exception 'The studio is not giving referral rewards at the moment.' using errcode = 'P0001', hint = 'referrals_off';
  end if;
  if exists (select 1 from public.payments p where p.member_id = v_me.id and private.offer_use_kept(p)) then
    raise exception 'Referral links are for people new to the studio, and you have paid us before.'
      using errcode = 'P0001', hint = 'not_new_member';
  end if;
  insert into public.referrals (referred_member_id, referrer_member_id)
  values (v_me.id, v_referrer.id)
  on conflict (referred_member_id) do nothing
  returning * into v_row;
  if v_row.id is null then
    raise exception 'You have already been referred.' using errcode = 'P0001', hint = 'already_referred';
  end if;
  return v_row;
end;
$$;

revoke execute on function private.claim_referral(text) from public;

grant execute on function private.claim_referral(text) to authenticated;

-- Gives one person their reward for a referral (once: referral_rewards_once, the credit's grant key).
create function private.give_referral_reward(p_referral public.referrals, p_member_id uuid, p_now timestamptz)
returns void
language plpgsql security definer set search_path = ''
as $$
declare
  v_settings public.referral_settings;
begin
  select * into v_settings from public.referral_settings where id;
  insert into public.referral_rewards (referral_id, member_id, kind, amount, used_at, created_at)
  values (p_referral.id, p_member_id, v_settings.reward_kind,
          case when v_settings.reward_kind = 'renewal_discount' then v_settings.renewal_amount end,
          case when v_settings.reward_kind <> 'renewal_discount' then p_now end, p_now)
  on conflict (referral_id, member_id) do nothing;
  if not found then
    return;
  end if;
  -- A class credit (decision 0102) or a personal-training session, in the one credit ledger.
  if v_settings.reward_kind <> 'renewal_discount' then
    perform private.grant_credits(p_member_id,
      case when v_settings.reward_kind = 'class_credit' then 'class' else 'personal_training' end::public.credit_kind, 1, 'referral',
      'referral:' || p_referral.id || ':' || p_member_id, p_now, p_now + make_interval(days => v_settings.credit_valid_days),
      null, null, null, null, null, null, 'Referral reward');
  end if;
  -- Told in the same transaction (decision 0040), once per reward.
  perform private.enqueue_membership_email('referral_reward', p_member_id,
    'Your referral reward: ' || case v_settings.reward_kind when 'class_credit' then 'a free class credit'
                                     when 'session_credit' then 'a free personal-training session'
                                     else private.gbp(v_settings.renewal_amount) || ' off your next renewal' end,
    array[case when p_member_id = p_referral.referrer_member_id
               then 'Thank you for bringing a friend to the studio: their first payment has gone through.'
               else 'Welcome to the studio: you joined through a friend''s link and your first payment has gone through.' end,
          case when v_settings.reward_kind = 'class_credit'
               then 'You have a free class to book until '
                    || private.london_date_text(p_now + make_interval(days => v_settings.credit_valid_days))
                    || ': choose "Use a class credit" when you book a class you would pay for.'
               when v_settings.reward_kind = 'session_credit'
               then 'You have a free personal-training session to book until '
                    || private.london_date_text(p_now + make_interval(days => v_settings.credit_valid_days)) || '.'
               else 'We will take ' || private.gbp(v_settings.renewal_amount)
                    || ' off your next membership renewal (at least £1 is still charged).' end],
    case when v_settings.reward_kind <> 'renewal_discount'
         then jsonb_build_array(jsonb_build_object('label', 'Book a session', 'path', '/schedule'))
         else jsonb_build_array(jsonb_build_object('label', 'Your membership', 'path', '/membership')) end,
    'referral_reward:' || p_referral.id || ':' || p_member_id);
end;
$$;

revoke execute on function private.give_referral_reward(public.referrals, uuid, timestamptz) from public;

-- The referred person's first payment has cleared (paid, not owed back): both get the reward, or
-- the referral is refused when the two turn out to be one person (the same mailbox, or the same
-- saved card). Runs on the database's own status change, never on a client's word.
create function private.payments_reward_referral()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_ref public.referrals;
  v_same text;
begin
  if not private.offer_use_kept(new) or new.member_id is null then
    return null;
  end if;
  select * into v_ref from public.referrals where referred_member_id = new.member_id and status = 'pending' for update;
  if not found then
    return null;
  end if;
  select case
           when private.normalised_email(a.email::text) = private.normalised_email(b.email::text) then 'same_person'
           when exists (select 1 from private.member_cards ca join private.member_cards cb on cb.token = ca.token
                         where ca.member_id = a.id and cb.member_id = b.id) then 'same_card'
         end
    into v_same
    from public.members a, public.members b
   where a.id = v_ref.referred_member_id and b.id = v_ref.referrer_member_id;
  if v_same is not null then
    update public.referrals set status = 'refused', refused_reason = v_same, payment_id = new.id, settled_at = coalesce(new.paid_at, now())
     where id = v_ref.id;
    return null;
  end if;
  update public.referrals set status = 'rewarded', payment_id = new.id, settled_at = coalesce(new.paid_at, now())
   where id = v_ref.id
  returning * into v_ref;
  perform private.give_referral_reward(v_ref, v_ref.referred_member_id, coalesce(new.paid_at, now()));
  perform private.give_referral_reward(v_ref, v_ref.referrer_member_id, coalesce(new.paid_at, now()));
  return null;
end;
$$;

revoke execute on function private.payments_reward_referral() from public;

-- A renewal payment being made takes the member's oldest unused renewal reward off its amount (at
-- least £1 is left to charge). A renewal run that finds the payment made already (the same
-- reference) changes nothing: the insert will do nothing.
create function private.payments_take_renewal_reward()
returns trigger
language plpgsql security definer set search_path = ''
as $$
declare
  v_reward public.referral_rewards;
  v_off numeric;
begin
  if exists (select 1 from public.payments p where p.checkout_reference = new.checkout_reference) then
    return new;
  end if;
  select * into v_reward from public.referral_rewards
   where member_id = new.member_id and kind = 'renewal_discount' and used_at is null
   order by created_at, id
   limit 1
   for update;
  if not found then
    return new;
  end if;
  v_off := least(v_reward.amount, new.amount - 1);
  if v_off <= 0 then
    return new;
  end if;
  update public.referral_rewards set used_payment_id = new.id, used_at = new.created_at where id = v_reward.id;
  new.amount := new.amount - v_off;
  new.discount := coalesce(new.discount, 0) + v_off;
  new.description := new.description || ', referral reward: ' || private.gbp(v_off) || ' off';
  return new;
end;
$$;

revoke execute on function private.payments_take_renewal_reward() from public;

-- Public RPCs (thin wrappers) --------------------------------------------------------------------
create function public.my_offer_price(p_plan_slug text, p_promo_code text default null, p_intro_offer_id uuid default null)
returns public.offer_price
language sql stable security invoker set search_path = ''
as $$ select * from private.my_offer_price(p_plan_slug, p_promo_code, p_intro_offer_id) $$;

revoke execute on function public.my_offer_price(text, text, uuid) from public, anon;

grant execute on function public.my_offer_price(text, text, uuid) to authenticated;

create function public.my_intro_offers()
returns setof public.intro_offer_choice
language sql stable security invoker set search_path = ''
as $$ select * from private.my_intro_offers() $$;

revoke execute on function public.my_intro_offers() from public, anon;

grant execute on function public.my_intro_offers() to authenticated;

create function public.admin_create_promo_code(
  p_code text, p_plan_slugs text[], p_expires_at timestamptz, p_max_uses integer,
  p_percent_off integer default null, p_amount_off numeric default null
)
returns public.promo_codes
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_create_promo_code(p_code, p_percent_off, p_amount_off, p_plan_slugs, p_expires_at, p_max_uses) $$;

revoke execute on function public.admin_create_promo_code(text, text[], timestamptz, integer, integer, numeric) from public, anon;

grant execute on function public.admin_create_promo_code(text, text[], timestamptz, integer, integer, numeric) to authenticated;

create function public.admin_create_intro_offer(
  p_name text, p_plan_slug text, p_price numeric, p_new_within_days integer default null, p_ends_at timestamptz default null
)
returns public.intro_offers
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_create_intro_offer(p_name, p_plan_slug, p_price, p_new_within_days, p_ends_at) $$;

revoke execute on function public.admin_create_intro_offer(text, text, numeric, integer, timestamptz) from public, anon;

grant execute on function public.admin_create_intro_offer(text, text, numeric, integer, timestamptz) to authenticated;

create function public.admin_end_offer(p_promo_code_id uuid default null, p_intro_offer_id uuid default null)
returns void
language sql volatile security invoker set search_path = ''
as $$ select private.admin_end_offer(p_promo_code_id, p_intro_offer_id) $$;

revoke execute on function public.admin_end_offer(uuid, uuid) from public, anon;

grant execute on function public.admin_end_offer(uuid, uuid) to authenticated;

create function public.admin_set_referral_settings(
  p_enabled boolean, p_reward_kind text, p_renewal_amount numeric, p_credit_valid_days integer
)
returns public.referral_settings
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_set_referral_settings(p_enabled, p_reward_kind, p_renewal_amount, p_credit_valid_days) $$;

revoke execute on function public.admin_set_referral_settings(boolean, text, numeric, integer) from public, anon;

grant execute on function public.admin_set_referral_settings(boolean, text, numeric, integer) to authenticated;

create function public.admin_offer_report()
returns setof public.offer_report_row
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_offer_report() $$;

revoke execute on function public.admin_offer_report() from public, anon;

grant execute on function public.admin_offer_report() to authenticated;

create function public.my_referral()
returns public.my_referral
language sql volatile security invoker set search_path = ''
as $$ select * from private.my_referral() $$;

revoke execute on function public.my_referral() from public, anon;

grant execute on function public.my_referral() to authenticated;

create function public.claim_referral(p_code text)
returns public.referrals
language sql volatile security invoker set search_path = ''
as $$ select * from private.claim_referral(p_code) $$;

revoke execute on function public.claim_referral(text) from public, anon;

grant execute on function public.claim_referral(text) to authenticated;

-- Row-level security -------------------------------------------------------------------------------
create policy "Admins read promo codes" on public.promo_codes for select to authenticated using ((select private.is_admin()));

create policy "Members read intro offers" on public.intro_offers for select to authenticated using (true);

create policy "Members read their own offer uses; admins read all"
  on public.offer_uses for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create policy "Members read the referral reward" on public.referral_settings for select to authenticated using (true);

create policy "Members read their own referral code; admins read all"
  on public.referral_codes for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

create policy "Members read their own referrals; admins read all"
  on public.referrals for select to authenticated
  using (referred_member_id = (select private.current_member_id()) or referrer_member_id = (select private.current_member_id())
         or (select private.is_admin()));

create policy "Members read their own referral rewards; admins read all"
  on public.referral_rewards for select to authenticated
  using (member_id = (select private.current_member_id()) or (select private.is_admin()));

-- Audit -------------------------------------------------------------------------------------------
-- Every change an admin makes to the codes, the offers and the referral reward is in the audit
-- trail (25_audit.sql, decision 0045).
create trigger audit_trail
  after insert or update or delete on public.promo_codes
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.intro_offers
  for each row execute function private.audit_change();

create trigger audit_trail
  after insert or update or delete on public.referral_settings
  for each row execute function private.audit_change();

-- Triggers on other domains' tables (each named in its table's file) -----------------------------
create trigger payments_take_renewal_reward
  before insert on public.payments
  for each row when (new.billing_reason = 'renewal')
  execute function private.payments_take_renewal_reward();

create trigger payments_reward_referral
  after update of status on public.payments
  for each row when (new.status = 'paid' and old.status is distinct from 'paid')
  execute function private.payments_reward_referral();
