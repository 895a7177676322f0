-- Personal training for members (issue 26): the bookable One-to-One sessions with what a booking
-- would use. Definitions from supabase/schemas/16_personal_training.sql.

-- What members see ------------------------------------------------------------------------------
-- A One-to-One session a member can book (Personal training), with what a booking would use:
-- the credit that expires first (and when), or the price and why no credit (credit_for's words).
create type public.training_slot as (
  id uuid,
  trainer_id uuid,
  trainer text,
  start_time timestamptz,
  duration integer,
  price numeric,
  spots_left integer,
  my_booking_id uuid,
  credit_id uuid,
  credit_expires_at timestamptz,
  credit_refusal text,
  credit_message text
);

comment on type public.training_slot is 'A One-to-One session and what booking it would use for the caller (personal_training_slots).';

-- The caller's bookable One-to-One sessions of the next p_days (1 to 56) days, of one trainer or
-- all, soonest first: free ones, and ones the caller has booked.
create function private.personal_training_slots(p_trainer_id uuid, p_days integer)
returns setof public.training_slot
language plpgsql volatile security definer set search_path = ''
as $$
declare
  v_member public.members := private.require_member();
begin
  if p_days is null or p_days < 1 or p_days > 56 then
    raise exception 'Choose 1 to 56 days' using errcode = '22023', hint = 'invalid_period';
  end if;
  perform private.release_expired_holds();
  return query
    select c.id, c.trainer_id, c.trainer, c.start_time, c.duration,
           coalesce(nullif(c.price_payg, 0), private.personal_training_price()), c.spots_left, b.id,
           f.credit_id, f.expires_at, f.refusal, f.message
      from public.classes c
      left join public.bookings b on b.class_id = c.id and b.member_id = v_member.id
     cross join lateral private.credit_for(v_member.id, c) f
     where c.type = 'One-to-One' and c.start_time > now() and c.start_time < now() + make_interval(days => p_days)
       and (p_trainer_id is null or c.trainer_id = p_trainer_id)
       and (c.spots_left > 0 or b.id is not null)
     order by c.start_time, c.id;
end;
$$;

revoke execute on function private.personal_training_slots(uuid, integer) from public;

grant execute on function private.personal_training_slots(uuid, integer) to authenticated, service_role;

create function public.personal_training_slots(p_trainer_id uuid default null, p_days integer default 28)
returns setof public.training_slot
language sql volatile security invoker set search_path = ''
as $$ select * from private.personal_training_slots(p_trainer_id, p_days) $$;

revoke execute on function public.personal_training_slots(uuid, integer) from public, anon;

grant execute on function public.personal_training_slots(uuid, integer) to authenticated, service_role;

