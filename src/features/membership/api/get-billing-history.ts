import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Tables } from '@/lib/supabase';

/** How many payments the history shows (newest first). */
export const BILLING_HISTORY_LIMIT = 50;

export type BillingPayment = Pick<
  Tables<'payments'>,
  'id' | 'created_at' | 'paid_at' | 'description' | 'amount' | 'currency' | 'status' | 'checkout_reference' | 'billed_name' | 'billed_email'
>;

/** The member's payments, plans and classes alike (row-level security: their own rows only). */
export async function getBillingHistory(memberId: string): Promise<BillingPayment[]> {
  const { data, error } = await supabase
    .from('payments')
    .select('id, created_at, paid_at, description, amount, currency, status, checkout_reference, billed_name, billed_email')
    .eq('member_id', memberId)
    .order('created_at', { ascending: false })
    .limit(BILLING_HISTORY_LIMIT);
  if (error) throw error;
  return data.map((p) => ({ ...p, amount: Number(p.amount) }));
}

export const billingHistoryQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.payments.history(memberId), queryFn: () => getBillingHistory(memberId) });

export const useBillingHistory = (memberId: string | null) =>
  useQuery({ ...billingHistoryQueryOptions(memberId ?? ''), enabled: memberId !== null });
