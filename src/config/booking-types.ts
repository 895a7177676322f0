import { Constants, type Enums } from '@/lib/database.types';

/** The booking types the database records (generated from its enum: `npm run db:types`). */
export type BookingType = Enums<'booking_type'>;
export const BOOKING_TYPES = Constants.public.Enums.booking_type;

/** How each is called on screen (the booking form's labels, spec section 2; 'credit' books with a session credit, decision 0017). */
export const BOOKING_TYPE_LABELS: Record<BookingType, string> = {
  paid: 'Member',
  trial: 'Free Trial',
  payg: 'Pay-as-you-go',
  credit: 'Personal-training session',
};
