import type { QueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';

/** What a membership change can alter: the record, the member row (tier), billing and usage. */
export function invalidateMembership(queryClient: QueryClient): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: queryKeys.membership.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.member.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.payments.all }),
    queryClient.invalidateQueries({ queryKey: queryKeys.planUsage.all }),
  ]);
}
