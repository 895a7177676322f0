-- The member is told of a late cancellation or no-show recorded under the attendance policy: what
-- happened, the fee, the strike (decision 0080). A new type of the one notification pipeline
-- (decision 0040).
insert into public.notification_types (type, category, label) values
  ('attendance_incident', 'service', 'Late cancellation and no-show fees');

create or replace function private.record_attendance_incident(
  p_member_id uuid, p_booking_id uuid, p_kind text, p_class public.classes, p_booked_at timestamptz, p_occurred_at timestamptz,
  p_now timestamptz
)
returns public.attendance_incidents
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_policy public.attendance_policies := private.attendance_policy_at(p_booked_at);
  v_fee numeric(10, 2);
  v_incident public.attendance_incidents;
  v_payment uuid;
  v_strikes integer;
begin
  if v_policy.id is null or not private.attendance_policy_on(v_policy) then
    return null;
  end if;
  v_fee := case p_kind when 'late_cancel' then v_policy.late_cancel_fee else v_policy.no_show_fee end;
  -- Neither a fee nor a strike (only the other kind has a fee): nothing follows, nothing is recorded.
  if v_fee is null and v_policy.strike_limit is null then
    return null;
  end if;
  insert into public.attendance_incidents (member_id, booking_id, kind, class_id, class_name, class_start_time,
                                           occurred_at, policy_id, fee, created_at)
  values (p_member_id, p_booking_id, p_kind, p_class.id, p_class.name, p_class.start_time, p_occurred_at, v_policy.id,
          v_fee, p_now)
  on conflict (booking_id, kind) do nothing
  returning * into v_incident;
  if v_incident.id is null then
    return v_incident;
  end if;
  if v_fee is not null then
    insert into public.payments (member_id, kind, class_id, amount, description, checkout_reference, billing_reason, created_at)
    values (p_member_id, 'class', p_class.id, v_fee,
            case p_kind when 'late_cancel' then 'Late cancellation fee: ' else 'No-show fee: ' end
              || p_class.name || ', ' || private.london_time_text(p_class.start_time),
            'fee-' || v_incident.id::text, 'attendance_fee', p_now)
    returning id into v_payment;
    update public.attendance_incidents set payment_id = v_payment where id = v_incident.id returning * into v_incident;
  end if;
  -- The member is told in the same transaction: what happened, the fee, the strike (decision 0080).
  select count(*)::int into v_strikes from public.attendance_incidents i
   where i.member_id = p_member_id and i.waived_at is null
     and i.occurred_at > p_occurred_at - interval '30 days' and i.occurred_at <= p_occurred_at;
  perform private.enqueue_membership_email('attendance_incident', p_member_id,
    case when v_fee is not null then case p_kind when 'late_cancel' then 'Late cancellation fee: ' else 'No-show fee: ' end
         else case p_kind when 'late_cancel' then 'Late cancellation: ' else 'Missed class: ' end end
      || p_class.name || ', ' || private.london_time_text(p_class.start_time),
    array_remove(array[
      case p_kind when 'late_cancel' then 'You cancelled ' || p_class.name || ' (' || private.london_time_text(p_class.start_time)
                                          || ') inside its free cancellation time.'
                  else 'We missed you at ' || p_class.name || ' (' || private.london_time_text(p_class.start_time) || ').' end,
      case when v_fee is not null then 'Under the studio''s attendance policy a ' || private.gbp(v_fee)
             || case p_kind when 'late_cancel' then ' late cancellation' else ' no-show' end
             || ' fee applies: we will charge it to your saved card, or record it as owed if we cannot.' end,
      case when v_policy.strike_limit is not null then 'It counts as a strike: ' || v_policy.strike_limit
             || ' late cancellations or no-shows within 30 days stop you booking for ' || v_policy.block_days
             || ' days. You have ' || v_strikes || ' within 30 days.' end,
      'If something went wrong, reply to this email: the studio can waive it.'], null),
    jsonb_build_array(jsonb_build_object('label', 'My Bookings', 'path', '/mybookings')),
    'attendance_incident:' || v_incident.id);
  return v_incident;
end;
$$;

revoke execute on function private.record_attendance_incident(uuid, uuid, text, public.classes, timestamptz, timestamptz, timestamptz) from public;
