import { useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { callFunction, FunctionError } from '@/lib/functions-client';
import type { PaymentStatus } from '@/lib/functions-contract';
import { queryKeys } from '@/lib/query-keys';

export type { PaymentStatus };

/** How often, and how many times, the page asks while the payment is still pending. */
export const POLL_INTERVAL_MS = 2_000;
export const MAX_CHECKS = 6;

export type PaymentCheck =
  { state: 'found'; payment: PaymentStatus } | { state: 'signed_out' } | { state: 'not_found' } | { state: 'error' };

/**
 * The payment's status as the database records it (the checkout-status function reads the
 * member's own row and, while it is pending, asks the provider through the verified path).
 * Never from the URL: the return URL is only a pointer to which payment to look at.
 */
export async function fetchPaymentStatus(reference: string): Promise<PaymentCheck> {
  try {
    return { state: 'found', payment: await callFunction('checkout-status', { reference }) };
  } catch (error) {
    // No session here, or none the function accepts: the same "sign in" answer.
    if (error instanceof FunctionError && error.status === 401) return { state: 'signed_out' };
    if (error instanceof FunctionError && error.status === 404) return { state: 'not_found' };
    return { state: 'error' };
  }
}

export type PaymentStatusView = { check: PaymentCheck | null; polling: boolean; checkAgain: () => void };

const isPending = (check: PaymentCheck | undefined) => check?.state === 'found' && check.payment.status === 'pending';

/** Never served from cache: the page exists to learn whether the payment has landed since. */
export const paymentStatusQueryOptions = (reference: string) =>
  queryOptions({ queryKey: queryKeys.payments.status(reference), queryFn: () => fetchPaymentStatus(reference), staleTime: 0 });

/** Asks on arrival, then every POLL_INTERVAL_MS while pending, at most MAX_CHECKS times per round. */
export function usePaymentStatus(reference: string): PaymentStatusView {
  const queryClient = useQueryClient();
  const options = paymentStatusQueryOptions(reference);
  // How many answers had arrived when this round of checks began ("Check again" starts a new one).
  const [roundStart, setRoundStart] = useState(0);
  const checksThisRound = (count: number) => count - roundStart;
  const query = useQuery({
    ...options,
    refetchInterval: (q) => (isPending(q.state.data) && checksThisRound(q.state.dataUpdateCount) < MAX_CHECKS ? POLL_INTERVAL_MS : false),
  });
  const answers = queryClient.getQueryState(options.queryKey)?.dataUpdateCount ?? 0;
  const polling = query.isFetching || (isPending(query.data) && checksThisRound(answers) < MAX_CHECKS);

  function checkAgain() {
    setRoundStart(answers);
    void query.refetch();
  }

  return { check: query.data ?? null, polling, checkAgain };
}
