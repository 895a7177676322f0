-- Come-back emails (issue 28): 1, 7 and 21 days after a free trial or a membership ends, until the
-- person books or buys; members may turn them off (email_preferences.win_back), and their
-- unsubscribe link turns off this list only. Definitions from supabase/schemas/10 and 15.

alter table public.notification_outbox drop constraint notification_outbox_kind_check;

alter table public.notification_outbox add constraint notification_outbox_kind_check
  check (kind in ('booking_confirmed', 'booking_cancelled', 'waitlist_promoted', 'class_reminder', 'contact_message',
                  'renewal_receipt', 'payment_failed', 'membership_ended', 'trial_ending', 'renewal_reminder',
                  'credits_expiring', 'payment_receipt', 'refund_receipt', 'class_moved', 'guest_invited',
                  'guest_cancelled', 'studio_message', 'win_back'));

-- The come-back emails after a trial or membership ends (issue 28): optional, like reminders.
alter table public.email_preferences add column win_back boolean not null default true;

create or replace function private.notification_outbox_prepare()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.kind in ('class_reminder', 'win_back') and new.member_id is not null then
    if exists (select 1 from public.email_preferences p
                where p.member_id = new.member_id
                  and not (case new.kind when 'win_back' then p.win_back else p.class_reminders end)) then
      return null;
    end if;
    insert into public.email_preferences (member_id) values (new.member_id) on conflict (member_id) do nothing;
    select p.unsubscribe_token into new.unsubscribe_token from public.email_preferences p where p.member_id = new.member_id;
  end if;
  return new;
end;
$$;

revoke execute on function private.notification_outbox_prepare() from public;

create function private.unsubscribe_win_back(p_token text)
returns text
language plpgsql security definer set search_path = ''
as $$
declare
  v_email text;
begin
  update public.email_preferences p
     set win_back = false, updated_at = now()
    from public.members m
   where p.unsubscribe_token = p_token and m.id = p.member_id
     and p_token ~ '^[0-9a-f]{64}$'
  returning m.email::text into v_email;
  if v_email is null then
    raise exception 'This unsubscribe link is not valid. Sign in and turn reminder emails off on Edit Profile instead.'
      using errcode = 'P0002', hint = 'invalid_unsubscribe_token';
  end if;
  return v_email;
end;
$$;

revoke execute on function private.unsubscribe_win_back(text) from public;

grant execute on function private.unsubscribe_win_back(text) to service_role;

create function public.unsubscribe_win_back(p_token text)
returns text
language sql volatile security invoker set search_path = ''
as $$ select private.unsubscribe_win_back(p_token) $$;

revoke execute on function public.unsubscribe_win_back(text) from public, anon, authenticated;

grant execute on function public.unsubscribe_win_back(text) to service_role;

create function private.win_back_steps()
returns integer[]
language sql immutable set search_path = ''
as $$ select array[1, 7, 21] $$;

revoke execute on function private.win_back_steps() from public;

create function private.enqueue_win_back_emails(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_row record;
  v_steps integer[] := private.win_back_steps();
  v_standard text := private.gbp((select price from public.plans where slug = 'standard'));
  v_subject text;
  v_lines text[];
  v_count integer := 0;
begin
  for v_row in
    select ms.id, ms.member_id, ms.tier, ms.plan_slug, ms.ended_at, s.step
      from public.memberships ms
      join public.members m on m.id = ms.member_id and not m.is_admin
      cross join lateral (
        select k as step from generate_subscripts(v_steps, 1) k
         where p_now >= ms.ended_at + make_interval(days => v_steps[k])
           and (k = array_length(v_steps, 1) or p_now < ms.ended_at + make_interval(days => v_steps[k + 1]))
           and p_now < ms.ended_at + make_interval(days => v_steps[array_length(v_steps, 1)] + 7)
      ) s
     where ms.ended_at is not null and ms.ended_at <= p_now
       and (ms.tier = 'trial' or ms.status in ('lapsed', 'cancelled'))
       and not exists (select 1 from public.bookings b
                        where b.member_id = ms.member_id and b.payment_status = 'completed' and b.booked_at > ms.ended_at)
       and not exists (select 1 from public.payments p
                        where p.member_id = ms.member_id and p.status = 'paid' and p.paid_at > ms.ended_at)
  loop
    if v_row.tier = 'trial' then
      v_subject := case v_row.step when 1 then 'Thank you for trying the studio'
                                   when 2 then 'Your next class is waiting'
                                   else 'Still thinking about it?' end;
      v_lines := case v_row.step
        when 1 then array['We hope you enjoyed your free class.',
                          'To keep training, Standard gives you 12 classes a month for ' || v_standard
                            || ', or you can pay as you go, class by class.']
        when 2 then array['Breakfast Club runs every weekday morning, and there is a class most days that fits before or after work.',
                          'Have a look at this week''s timetable and book your next one.']
        else array['If anything held you back (the times, the price, what a class is like), reply to this email and tell us.',
                   'We read every message and will help you find what suits you.'] end;
    else
      v_subject := case v_row.step when 1 then 'We miss you already'
                                   when 2 then 'Come back to your classes'
                                   else 'Your place is still here' end;
      v_lines := case v_row.step
        when 1 then array['Your ' || private.plan_name(v_row.plan_slug) || ' membership has ended, and the studio is quieter without you.',
                          'You can choose a plan again at any time from your membership page.']
        when 2 then array['Classes run every weekday: book one from the timetable and pay as you go, or choose a plan again.']
        else array['If something did not work for you, reply and tell us: we read every message.',
                   'Whenever you are ready, your place is still here.'] end;
    end if;
    if private.enqueue_membership_email('win_back', v_row.member_id, v_subject, v_lines,
         jsonb_build_array(jsonb_build_object('label', 'See the timetable', 'path', '/schedule'),
                           jsonb_build_object('label', 'Choose a plan', 'path', '/membership')),
         'win_back:' || v_row.id || ':' || extract(epoch from v_row.ended_at)::bigint || ':' || v_row.step) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_win_back_emails(timestamptz) from public;

grant execute on function private.enqueue_win_back_emails(timestamptz) to service_role;

create function public.enqueue_win_back_emails(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_win_back_emails(p_now) $$;

revoke execute on function public.enqueue_win_back_emails(timestamptz) from public, anon, authenticated;

grant execute on function public.enqueue_win_back_emails(timestamptz) to service_role;
