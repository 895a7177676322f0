-- Importing members from another platform or a spreadsheet (decision 0065): the admin's
-- CSV, read and mapped in the browser or the CLI (src/features/import), arrives here as one jsonb
-- array of rows. One function both previews and writes: the preview runs every row's writes and
-- then rolls them all back, so what it says is exactly what the confirmed import does. Confirmed,
-- every valid row is written in the caller's one transaction; a refused row writes nothing.
--
-- A member is matched by email (case ignored; the spaces around it are trimmed): an
-- existing one is updated, never duplicated, and their sign-in is never touched. A new one is a
-- members row with no auth user: "Send invitations" (netlify/functions/invite-members.ts) invites
-- each by email, and signing up links the row (create_member_for_user, 01_members.sql). A plan is
-- put on through put_member_on_plan (07_memberships.sql) at the file's price, then its current
-- period is the one the member already paid elsewhere, ending on the file's next payment date: no
-- card is charged now, and the renewal on that date asks the member for a card. Sessions left on a
-- package are credits (source 'import', 09_credits.sql); children are dependants (21_families.sql).
-- Re-importing the same file matches every row and changes nothing.

-- Which members came in through an import, and whether they were invited --------------------------
create table public.member_imports (
  id uuid primary key default gen_random_uuid(),
  -- The admin who confirmed it; null when the CLI ran it with the service key.
  imported_by uuid references public.members (id) on delete set null,
  rows_in_file integer not null check (rows_in_file >= 0),
  created integer not null check (created >= 0),
  updated integer not null check (updated >= 0),
  unchanged integer not null check (unchanged >= 0),
  refused integer not null check (refused >= 0),
  created_at timestamptz not null default now()
);

comment on table public.member_imports is
  'Each confirmed member import that changed something: who ran it and what it did (the preview''s counts).';

create index member_imports_imported_by_idx on public.member_imports (imported_by);

alter table public.member_imports enable row level security;

revoke all on public.member_imports from public, anon, authenticated;

grant select on public.member_imports to authenticated;

grant all on public.member_imports to service_role;

create policy "Admins read the imports" on public.member_imports for select to authenticated
  using ((select private.is_admin()));

create table public.imported_members (
  member_id uuid primary key references public.members (id) on delete cascade,
  import_id uuid not null references public.member_imports (id) on delete cascade,
  -- When "Send invitations" sent this member the link to set a password (once).
  invited_at timestamptz
);

comment on table public.imported_members is
  'Members an import created; "Send invitations" invites those without a sign-in yet, once each.';

create index imported_members_import_id_idx on public.imported_members (import_id);

alter table public.imported_members enable row level security;

revoke all on public.imported_members from public, anon, authenticated;

grant select on public.imported_members to authenticated;

grant all on public.imported_members to service_role;

create policy "Admins read the imported members" on public.imported_members for select to authenticated
  using ((select private.is_admin()));

-- Rules ------------------------------------------------------------------------------------------
-- The admin, or the service role (the CLI with the service key); anyone else is refused.
create function private.require_importer()
returns uuid
language plpgsql stable security definer set search_path = ''
as $$
begin
  if (select auth.role()) = 'service_role' then
    return null;
  end if;
  perform private.require_admin();
  return private.current_member_id();
end;
$$;

revoke execute on function private.require_importer() from public;

-- A date the file gave as yyyy-mm-dd (the reader turns dd/mm/yyyy into it), or null when the text
-- is no such date (31/02/1990 is refused, never rolled over to March).
create function private.import_date(p_text text)
returns date
language plpgsql immutable set search_path = ''
as $$
begin
  if p_text is null or p_text !~ '^\d{4}-\d{2}-\d{2}$' then
    return null;
  end if;
  if to_char(to_date(p_text, 'YYYY-MM-DD'), 'YYYY-MM-DD') <> p_text then
    return null;
  end if;
  return p_text::date;
exception when others then
  return null;
end;
$$;

revoke execute on function private.import_date(text) from public;

-- A file's text field: trimmed, null when empty. Stored as given otherwise (escaping is the
-- screens' and the CSV exports' job, never the data's).
create function private.import_text(p_row jsonb, p_key text)
returns text
language sql immutable set search_path = ''
as $$ select nullif(btrim(p_row ->> p_key), '') $$;

revoke execute on function private.import_text(jsonb, text) from public;

-- What one row's values break, as the preview says them. Empty when the row can be written.
create function private.import_row_problems(p_row jsonb, p_today date)
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

-- Writes one valid member row; returns what it did ('created'/'updated'/'unchanged' and the words).
create function private.import_member_row(p_row jsonb, p_import_id uuid, p_now timestamptz)
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

-- Writes one valid child row under their guardian; returns what it did.
create function private.import_child_row(p_row jsonb)
returns jsonb
language plpgsql security definer set search_path = ''
as $$
declare
  v_guardian public.members;
  v_name text := private.import_text(p_row, 'name');
  v_dob date := private.import_date(private.import_text(p_row, 'date_of_birth'));
  v_id uuid;
begin
  select * into v_guardian from public.members where lower(email::text) = lower(private.import_text(p_row, 'guardian_email'));
  if not found then
    raise exception 'Guardian % is in neither the file nor the studio.', private.import_text(p_row, 'guardian_email')
      using errcode = 'P0002', hint = 'import_no_guardian';
  end if;
  select d.id into v_id from public.dependants d
   where d.parent_member_id = v_guardian.id and lower(btrim(d.name)) = lower(v_name) and d.date_of_birth = v_dob;
  if v_id is not null then
    return jsonb_build_object('outcome', 'unchanged',
                              'actions', jsonb_build_array(format('Already a child of %s.', v_guardian.email)));
  end if;
  insert into public.dependants (parent_member_id, name, date_of_birth) values (v_guardian.id, v_name, v_dob);
  return jsonb_build_object('outcome', 'created',
                            'actions', jsonb_build_array(format('New child of %s.', v_guardian.email)));
end;
$$;

revoke execute on function private.import_child_row(jsonb) from public;

-- The preview (p_commit false: everything is written, reported and rolled back) or the import
-- (p_commit true). p_rows: [{line, name, email, phone, date_of_birth, emergency_contact_name,
-- emergency_contact_phone, plan, plan_price, next_payment_date, package_sessions, package_expiry,
-- guardian_email}], dates as yyyy-mm-dd.
-- Returns {rows: [{line, kind, name, email, outcome, actions, refusals}], created, updated,
-- unchanged, refused, import_id}. A row refused by a rule here or by any of the database's own
-- checks writes nothing; the other rows are written all together.
create function private.admin_import_members(p_rows jsonb, p_commit boolean, p_now timestamptz)
returns jsonb
language plpgsql security definer set search_path = ''
as $$
declare
  v_admin uuid := private.require_importer();
  v_today date := (p_now at time zone 'Europe/London')::date;
  v_import_id uuid := gen_random_uuid();
  v_row jsonb;
  v_pass integer;
  v_problems text[];
  v_result jsonb;
  v_results jsonb := '{}';
  v_seen jsonb := '{}';
  v_key text;
  v_child boolean;
  v_out jsonb := '[]';
  v_counts jsonb;
  v_line integer;
begin
  if p_rows is null or jsonb_typeof(p_rows) <> 'array' then
    raise exception 'Send the rows as a list.' using errcode = '22023', hint = 'invalid_import';
  end if;
  if jsonb_array_length(p_rows) > 2000 then
    raise exception 'At most 2000 rows at once: split the file.' using errcode = '22023', hint = 'invalid_import';
  end if;
  begin
    insert into public.member_imports (id, imported_by, rows_in_file, created, updated, unchanged, refused)
    values (v_import_id, v_admin, jsonb_array_length(p_rows), 0, 0, 0, 0);
    -- Adults first (pass 1), so a child's guardian further down the file exists by pass 2.
    for v_pass in 1..2 loop
      for v_row in select value from jsonb_array_elements(p_rows) loop
        v_child := private.import_text(v_row, 'guardian_email') is not null;
        continue when (v_pass = 1) = v_child;
        v_line := coalesce((v_row ->> 'line')::integer, 0);
        v_problems := private.import_row_problems(v_row, v_today);
        -- The same person twice in one file: the first row wins, the later one is refused.
        v_key := case when v_child
                      then lower(private.import_text(v_row, 'guardian_email')) || '|' || lower(coalesce(private.import_text(v_row, 'name'), '')) || '|' || coalesce(private.import_text(v_row, 'date_of_birth'), '')
                      else lower(coalesce(private.import_text(v_row, 'email'), '')) end;
        if cardinality(v_problems) = 0 and v_seen ? v_key then
          v_problems := array[format('The same %s as row %s.', case when v_child then 'child' else 'email' end, v_seen ->> v_key)];
        end if;
        if cardinality(v_problems) = 0 and v_child
           and not exists (select 1 from public.members
                            where lower(email::text) = lower(private.import_text(v_row, 'guardian_email'))) then
          v_problems := array[format('Guardian %s is in neither the file nor the studio%s.', private.import_text(v_row, 'guardian_email'),
            case when exists (select 1 from jsonb_array_elements(p_rows) r
                               where lower(btrim(r ->> 'email')) = lower(private.import_text(v_row, 'guardian_email')))
                 then ' (their row is refused)' else '' end)];
        end if;
        if cardinality(v_problems) = 0 then
          begin
            v_result := case when v_child then private.import_child_row(v_row)
                             else private.import_member_row(v_row, v_import_id, p_now) end;
            v_seen := v_seen || jsonb_build_object(v_key, v_line);
          exception when others then
            -- The database's own rules (a check, a plan rule) refuse the row; nothing of it stays.
            v_problems := array[sqlerrm];
          end;
        end if;
        if cardinality(v_problems) > 0 then
          v_result := jsonb_build_object('outcome', 'refused', 'actions', '[]'::jsonb);
        end if;
        v_results := v_results || jsonb_build_object(v_line::text, v_result || jsonb_build_object(
          'line', v_line, 'kind', case when v_child then 'child' else 'member' end,
          'name', private.import_text(v_row, 'name'),
          'email', coalesce(private.import_text(v_row, 'email'), private.import_text(v_row, 'guardian_email')),
          'refusals', to_jsonb(v_problems)));
      end loop;
    end loop;
    select coalesce(jsonb_agg(value order by (value ->> 'line')::integer), '[]') into v_out from jsonb_each(v_results);
    select jsonb_build_object(
             'created', count(*) filter (where value ->> 'outcome' = 'created'),
             'updated', count(*) filter (where value ->> 'outcome' = 'updated'),
             'unchanged', count(*) filter (where value ->> 'outcome' = 'unchanged'),
             'refused', count(*) filter (where value ->> 'outcome' = 'refused'))
      into v_counts from jsonb_array_elements(v_out);
    if not p_commit then
      raise exception 'preview' using errcode = 'IMPRV';
    end if;
  exception when sqlstate 'IMPRV' then
    -- The preview: every write above is undone; what it would do is returned below.
    null;
  end;
  if p_commit and (v_counts ->> 'created')::integer + (v_counts ->> 'updated')::integer > 0 then
    update public.member_imports
       set created = (v_counts ->> 'created')::integer, updated = (v_counts ->> 'updated')::integer,
           unchanged = (v_counts ->> 'unchanged')::integer, refused = (v_counts ->> 'refused')::integer, created_at = p_now
     where id = v_import_id;
  elsif p_commit then
    -- Nothing changed (the same file again): no import is recorded either.
    delete from public.member_imports where id = v_import_id;
  end if;
  return v_counts || jsonb_build_object('rows', v_out, 'committed', p_commit,
    'import_id', case when p_commit and exists (select 1 from public.member_imports where id = v_import_id) then v_import_id end);
end;
$$;

revoke execute on function private.admin_import_members(jsonb, boolean, timestamptz) from public;

grant execute on function private.admin_import_members(jsonb, boolean, timestamptz) to authenticated, service_role;

-- Imported members who have no sign-in and were not invited yet: "Send invitations" invites them.
create function private.admin_members_to_invite()
returns table (member_id uuid, email text, name text)
language plpgsql stable security definer set search_path = ''
as $$
begin
  perform private.require_importer();
  return query
    select m.id, m.email::text, m.name
      from public.imported_members i join public.members m on m.id = i.member_id
     where i.invited_at is null and m.user_id is null
     order by m.email;
end;
$$;

revoke execute on function private.admin_members_to_invite() from public;

grant execute on function private.admin_members_to_invite() to authenticated, service_role;

-- Records that a member was sent their invitation (by the function that sent it, service role).
create function private.mark_member_invited(p_member_id uuid, p_now timestamptz)
returns boolean
language plpgsql security definer set search_path = ''
as $$
begin
  update public.imported_members set invited_at = p_now where member_id = p_member_id and invited_at is null;
  return found;
end;
$$;

revoke execute on function private.mark_member_invited(uuid, timestamptz) from public;

grant execute on function private.mark_member_invited(uuid, timestamptz) to service_role;

-- Asking for a card before an imported plan's first renewal ------------------------------------------
-- How long before the next payment date the file gave the member is told a card will be needed.
create function private.import_card_request_ahead()
returns interval
language sql immutable set search_path = ''
as $$ select interval '7 days' $$;

revoke execute on function private.import_card_request_ahead() from public;

-- A plan carried over by an import is paid up to the file's next payment date and has no card
-- here: the period the import counts as paid (period_number = anchor_period) with no payment of its
-- own. Within import_card_request_ahead() of that date its member is emailed once (the key is the
-- membership and the renewal it is about) that the payment is due then and asked to add a card on
-- the membership page now, which charges nothing (decision 0104); a member with a saved card is not, and neither is one the admin has not
-- invited yet (no email goes out before "Send invitations"). The renewal reminder, which speaks of
-- a saved card, skips these plans (07_memberships.sql). Runs with the hourly reminders.
create function private.enqueue_import_card_requests(p_now timestamptz)
returns integer
language plpgsql security definer set search_path = ''
as $$
declare
  v_m public.memberships;
  v_count integer := 0;
begin
  for v_m in
    select ms.* from public.memberships ms
      join public.members m on m.id = ms.member_id
     where ms.status = 'active' and ms.renews and ms.ended_at is null
       and ms.period_number = ms.anchor_period
       and ms.period_end > p_now and ms.period_end <= p_now + private.import_card_request_ahead()
       and not exists (select 1 from private.member_cards c where c.member_id = ms.member_id)
       and not exists (select 1 from public.payments p
                        where p.membership_id = ms.id and p.status = 'paid' and p.period_number >= ms.anchor_period)
       and (m.user_id is not null
            or exists (select 1 from public.imported_members i where i.member_id = m.id and i.invited_at is not null))
  loop
    if private.enqueue_membership_email('import_card_request', v_m.member_id,
         'Your ' || private.plan_name(v_m.plan_slug) || ' membership: a card is needed on '
           || private.london_date_text(v_m.period_end),
         array['Your ' || private.plan_name(v_m.plan_slug) || ' membership carried over from your previous studio is paid up to '
                 || private.london_date_text(v_m.period_end) || '.',
               'That day the next payment of ' || private.gbp(v_m.price) || ' is due here, and there is no card saved for it yet. '
                 || 'Add one now with "Add a card" on your membership page: nothing is charged when you add it, and the payment '
                 || 'is taken with it on that day.'],
         jsonb_build_array(jsonb_build_object('label', 'Add a card', 'path', '/membership')),
         'import_card_request:' || v_m.id || ':' || (v_m.period_number + 1)) is not null then
      v_count := v_count + 1;
    end if;
  end loop;
  return v_count;
end;
$$;

revoke execute on function private.enqueue_import_card_requests(timestamptz) from public;

grant execute on function private.enqueue_import_card_requests(timestamptz) to service_role;

-- API --------------------------------------------------------------------------------------------
-- One row of the preview (or of the import that followed it), as the screen lists it.
create type public.import_row_outcome as (
  line integer,
  kind text,
  name text,
  email text,
  outcome text,
  actions text[],
  refusals text[]
);

create function public.admin_import_members(p_rows jsonb, p_commit boolean default false)
returns setof public.import_row_outcome
language sql volatile security invoker set search_path = ''
as $$
  select r.* from jsonb_populate_recordset(null::public.import_row_outcome,
                                           private.admin_import_members(p_rows, p_commit, now()) -> 'rows') r
$$;

revoke execute on function public.admin_import_members(jsonb, boolean) from public, anon;

grant execute on function public.admin_import_members(jsonb, boolean) to authenticated, service_role;

create function public.admin_members_to_invite()
returns table (member_id uuid, email text, name text)
language sql stable security invoker set search_path = ''
as $$ select * from private.admin_members_to_invite() $$;

revoke execute on function public.admin_members_to_invite() from public, anon;

grant execute on function public.admin_members_to_invite() to authenticated, service_role;

create function public.mark_member_invited(p_member_id uuid)
returns boolean
language sql volatile security invoker set search_path = ''
as $$ select private.mark_member_invited(p_member_id, now()) $$;

revoke execute on function public.mark_member_invited(uuid) from public, anon, authenticated;

grant execute on function public.mark_member_invited(uuid) to service_role;
