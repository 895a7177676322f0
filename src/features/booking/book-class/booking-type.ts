import { BOOKING_TYPE_LABELS, type BookingType } from '@/config/booking-types';
import type { Member } from '@/lib/supabase';

/** The form's booking types (spec section 2) and the values `book_class` takes. */
export const BOOKING_TYPE_OPTIONS: { value: BookingType; label: string }[] = (['paid', 'trial', 'payg'] as const).map((value) => ({
  value,
  label: BOOKING_TYPE_LABELS[value],
}));

/** What the member most likely means: their plan, their unused free trial, or pay as you go. */
export function defaultBookingType(member: Pick<Member, 'membership_tier' | 'has_used_trial'> | null): BookingType {
  if (!member) return 'payg';
  if (member.membership_tier === 'standard' || member.membership_tier === 'premium') return 'paid';
  if (member.membership_tier === 'trial' || !member.has_used_trial) return 'trial';
  return 'payg';
}
