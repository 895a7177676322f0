import type { FirstReads } from '../first-reads';
import { guestOptionsQueryOptions } from '@/features/booking/api/get-guest-options';
import { myBookingsQueryOptions } from '@/features/booking/api/get-my-bookings';
import { myCancellationsQueryOptions } from '@/features/booking/api/get-my-cancellations';
import { myGuestsQueryOptions } from '@/features/booking/api/get-my-guests';
import { myWaitlistQueryOptions } from '@/features/booking/api/get-my-waitlist';

/** /mybookings: bookings, waitlist places, cancellations, guests and the guest options. */
export const firstReads: FirstReads = {
  member: (client, id) => {
    void client.prefetchQuery(myBookingsQueryOptions(id));
    void client.prefetchQuery(myWaitlistQueryOptions(id));
    void client.prefetchQuery(myCancellationsQueryOptions(id));
    void client.prefetchQuery(myGuestsQueryOptions(id));
    void client.prefetchQuery(guestOptionsQueryOptions(id));
  },
};
