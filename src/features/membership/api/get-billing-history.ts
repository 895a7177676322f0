import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** How many lines the history shows (newest first). */
export const BILLING_HISTORY_LIMIT = 50;

/** One line of the billing history: a payment taken or a refund given, as my_billing_history says. */
export type BillingEntry = {
  id: string;
  kind: 'payment' | 'refund';
  /** When the money moved. */
  happenedAt: string;
  description: string;
  /** Positive both ways: a refund's is the money given back. */
  amount: number;
  currency: string;
  reference: string | null;
  billedName: string | null;
  billedEmail: string | null;
};

/**
 * The member's billing history: money that moved, plans and classes alike. Which lines count is
 * the database's rule (`my_billing_history`): a payment once paid, a refund once made, never a
 * checkout that took nothing.
 */
export async function getBillingHistory(): Promise<BillingEntry[]> {
  const { data, error } = await supabase.rpc('my_billing_history', { p_limit: BILLING_HISTORY_LIMIT });
  if (error) throw error;
  return compositeRows<'billing_entry', 'id' | 'kind' | 'happened_at' | 'description' | 'amount' | 'currency'>(data ?? []).map((e) => ({
    id: e.id,
    kind: e.kind === 'refund' ? 'refund' : 'payment',
    happenedAt: e.happened_at,
    description: e.description,
    amount: Number(e.amount),
    currency: e.currency,
    reference: e.reference ?? null,
    billedName: e.billed_name ?? null,
    billedEmail: e.billed_email ?? null,
  }));
}

export const billingHistoryQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.payments.history(memberId), queryFn: getBillingHistory });

export const useBillingHistory = (memberId: string | null) =>
  useQuery({ ...billingHistoryQueryOptions(memberId ?? ''), enabled: memberId !== null });
