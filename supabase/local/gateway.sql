-- The local gateway's own database objects (local stack only; never part of supabase/migrations).
-- Applied after platform.sql and the migrations, idempotent. The gateway reaches these only
-- through PostgREST as service_role (Content-Profile: local_gateway); no other role may use them.

create schema if not exists local_gateway;
revoke all on schema local_gateway from public;
grant usage on schema local_gateway to service_role;

create table if not exists local_gateway.sessions (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now()
);

create table if not exists local_gateway.refresh_tokens (
  token text primary key,
  session_id uuid not null references local_gateway.sessions (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  parent text,
  revoked_at timestamptz,
  created_at timestamptz not null default now()
);
create index if not exists refresh_tokens_session_idx on local_gateway.refresh_tokens (session_id);

-- One-time email tokens (signup confirmation, recovery, and the two halves of an email change:
-- the link to the current address and the one to the new); only the hash is stored.
create table if not exists local_gateway.email_tokens (
  token_hash text primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  type text not null,
  redirect_to text,
  created_at timestamptz not null default now()
);
alter table local_gateway.email_tokens drop constraint if exists email_tokens_type_check;
alter table local_gateway.email_tokens add constraint email_tokens_type_check
  check (type in ('signup', 'recovery', 'email_change_current', 'email_change_new'));

-- The user as GoTrue returns it (plus the password hash, which the gateway never sends out).
create or replace function local_gateway.user_json(u auth.users) returns json
language sql stable set search_path = '' as $$
  select json_build_object(
    'id', u.id,
    'email', u.email,
    'encrypted_password', u.encrypted_password,
    'email_confirmed_at', u.email_confirmed_at,
    'confirmation_sent_at', u.confirmation_sent_at,
    'recovery_sent_at', u.recovery_sent_at,
    'email_change', nullif(u.email_change, ''),
    'email_change_sent_at', u.email_change_sent_at,
    'last_sign_in_at', u.last_sign_in_at,
    'raw_app_meta_data', coalesce(u.raw_app_meta_data, '{}'::jsonb),
    'raw_user_meta_data', coalesce(u.raw_user_meta_data, '{}'::jsonb),
    'created_at', u.created_at,
    'updated_at', u.updated_at
  )
$$;

create or replace function local_gateway.user_by_email(p_email text) returns json
language sql stable security definer set search_path = '' as $$
  select local_gateway.user_json(u) from auth.users u where lower(u.email) = lower(p_email)
$$;

create or replace function local_gateway.user_by_id(p_id uuid) returns json
language sql stable security definer set search_path = '' as $$
  select local_gateway.user_json(u) from auth.users u where u.id = p_id
$$;

create or replace function local_gateway.create_user(
  p_email text, p_password_hash text, p_user_metadata jsonb, p_confirmed boolean
) returns json
language plpgsql security definer set search_path = '' as $$
declare
  u auth.users;
begin
  insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at,
                          raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
  values (gen_random_uuid(), 'authenticated', 'authenticated', lower(p_email), p_password_hash,
          case when p_confirmed then now() end,
          '{"provider":"email","providers":["email"]}'::jsonb,
          coalesce(p_user_metadata, '{}'::jsonb), now(), now())
  returning * into u;
  return local_gateway.user_json(u);
end
$$;

-- Patches a user; null arguments leave the field unchanged. Metadata is merged (GoTrue semantics).
create or replace function local_gateway.update_user(
  p_id uuid,
  p_password_hash text default null,
  p_user_metadata jsonb default null,
  p_confirm boolean default false,
  p_signed_in boolean default false,
  p_confirmation_sent boolean default false,
  p_recovery_sent boolean default false,
  p_replace_metadata boolean default false
) returns json
language plpgsql security definer set search_path = '' as $$
declare
  u auth.users;
begin
  update auth.users set
    encrypted_password = coalesce(p_password_hash, encrypted_password),
    raw_user_meta_data = case
      when p_user_metadata is null then raw_user_meta_data
      when p_replace_metadata then p_user_metadata
      else coalesce(raw_user_meta_data, '{}'::jsonb) || p_user_metadata end,
    email_confirmed_at = case when p_confirm then coalesce(email_confirmed_at, now()) else email_confirmed_at end,
    last_sign_in_at = case when p_signed_in then now() else last_sign_in_at end,
    confirmation_sent_at = case when p_confirmation_sent then now() else confirmation_sent_at end,
    recovery_sent_at = case when p_recovery_sent then now() else recovery_sent_at end,
    updated_at = now()
  where id = p_id
  returning * into u;
  if u.id is null then return null; end if;
  return local_gateway.user_json(u);
end
$$;

create or replace function local_gateway.delete_user(p_id uuid) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  delete from auth.users where id = p_id;
  return found;
end
$$;

create or replace function local_gateway.create_session(p_user_id uuid, p_refresh_token text) returns uuid
language plpgsql security definer set search_path = '' as $$
declare
  sid uuid;
begin
  insert into local_gateway.sessions (user_id) values (p_user_id) returning id into sid;
  insert into local_gateway.refresh_tokens (token, session_id, user_id) values (p_refresh_token, sid, p_user_id);
  return sid;
end
$$;

-- Rotates a refresh token as GoTrue does (rotation on, reuse interval p_reuse_seconds):
-- - the parent of the session's active token (a client that lost the refresh answer) gets the
--   active token back;
-- - another revoked token presented within the reuse interval (two tabs refreshing at once)
--   gets the active token too;
-- - reuse after the interval is taken as a stolen token: every token of the session is revoked
--   and the answer is 'revoked'.
drop function if exists local_gateway.rotate_refresh_token(text, text, int);
create or replace function local_gateway.rotate_refresh_token(
  p_token text, p_new_token text, p_reuse_seconds int, p_now timestamptz
) returns json
language plpgsql security definer set search_path = '' as $$
declare
  t local_gateway.refresh_tokens;
  active local_gateway.refresh_tokens;
begin
  select * into t from local_gateway.refresh_tokens where token = p_token for update;
  if t.token is null then
    return json_build_object('status', 'not_found');
  end if;
  if t.revoked_at is not null then
    select * into active from local_gateway.refresh_tokens
     where session_id = t.session_id and revoked_at is null order by created_at desc limit 1;
    if active.token is not null
       and (active.parent = t.token or t.revoked_at > p_now - make_interval(secs => p_reuse_seconds)) then
      return json_build_object('status', 'ok', 'user_id', active.user_id, 'session_id', active.session_id,
                               'refresh_token', active.token);
    end if;
    update local_gateway.refresh_tokens set revoked_at = clock_timestamp()
     where session_id = t.session_id and revoked_at is null;
    return json_build_object('status', 'revoked');
  end if;
  update local_gateway.refresh_tokens set revoked_at = clock_timestamp() where token = p_token;
  insert into local_gateway.refresh_tokens (token, session_id, user_id, parent, created_at)
  values (p_new_token, t.session_id, t.user_id, p_token, clock_timestamp());
  return json_build_object('status', 'ok', 'user_id', t.user_id, 'session_id', t.session_id,
                           'refresh_token', p_new_token);
end
$$;

-- PKCE flow states (GoTrue's auth.flow_state): made when a sign-up or recovery asks for a link
-- with a code challenge; following the link issues its auth code, which /token?grant_type=pkce
-- exchanges once, with the verifier, for a session.
create table if not exists local_gateway.flow_states (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  auth_code text not null unique,
  code_challenge text not null,
  code_challenge_method text not null check (code_challenge_method in ('s256', 'plain')),
  authentication_method text not null,
  auth_code_issued_at timestamptz,
  created_at timestamptz not null default now()
);
alter table local_gateway.flow_states drop constraint if exists flow_states_authentication_method_check;
alter table local_gateway.flow_states add constraint flow_states_authentication_method_check
  check (authentication_method in ('signup', 'recovery', 'email_change'));
create index if not exists flow_states_user_idx on local_gateway.flow_states (user_id, authentication_method, created_at);

create or replace function local_gateway.create_flow_state(
  p_user_id uuid, p_auth_code text, p_code_challenge text, p_code_challenge_method text, p_authentication_method text
) returns void
language sql security definer set search_path = '' as $$
  insert into local_gateway.flow_states (user_id, auth_code, code_challenge, code_challenge_method, authentication_method)
  values (p_user_id, p_auth_code, p_code_challenge, lower(p_code_challenge_method), p_authentication_method)
$$;

-- The auth code of the user's latest flow state for that method, marked issued at p_now (auth's
-- clock, which the exchange's 5-minute limit reads back); null if none.
drop function if exists local_gateway.issue_auth_code(uuid, text);
create or replace function local_gateway.issue_auth_code(p_user_id uuid, p_authentication_method text, p_now timestamptz) returns text
language plpgsql security definer set search_path = '' as $$
declare
  f local_gateway.flow_states;
begin
  select * into f from local_gateway.flow_states
   where user_id = p_user_id and authentication_method = p_authentication_method
   order by created_at desc limit 1 for update;
  if f.id is null then return null; end if;
  update local_gateway.flow_states set auth_code_issued_at = p_now where id = f.id;
  return f.auth_code;
end
$$;

-- A flow state by its auth code (null when unknown); consume_flow_state then uses it up, once.
create or replace function local_gateway.flow_state_by_code(p_auth_code text) returns json
language sql stable security definer set search_path = '' as $$
  select json_build_object('user_id', f.user_id, 'code_challenge', f.code_challenge,
                           'code_challenge_method', f.code_challenge_method,
                           'authentication_method', f.authentication_method,
                           'auth_code_issued_at', f.auth_code_issued_at)
    from local_gateway.flow_states f where f.auth_code = p_auth_code
$$;

create or replace function local_gateway.consume_flow_state(p_auth_code text) returns boolean
language plpgsql security definer set search_path = '' as $$
begin
  delete from local_gateway.flow_states where auth_code = p_auth_code;
  return found;
end
$$;

create or replace function local_gateway.session_exists(p_session_id uuid) returns boolean
language sql stable security definer set search_path = '' as $$
  select exists (select 1 from local_gateway.sessions where id = p_session_id)
$$;

-- scope: 'global' (every session of the user), 'local' (this session), 'others' (all but this one).
create or replace function local_gateway.logout(p_user_id uuid, p_session_id uuid, p_scope text) returns int
language plpgsql security definer set search_path = '' as $$
declare
  n int;
begin
  delete from local_gateway.sessions
   where user_id = p_user_id
     and case p_scope
           when 'local' then id = p_session_id
           when 'others' then id is distinct from p_session_id
           else true end;
  get diagnostics n = row_count;
  return n;
end
$$;

create or replace function local_gateway.issue_email_token(
  p_user_id uuid, p_type text, p_token_hash text, p_redirect_to text
) returns void
language plpgsql security definer set search_path = '' as $$
begin
  delete from local_gateway.email_tokens where user_id = p_user_id and type = p_type;
  insert into local_gateway.email_tokens (token_hash, user_id, type, redirect_to)
  values (p_token_hash, p_user_id, p_type, p_redirect_to);
end
$$;

-- Uses up a one-time email token; returns {user_id, redirect_to} or null when unknown or expired.
create or replace function local_gateway.consume_email_token(
  p_token_hash text, p_type text, p_max_age_seconds int
) returns json
language plpgsql security definer set search_path = '' as $$
declare
  t local_gateway.email_tokens;
begin
  delete from local_gateway.email_tokens
   where token_hash = p_token_hash
     and (type = p_type
          or (p_type in ('signup', 'email', 'magiclink') and type = 'signup')
          or (p_type = 'email_change' and type in ('email_change_current', 'email_change_new')))
  returning * into t;
  if t.token_hash is null or t.created_at < now() - make_interval(secs => p_max_age_seconds) then
    return null;
  end if;
  return json_build_object('user_id', t.user_id, 'redirect_to', t.redirect_to, 'type', t.type);
end
$$;

-- PUT /user with a new address: the change waits for its confirmation links (GoTrue's
-- sendEmailChange). A new request replaces a pending one: its status starts again at 0. p_now is
-- auth's clock, which its one-a-minute limit reads back.
create or replace function local_gateway.request_email_change(p_user_id uuid, p_new_email text, p_now timestamptz) returns json
language plpgsql security definer set search_path = '' as $$
declare
  u auth.users;
begin
  update auth.users
     set email_change = lower(p_new_email), email_change_sent_at = p_now, email_change_confirm_status = 0, updated_at = now()
   where id = p_user_id
  returning * into u;
  if u.id is null then return null; end if;
  return local_gateway.user_json(u);
end
$$;

-- A followed email change link (its token already consumed), GoTrue's emailChangeVerify: with
-- secure email change the first of the two links only counts ('pending'); the second (or the only
-- one, without secure change) moves the address and drops what is left of the change ('changed',
-- with the user). Null when no change is pending; 'email_exists' when the address was taken since.
create or replace function local_gateway.confirm_email_change(p_user_id uuid, p_secure boolean) returns json
language plpgsql security definer set search_path = '' as $$
declare
  u auth.users;
begin
  select * into u from auth.users where id = p_user_id for update;
  if u.id is null or coalesce(u.email_change, '') = '' then return null; end if;
  if p_secure and coalesce(u.email_change_confirm_status, 0) = 0 and coalesce(u.email, '') <> '' then
    update auth.users set email_change_confirm_status = 1, updated_at = now() where id = p_user_id;
    return json_build_object('status', 'pending');
  end if;
  begin
    update auth.users
       set email = u.email_change, email_change = '', email_change_token_new = '', email_change_token_current = '',
           email_change_confirm_status = 0, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
     where id = p_user_id
    returning * into u;
  exception when unique_violation then
    return json_build_object('status', 'email_exists');
  end;
  delete from local_gateway.email_tokens where user_id = p_user_id and type in ('email_change_current', 'email_change_new');
  return json_build_object('status', 'changed', 'user', local_gateway.user_json(u));
end
$$;

revoke all on all tables in schema local_gateway from public, anon, authenticated;
revoke all on all functions in schema local_gateway from public, anon, authenticated;
grant execute on all functions in schema local_gateway to service_role;

-- Realtime: every table of the supabase_realtime publication notifies the gateway of its row
-- changes after they commit (NOTIFY is delivered at commit; a rolled-back change never is).
create or replace function local_gateway.notify_change() returns trigger
language plpgsql security definer set search_path = '' as $$
declare
  rel regclass := TG_RELID;
begin
  perform pg_notify('local_gateway_realtime', json_build_object(
    'schema', TG_TABLE_SCHEMA,
    'table', TG_TABLE_NAME,
    'type', TG_OP,
    'commit_timestamp', to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
    'record', case when TG_OP <> 'DELETE' then to_jsonb(NEW) end,
    'old_record', case when TG_OP <> 'INSERT' then to_jsonb(OLD) end,
    'columns', (select json_agg(json_build_object('name', a.attname, 'type', t.typname) order by a.attnum)
                  from pg_catalog.pg_attribute a join pg_catalog.pg_type t on t.oid = a.atttypid
                 where a.attrelid = rel and a.attnum > 0 and not a.attisdropped),
    'primary_key', (select json_agg(a.attname)
                      from pg_catalog.pg_index i
                      join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any (i.indkey)
                     where i.indrelid = rel and i.indisprimary),
    -- What logical replication would carry of the old row ('d' key only, 'f' full) and whether
    -- RLS is on: hosted Realtime's old_record and DELETE filters depend on both.
    'replica_identity', (select c.relreplident from pg_catalog.pg_class c where c.oid = rel),
    'rls_enabled', (select c.relrowsecurity from pg_catalog.pg_class c where c.oid = rel)
  )::text);
  return null;
end
$$;

do $$
declare
  r record;
begin
  for r in select schemaname, tablename from pg_catalog.pg_publication_tables where pubname = 'supabase_realtime'
  loop
    execute format('drop trigger if exists local_gateway_realtime on %I.%I', r.schemaname, r.tablename);
    execute format('create trigger local_gateway_realtime after insert or update or delete on %I.%I '
                   'for each row execute function local_gateway.notify_change()', r.schemaname, r.tablename);
  end loop;
end
$$;

-- Deliveries: a new email, push or text (or an admin's retry of a failed one) wakes the local stack's
-- senders at once (OUTBOX_CHANNEL, supabase/local/mail/outbox-pump.ts). Local only: NOTIFY takes
-- a database-wide lock at commit, which would serialise production's booking commits;
-- production's senders run on a schedule.
create or replace function local_gateway.notify_outbox() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform pg_notify('notification_outbox', TG_TABLE_NAME);
  return null;
end
$$;

drop trigger if exists local_gateway_outbox_insert on public.notification_deliveries;
create trigger local_gateway_outbox_insert after insert on public.notification_deliveries
  for each statement execute function local_gateway.notify_outbox();

drop trigger if exists local_gateway_outbox_retry on public.notification_deliveries;
create trigger local_gateway_outbox_retry after update on public.notification_deliveries
  for each row when (old.failed_at is not null and new.failed_at is null and new.sent_at is null)
  execute function local_gateway.notify_outbox();

-- Pushes: the stack's own push service (supabase/local/push) hands out endpoints on loopback,
-- http://127.0.0.1:<port>/push/v1/send/<id>, which save_push_subscription accepts only where this
-- setting says the local stack runs (supabase/schemas/20_push.sql: hosted accepts only the
-- browsers' push services). Written here because this file is applied on every start of the
-- stack, after the migrations, and never to hosted.
update private.push_settings set local_push_service = true where id and not local_push_service;
