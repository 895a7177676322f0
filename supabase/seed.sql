-- Demo data for the local stack and tests (design.md section 4). Never applied to production.
-- Every password is `studio123` (bcrypt, as GoTrue stores it). Classes are relative to today.

do $$
declare
  v_today date := (now() at time zone 'Europe/London')::date;
  -- Fixed ids so the accounts are easy to refer to in tests and screenshots.
  v_admin uuid := '00000000-0000-4000-a000-000000000001';
  v_premium uuid := '00000000-0000-4000-a000-000000000002';
  v_standard uuid := '00000000-0000-4000-a000-000000000003';
  v_payg uuid := '00000000-0000-4000-a000-000000000004';
  v_newpayg uuid := '00000000-0000-4000-a000-000000000005';
  v_trial uuid := '00000000-0000-4000-a000-000000000006';
  v_hash text := extensions.crypt('studio123', extensions.gen_salt('bf', 10));
  v_past uuid[];
  v_upcoming uuid[];
  v_premium_open uuid;
  v_premium_locked uuid;
  v_two_left uuid;
  v_full uuid;
begin
  -- Accounts. The trigger on auth.users creates each member row (trial for the free-trial one).
  insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  select a.id, 'authenticated', 'authenticated', a.email, v_hash, now() - a.age,
         '{"provider":"email","providers":["email"]}'::jsonb, a.meta, now() - a.age, now() - a.age
    from (values
      (v_admin, 'admin@studio.test', '{"full_name":"Sam Reid"}'::jsonb, interval '200 days'),
      (v_premium, 'premium@studio.test', '{"full_name":"Priya Shah"}'::jsonb, interval '150 days'),
      (v_standard, 'standard@studio.test', '{"full_name":"Tom Baker"}'::jsonb, interval '90 days'),
      (v_payg, 'payg@studio.test', '{"full_name":"Maya Okafor"}'::jsonb, interval '40 days'),
      (v_newpayg, 'newpayg@studio.test', '{"full_name":"Leo Novak"}'::jsonb, interval '3 days'),
      (v_trial, 'trial@studio.test', '{"full_name":"Ava Turner","signup_source":"free-trial"}'::jsonb,
       interval '0 days')
    ) as a(id, email, meta, age);

  update public.members m
     set membership_tier = t.tier, has_used_trial = t.used, is_admin = t.admin, phone = t.phone,
         plan_renews_at = case when t.tier in ('standard', 'premium') then now() + interval '18 days' end,
         created_at = u.created_at
    from (values
      (v_admin, 'premium'::public.membership_tier, true, true, '020 7946 0001'),
      (v_premium, 'premium', true, false, '020 7946 0002'),
      (v_standard, 'standard', true, false, '020 7946 0003'),
      (v_payg, 'payg', true, false, null),
      (v_newpayg, 'payg', false, false, null)
    ) as t(user_id, tier, used, admin, phone),
    auth.users u
   where m.user_id = t.user_id and u.id = t.user_id;

  -- Plan members are on a renewing membership with a saved card of the local test provider that
  -- always pays (issue 13), so `npm run jobs -- --at <a month ahead>` renews them.
  insert into public.memberships (member_id, plan_slug, tier, status, price, period_number, period_start, period_end,
                                  anchor_at, renews)
  select m.id, case m.membership_tier when 'premium' then 'platinum' else 'standard' end, m.membership_tier, 'active',
         case m.membership_tier when 'premium' then 165 else 100 end, 1, m.plan_renews_at - interval '1 month',
         m.plan_renews_at, m.plan_renews_at - interval '1 month', true
    from public.members m
   where m.membership_tier in ('standard', 'premium');
  insert into private.member_cards (member_id, customer_id, token, saved_at)
  select m.id, 'member-' || m.id, 'test_pays_seed', now()
    from public.members m
   where m.membership_tier in ('standard', 'premium');
  -- What each paid Platinum Premium period gives (issue 26): a personal-training session and two
  -- guest passes that end with the period.
  perform private.grant_credits(ms.member_id, k.kind, k.n, 'membership_period', 'period:' || ms.id || ':1',
                                ms.period_start, ms.period_end, null, ms.id, 1, null, null, null, null)
     from public.memberships ms
     cross join (values ('personal_training'::public.credit_kind, 1), ('guest_pass'::public.credit_kind, 2)) as k(kind, n)
    where ms.plan_slug = 'platinum';

  -- The spec's recurring timetable: last week (history) and the coming three weeks.
  perform private.insert_timetable(v_today - 7, v_today + 20);

  -- Premium classes: one inside its 3-day unlock window, one outside it, one with a 12-hour window.
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, is_premium,
                              unlock_for_standard, price_payg)
  values ('Platinum HIIT', 'High-intensity intervals for premium members first.', 45,
          ((v_today + 2) + time '18:30') at time zone 'Europe/London', 'Coach Alex', 'Group', 10, true, '3 days', 12.00)
  returning id into v_premium_open;
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, is_premium,
                              unlock_for_standard, price_payg)
  values ('Premium Strength Lab', 'Barbell technique in a small group.', 60,
          ((v_today + 9) + time '18:30') at time zone 'Europe/London', 'Coach Alex', 'Group', 8, true, '3 days', 15.00)
  returning id into v_premium_locked;
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, is_premium,
                              unlock_for_standard, price_payg)
  values ('Sunrise Mobility', 'Premium early session; opens to everyone 12 hours before.', 30,
          ((v_today + 2) + time '07:00') at time zone 'Europe/London', 'Coach Jess', 'Group', 8, true, '12 hours', 8.00);

  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg)
  values ('Personal Training', 'One-to-One session tailored to your goals.', 60,
          ((v_today + 4) + time '12:00') at time zone 'Europe/London', 'Coach Alex', 'One-to-One', 1, 60.00);
  -- Trainers (issue 26): their bios, and the weekly availability their One-to-One sessions of
  -- the next four weeks are generated from (Personal training), as the hourly jobs keep doing.
  update public.trainers set bio = 'Strength and conditioning coach; builds programmes around your goals.' where name = 'Coach Alex';
  update public.trainers set bio = 'Boxing, kettlebells and mobility; patient with beginners.' where name = 'Coach Jess';
  insert into public.trainer_availability (trainer_id, weekday, starts_at, ends_at, session_minutes)
  select t.id, w.weekday, w.starts_at, w.ends_at, 60
    from public.trainers t
    join (values ('Coach Alex', 2, time '12:00', time '15:00'), ('Coach Alex', 4, time '12:00', time '15:00'),
                 ('Coach Jess', 6, time '09:00', time '12:00')) as w(name, weekday, starts_at, ends_at)
      on w.name = t.name;
  perform private.generate_one_to_one_slots(now(), interval '28 days');
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg)
  values ('Boxing Fundamentals', 'Pads, footwork and conditioning.', 45,
          ((v_today + 1) + time '19:00') at time zone 'Europe/London', 'Coach Jess', 'Group', 4, 10.00)
  returning id into v_two_left;
  insert into public.classes (name, description, duration, start_time, trainer, type, capacity, price_payg)
  values ('Kettlebell Flow', 'Full-body kettlebell circuit.', 45,
          ((v_today + 3) + time '19:00') at time zone 'Europe/London', 'Coach Jess', 'Group', 3, 10.00)
  returning id into v_full;

  select array_agg(id order by start_time desc) into v_past
    from public.classes where start_time < now() and name = 'Breakfast Club';
  select array_agg(id order by start_time) into v_upcoming
    from public.classes where start_time > now() + interval '1 day' and name = 'Breakfast Club';

  -- Bookings: some past, some upcoming; the triggers keep current_bookings/spots_left.
  insert into public.bookings (member_id, class_id, type, payment_status, booked_at)
  select m.id, b.class_id, b.type, 'completed', c.start_time - b.ahead
    from (values
      (v_premium, v_past[1], 'paid'::public.booking_type, interval '2 days'),
      (v_premium, v_past[3], 'paid', interval '1 day'),
      (v_premium, v_past[6], 'paid', interval '3 days'),
      (v_standard, v_past[2], 'paid', interval '1 day'),
      (v_standard, v_past[5], 'paid', interval '2 days'),
      (v_payg, v_past[4], 'trial', interval '1 day'),
      (v_admin, v_past[7], 'paid', interval '1 day'),
      (v_premium, v_upcoming[1], 'paid', interval '5 days'),
      (v_premium, v_upcoming[4], 'paid', interval '5 days'),
      (v_premium, v_premium_open, 'paid', interval '4 days'),
      (v_premium, v_premium_locked, 'paid', interval '10 days'),
      (v_standard, v_upcoming[2], 'paid', interval '4 days'),
      (v_standard, v_upcoming[6], 'paid', interval '4 days'),
      (v_payg, v_upcoming[3], 'payg', interval '3 days'),
      (v_admin, v_upcoming[5], 'paid', interval '6 days'),
      (v_admin, v_two_left, 'paid', interval '3 days'),
      (v_premium, v_two_left, 'paid', interval '3 days'),
      (v_admin, v_full, 'paid', interval '4 days'),
      (v_premium, v_full, 'paid', interval '4 days'),
      (v_standard, v_full, 'paid', interval '4 days')
    ) as b(user_id, class_id, type, ahead)
    join public.members m on m.user_id = b.user_id
    join public.classes c on c.id = b.class_id;
  -- booked_at must not be in the future for upcoming classes booked "ahead" of now.
  update public.bookings set booked_at = now() - interval '1 hour' where booked_at > now();
end
$$;
