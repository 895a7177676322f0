/**
 * The sections of the data download (my_data_export, decision 0047) in the words the readable page
 * uses, in its order. Every part of the export is one of them: supabase/tests/data-rights.test.ts
 * holds the export's keys to this list, so the page and the JSON file never drift apart.
 */
export const DATA_EXPORT_SECTIONS: readonly (readonly [key: string, label: string])[] = [
  ['profile', 'Profile'],
  ['membership', 'Membership'],
  ['bookings', 'Bookings'],
  ['waitlist', 'Waitlists'],
  ['payments', 'Payments'],
  ['credits', 'Credits'],
  ['documents_signed', 'Documents signed'],
  ['health_answers', 'Health answers'],
  ['preferences', 'Preferences'],
  ['family', 'Family'],
  ['guest_places', 'Guest places you booked'],
  ['referrals', 'Referrals'],
  ['offer_uses', 'Offers and promo codes used'],
  ['billing', 'How you pay (card or Direct Debit)'],
  ['attendance', 'Late cancellations and no-shows'],
  ['balance', 'Your balance'],
  ['gift_vouchers', 'Gift vouchers'],
];
