-- Demo data for the local stack and tests (design.md section 4). Never applied to production.
-- Every password is `studio123` (bcrypt, as GoTrue stores it). Classes are relative to today.

-- The studio's documents (decision 0021): the first published version of each, in the
-- demo studio's words. Production publishes its own from Admin > Documents.
insert into public.document_versions (kind, version, title, body, questions, published_at)
values
  ('terms', 1, 'Terms of Membership', $doc$These terms apply to everyone who books a class or buys a membership or package with Finer Fitness ("we", "us"), Example Community Hall, 1 Example Street, London E8 0XX. By signing them you agree to them. They do not affect your statutory rights as a consumer.

1. Your account. You must be 16 or over to hold an account. Keep your details, your phone number and your emergency contact up to date in Edit Profile. Your account is for you alone: do not share it or book places for other people except as a guest with a guest pass.

2. Booking and cancelling. A place is yours once the booking is confirmed on screen and by email. If you cannot come, cancel in My Bookings before the late-cancel window shown on the class (usually 12 hours before it starts) so someone on the waitlist can take it. A late cancellation or a no-show still counts against your plan's classes for the period.

3. Memberships. Standard and Platinum Premium are monthly memberships that renew each month on the card you saved until you cancel. You can cancel at any time in My Membership: the membership runs to the end of the period you have paid for and is not refunded for part of a month. We will tell you at least 30 days before we change a price.

4. Packages and passes. Personal-training sessions and guest passes expire on the date shown in your account and cannot be exchanged for cash.

5. Your 14-day right to cancel. When you buy a membership or package online you may cancel within 14 days of buying it. If you have already used a class or session in that time, we refund what you paid less the value of what you used.

6. Free trial. The free trial is one class within 7 days of signing up, once per person.

7. In the studio. Arrive 5 to 10 minutes early, tell the coach about any injury or health change before the class, follow the coach's instructions and look after the hall and the equipment. We may refuse or end a place for behaviour that puts others at risk, with a refund for classes not yet taken.

8. Changes to classes. We may change a class's time, coach or format, or cancel it (for example if the hall is closed). If we cancel a class you booked, your booking is returned to your plan or refunded.

9. Changes to these terms. We may update these terms. We will show you the new version and ask you to sign it before your next booking.

10. Law. These terms are governed by the law of England and Wales.

Questions: hello@finerfitness.example or 07700 900123.$doc$, null, now() - interval '1 year'),

  ('privacy', 1, 'Privacy Notice', $doc$Finer Fitness, Example Community Hall, 1 Example Street, London E8 0XX, is the controller of the personal data described here. Contact us about your data at hello@finerfitness.example.

What we collect and why
- Your account details (name, email, phone, photo): to run your account and bookings. Lawful basis: contract.
- Bookings, attendance, memberships, payments and receipts: to provide the classes you buy and keep the records the law requires (6 years for accounting records). Lawful basis: contract and legal obligation.
- Date of birth and emergency contact: to make sure classes are suitable for your age and to contact someone if you are taken ill or injured. Lawful basis: legitimate interests and, in an emergency, vital interests.
- Your answers to the health questionnaire (PAR-Q): health data is special-category data under the UK GDPR. We keep it only with your explicit consent, so your coach can train you safely. Lawful basis: explicit consent (Article 9(2)(a)).
- Your signatures of our terms and waiver, with the version and time: to show what was agreed. Lawful basis: legitimate interests.

Who sees it
Studio admins and the coach of a class you booked. Our card payments provider (SumUp) processes your payments; our hosting and database providers (Netlify, Supabase) and our email provider process data on our behalf under contract. We never sell your data.

How long we keep it
Your account data while your account is open and for 2 years after your last booking; accounting records for 6 years; your health answers until you withdraw them or close your account.

Your rights
You can see, correct, download or delete your data, object to its use, and withdraw your consent to your health answers at any time in the Health & agreements page (withdrawing does not affect what we did before). To use any other right, email us: we reply within one month. You may complain to the Information Commissioner's Office (ico.org.uk, 0303 123 1113).$doc$, null, now() - interval '1 year'),

  ('cookies', 1, 'Cookie Notice', $doc$We use only what the site needs to work. There are no advertising or tracking cookies, and no analytics that follow you across sites, so we do not ask for your consent to cookies.

What the site stores on your device
- Your sign-in session (browser local storage, set by our login provider Supabase): keeps you signed in. Removed when you log out.
- Your email address (ffEmail) and, for admins, an admin flag: so the site remembers who is signed in. Removed when you log out.
- A copy of your upcoming bookings and timetable: so the app can show them when you are offline. Removed when you log out.
- Whether you have dismissed the "install the app" prompt: so we ask only once.

Payments are taken on our payment provider's own pages, which set their own cookies under their own notice.

You can clear this storage at any time in your browser's settings; you will then be signed out.$doc$, null, now() - interval '1 year'),

  ('waiver', 1, 'Liability Waiver and Assumption of Risk', $doc$Exercise carries a risk of injury. Please read this before your first class.

1. I take part in Finer Fitness classes and sessions voluntarily. I understand that exercise, including weight training, circuit training, outdoor sessions and stretching, involves physical exertion and a risk of injury such as strains, sprains, falls and, rarely, heart problems.

2. I confirm that I have answered the health questionnaire (PAR-Q) truthfully, that I will tell the coach before a class about any injury, illness, pregnancy or change in my health, and that I will stop and tell the coach if I feel pain, dizziness or breathlessness.

3. I will follow the coach's instructions, use equipment as shown, work at a level that is safe for me, and wear suitable clothing and footwear.

4. I accept responsibility for any injury or loss that results from my not following points 2 and 3, and for my own belongings in the hall.

5. Nothing in this waiver limits or excludes Finer Fitness's liability for death or personal injury caused by our negligence, for fraud, or for anything else that cannot be limited or excluded by law (including under the Consumer Rights Act 2015). Finer Fitness holds public liability insurance and its coaches are qualified and first-aid trained.

6. In an emergency I agree that the studio may call the emergency services and my emergency contact, and give first aid.

By typing my full name below I sign this waiver.$doc$, null, now() - interval '1 year'),

  ('parq', 1, 'Physical Activity Readiness Questionnaire (PAR-Q)', $doc$Regular exercise is safe for most people. These questions help us find out whether you should check with your doctor before you start, or whether the coach should adapt the class for you. Answer each question honestly with yes or no.

If you answer yes to any question, you can still book: your coach will talk to you before the class, and we may ask you to get your doctor's advice first. If your health changes, update your answers in Health & agreements.

Your answers are health data. We keep them only with your explicit consent; only studio admins and the coach of a class you booked can see them; you can download or withdraw them at any time.$doc$,
   '["Has your doctor ever said that you have a heart condition and that you should only do physical activity recommended by a doctor?", "Do you feel pain in your chest when you do physical activity?", "In the past month, have you had chest pain when you were not doing physical activity?", "Do you lose your balance because of dizziness, or do you ever lose consciousness?", "Do you have a bone or joint problem (for example back, knee or hip) that could be made worse by a change in your physical activity?", "Is your doctor currently prescribing medication for your blood pressure or a heart condition?", "Are you pregnant or have you given birth in the last 6 months?", "Do you know of any other reason why you should not do physical activity?"]'::jsonb,
   now() - interval '1 year'),

  ('child_parq', 1, 'Children''s health questionnaire', $doc$Please answer these questions for your child, as their parent or guardian. They help the coach keep the class safe for them; a yes does not stop your child taking part: the coach will talk to you before the class.

If your child's health changes, answer the questions again from Family.

These answers are health data about your child. We keep them only with your explicit consent; only studio admins and the coach of a class your child is booked on can see them.$doc$,
   '["Has a doctor ever said your child has a heart condition or should only do activity a doctor recommends?", "Does your child have asthma, or get short of breath more than other children when active?", "Does your child have epilepsy, or have they ever fainted or had a seizure during or after activity?", "Does your child have diabetes or another condition the coach should know about in an emergency?", "Does your child have a severe allergy (for example needing an adrenaline pen)?", "Has your child had an injury, broken bone or operation in the last six months?", "Is there any other reason your child should not join in physical activity?"]'::jsonb,
   now() - interval '1 year');

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
  v_coach uuid := '00000000-0000-4000-a000-000000000007';
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
       interval '0 days'),
      (v_coach, 'coach@studio.test', '{"full_name":"Alex Morgan"}'::jsonb, interval '120 days')
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
      (v_newpayg, 'payg', false, false, null),
      (v_coach, 'payg', true, false, '020 7946 0007')
    ) as t(user_id, tier, used, admin, phone),
    auth.users u
   where m.user_id = t.user_id and u.id = t.user_id;

  -- Plan members are on a renewing membership with a saved card of the local test provider that
  -- always pays (decision 0009), so `npm run jobs -- --at <a month ahead>` renews them.
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
  -- What each paid Platinum Premium period gives (decision 0017): a personal-training session and two
  -- guest passes that end with the period.
  perform private.grant_credits(ms.member_id, k.kind, k.n, 'membership_period', 'period:' || ms.id || ':1',
                                ms.period_start, ms.period_end, null, ms.id, 1, null, null, null, null)
     from public.memberships ms
     cross join (values ('personal_training'::public.credit_kind, 1), ('guest_pass'::public.credit_kind, 2)) as k(kind, n)
    where ms.plan_slug = 'platinum';

  -- The spec's recurring timetable: last week (history) and the coming three weeks.
  perform private.insert_timetable(v_today - 7, v_today + 20);
  -- The demo studio's Kids Club takes children aged 4 to 12 (family accounts, decision 0021).
  update public.classes set min_age = 4, max_age = 12 where name = 'Kids Club';

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
          ((v_today + 4) + time '12:00') at time zone 'Europe/London', 'Coach Alex', 'One-to-One', 1, null);
  -- Trainers (decision 0020): their bios, and the weekly availability their One-to-One sessions of
  -- the next four weeks are generated from (Personal training), as the hourly jobs keep doing.
  update public.trainers set bio = 'Strength and conditioning coach; builds programmes around your goals.' where name = 'Coach Alex';
  -- coach@studio.test signs in as Coach Alex (decision 0027): the coach area lists the timetable's
  -- classes and their rosters.
  insert into public.trainer_accounts (trainer_id, member_id, linked_by)
  select t.id, m.id, a.id from public.trainers t, public.members m, public.members a
   where t.name = 'Coach Alex' and m.user_id = v_coach and a.user_id = v_admin;
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

  -- Every demo account but the trial one has signed the documents (their bookings need it); the
  -- trial member shows a newcomer's first booking: sign and answer first.
  insert into public.document_acceptances (member_id, document_id, signed_name, accepted_at)
  select m.id, d.id, coalesce(m.name, m.email::text), m.created_at + interval '5 minutes'
    from public.members m cross join public.document_versions d
   where m.user_id in (v_admin, v_premium, v_standard, v_payg, v_newpayg, v_coach) and d.kind in ('terms', 'waiver', 'parq');
  insert into public.health_answers (member_id, document_id, answers, details, consented_at, answered_at, signed_name)
  select m.id, d.id,
         case when m.user_id = v_standard then '[false, false, false, false, true, false, false, false]'::jsonb
              else '[false, false, false, false, false, false, false, false]'::jsonb end,
         case when m.user_id = v_standard then 'Old left knee injury from football: no deep lunges.' end,
         m.created_at + interval '5 minutes', m.created_at + interval '5 minutes', coalesce(m.name, m.email::text)
    from public.members m cross join public.document_versions d
   where m.user_id in (v_admin, v_premium, v_standard, v_payg, v_newpayg, v_coach) and d.kind = 'parq';
  update public.members set date_of_birth = date '1988-03-14', emergency_contact_name = 'Ravi Shah', emergency_contact_phone = '07700 900321'
   where user_id = v_premium;
  update public.members set date_of_birth = date '1979-11-02', emergency_contact_name = 'Jen Baker', emergency_contact_phone = '07700 900654'
   where user_id = v_standard;

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
