-- Trainers as records (issue 26): name, short bio, photo. Every class keeps its trainer: the
-- free-text names become trainer records and classes reference them; classes.trainer keeps the
-- name the timetable shows. Definitions from supabase/schemas/02_classes.sql.

create table public.trainers (
  id uuid primary key default gen_random_uuid(),
  name text not null unique check (char_length(btrim(name)) between 1 and 200),
  bio text not null default '' check (char_length(bio) <= 600),
  photo_url text check (photo_url ~ '^(https?://|/)'),
  created_at timestamptz not null default now()
);

comment on table public.trainers is
  'The studio''s trainers (name, short bio, photo). classes.trainer_id names a class''s trainer; classes.trainer repeats the name for display.';

alter table public.trainers enable row level security;

revoke all on public.trainers from anon, authenticated;

grant select on public.trainers to anon, authenticated;

grant insert (name, bio, photo_url), update (name, bio, photo_url) on public.trainers to authenticated;

grant all on public.trainers to service_role;

-- Every name a class has today becomes a trainer, and the class references it.
insert into public.trainers (name)
select distinct c.trainer from public.classes c
on conflict (name) do nothing;

alter table public.classes add column trainer_id uuid references public.trainers (id);

update public.classes c set trainer_id = t.id from public.trainers t where t.name = c.trainer;

-- A check rather than NOT NULL: the trigger fills it from the name, so callers may send either.
alter table public.classes add constraint classes_trainer_recorded check (trainer_id is not null);

create index classes_trainer_id_idx on public.classes (trainer_id, start_time);

grant insert (trainer_id), update (trainer_id) on public.classes to authenticated;

create function private.classes_link_trainer()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.trainer_id is not null and (tg_op = 'INSERT' or new.trainer_id is distinct from old.trainer_id) then
    select t.name into new.trainer from public.trainers t where t.id = new.trainer_id;
  elsif new.trainer is not null and (tg_op = 'INSERT' or new.trainer is distinct from old.trainer) then
    insert into public.trainers (name) values (new.trainer) on conflict (name) do nothing;
    select t.id into new.trainer_id from public.trainers t where t.name = new.trainer;
  end if;
  return new;
end;
$$;

revoke execute on function private.classes_link_trainer() from public;

create function private.trainers_rename_classes()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  update public.classes set trainer = new.name where trainer_id = new.id and trainer <> new.name;
  return null;
end;
$$;

revoke execute on function private.trainers_rename_classes() from public;

create trigger classes_link_trainer
  before insert or update of trainer, trainer_id on public.classes
  for each row execute function private.classes_link_trainer();

create policy "Anyone reads trainers"
  on public.trainers for select to anon, authenticated
  using (true);

create policy "Admins add trainers"
  on public.trainers for insert to authenticated
  with check ((select private.is_admin()));

create policy "Admins edit trainers"
  on public.trainers for update to authenticated
  using ((select private.is_admin()))
  with check ((select private.is_admin()));

create trigger trainers_rename_classes
  after update of name on public.trainers
  for each row execute function private.trainers_rename_classes();
