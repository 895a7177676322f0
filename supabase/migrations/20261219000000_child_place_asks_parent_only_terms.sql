-- A child's place asks the parent only for the terms they book under: the child's own waiver and
-- health answers are checked by bookings_check_dependant, and an adult's PAR-Q is never needed for a
-- place the adult is not in (decision 0035: each place carries its own person's documents).
create or replace function private.bookings_require_documents()
returns trigger
language plpgsql security definer set search_path = ''
as $$
begin
  -- A child's place: the child's waiver and health answers are bookings_check_dependant's
  -- (21_families.sql). The parent is not in the room, so only the terms they book under are
  -- asked of them, never their own waiver or PAR-Q (an adult's health answers on a child's place).
  if new.dependant_id is not null then
    if 'terms' = any (private.missing_documents(new.member_id)) then
      perform private.raise_documents_required(new.member_id);
    end if;
    return new;
  end if;
  if (exists (select 1 from public.class_waitlist w
                   where w.id = private.admitted('waitlist') and w.member_id = new.member_id and w.class_id = new.class_id)
          or (new.payment_status = 'completed'
              and exists (select 1 from public.payments p
                           where p.id = private.admitted('payment') and p.member_id = new.member_id and p.class_id = new.class_id))) then
    return new;
  end if;
  if cardinality(private.missing_documents(new.member_id)) > 0 then
    perform private.raise_documents_required(new.member_id);
  end if;
  return new;
end;
$$;

revoke execute on function private.bookings_require_documents() from public;
