import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/**
 * After an admin write: every admin list and count may have changed (a cancelled booking changes
 * the bookings page, the class's capacity and the waitlists), and so may what members see.
 */
export function invalidateAfterAdminWrite(queryClient: QueryClient) {
  return Promise.all(
    [queryKeys.admin.all, queryKeys.classes.all, queryKeys.bookings.all, queryKeys.waitlist.all, queryKeys.planUsage.all].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}
