-- The member import maps an emergency contact (name and phone) onto members, validated as Edit
-- Profile validates it; an existing member's contact changes only where the file has one.
create or replace function private.import_row_problems(p_row jsonb, p_today date)
returns text[]
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_problems text[] := '{}';
  v_child boolean := private.import_text(p_row, 'guardian_email') is not null;
  v_name text := private.import_text(p_row, 'name');
  v_email text := private.import_text(p_row, 'email');
  v_guardian text := private.import_text(p_row, 'guardian_email');
  v_phone text := private.import_text(p_row, 'phone');
  v_contact_name text := private.import_text(p_row, 'emergency_contact_name');
  v_contact_phone text := private.import_text(p_row, 'emergency_contact_phone');
  v_dob_text text := private.import_text(p_row, 'date_of_birth');
  v_dob date := private.import_date(private.import_text(p_row, 'date_of_birth'));
  v_plan text := private.import_text(p_row, 'plan');
  v_price_text text := private.import_text(p_row, 'plan_price');
  v_next_text text := private.import_text(p_row, 'next_payment_date');
  v_next date := private.import_date(private.import_text(p_row, 'next_payment_date'));
  v_sessions_text text := private.import_text(p_row, 'package_sessions');
  v_expiry_text text := private.import_text(p_row, 'package_expiry');
  v_expiry date := private.import_date(private.import_text(p_row, 'package_expiry'));
  v_price numeric;
  v_email_re constant text := '^[^@\s<>(),;:"\[\]]+@[^@\s<>(),;:"\[\]]+\.[^@\s<>(),;:"\[\]]+$';
begin
  if v_name is null then
    v_problems := v_problems || 'No name.'::text;
  elsif char_length(v_name) > (case when v_child then 200 else 100 end) then
    v_problems := v_problems || format('The name is longer than %s characters.', case when v_child then 200 else 100 end);
  end if;
  if v_child then
    if v_guardian !~ v_email_re then
      v_problems := v_problems || format('Guardian email "%s" is not an email address.', v_guardian);
    end if;
    if v_dob_text is null then
      v_problems := v_problems || 'A child needs a date of birth.'::text;
    end if;
    if v_plan is not null or v_sessions_text is not null then
      v_problems := v_problems || 'A child has no plan or package of their own: put it on the guardian''s row.'::text;
    end if;
  elsif v_email is null then
    v_problems := v_problems || 'No email (a child''s row needs a guardian email).'::text;
  elsif v_email !~ v_email_re or char_length(v_email) > 320 then
    v_problems := v_problems || format('Email "%s" is not an email address.', v_email);
  end if;
  if v_phone is not null and (char_length(v_phone) > 40 or not private.is_phone_number(v_phone)) then
    v_problems := v_problems || format('Phone "%s" is not a phone number.', v_phone);
  end if;
  -- The emergency contact as Edit Profile takes it: any name up to 200 characters, a phone number.
  -- A child (a dependant) has no contact of their own: the guardian is it.
  if v_child and (v_contact_name is not null or v_contact_phone is not null) then
    v_problems := v_problems || 'A child''s emergency contact is their guardian: put it on the guardian''s row.'::text;
  end if;
  if v_contact_name is not null and char_length(v_contact_name) > 200 then
    v_problems := v_problems || 'The emergency contact name is longer than 200 characters.'::text;
  end if;
  if v_contact_phone is not null and (char_length(v_contact_phone) > 40 or not private.is_phone_number(v_contact_phone)) then
    v_problems := v_problems || format('Emergency contact phone "%s" is not a phone number.', v_contact_phone);
  end if;
  if v_dob_text is not null then
    if v_dob is null then
      v_problems := v_problems || format('Date of birth "%s" is not a date.', v_dob_text);
    elsif v_dob < date '1900-01-01' or v_dob > p_today then
      v_problems := v_problems || format('Date of birth %s is impossible.', to_char(v_dob, 'DD/MM/YYYY'));
    end if;
  end if;
  if v_plan is not null then
    if not exists (select 1 from public.plans p
                    where p.category = 'membership' and not p.requires_proof
                      and (p.slug = lower(v_plan) or lower(p.name) = lower(v_plan))) then
      v_problems := v_problems || format('Unknown plan "%s": choose Standard or Platinum Premium.', v_plan);
    end if;
    if v_price_text is null then
      v_problems := v_problems || 'A plan needs its monthly price.'::text;
    else
      v_price := case when v_price_text ~ '^-?\d+(\.\d+)?$' then v_price_text::numeric end;
      if v_price is null then
        v_problems := v_problems || format('Plan price "%s" is not an amount.', v_price_text);
      elsif v_price <= 0 then
        v_problems := v_problems || format('Plan price %s is not more than £0.', v_price_text);
      elsif v_price > 1000 or v_price <> round(v_price, 2) then
        v_problems := v_problems || format('Plan price %s is not between £0.01 and £1000.', v_price_text);
      end if;
    end if;
    if v_next_text is null then
      v_problems := v_problems || 'A plan needs its next payment date.'::text;
    elsif v_next is null then
      v_problems := v_problems || format('Next payment date "%s" is not a date.', v_next_text);
    elsif v_next <= p_today then
      v_problems := v_problems || format('Next payment date %s is not after today.', to_char(v_next, 'DD/MM/YYYY'));
    end if;
  elsif v_price_text is not null or v_next_text is not null then
    v_problems := v_problems || 'A plan price or next payment date without a plan.'::text;
  end if;
  if v_sessions_text is not null then
    if v_sessions_text !~ '^\d+$' or v_sessions_text::numeric > 200 then
      v_problems := v_problems || format('Package sessions left "%s" is not a whole number from 0 to 200.', v_sessions_text);
    elsif v_sessions_text::integer > 0 then
      if v_expiry_text is null then
        v_problems := v_problems || 'Package sessions need their expiry date.'::text;
      elsif v_expiry is null then
        v_problems := v_problems || format('Package expiry "%s" is not a date.', v_expiry_text);
      elsif v_expiry < p_today then
        v_problems := v_problems || format('Package expiry %s has passed.', to_char(v_expiry, 'DD/MM/YYYY'));
      end if;
    end if;
  elsif v_expiry_text is not null then
    v_problems := v_problems || 'A package expiry without sessions left.'::text;
  end if;
  return v_problems;
end;
$$;

revoke execute on function private.import_row_problems(jsonb, date) from public;

create or replace function private.import_member_row(p_row jsonb, p_import_id uuid, p_now timestamptz)
returns jsonb
language plpgsql security definer set search_path = ''
as $$
declare
  v_email text := private.import_text(p_row, 'email');
  v_name text := private.import_text(p_row, 'name');
  v_phone text := private.import_text(p_row, 'phone');
  v_contact_name text := private.import_text(p_row, 'emergency_contact_name');
  v_contact_phone text := private.import_text(p_row, 'emergency_contact_phone');
  v_dob date := private.import_date(private.import_text(p_row, 'date_of_birth'));
  v_plan public.plans;
  v_price numeric := private.import_text(p_row, 'plan_price')::numeric;
  v_next date := private.import_date(private.import_text(p_row, 'next_payment_date'));
  v_sessions integer := coalesce(private.import_text(p_row, 'package_sessions')::integer, 0);
  v_expiry date := private.import_date(private.import_text(p_row, 'package_expiry'));
  v_member public.members;
  v_m public.memberships;
  v_outcome text;
  v_actions text[] := '{}';
  v_changed text[] := '{}';
  v_due timestamptz;
  v_added integer;
begin
  select * into v_member from public.members where lower(email::text) = lower(v_email) for update;
  if not found then
    insert into public.members (email, name, phone, date_of_birth, emergency_contact_name, emergency_contact_phone)
    values (v_email, v_name, v_phone, v_dob, v_contact_name, v_contact_phone)
    returning * into v_member;
    insert into public.imported_members (member_id, import_id) values (v_member.id, p_import_id);
    v_outcome := 'created';
    v_actions := v_actions || format('New member %s.', v_email);
  else
    -- The file fills in and corrects the profile; an empty cell leaves what the studio has.
    if v_name is distinct from v_member.name and v_name is not null then v_changed := v_changed || 'name'::text; end if;
    if v_phone is distinct from v_member.phone and v_phone is not null then v_changed := v_changed || 'phone'::text; end if;
    if v_dob is distinct from v_member.date_of_birth and v_dob is not null then v_changed := v_changed || 'date of birth'::text; end if;
    if v_contact_name is distinct from v_member.emergency_contact_name and v_contact_name is not null then
      v_changed := v_changed || 'emergency contact name'::text;
    end if;
    if v_contact_phone is distinct from v_member.emergency_contact_phone and v_contact_phone is not null then
      v_changed := v_changed || 'emergency contact phone'::text;
    end if;
    if cardinality(v_changed) > 0 then
      update public.members
         set name = coalesce(v_name, name), phone = coalesce(v_phone, phone), date_of_birth = coalesce(v_dob, date_of_birth),
             emergency_contact_name = coalesce(v_contact_name, emergency_contact_name),
             emergency_contact_phone = coalesce(v_contact_phone, emergency_contact_phone)
       where id = v_member.id
      returning * into v_member;
      v_actions := v_actions || format('Existing member %s: %s updated.', v_member.email, array_to_string(v_changed, ', '));
    else
      v_actions := v_actions || format('Existing member %s.', v_member.email);
    end if;
    v_outcome := case when cardinality(v_changed) > 0 then 'updated' else 'unchanged' end;
  end if;

  if private.import_text(p_row, 'plan') is not null then
    select * into v_plan from public.plans p
     where p.category = 'membership' and not p.requires_proof
       and (p.slug = lower(private.import_text(p_row, 'plan')) or lower(p.name) = lower(private.import_text(p_row, 'plan')));
    select * into v_m from public.memberships where member_id = v_member.id;
    if v_m.id is not null and v_m.ended_at is null and v_m.status <> 'trialing' then
      if v_m.plan_slug is distinct from v_plan.slug or v_m.price is distinct from v_price then
        raise exception 'Already on % at %/month: change their plan in Members Management.',
          (select p.name from public.plans p where p.slug = v_m.plan_slug), private.gbp(v_m.price)
          using errcode = 'P0001', hint = 'import_plan_conflict';
      end if;
      v_actions := v_actions || format('Already on %s at %s/month.', v_plan.name, private.gbp(v_price));
    else
      perform private.put_member_on_plan(v_member.id, v_plan.slug, v_price, p_now);
      -- The month up to the next payment date was paid at the old studio: it counts as paid here
      -- (the member has the plan's tier now) and the renewal on that date is the first charge.
      v_due := v_next::timestamp at time zone 'Europe/London';
      update public.memberships
         set period_number = anchor_period, anchor_at = private.months_after(v_due, -1),
             period_start = least(private.months_after(v_due, -1), p_now), period_end = v_due, updated_at = p_now
       where member_id = v_member.id
      returning * into v_m;
      perform private.sync_member_from_membership(v_m);
      v_actions := v_actions || format('%s at %s/month, next payment %s (no card charged now).', v_plan.name,
                                       private.gbp(v_price), to_char(v_next, 'DD/MM/YYYY'));
      v_outcome := case when v_outcome = 'unchanged' then 'updated' else v_outcome end;
    end if;
  end if;

  if v_sessions > 0 then
    -- One grant per member and expiry date: importing the same file again adds nothing.
    v_added := private.grant_credits(v_member.id, 'personal_training', v_sessions, 'import',
      'import:' || v_member.id || ':' || v_expiry, p_now, (v_expiry + 1)::timestamp at time zone 'Europe/London',
      null, null, null, null, null, null, 'Sessions left on a package at import');
    if v_added > 0 then
      v_actions := v_actions || format('%s personal-training sessions, expiring %s.', v_added, to_char(v_expiry, 'DD/MM/YYYY'));
      v_outcome := case when v_outcome = 'unchanged' then 'updated' else v_outcome end;
    else
      v_actions := v_actions || format('Already has the %s sessions expiring %s.', v_sessions, to_char(v_expiry, 'DD/MM/YYYY'));
    end if;
  end if;
  return jsonb_build_object('outcome', v_outcome, 'actions', to_jsonb(v_actions));
end;
$$;

revoke execute on function private.import_member_row(jsonb, uuid, timestamptz) from public;

