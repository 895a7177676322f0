-- Before paying a family's or a guest's place: what the balance pays of it (decision 0108).

create function private.my_balance_cover(p_price numeric)
returns public.offer_price
language plpgsql stable security definer set search_path = ''
as $$
declare
  v_member uuid := private.current_member_id();
  r public.offer_price;
begin
  if p_price is null or p_price < 0 then
    raise exception 'A price is an amount of pounds, not less than nothing.' using errcode = '22023', hint = 'invalid_price';
  end if;
  r.list_price := p_price;
  r.discount := 0;
  r.price := p_price;
  r.balance_used := private.balance_cover(v_member, p_price);
  r.to_charge := p_price - r.balance_used;
  return r;
end;
$$;

revoke execute on function private.my_balance_cover(numeric) from public;

grant execute on function private.my_balance_cover(numeric) to authenticated;

create function public.my_balance_cover(p_price numeric)
returns public.offer_price
language sql stable security invoker set search_path = ''
as $$ select * from private.my_balance_cover(p_price) $$;

revoke execute on function public.my_balance_cover(numeric) from public, anon;

grant execute on function public.my_balance_cover(numeric) to authenticated;
