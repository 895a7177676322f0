-- A year of history for the Analytics reports (decision 0022): 150 members joining over the year, free
-- trials, memberships that start, renew, upgrade, downgrade and stop, packages, pay-as-you-go
-- classes with their payments and a few refunds, a year of classes with bookings, attendance and
-- late cancels. Local stack only (never production): `npm run db:seed:history` runs it on the
-- local database while the stack is stopped. Deterministic (setseed); runs once (it refuses when
-- its members are there already). Triggers are off while it runs (session_replication_role), so
-- no emails, receipts or job work come from the past; it writes the rows the triggers would.
set session_replication_role = replica;

select setseed(0.28);

do $$
declare
  v_end timestamptz := date_trunc('hour', now()) - interval '1 hour';
  v_start timestamptz := date_trunc('hour', now()) - interval '1 year';
  v_hash text := extensions.crypt('studio123', extensions.gen_salt('bf', 4));
  v_sub record;
  v_at timestamptz;
  v_plan text;
  v_price numeric;
  v_reason text;
  v_membership uuid;
  v_period integer;
  v_period_start timestamptz;
  v_period_end timestamptz;
  v_stopped boolean;
  -- The stretch of one monthly price being written (membership_price_history, decision 0036).
  v_from timestamptz;
  v_from_plan text;
  v_from_price numeric;
begin
  if exists (select 1 from public.members where email like 'history-%@studio.test') then
    raise exception 'The year of history is there already: run npm run db:reset first for a fresh one.';
  end if;

  -- Members -------------------------------------------------------------------------------------
  create temp table h_members on commit drop as
    select gen_random_uuid() as id, gen_random_uuid() as user_id,
           'history-' || lpad(i::text, 3, '0') || '@studio.test' as email,
           (array['Alex', 'Sam', 'Jo', 'Priya', 'Tom', 'Aisha', 'Ben', 'Chloe', 'Dev', 'Ella', 'Femi', 'Grace', 'Hana'])[1 + i % 13]
             || ' ' || (array['Reid', 'Shah', 'Baker', 'Okafor', 'Nguyen', 'Patel', 'Murphy', 'Kowalski', 'Hughes', 'Ali', 'Byrne'])[1 + i % 11] as name,
           v_start + random() * (v_end - v_start - interval '3 days') as joined,
           random() < 0.6 as trial
      from generate_series(1, 150) as i;

  insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  select user_id, 'authenticated', 'authenticated', email, v_hash, joined, '{"provider":"email","providers":["email"]}'::jsonb,
         jsonb_build_object('full_name', name), joined, joined
    from h_members;

  insert into public.members (id, user_id, email, name, membership_tier, has_used_trial, created_at)
  select id, user_id, email, name, 'payg', trial, joined from h_members;

  insert into public.member_trials (member_id, started_at, ends_at)
  select id, joined, joined + interval '7 days' from h_members where trial;

  -- Memberships: 40% of trials and half of the others buy one; each month 6% stop (they cancel: the
  -- membership ends at the end of the month paid), 4% of Standard upgrade to Platinum Premium
  -- mid-period, 3% of Platinum Premium renew on Standard. Each has its membership row, its charges
  -- point at it, and the history of its monthly price (membership_price_history, what MRR reads;
  -- decision 0036) is written as the trigger on memberships would have written it.
  for v_sub in
    select m.id, case when m.trial then m.joined + interval '7 days' + random() * interval '5 days' else m.joined end as starts
      from h_members m
     where (m.trial and random() < 0.4) or (not m.trial and random() < 0.5)
  loop
    v_membership := gen_random_uuid();
    v_period := 0;
    v_from := null;
    v_at := v_sub.starts;
    v_plan := case when random() < 0.6 then 'standard' when random() < 0.6 then 'platinum' else 'student' end;
    v_reason := 'start';
    while v_at < v_end loop
      v_price := case v_plan when 'standard' then 100 when 'platinum' then 165 else 70 end;
      v_period := v_period + 1;
      insert into public.payments (member_id, kind, plan_slug, grants_tier, amount, description, checkout_reference, status, created_at, paid_at,
                                   billing_reason, membership_id, period_number)
      values (v_sub.id, 'plan', v_plan, case when v_plan = 'platinum' then 'premium' else 'standard' end::public.membership_tier, v_price,
              'History: ' || v_plan || ' ' || v_reason, 'history-' || gen_random_uuid(), 'paid', v_at, v_at, v_reason, v_membership, v_period);
      -- A new plan or price from this charge on (a start, an upgrade, a renewal on Standard).
      if v_from is null or v_from_plan <> v_plan then
        if v_from is not null then
          insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
          values (v_membership, v_from_plan, case when v_from_plan = 'platinum' then 'premium' else 'standard' end::public.membership_tier,
                  v_from_price, v_from, v_at);
        end if;
        v_from := v_at;
        v_from_plan := v_plan;
        v_from_price := v_price;
      end if;
      v_period_start := v_at;
      v_stopped := random() < 0.06;
      exit when v_stopped;
      if v_plan = 'standard' and random() < 0.04 then
        v_plan := 'platinum';
        v_reason := 'upgrade';
        v_at := v_at + random() * interval '20 days';
      else
        if v_plan = 'platinum' and random() < 0.03 then
          v_plan := 'standard';
        end if;
        v_reason := 'renewal';
        v_at := ((v_at at time zone 'Europe/London') + interval '1 month') at time zone 'Europe/London';
      end if;
    end loop;
    -- Nothing paid (it would have started after now): no membership.
    continue when v_period = 0;
    -- The period last paid; a member who stopped is cancelled, over at its end (or still running).
    v_period_end := ((v_period_start at time zone 'Europe/London') + interval '1 month') at time zone 'Europe/London';
    insert into public.memberships (id, member_id, plan_slug, tier, status, price, period_number, period_start, period_end, anchor_at,
                                    anchor_period, renews, ended_at, created_at, updated_at)
    values (v_membership, v_sub.id, v_from_plan, case when v_from_plan = 'platinum' then 'premium' else 'standard' end::public.membership_tier,
            case when v_stopped then 'cancelled' else 'active' end::public.membership_status, v_from_price, v_period, v_period_start,
            v_period_end, v_period_start, v_period, not v_stopped, case when v_stopped and v_period_end <= v_end then v_period_end end,
            v_sub.starts, v_period_start);
    insert into public.membership_price_history (membership_id, plan_slug, tier, price, starts_at, ends_at)
    values (v_membership, v_from_plan, case when v_from_plan = 'platinum' then 'premium' else 'standard' end::public.membership_tier,
            v_from_price, v_from, case when v_stopped then v_period_end end);
  end loop;

  -- Members on a running plan have its tier (private.sync_member_from_membership).
  update public.members m
     set membership_tier = ms.tier, plan_renews_at = ms.period_end
    from public.memberships ms
   where ms.member_id = m.id and ms.ended_at is null and m.email like 'history-%';

  -- Packages: a Bronze Package for 1 in 10, a Drop-In Session for 1 in 8, some time after joining.
  insert into public.payments (member_id, kind, plan_slug, amount, description, checkout_reference, status, created_at, paid_at)
  select m.id, 'plan', p.slug, p.price, 'History: ' || p.name, 'history-' || gen_random_uuid(), 'paid', t.at, t.at
    from h_members m
    -- Every draw in the lateral, which names the member, so each is made once per member: in the
    -- join's condition or the where clause the planner may make one draw for every row.
    cross join lateral (select m.joined + random() * (v_end - m.joined) as at, random() as buys, random() as pick) t
    join public.plans p on p.slug = case when t.pick < 0.45 then 'bronze' else 'dropin' end
   where t.buys < 0.2;

  -- Classes: the studio's week (London time) for the year.
  create temp table h_classes on commit drop as
    select gen_random_uuid() as id, s.name, ((d::date + s.at) at time zone 'Europe/London') as start_time, s.popularity
      from generate_series(v_start::date, v_end::date, interval '1 day') as d
      join (values
        (1, time '06:00', 'Breakfast Club', 0.55), (1, time '07:15', 'Breakfast Club', 0.8), (1, time '08:30', 'Breakfast Club', 0.6),
        (1, time '10:00', 'Breakfast Club', 0.35), (1, time '16:45', 'Kids Club', 0.7), (1, time '18:30', 'Evening Strength', 0.85),
        (2, time '06:00', 'Breakfast Club', 0.5), (2, time '07:15', 'Breakfast Club', 0.75), (2, time '08:30', 'Breakfast Club', 0.55),
        (2, time '10:00', 'Breakfast Club', 0.3), (2, time '18:30', 'Evening Strength', 0.9),
        (3, time '06:00', 'Breakfast Club', 0.5), (3, time '07:15', 'Breakfast Club', 0.8), (3, time '08:30', 'Breakfast Club', 0.55),
        (3, time '10:00', 'Breakfast Club', 0.3),
        (4, time '06:00', 'Breakfast Club', 0.45), (4, time '07:15', 'Breakfast Club', 0.75), (4, time '08:30', 'Breakfast Club', 0.5),
        (4, time '10:00', 'Breakfast Club', 0.3), (4, time '18:30', 'Evening Strength', 0.9),
        (5, time '06:00', 'Breakfast Club', 0.4), (5, time '07:15', 'Breakfast Club', 0.6), (5, time '08:30', 'Breakfast Club', 0.45),
        (5, time '10:00', 'Breakfast Club', 0.25),
        (6, time '09:00', 'Weekend HIIT', 0.95)
      ) as s (dow, at, name, popularity) on s.dow = extract(isodow from d)
     where ((d::date + s.at) at time zone 'Europe/London') between v_start and v_end;

  -- Triggers are off, so the trainer's record is linked here rather than by classes_link_trainer.
  insert into public.trainers (name) values ('Coach Alex') on conflict (name) do nothing;
  insert into public.classes (id, name, start_time, trainer, trainer_id, type, capacity, current_bookings, spots_left, price_payg, created_at)
  select id, name, start_time, 'Coach Alex', (select t.id from public.trainers t where t.name = 'Coach Alex'), 'Group', 12, 0, 12, 10, v_start
    from h_classes;

  -- Who came: members who had joined, more of them for the popular slots; 5% of them cancelled late.
  create temp table h_picks on commit drop as
    select c.id as class_id, c.start_time, m.id as member_id, random() as r,
           c.start_time - random() * interval '6 days' as booked_at,
           exists (select 1 from public.payments p
                    where p.member_id = m.id and p.status = 'paid' and p.kind = 'plan' and p.plan_slug in ('standard', 'platinum', 'student')
                      and p.paid_at <= c.start_time and p.paid_at > c.start_time - interval '1 month') as on_plan
      from h_classes c
      cross join lateral (
        select hm.id from h_members hm where hm.joined < c.start_time - interval '1 day'
         order by random()
         limit least(12, greatest(0, round(12 * c.popularity * (0.55 + random() * 0.6))))::int
      ) as m;

  insert into public.bookings (member_id, class_id, type, payment_status, booked_at, attendance, attendance_marked_at)
  select member_id, class_id, case when on_plan then 'paid' else 'payg' end::public.booking_type, 'completed', booked_at,
         case when random() < 0.88 then 'attended' else 'no_show' end::public.attendance_status, start_time + interval '30 minutes'
    from h_picks where r >= 0.05;

  insert into public.late_cancellations (member_id, class_id, booking_id, booking_type, booked_at, class_start_time, cancelled_at)
  select member_id, class_id, gen_random_uuid(), case when on_plan then 'paid' else 'payg' end::public.booking_type, booked_at, start_time,
         start_time - random() * interval '3 hours'
    from h_picks where r < 0.05;

  -- Pay-as-you-go classes are paid for; 3% of those payments were refunded two days later.
  insert into public.payments (member_id, kind, class_id, booking_id, amount, description, checkout_reference, status, created_at, paid_at)
  select b.member_id, 'class', b.class_id, b.id, 10, 'History: class', 'history-' || gen_random_uuid(), 'paid', b.booked_at, b.booked_at
    from public.bookings b join h_classes c on c.id = b.class_id
   where b.type = 'payg';

  insert into public.refunds_owed (payment_id, member_id, member_name, member_email, description, class_start_time, amount, reason, created_at, refunded_at)
  select p.id, p.member_id, m.name, m.email, p.description, c.start_time, p.amount, 'admin_cancelled', p.paid_at, p.paid_at + interval '2 days'
    from public.payments p join h_classes c on c.id = p.class_id join h_members m on m.id = p.member_id
   where random() < 0.03 and p.paid_at + interval '2 days' < v_end;

  update public.classes c
     set current_bookings = n.taken, spots_left = c.capacity - n.taken
    from (select b.class_id, count(*)::int as taken from public.bookings b join h_classes h on h.id = b.class_id group by b.class_id) n
   where n.class_id = c.id;
end;
$$;

set session_replication_role = origin;

-- No trigger tallied the rows above (decision 0029): count every class's tally again.
select private.refill_class_tallies();

-- Fresh statistics for the planner (PGlite has no autovacuum to gather them).
analyze public.members, public.member_trials, public.memberships, public.membership_price_history, public.payments, public.refunds_owed, public.classes, public.bookings, public.late_cancellations;
