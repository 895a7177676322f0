-- Issue 38 item 13: a one-off session must be in the future and new, each refusal in words.
create function private.trainer_one_off_slots_check()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  if new.start_time <= now() then
    raise exception 'That time has passed: a one-off session must be in the future' using errcode = 'P0001', hint = 'one_off_in_past';
  end if;
  if exists (select 1 from public.trainer_one_off_slots o where o.trainer_id = new.trainer_id and o.start_time = new.start_time) then
    raise exception 'This trainer already has a one-off session at that time' using errcode = 'P0001', hint = 'one_off_exists';
  end if;
  return new;
end;
$$;

revoke execute on function private.trainer_one_off_slots_check() from public;

create trigger trainer_one_off_slots_check
  before insert on public.trainer_one_off_slots
  for each row execute function private.trainer_one_off_slots_check();
