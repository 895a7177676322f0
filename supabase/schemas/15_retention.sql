-- Keeping members: who the studio should contact and why, and a record of each contact.
--
-- members_to_contact(p_now) lists, as of p_now: free trials that ended without a plan, memberships
-- that lapsed or were cancelled in the last 60 days, memberships past due, members on a plan whose
-- attendance dropped (booked at most half as often in the last 4 weeks as in the 8 before, with at
-- least 4 then), and members whose sessions or passes expire within a week. Each row says why and
-- since when, with the last time someone contacted them about it. An admin emails a member through
-- the outbox (admin_email_member) or notes a call (admin_record_contact); both are remembered.

-- Why the studio may contact a member (members_to_contact's reasons), in one list.
create function private.contact_reasons()
returns text[]
language sql immutable set search_path = ''
as $$
  select array['trial_ended', 'free_class_taken', 'free_class_missed', 'membership_lapsed', 'membership_cancelled',
               'past_due', 'attendance_dropped', 'credits_expiring']
$$;

revoke execute on function private.contact_reasons() from public;

create table public.member_contacts (
  id uuid primary key default gen_random_uuid(),
  member_id uuid not null references public.members (id) on delete cascade,
  reason text not null
    constraint member_contacts_reason_check
    check (reason = any (private.contact_reasons())),
  contacted_at timestamptz not null default now(),
  contacted_by uuid references public.members (id) on delete set null,
  -- How: an email sent from the portal (its subject), or the admin's own note of a call or chat.
  channel text not null check (channel in ('email', 'note')),
  note text not null check (char_length(btrim(note)) between 1 and 1000)
);

comment on table public.member_contacts is
  'When the studio contacted a member on its contact list, about what, by whom, and how.';

create index member_contacts_member_reason_idx on public.member_contacts (member_id, reason, contacted_at desc);

create index member_contacts_contacted_by_idx on public.member_contacts (contacted_by);

alter table public.member_contacts enable row level security;

revoke all on public.member_contacts from public, anon, authenticated;

grant select on public.member_contacts to authenticated;

grant all on public.member_contacts to service_role;

-- The free class a trial member booked (their 'trial' booking), while they still have it: what
-- the contact list and the come-back emails say follows what the person actually did (booked
-- and came, booked and missed it, never booked), and neither speaks before the class is over.
create function private.free_class_of(p_member_id uuid)
returns table (class_name text, starts_at timestamptz, ends_at timestamptz, attendance public.attendance_status)
language sql stable set search_path = ''
as $$
  select c.name, c.start_time, c.start_time + make_interval(mins => c.duration), b.attendance
    from public.bookings b
    join public.classes c on c.id = b.class_id
   where b.member_id = p_member_id and b.type = 'trial'
   order by c.start_time
   limit 1
$$;

revoke execute on function private.free_class_of(uuid) from public;

-- How far back an ended trial or membership stays on the list.
create function private.contact_window()
returns interval
language sql immutable set search_path = ''
as $$ select interval '60 days' $$;

revoke execute on function private.contact_window() from public;

create type public.member_to_contact as (
  member_id uuid,
  name text,
  email text,
  reason text,
  -- Since when the reason holds (the trial's or membership's end, the due date, the start of the
  -- 4 quiet weeks, the first expiry).
  since timestamptz,
  -- The facts behind it, in words: 'Standard, lapsed after failed payments', '1 booking in the last
  -- 4 weeks, 10 in the 8 before', '2 guest passes expire 3 Dec'.
  detail text,
  last_contacted_at timestamptz,
  last_contacted_by text,
  last_note text
);

create function private.members_to_contact(p_now timestamptz)
returns setof public.member_to_contact
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_admin();
  return query
  with reasons as (
    -- Free trials that ended without a plan (the membership row is replaced when they buy one):
    -- once their free class is over (came or missed it), or when the trial ran out unused.
    select ms.member_id,
           case when fc.ends_at is null then 'trial_ended'
                when fc.attendance = 'no_show' then 'free_class_missed'
                else 'free_class_taken' end as reason,
           coalesce(fc.ends_at, ms.ended_at) as since,
           case when fc.ends_at is null then 'Free trial ended without a class booked'
                else case when fc.attendance = 'no_show' then 'Missed their free class: ' else 'Free class: ' end
                       || fc.class_name || ', ' || private.london_date_text(fc.starts_at) end as detail
      from public.memberships ms
      left join lateral private.free_class_of(ms.member_id) fc on true
     where ms.tier = 'trial' and ms.ended_at is not null
       and coalesce(fc.ends_at, ms.ended_at) > p_now - private.contact_window()
       and coalesce(fc.ends_at, ms.ended_at) <= p_now
    union all
    select ms.member_id,
           case ms.status when 'lapsed' then 'membership_lapsed' else 'membership_cancelled' end,
           ms.ended_at,
           private.plan_name(ms.plan_slug) || case ms.status when 'lapsed' then ', ended after failed payments' else ', cancelled' end
      from public.memberships ms
     where ms.tier <> 'trial' and ms.status in ('lapsed', 'cancelled')
       and ms.ended_at > p_now - private.contact_window() and ms.ended_at <= p_now
    union all
    select ms.member_id, 'past_due', ms.period_end,
           private.plan_name(ms.plan_slug) || ': ' || private.gbp(ms.price) || ' renewal unpaid'
             || coalesce(', next try ' || private.london_date_text(ms.next_retry_at), '')
      from public.memberships ms
     where ms.status = 'past_due' and ms.ended_at is null
    union all
    select a.member_id, 'attendance_dropped', p_now - interval '28 days',
           a.recent || case a.recent when 1 then ' booking' else ' bookings' end || ' in the last 4 weeks, '
             || a.earlier || ' in the 8 before'
      from (
        select b.member_id,
               count(*) filter (where c.start_time > p_now - interval '28 days')::int as recent,
               count(*) filter (where c.start_time <= p_now - interval '28 days')::int as earlier
          from public.bookings b
          join public.classes c on c.id = b.class_id
          join public.memberships ms on ms.member_id = b.member_id and ms.ended_at is null and ms.status in ('active', 'past_due')
         where b.payment_status = 'completed'
           and c.start_time > p_now - interval '84 days' and c.start_time <= p_now
         group by b.member_id
      ) a
     where a.earlier >= 4 and a.recent * 4 <= a.earlier
    union all
    select n.member_id, 'credits_expiring', min(n.first_expiry),
           string_agg(n.words, ', ' order by n.kind) || ': the first expires ' || private.london_date_text(min(n.first_expiry))
      from (
        select cr.member_id, cr.kind, min(cr.expires_at) as first_expiry,
               count(*) || case cr.kind when 'guest_pass' then ' guest pass' else ' personal-training session' end
                 || case when count(*) > 1 then case cr.kind when 'guest_pass' then 'es' else 's' end else '' end as words
          from public.credits cr
         where private.credit_usable(cr, p_now) and cr.expires_at <= p_now + private.credit_expiry_notice()
         group by cr.member_id, cr.kind
      ) n
     group by n.member_id
  )
  select m.id, m.name, m.email::text, r.reason, r.since, r.detail,
         lc.contacted_at, coalesce(by_m.name, by_m.email::text), lc.note
    from reasons r
    join public.members m on m.id = r.member_id and not m.is_admin
    left join lateral (
      select mc.* from public.member_contacts mc
       where mc.member_id = r.member_id and mc.reason = r.reason and mc.contacted_at >= r.since - interval '1 day'
       order by mc.contacted_at desc limit 1
    ) lc on true
    left join public.members by_m on by_m.id = lc.contacted_by
   order by lc.contacted_at nulls first, r.since desc, m.name;
end;
$$;

revoke execute on function private.members_to_contact(timestamptz) from public;

grant execute on function private.members_to_contact(timestamptz) to authenticated, service_role;

-- An admin notes a contact made another way (a call, a chat at the door).
create function private.admin_record_contact(p_member_id uuid, p_reason text, p_note text)
returns public.member_contacts
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin public.members;
  v_contact public.member_contacts;
begin
  perform private.require_admin();
  v_admin := private.require_member();
  if nullif(btrim(coalesce(p_note, '')), '') is null or char_length(p_note) > 1000 then
    raise exception 'Write what was said (at most 1000 characters).' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if p_reason is null or not p_reason = any (private.contact_reasons()) then
    raise exception 'Unknown reason to contact a member' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if not exists (select 1 from public.members where id = p_member_id) then
    raise exception 'Member record not found' using errcode = 'P0002', hint = 'member_not_found';
  end if;
  insert into public.member_contacts (member_id, reason, contacted_by, channel, note)
  values (p_member_id, p_reason, v_admin.id, 'note', btrim(p_note))
  returning * into v_contact;
  return v_contact;
end;
$$;

revoke execute on function private.admin_record_contact(uuid, text, text) from public;

grant execute on function private.admin_record_contact(uuid, text, text) to authenticated, service_role;

-- An admin emails a member from the list, through the outbox (the member's reply goes to the
-- studio's address, the sender's MAIL_FROM), and the contact is remembered with its subject.
create function private.admin_email_member(p_member_id uuid, p_reason text, p_subject text, p_message text)
returns public.member_contacts
language plpgsql security definer set search_path = ''
as $$
declare
  v_contact public.member_contacts;
begin
  if nullif(btrim(coalesce(p_subject, '')), '') is null or char_length(p_subject) > 200 then
    raise exception 'Write a subject (at most 200 characters).' using errcode = '22023', hint = 'invalid_contact';
  end if;
  if nullif(btrim(coalesce(p_message, '')), '') is null or char_length(p_message) > 5000 then
    raise exception 'Write a message (at most 5000 characters).' using errcode = '22023', hint = 'invalid_contact';
  end if;
  v_contact := private.admin_record_contact(p_member_id, p_reason, p_subject);
  update public.member_contacts set channel = 'email' where id = v_contact.id returning * into v_contact;
  perform private.enqueue_membership_email('studio_message', p_member_id, btrim(p_subject),
    regexp_split_to_array(btrim(p_message), E'\n{2,}'),
    jsonb_build_array(jsonb_build_object('label', 'Book a class', 'path', '/my-schedule')),
    'studio_message:' || v_contact.id);
  return v_contact;
end;
$$;

revoke execute on function private.admin_email_member(uuid, text, text, text) from public;

grant execute on function private.admin_email_member(uuid, text, text, text) to authenticated, service_role;

-- Come-back emails ---------------------------------------------------------------------------------
-- A three-step sequence after a free trial or a membership ends (1, 7 and 21 days after), as of
-- p_now: each step is sent once (dedupe key: the membership, its end, the step), only while it is
-- the current step (a job that did not run for a week sends the step now due, not the missed
-- ones), and never once the person booked or paid for anything since the end, or bought a plan
-- (the membership row is then running again). Members who turned these off are skipped
-- (marketing consent, through notification_deliveries_prepare). Returns how many were queued.
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
    select ms.id, ms.member_id, ms.tier, ms.plan_slug, ms.ended_at, fc.ends_at as free_class_ended, fc.attendance, s.step
      from public.memberships ms
      join public.members m on m.id = ms.member_id and not m.is_admin
      -- A trial's sequence counts from the end of its free class (never before it happens).
      left join lateral private.free_class_of(ms.member_id) fc on ms.tier = 'trial'
      cross join lateral (select coalesce(fc.ends_at, ms.ended_at) as at) anchor
      cross join lateral (
        select k as step from generate_subscripts(v_steps, 1) k
         where p_now >= anchor.at + make_interval(days => v_steps[k])
           and (k = array_length(v_steps, 1) or p_now < anchor.at + make_interval(days => v_steps[k + 1]))
           and p_now < anchor.at + make_interval(days => v_steps[array_length(v_steps, 1)] + 7)
      ) s
     where ms.ended_at is not null and ms.ended_at <= p_now
       and (ms.tier = 'trial' or ms.status in ('lapsed', 'cancelled'))
       and not exists (select 1 from public.bookings b
                        where b.member_id = ms.member_id and b.payment_status = 'completed' and b.booked_at > ms.ended_at)
       and not exists (select 1 from public.payments p
                        where p.member_id = ms.member_id and p.status = 'paid' and p.paid_at > ms.ended_at)
  loop
    if v_row.tier = 'trial' then
      v_subject := case v_row.step when 1 then case when v_row.free_class_ended is null then 'Your free trial has ended'
                                                    when v_row.attendance = 'no_show' then 'We missed you'
                                                    else 'Thank you for trying the studio' end
                                   when 2 then 'Your next class is waiting'
                                   else 'Still thinking about it?' end;
      v_lines := case v_row.step
        -- Step 1 says what the person actually did: came, missed their class, or never booked.
        when 1 then array[case when v_row.free_class_ended is null then 'Your free trial ended before you booked your free class.'
                               when v_row.attendance = 'no_show' then 'We are sorry we did not see you at your free class.'
                               else 'We hope you enjoyed your free class.' end,
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

-- API ---------------------------------------------------------------------------------------------
create function public.members_to_contact(p_now timestamptz default now())
returns setof public.member_to_contact
language sql stable security invoker set search_path = ''
as $$ select * from private.members_to_contact(p_now) $$;

revoke execute on function public.members_to_contact(timestamptz) from public, anon;

grant execute on function public.members_to_contact(timestamptz) to authenticated, service_role;

create function public.admin_record_contact(p_member_id uuid, p_reason text, p_note text)
returns public.member_contacts
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_record_contact(p_member_id, p_reason, p_note) $$;

revoke execute on function public.admin_record_contact(uuid, text, text) from public, anon;

grant execute on function public.admin_record_contact(uuid, text, text) to authenticated, service_role;

create function public.admin_email_member(p_member_id uuid, p_reason text, p_subject text, p_message text)
returns public.member_contacts
language sql volatile security invoker set search_path = ''
as $$ select * from private.admin_email_member(p_member_id, p_reason, p_subject, p_message) $$;

revoke execute on function public.admin_email_member(uuid, text, text, text) from public, anon;

grant execute on function public.admin_email_member(uuid, text, text, text) to authenticated, service_role;

create function public.enqueue_win_back_emails(p_now timestamptz)
returns integer
language sql volatile security invoker set search_path = ''
as $$ select private.enqueue_win_back_emails(p_now) $$;

revoke execute on function public.enqueue_win_back_emails(timestamptz) from public, anon, authenticated;

grant execute on function public.enqueue_win_back_emails(timestamptz) to service_role;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Admins read member contacts"
  on public.member_contacts for select to authenticated
  using ((select private.is_admin()));
