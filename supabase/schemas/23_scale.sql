-- The portal at ten years of data (issue 29, decision 0029).
--
-- Trigram indexes for the admin searches: a search for "anna" is `ilike '%anna%'`, which a btree
-- cannot serve; pg_trgm's GIN indexes can, so the bookings search finds its members and classes
-- without reading every row. pg_trgm is a trusted extension (hosted Supabase's postgres role
-- creates it in `extensions`, as this file does; the local stack loads PGlite's contrib build).
-- The class tallies the counts read are in 03_bookings.sql (private.class_tallies).
create extension if not exists pg_trgm with schema extensions;

-- Members search (name, email) and the bookings search (admin_bookings_search: member name or
-- email, class name). The email is citext: the index and the search read it as text.
create index members_name_trgm_idx on public.members using gin (name extensions.gin_trgm_ops);

create index members_email_trgm_idx on public.members using gin ((email::text) extensions.gin_trgm_ops);

create index classes_name_trgm_idx on public.classes using gin (name extensions.gin_trgm_ops);

-- A member's bookings, newest first, with what the bookings search and "my bookings" read from the
-- row: the search reaches a matching member's bookings without a visit to each booking's heap row.
create index bookings_member_booked_at_idx on public.bookings (member_id, booked_at desc) include (id, class_id);

