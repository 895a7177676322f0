-- A guest cancelling with their own link (cancel_guest_place) left the host unaware: the host now
-- gets an email (host_guest_cancelled) saying who cancelled, and whether their guest pass or the
-- price they paid came back. The definitions are those of supabase/schemas/10_notifications.sql
-- (the outbox's kinds) and supabase/schemas/14_guests.sql.

alter table public.notification_outbox drop constraint notification_outbox_kind_check;

alter table public.notification_outbox add constraint notification_outbox_kind_check
  check (kind in ('booking_confirmed', 'booking_cancelled', 'waitlist_promoted', 'class_reminder', 'contact_message',
                  'renewal_receipt', 'payment_failed', 'membership_ended', 'trial_ending', 'renewal_reminder',
                  'credits_expiring', 'payment_receipt', 'refund_receipt', 'class_moved', 'guest_invited',
                  'guest_cancelled', 'studio_message', 'win_back', 'host_guest_cancelled'));

create or replace function private.enqueue_guest_email(p_kind text, p_place public.guest_places)
returns uuid
language plpgsql security definer set search_path = ''
as $$
declare
  v_class public.classes;
  v_host_member public.members;
  v_host text;
  v_when text;
  v_to text := p_place.guest_email;
  v_member_id uuid;
  v_subject text;
  v_body text;
  v_links jsonb := '[]'::jsonb;
  v_late text;
  v_paid numeric;
  v_refund numeric;
  v_id uuid;
begin
  select * into v_class from public.classes where id = p_place.class_id;
  if not found then
    return null;
  end if;
  select * into v_host_member from public.members m where m.id = p_place.host_member_id;
  v_host := coalesce(nullif(btrim(v_host_member.name), ''), 'A member');
  v_when := private.london_time_text(v_class.start_time);
  case p_kind
    when 'guest_invited' then
      v_subject := 'You are booked on ' || v_class.name || ' as ' || v_host || '''s guest, ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        v_host || ' has booked you a place on ' || v_class.name || ' with ' || v_class.trainer || ' as their guest.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.studio_address(),
        'Please arrive 10 minutes early. Cannot come? Cancel with the link below so someone else can have the place.');
      v_links := jsonb_build_array(jsonb_build_object('label', 'Cancel my guest place',
                                                      'path', '/guest/cancel?token=' || p_place.cancel_token));
      -- The studio's waiver, when it has one (17_consent.sql): the guest signs it from this link
      -- before the class (the same token), unless they already signed this version as a guest.
      if not private.guest_waiver_signed(p_place.guest_email) then
        v_body := v_body || E'\n\n' || 'Before the class, please read and sign the studio''s waiver with the link below: '
          || 'you cannot take part until you have signed it.';
        v_links := jsonb_build_array(jsonb_build_object('label', 'Sign the waiver', 'path', '/guest/waiver?token=' || p_place.cancel_token))
          || v_links;
      end if;
    when 'guest_cancelled' then
      v_subject := 'Guest place cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || btrim(p_place.guest_name) || ',',
        'Your guest place on ' || v_class.name || ' (' || v_when || ', London time) with ' || v_host || ' has been cancelled.');
    when 'host_guest_cancelled' then
      if v_host_member.id is null then
        return null;
      end if;
      v_to := v_host_member.email::text;
      v_member_id := v_host_member.id;
      v_late := 'They cancelled less than ' || private.interval_text(v_class.late_cancel_window) || ' before the start, so ';
      select p.amount into v_paid from public.payments p where p.id = p_place.payment_id;
      select sum(ro.amount) into v_refund from public.refunds_owed ro
       where ro.payment_id = p_place.payment_id and ro.refunded_at is null;
      v_subject := 'Your guest ' || btrim(p_place.guest_name) || ' cancelled: ' || v_class.name || ', ' || v_when;
      v_body := concat_ws(E'\n\n', 'Hi ' || coalesce(nullif(btrim(v_host_member.name), ''), 'there') || ',',
        btrim(p_place.guest_name) || ' has cancelled their guest place on ' || v_class.name || ' with ' || v_class.trainer
          || ' with the link in their email. Your own booking is unchanged.',
        'When: ' || v_when || ' (London time)' || E'\n' || 'Where: ' || private.studio_address(),
        case
          when p_place.credit_id is null then null
          when exists (select 1 from public.credits cr where cr.id = p_place.credit_id and cr.used_at is null)
            then 'Your guest pass is back: you can bring someone else.'
          else v_late || 'the guest pass stays used.'
        end,
        case
          when v_paid is null then null
          when v_refund > 0
            then 'The ' || private.gbp(v_refund) || ' you paid for their place will be refunded to your card; you will get a receipt when it is.'
          else v_late || 'the ' || private.gbp(v_paid) || ' you paid for their place is not refunded.'
        end);
      v_links := jsonb_build_array(jsonb_build_object('label', 'Manage or cancel your booking', 'path', '/mybookings'));
    else
      raise exception 'Unknown email kind %', p_kind using errcode = '22023';
  end case;
  insert into public.notification_outbox (kind, to_email, member_id, class_id, subject, body_text, links, dedupe_key)
  values (p_kind, v_to, v_member_id, v_class.id, v_subject, v_body, v_links, p_kind || ':' || p_place.id)
  on conflict (dedupe_key) do nothing
  returning id into v_id;
  return v_id;
end;
$$;

create or replace function private.cancel_guest_place(p_token text)
returns public.guest_place_view
language plpgsql security definer set search_path = ''
as $$
declare
  v_place public.guest_places;
  v_view public.guest_place_view;
begin
  select * into v_place from public.guest_places where cancel_token = p_token;
  if v_place.id is null then
    raise exception 'This guest place has already been cancelled, or the link is not complete'
      using errcode = 'P0002', hint = 'guest_not_found';
  end if;
  perform 1 from public.classes where id = v_place.class_id for update;
  v_view := private.guest_place_view(v_place, true);
  if v_view.start_time <= now() then
    raise exception 'This class has already started' using errcode = 'P0001', hint = 'class_started';
  end if;
  delete from public.guest_places where id = v_place.id;
  -- The host is told (the guest is, by the delete's trigger), after the delete decided what came back.
  perform private.enqueue_guest_email('host_guest_cancelled', v_place);
  return v_view;
end;
$$;
