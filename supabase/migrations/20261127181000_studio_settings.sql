-- The studio's identity comes from one file the owner edits, studio.config.json (issue 31): the
-- database's copy of what its emails print moves from two constant functions into one settings
-- row, which the local stack writes from that file on every start and hosted gets from
-- `npm run studio:sql`.

-- The studio's identity as the database's emails print it, one row. Written from the one file the
-- owner edits, studio.config.json (src/config/studio.ts reads it for the site and the functions):
-- by the local stack on every start, and on hosted by running what `npm run studio:sql` prints
-- (README, "The studio's identity"). A test checks the two agree. The row below is the default
-- file's, so a fresh database prints something until then.
create table private.studio_settings (
  id boolean primary key default true check (id),
  -- One line: 'Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom'.
  address text not null check (char_length(address) between 1 and 300),
  -- Where Contact Us messages go.
  email text not null check (email ~ '^[^@\s]+@[^@\s]+$'),
  updated_at timestamptz not null default now()
);

revoke all on private.studio_settings from public, anon, authenticated;

insert into private.studio_settings (address, email)
values ('Example Community Hall, 1 Example Street, London E8 0XX, United Kingdom', 'hello@finerfitness.example');

-- The studio's address as emails print it (private.studio_settings).
create or replace function private.studio_address()
returns text
language sql stable security definer set search_path = ''
as $$ select address from private.studio_settings $$;

revoke execute on function private.studio_address() from public;

-- The studio's inbox for Contact Us messages (private.studio_settings).
create or replace function private.studio_email()
returns text
language sql stable security definer set search_path = ''
as $$ select email from private.studio_settings $$;

revoke execute on function private.studio_email() from public;

