-- Members' data rights (decision 0047; docs/data-contract.md, "Personal data"):
-- a member downloads what the studio holds about them (my_data_export), closes their own account
-- (close_my_account: their future bookings cancelled by the normal rules, then the same removal an
-- admin's delete runs, private.remove_member in 08_refunds.sql), and a retention job removes what
-- is past its period (apply_data_retention), with periods the studio sets.

-- What a member downloads: one jsonb per kind of data, as stored (column names as in the schema).
create type public.member_data_export as (
  exported_at timestamptz,
  profile jsonb,
  membership jsonb,
  bookings jsonb,
  waitlist jsonb,
  payments jsonb,
  credits jsonb,
  documents_signed jsonb,
  health_answers jsonb,
  preferences jsonb,
  family jsonb,
  guest_places jsonb,
  -- Decision 0047's money parts the first export lacked: the member's referral code, the referrals
  -- they made and received (never the other person's details) and their rewards; the offers that
  -- priced their payments; how they pay (billing method, Direct Debit mandates and collections: the
  -- product stores no bank details); late cancellations and no-shows with their fees.
  referrals jsonb,
  offer_uses jsonb,
  billing jsonb,
  attendance jsonb,
  balance jsonb,
  gift_vouchers jsonb
);

create function private.my_data_export(p_now timestamptz)
returns public.member_data_export
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  r public.member_data_export;
begin
  r.exported_at := p_now;
  r.profile := to_jsonb(v_member) - 'user_id';
  r.membership := (select to_jsonb(ms) from public.memberships ms where ms.member_id = v_member.id);
  r.bookings := (select coalesce(jsonb_agg(to_jsonb(b) || jsonb_build_object('class_name', c.name, 'class_start_time', c.start_time,
                                                                                'trainer', c.trainer)
                                           order by c.start_time), '[]')
                   from public.bookings b join public.classes c on c.id = b.class_id where b.member_id = v_member.id);
  r.waitlist := (select coalesce(jsonb_agg(to_jsonb(w) || jsonb_build_object('class_name', c.name, 'class_start_time', c.start_time)
                                           order by c.start_time), '[]')
                   from public.class_waitlist w join public.classes c on c.id = w.class_id where w.member_id = v_member.id);
  -- A family payment's places (who, what covered each, its price) with the payment they are on.
  r.payments := (select coalesce(jsonb_agg(to_jsonb(p) - 'provider_checkout_id' || jsonb_build_object(
                   'family_lines', (select coalesce(jsonb_agg(to_jsonb(l) - 'payment_id' - 'member_id' order by l.position), '[]')
                                      from public.family_payment_lines l where l.payment_id = p.id))
                 order by p.created_at), '[]')
                   from public.payments p where p.member_id = v_member.id);
  r.credits := (select coalesce(jsonb_agg(to_jsonb(cr) order by cr.created_at), '[]')
                  from public.credits cr where cr.member_id = v_member.id);
  r.documents_signed := (select coalesce(jsonb_agg(jsonb_build_object('document', d.title, 'kind', d.kind, 'version', d.version,
                                                                       'accepted_at', a.accepted_at) order by a.accepted_at), '[]')
                           from public.document_acceptances a join public.document_versions d on d.id = a.document_id
                          where a.member_id = v_member.id);
  r.health_answers := (select to_jsonb(h) from public.health_answers h where h.member_id = v_member.id);
  r.preferences := jsonb_build_object(
    'notifications', (select coalesce(jsonb_agg(to_jsonb(np) order by np.channel, np.topic), '[]')
                        from public.notification_preferences np where np.member_id = v_member.id),
    'push', (select to_jsonb(pp) from public.push_preferences pp where pp.member_id = v_member.id),
    'sms', (select to_jsonb(sn) from public.sms_numbers sn where sn.member_id = v_member.id),
    'marketing_consents', (select coalesce(jsonb_agg(to_jsonb(mc) order by mc.recorded_at), '[]')
                             from public.marketing_consents mc where mc.member_id = v_member.id));
  r.family := (select coalesce(jsonb_agg(to_jsonb(d) || jsonb_build_object(
                 'documents_signed', (select coalesce(jsonb_agg(to_jsonb(da) order by da.accepted_at), '[]')
                                        from public.dependant_acceptances da where da.dependant_id = d.id),
                 'health_answers', (select to_jsonb(dh) from public.dependant_health_answers dh where dh.dependant_id = d.id))
               order by d.created_at), '[]')
                 from public.dependants d where d.parent_member_id = v_member.id);
  r.guest_places := (select coalesce(jsonb_agg(to_jsonb(g) - 'cancel_token' || jsonb_build_object('class_name', c.name,
                                                                                                   'class_start_time', c.start_time)
                                               order by c.start_time), '[]')
                       from public.guest_places g join public.classes c on c.id = g.class_id where g.host_member_id = v_member.id);
  -- The other side of a referral is another member: only that there was one, its state and dates.
  r.referrals := jsonb_build_object(
    'code', (select rc.code from public.referral_codes rc where rc.member_id = v_member.id),
    'made', (select coalesce(jsonb_agg(jsonb_build_object('status', rf.status, 'refused_reason', rf.refused_reason,
                                                          'created_at', rf.created_at, 'settled_at', rf.settled_at)
                                       order by rf.created_at), '[]')
               from public.referrals rf where rf.referrer_member_id = v_member.id),
    'received', (select jsonb_build_object('status', rf.status, 'refused_reason', rf.refused_reason,
                                           'created_at', rf.created_at, 'settled_at', rf.settled_at)
                   from public.referrals rf where rf.referred_member_id = v_member.id),
    'rewards', (select coalesce(jsonb_agg(jsonb_build_object('kind', rw.kind, 'amount', rw.amount, 'used_at', rw.used_at,
                                                             'created_at', rw.created_at) order by rw.created_at), '[]')
                  from public.referral_rewards rw where rw.member_id = v_member.id));
  r.offer_uses := (select coalesce(jsonb_agg(jsonb_build_object(
                     'payment_id', u.payment_id, 'offer', coalesce(pc.code, io.name), 'kind',
                     case when u.promo_code_id is not null then 'promo_code' else 'intro_offer' end,
                     'list_price', u.list_price, 'discount', u.discount, 'created_at', u.created_at) order by u.created_at), '[]')
                     from public.offer_uses u
                     left join public.promo_codes pc on pc.id = u.promo_code_id
                     left join public.intro_offers io on io.id = u.intro_offer_id
                    where u.member_id = v_member.id);
  r.billing := jsonb_build_object(
    'method', coalesce((select bm.method from public.billing_methods bm where bm.member_id = v_member.id), 'card'),
    'direct_debit_mandates', (select coalesce(jsonb_agg(jsonb_build_object(
                                'mandate', dm.provider_mandate_id, 'status', dm.status, 'created_at', dm.created_at,
                                'ended_at', dm.ended_at) order by dm.created_at), '[]')
                                from private.direct_debit_mandates dm where dm.member_id = v_member.id),
    'direct_debit_collections', (select coalesce(jsonb_agg(jsonb_build_object(
                                   'payment_id', dc.payment_id, 'attempt', dc.attempt, 'amount', dc.amount,
                                   'charge_date', dc.charge_date, 'status', dc.status, 'failure_cause', dc.failure_cause)
                                   order by dc.created_at), '[]')
                                   from private.direct_debit_collections dc join public.payments p on p.id = dc.payment_id
                                  where p.member_id = v_member.id));
  -- Who waived a fee is the studio's (a staff member): the reason is the member's to see.
  r.attendance := (select coalesce(jsonb_agg(to_jsonb(ai) - 'waived_by' - 'member_id' - 'policy_id' order by ai.occurred_at), '[]')
                     from public.attendance_incidents ai where ai.member_id = v_member.id);
  -- The balance is its ledger (decision 0101): every entry, and their sum.
  r.balance := jsonb_build_object(
    'total', private.member_balance(v_member.id),
    'entries', (select coalesce(jsonb_agg(to_jsonb(be) - 'member_id' - 'seq' order by be.created_at, be.seq), '[]')
                  from public.balance_entries be where be.member_id = v_member.id));
  -- Vouchers they bought (never the code: it is the recipient's to spend) and those they redeemed.
  r.gift_vouchers := jsonb_build_object(
    'bought', (select coalesce(jsonb_agg(to_jsonb(gv) - 'code' - 'redeemed_by' - 'buyer_member_id' order by gv.created_at), '[]')
                 from public.gift_vouchers gv where gv.buyer_member_id = v_member.id),
    'redeemed', (select coalesce(jsonb_agg(jsonb_build_object('amount', gv.amount, 'plan_slug', gv.plan_slug,
                                                              'from', gv.buyer_name, 'message', gv.message,
                                                              'redeemed_at', gv.redeemed_at) order by gv.redeemed_at), '[]')
                   from public.gift_vouchers gv where gv.redeemed_by = v_member.id),
    'wrong_codes_tried', (select count(*) from private.gift_voucher_tries t where t.member_id = v_member.id));
  return r;
end;
$$;

revoke execute on function private.my_data_export(timestamptz) from public;

grant execute on function private.my_data_export(timestamptz) to authenticated, service_role;

-- Closing one's own account ---------------------------------------------------------------------
-- The member's future bookings are cancelled as the member would cancel them (cancel_booking's
-- rules: refunds and credits as for any cancellation), their waitlist places go, then the removal
-- an admin's delete runs (private.remove_member). Admins' and coaches' accounts are closed by an
-- admin (an account with staff rights is not closed from the profile). Returns the login to
-- remove (the delete-member function removes it).
create function private.close_my_account(p_now timestamptz)
returns public.member_removal
language plpgsql security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
  v_booking record;
begin
  if v_member.is_admin or exists (select 1 from public.trainer_accounts ta where ta.member_id = v_member.id) then
    raise exception 'An admin or coach account is closed by another admin' using errcode = '42501', hint = 'staff_account';
  end if;
  for v_booking in
    select b.id from public.bookings b join public.classes c on c.id = b.class_id
     where b.member_id = v_member.id and c.start_time > p_now
     order by c.start_time
  loop
    perform private.cancel_booking(v_booking.id);
  end loop;
  delete from public.class_waitlist where member_id = v_member.id;
  return private.remove_member(v_member.id);
end;
$$;

revoke execute on function private.close_my_account(timestamptz) from public;

grant execute on function private.close_my_account(timestamptz) to authenticated, service_role;

-- Retention -------------------------------------------------------------------------------------
-- How long the studio keeps what is kept only for a while, in days (one row; an admin changes it
-- with admin_set_data_retention). The defaults: a guest's waiver signature for 3 years (the UK
-- limitation period for a personal-injury claim), a Contact Us message for 1 year.
create table private.data_retention_settings (
  id boolean primary key default true check (id),
  guest_signature_days integer not null default 1095 check (guest_signature_days between 30 and 3650),
  contact_message_days integer not null default 365 check (contact_message_days between 30 and 3650),
  updated_at timestamptz not null default now()
);

revoke all on private.data_retention_settings from public, anon, authenticated;

-- An admin's change of a period is in the activity log (25_audit.sql's audit_change).
create trigger audit_trail
  after insert or update or delete on private.data_retention_settings
  for each row execute function private.audit_change();

insert into private.data_retention_settings default values;

create type public.data_retention as (
  guest_signature_days integer,
  contact_message_days integer
);

-- The periods as they are now, for Admin > Settings' retention section (decision 0097). Admins only.
create function private.admin_data_retention()
returns public.data_retention
language plpgsql stable security definer set search_path = ''
as $$
declare
  r public.data_retention;
begin
  perform private.require_admin();
  select s.guest_signature_days, s.contact_message_days into r.guest_signature_days, r.contact_message_days
    from private.data_retention_settings s;
  return r;
end;
$$;

revoke execute on function private.admin_data_retention() from public;

grant execute on function private.admin_data_retention() to authenticated, service_role;

create function private.admin_set_data_retention(p_guest_signature_days integer, p_contact_message_days integer)
returns public.data_retention
language plpgsql security definer set search_path = ''
as $$
declare
  r public.data_retention;
begin
  perform private.require_admin();
  if p_guest_signature_days is null or p_guest_signature_days not between 30 and 3650
     or p_contact_message_days is null or p_contact_message_days not between 30 and 3650 then
    raise exception 'Each period must be between 30 and 3650 days' using errcode = '22023', hint = 'invalid_retention';
  end if;
  update private.data_retention_settings
     set guest_signature_days = p_guest_signature_days, contact_message_days = p_contact_message_days, updated_at = now()
   where id
  returning guest_signature_days, contact_message_days into r.guest_signature_days, r.contact_message_days;
  return r;
end;
$$;

revoke execute on function private.admin_set_data_retention(integer, integer) from public;

grant execute on function private.admin_set_data_retention(integer, integer) to authenticated, service_role;

create type public.retention_result as (
  guest_signatures integer,
  contact_messages integer,
  audit_events integer
);

-- Removes, as of p_now, guest waiver signatures and Contact Us messages older than the studio's
-- periods, and audit events past theirs. Idempotent: a second run at the same time removes nothing.
-- (Health answers go with the account: closing or deleting it removes them at once.)
create function private.apply_data_retention(p_now timestamptz)
returns public.retention_result
language plpgsql security definer set search_path = ''
as $$
declare
  v_settings private.data_retention_settings;
  r public.retention_result;
begin
  select * into v_settings from private.data_retention_settings;
  delete from public.guest_waiver_signatures
   where signed_at < p_now - make_interval(days => v_settings.guest_signature_days);
  get diagnostics r.guest_signatures = row_count;
  delete from public.contact_messages
   where created_at < p_now - make_interval(days => v_settings.contact_message_days);
  get diagnostics r.contact_messages = row_count;
  r.audit_events := private.purge_audit_events(p_now);
  return r;
end;
$$;

revoke execute on function private.apply_data_retention(timestamptz) from public;

grant execute on function private.apply_data_retention(timestamptz) to service_role;

-- API ---------------------------------------------------------------------------------------------
create function public.my_data_export()
returns public.member_data_export
language sql stable security invoker set search_path = ''
as $$ select * from private.my_data_export(now()) $$;

revoke execute on function public.my_data_export() from public, anon;

grant execute on function public.my_data_export() to authenticated, service_role;

create function public.close_my_account()
returns public.member_removal
language sql volatile security invoker set search_path = ''
as $$ select * from private.close_my_account(now()) $$;

revoke execute on function public.close_my_account() from public, anon;

grant execute on function public.close_my_account() to authenticated, service_role;

create function public.admin_data_retention()
returns public.data_retention
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_data_retention() $$;

revoke execute on function public.admin_data_retention() from public, anon;

grant execute on function public.admin_data_retention() to authenticated, service_role;

create function public.admin_set_data_retention(p_guest_signature_days integer, p_contact_message_days integer)
returns public.data_retention
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_set_data_retention(p_guest_signature_days, p_contact_message_days) $$;

revoke execute on function public.admin_set_data_retention(integer, integer) from public, anon;

grant execute on function public.admin_set_data_retention(integer, integer) to authenticated, service_role;

create function public.apply_data_retention(p_now timestamptz)
returns public.retention_result
language sql volatile security invoker set search_path = ''
as $$ select * from private.apply_data_retention(p_now) $$;

revoke execute on function public.apply_data_retention(timestamptz) from public, anon, authenticated;

grant execute on function public.apply_data_retention(timestamptz) to service_role;
