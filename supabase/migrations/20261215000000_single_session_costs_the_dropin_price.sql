-- A One-to-One without a credit costs the dearest package's price per session (the Drop-In's),
-- read from public.plans, instead of a constant £60 that made every package dearer than paying each time.
create or replace function private.personal_training_price()
returns numeric
language sql stable set search_path = ''
as $$
  select max(round(p.price / p.package_sessions, 2)) from public.plans p where p.category = 'training'
$$;

revoke execute on function private.personal_training_price() from public;

-- Future One-to-One sessions priced at the old constant, with no checkout under way, take the new price.
update public.classes c
   set price_payg = private.personal_training_price()
 where c.type = 'One-to-One' and c.price_payg = 60.00 and c.start_time > now()
   and not exists (select 1 from public.payments p where p.class_id = c.id and p.status = 'pending');
