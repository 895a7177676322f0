import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { Tables } from '@/lib/database.types';

/** One place a family payment bought (family_payment_lines): who, what covered it, its price. */
export type PaymentPlace = Pick<Tables<'family_payment_lines'>, 'position' | 'name' | 'covered_by' | 'amount'>;

/** What covered a place, in the receipt's words. */
export const COVERED_BY_TEXT: Record<string, string> = {
  plan: 'Covered by your plan',
  trial: 'Covered by your free trial',
  credit: 'Covered by a credit',
  paid: 'Paid',
  free: 'Free class',
};

/**
 * The places a payment bought, in order (the member's own first): empty for a payment of one
 * thing (a plan, a single class). Members read their own payments' lines (RLS).
 */
export async function getPaymentPlaces(paymentId: string): Promise<PaymentPlace[]> {
  const { data, error } = await supabase
    .from('family_payment_lines')
    .select('position, name, covered_by, amount')
    .eq('payment_id', paymentId)
    .order('position');
  if (error) throw error;
  return data.map((p) => ({ ...p, amount: Number(p.amount) }));
}

export const paymentPlacesQueryOptions = (paymentId: string) =>
  queryOptions({ queryKey: queryKeys.payments.places(paymentId), queryFn: () => getPaymentPlaces(paymentId) });

export const usePaymentPlaces = (paymentId: string | null) =>
  useQuery({ ...paymentPlacesQueryOptions(paymentId ?? ''), enabled: paymentId !== null });
