-- A card can be saved with nothing due (decision 0104): "Add a card" / "Replace card" of an active,
-- renewing plan start a card-saving checkout with no payment behind it; the provider only
-- authorises its amount and gives it back, and the next renewal is charged with the saved card.
-- The imported plan's card request now says the member can add the card at once.
alter table private.card_setups alter column payment_id drop not null;

create or replace function private.start_card_update(p_member_id uuid, p_now timestamptz)
returns public.card_setup_checkout
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_payment public.payments;
  v_member public.members;
  v_setup private.card_setups;
begin
  select * into v_m from public.memberships where member_id = p_member_id and status = 'past_due' and ended_at is null;
  if found then
    select * into v_payment from public.payments
     where membership_id = v_m.id and billing_reason = 'renewal' and period_number = v_m.period_number + 1
       and status <> 'paid';
    if v_payment.id is not null then
      return private.new_card_setup(v_payment, p_now);
    end if;
  end if;
  select * into v_m from public.memberships
   where member_id = p_member_id and status = 'active' and renews and ended_at is null;
  if not found then
    raise exception 'Nothing is due on your membership.' using errcode = 'P0001', hint = 'nothing_due';
  end if;
  select * into v_member from public.members where id = p_member_id;
  insert into private.card_setups (member_id, payment_id, checkout_reference, amount, created_at)
  values (p_member_id, null, 'setup-' || gen_random_uuid()::text, v_m.price, p_now)
  returning * into v_setup;
  return (null, v_setup.checkout_reference, v_setup.amount, 'GBP',
          'Card for your ' || private.plan_name(v_m.plan_slug) || ' membership (nothing charged now)',
          private.provider_customer_id(p_member_id), v_member.email::text, v_member.name)::public.card_setup_checkout;
end;
$$;

revoke execute on function private.start_card_update(uuid, timestamptz) from public;

grant execute on function private.start_card_update(uuid, timestamptz) to service_role;

create or replace function private.enqueue_import_card_requests(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select ms.* from public.memberships ms
      join public.members m on m.id = ms.member_id
     where ms.status = 'active' and ms.renews and ms.ended_at is null
       and ms.period_number = ms.anchor_period
       and ms.period_end > p_now and ms.period_end <= p_now + private.import_card_request_ahead()
       and not exists (select 1 from private.member_cards c where c.member_id = ms.member_id)
       and not exists (select 1 from public.payments p
                        where p.membership_id = ms.id and p.status = 'paid' and p.period_number >= ms.anchor_period)
       and (m.user_id is not null
            or exists (select 1 from public.imported_members i where i.member_id = m.id and i.invited_at is not null))
  loop
    if private.enqueue_membership_email('import_card_request', v_m.member_id,
         'Your ' || private.plan_name(v_m.plan_slug) || ' membership: a card is needed on '
           || private.london_date_text(v_m.period_end),
         array['Your ' || private.plan_name(v_m.plan_slug) || ' membership carried over from your previous studio is paid up to '
                 || private.london_date_text(v_m.period_end) || '.',
               'That day the next payment of ' || private.gbp(v_m.price) || ' is due here, and there is no card saved for it yet. '
                 || 'Add one now with "Add a card" on your membership page: nothing is charged when you add it, and the payment '
                 || 'is taken with it on that day.'],
         jsonb_build_array(jsonb_build_object('label', 'Add a card', 'path', '/membership')),
         'import_card_request:' || v_m.id || ':' || (v_m.period_number + 1)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_import_card_requests(timestamptz) from public;

grant execute on function private.enqueue_import_card_requests(timestamptz) to service_role;

create function private.card_setup_state(p_setup_reference text, p_member_id uuid)
returns table (status text, provider_checkout_id text)
language sql stable security definer set search_path = ''
as $$
  select s.status::text, s.provider_checkout_id from private.card_setups s
   where s.checkout_reference = p_setup_reference and s.member_id = p_member_id and s.payment_id is null
$$;

revoke execute on function private.card_setup_state(text, uuid) from public;

grant execute on function private.card_setup_state(text, uuid) to service_role;

create function public.card_setup_state(p_setup_reference text, p_member_id uuid)
returns table (status text, provider_checkout_id text)
language sql stable security invoker set search_path = ''
as $$ select * from private.card_setup_state(p_setup_reference, p_member_id) $$;

revoke execute on function public.card_setup_state(text, uuid) from public, anon, authenticated;

grant execute on function public.card_setup_state(text, uuid) to service_role;
