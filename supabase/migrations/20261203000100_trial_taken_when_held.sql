-- The free trial is taken from the moment a place is held with it. A family's checkout holds the
-- parent's own place as a trial place while the parent pays for the children, and the trial was
-- marked used only when the payment confirmed it: meanwhile book_class (or book_family, or a
-- waitlist promotion) still granted the trial for another class, and paying the checkout then
-- confirmed a second trial class. trial_available now also answers no while the member has a
-- trial place, held or confirmed, so every path that grants the trial refuses it (book_class with
-- its trial_unavailable refusal) or prices the place as paid; settle_family_payment confirms the
-- held place as before, since nothing else could take the trial meanwhile (decision 0021).

-- True when the member still has the free trial (trial tier, or payg who never used it). A plan
-- member never books a trial class, even past their allowance: the trial is for newcomers.
-- The trial is taken from the moment a place is held with it (a family's checkout holds the
-- parent's own place as a trial place until the payment confirms it, 21_families.sql): while that
-- place exists no other path may grant it, or paying the checkout would confirm a second trial
-- (decision 0021). Every caller has locked the member row first, as the hold's insert did, so the
-- read sees a hold made by a booking that just finished. Read only for members the tier still
-- allows the trial (newcomers: few bookings), so the schedule does not pay for it per class.
create or replace function private.trial_available(p_member public.members)
returns boolean
language sql stable security definer set search_path = ''
as $$
  select case
    when not (p_member.membership_tier = 'trial' or (p_member.membership_tier = 'payg' and not p_member.has_used_trial)) then false
    else not exists (select 1 from public.bookings b
                      where b.member_id = p_member.id and b.dependant_id is null and b.type = 'trial')
  end
$$;

revoke execute on function private.trial_available(public.members) from public;
