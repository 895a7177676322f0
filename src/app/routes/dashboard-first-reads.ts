import type { FirstReads } from '../first-reads';
import { myBookingsQueryOptions } from '@/features/booking/api/get-my-bookings';
import { myCreditsQueryOptions } from '@/features/booking/api/get-my-credits';
import { planUsageQueryOptions } from '@/features/booking/api/get-plan-usage';
import { myDocumentStatusQueryOptions } from '@/features/documents/api/get-my-documents';

/** /dashboard: upcoming bookings, plan usage, where the documents stand, credits. */
export const firstReads: FirstReads = {
  member: (client, id) => {
    void client.prefetchQuery(myBookingsQueryOptions(id));
    void client.prefetchQuery(planUsageQueryOptions(id));
    void client.prefetchQuery(myDocumentStatusQueryOptions(id));
    void client.prefetchQuery(myCreditsQueryOptions(id));
  },
};
