import { useState } from 'react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

export const CHECKOUT_STATUS_ENDPOINT = '/.netlify/functions/checkout-status';

/** How often, and how many times, the page asks while the payment is still pending. */
export const POLL_INTERVAL_MS = 2_000;
export const MAX_CHECKS = 6;

export type PaymentStatus = {
  reference: string;
  kind: 'plan' | 'class';
  status: 'pending' | 'paid' | 'failed' | 'expired';
  amount: number;
  currency: string;
  planSlug: string | null;
  planName: string | null;
  className: string | null;
  classStartTime: string | null;
  paidAt: string | null;
  needsRefund: boolean;
};

export type PaymentCheck =
  | { state: 'found'; payment: PaymentStatus }
  | { state: 'signed_out' }
  | { state: 'not_found' }
  | { state: 'error' };

function isPaymentStatus(body: unknown): body is PaymentStatus {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as Record<string, unknown>;
  return typeof b.reference === 'string' && (b.kind === 'plan' || b.kind === 'class') && typeof b.status === 'string';
}

/**
 * The payment's status as the database records it (the checkout-status function reads the
 * member's own row and, while it is pending, asks the provider through the verified path).
 * Never from the URL: the return URL is only a pointer to which payment to look at.
 */
export async function fetchPaymentStatus(reference: string): Promise<PaymentCheck> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) return { state: 'signed_out' };
  try {
    const res = await fetch(CHECKOUT_STATUS_ENDPOINT, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${data.session.access_token}` },
      body: JSON.stringify({ reference }),
    });
    if (res.status === 401) return { state: 'signed_out' };
    if (res.status === 404) return { state: 'not_found' };
    const body: unknown = res.ok ? await res.json() : null;
    return isPaymentStatus(body) ? { state: 'found', payment: body } : { state: 'error' };
  } catch {
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
