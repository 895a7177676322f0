import type { PostgrestError } from '@supabase/postgrest-js';
import { HttpError } from './http';

/**
 * The booking refusals of docs/data-contract.md (raised by book_class and the payment hold with a
 * stable hint) as HTTP answers. The message is the database's, shown to the member as is.
 */
const STATUS_BY_HINT: Readonly<Record<string, number>> = {
  not_authenticated: 401,
  member_not_found: 404,
  class_not_found: 404,
  class_started: 409,
  class_full: 409,
  already_booked: 409,
  class_locked: 409,
  trial_unavailable: 409,
  payment_not_required: 409,
  plan_required: 409,
  allowance_used: 409,
  outside_plan_period: 409,
  invalid_booking_type: 400,
  // The current terms, waiver or PAR-Q are not signed: the hold's insert is refused.
  documents_required: 409,
  not_admin: 403,
  cannot_delete_self: 409,
  staff_account: 403,
  refund_not_found: 404,
  refund_in_progress: 409,
  refund_unconfirmed: 409,
  not_refundable_by_provider: 409,
  // Memberships (decision 0009).
  membership_running: 409,
  nothing_due: 409,
  no_running_membership: 409,
  same_plan: 409,
  not_an_upgrade: 409,
  not_a_downgrade: 409,
  no_card: 409,
  // Direct Debit (decision 0076).
  not_a_membership: 400,
  unknown_plan: 400,
  plan_requires_proof: 400,
  no_membership: 409,
  setup_ended: 409,
  // Paying for a guest: the guest hold refuses with add_guest's reasons.
  not_your_booking: 403,
  guest_not_for_class: 409,
  invalid_guest: 400,
  guest_is_you: 400,
  guest_already_booked: 409,
  guest_visits_used: 409,
  no_guest_price: 409,
  // Paying for a family's places: the family hold refuses with book_family's reasons.
  dependant_listed_twice: 400,
  nobody_chosen: 400,
  dependant_not_found: 404,
  dependant_already_booked: 409,
  adults_only_class: 409,
  outside_age_range: 409,
  dependant_documents_required: 409,
  not_enough_places: 409,
  // Promo codes and intro offers (decision 0083): the database's message is shown at checkout.
  promo_unknown: 404,
  promo_expired: 409,
  promo_not_for_plan: 409,
  promo_used: 409,
  promo_used_up: 409,
  offer_not_for_plan: 400,
  offer_not_combinable: 400,
  offer_ended: 409,
  intro_offer_used: 409,
  not_new_member: 409,
  offer_window_passed: 409,
  // Gift vouchers (decision 0100): the buyer's form shows the database's message.
  invalid_buyer: 400,
  invalid_recipient: 400,
  invalid_message: 400,
  invalid_delivery_date: 400,
  invalid_amount: 400,
  invalid_package: 400,
};

/** An HttpError for a known refusal, else a plain Error for the generic failure path. */
export function rpcFailure(error: PostgrestError, what: string): Error {
  const status = error.hint ? STATUS_BY_HINT[error.hint] : undefined;
  if (status) return new HttpError(status, error.hint, error.message);
  if (error.code === 'PGRST301' || error.code === 'PGRST303') return new HttpError(401, 'not_authenticated', 'Please sign in first.');
  return new Error(`${what} failed: ${error.code} ${error.message}`);
}
