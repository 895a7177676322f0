/**
 * Phone numbers Edit Profile and the database take, and texts both refuse: one list, so the form
 * (isPhoneNumber) and the database (private.is_phone_number, supabase/tests/member-profile.test.ts)
 * are held to the same rule.
 */
export const PHONE_NUMBERS = [
  '07700 900123',
  '07700900123',
  '(020) 7946-0018',
  '020 7946 0018',
  '0800 123 456',
  '+44 7700 900123',
  '+44 (0)20 7946 0018',
  '+1 415-555-0100',
  '+353 1 234 5678',
  '0044 20 7946 0018',
];

export const NOT_PHONE_NUMBERS = [
  'not a phone <b>',
  '12345',
  '+44',
  '07700 900123 (mum)',
  '020.7946.0018',
  '7700 900123',
  '0770 090 0123 4567',
  '++44 20 7946 0018',
  '+0 20 7946 0018',
  '',
];
