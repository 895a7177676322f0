-- The data export (decision 0047) gains the member's balance ledger and the gift vouchers they
-- bought (without the code, the recipient's to spend) or redeemed (decisions 0100, 0101).
alter type public.member_data_export
  add attribute balance jsonb,
  add attribute gift_vouchers jsonb;

create or replace function private.my_data_export(p_now timestamptz)
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
    'entries', (select coalesce(jsonb_agg(to_jsonb(be) - 'member_id' order by be.created_at), '[]')
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
