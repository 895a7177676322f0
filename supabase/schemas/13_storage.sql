-- Profile photos: public bucket `avatars`, objects named `<member id>.<ext>` (spec section 3).
-- Anyone may fetch a photo by its public URL (Storage serves a public bucket's objects without
-- asking the policies); through the API a member reads, writes and lists only their own photo, so
-- nobody can list every member's photo (splinter: public_bucket_allows_listing). Reading their own
-- row is also what an upload with upsert needs (INSERT ... ON CONFLICT DO UPDATE checks it).

-- Bucket -----------------------------------------------------------------------------------------
insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
values ('avatars', 'avatars', true, 5 * 1024 * 1024, array['image/jpeg', 'image/png', 'image/gif'])
on conflict (id) do update
  set public = excluded.public,
      file_size_limit = excluded.file_size_limit,
      allowed_mime_types = excluded.allowed_mime_types;

-- Policies -------------------------------------------------------------------------------------
-- True when the object name is the caller's own photo: exactly `<their member id>.<jpg|jpeg|png|gif>`.
create function private.is_own_avatar(p_name text)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select exists (
    select 1 from public.members m
     where m.user_id = (select auth.uid())
       and lower(p_name) ~ ('^' || m.id::text || '\.(jpg|jpeg|png|gif)$')
  )
$$;

revoke execute on function private.is_own_avatar(text) from public;

grant execute on function private.is_own_avatar(text) to authenticated;

-- Row-level security, triggers and replication ------------------------------------------------
create policy "Members read their own avatar"
  on storage.objects for select to authenticated
  using (bucket_id = 'avatars' and private.is_own_avatar(name));

create policy "Members upload their own avatar"
  on storage.objects for insert to authenticated
  with check (bucket_id = 'avatars' and private.is_own_avatar(name));

create policy "Members replace their own avatar"
  on storage.objects for update to authenticated
  using (bucket_id = 'avatars' and private.is_own_avatar(name))
  with check (bucket_id = 'avatars' and private.is_own_avatar(name));

create policy "Members delete their own avatar"
  on storage.objects for delete to authenticated
  using (bucket_id = 'avatars' and private.is_own_avatar(name));
