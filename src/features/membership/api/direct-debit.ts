import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { PlanSlug } from '@/config/plans';
import { callFunction, FunctionError } from '@/lib/functions-client';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { invalidateMembership } from './invalidate-membership';

export const DIRECT_DEBIT_FAILED = 'Could not start the Direct Debit setup, please try again.';

/** How the caller pays their membership (`my_billing()`, decision 0076). */
export type MyBilling = {
  method: 'card' | 'direct_debit';
  /** pending | active | null: no Direct Debit set up. */
  mandateStatus: string | null;
  hasCard: boolean;
  /** The newest Direct Debit collection: pending_submission, submitted, confirmed, paid_out, failed, cancelled, charged_back. */
  collectionStatus: string | null;
  collectionChargeDate: string | null;
  collectionAmount: number | null;
  /** Charge-backs not settled yet. */
  owed: number | null;
};

export async function getMyBilling(): Promise<MyBilling | null> {
  const { data, error } = await supabase.rpc('my_billing');
  if (error) throw error;
  if (!data?.method) return null;
  return {
    method: data.method === 'direct_debit' ? 'direct_debit' : 'card',
    mandateStatus: data.mandate_status,
    hasCard: data.has_card === true,
    collectionStatus: data.collection_status,
    collectionChargeDate: data.collection_charge_date,
    collectionAmount: data.collection_amount === null ? null : Number(data.collection_amount),
    owed: data.owed === null ? null : Number(data.owed),
  };
}

export const myBillingQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.membership.billing(memberId), queryFn: getMyBilling });

export const useMyBilling = (memberId: string | null) => useQuery({ ...myBillingQueryOptions(memberId ?? ''), enabled: memberId !== null });

/**
 * Sends the browser to GoCardless's page to set up a Direct Debit: for buying `planSlug`, or (none)
 * for the running plan. Resolves to an error message, or null when the browser is leaving.
 */
export async function startDirectDebit(planSlug?: PlanSlug): Promise<string | null> {
  try {
    const { url } = await callFunction('direct-debit-setup', planSlug ? { planSlug } : {});
    if (!url) return DIRECT_DEBIT_FAILED;
    window.location.assign(url);
    return null;
  } catch (error) {
    return error instanceof FunctionError ? (error.serverMessage ?? DIRECT_DEBIT_FAILED) : DIRECT_DEBIT_FAILED;
  }
}

/** Pay by card, or by the Direct Debit already set up (`set_billing_method`). */
export function useSetBillingMethod() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (method: 'card' | 'direct_debit') => {
      const { error } = await supabase.rpc('set_billing_method', { p_method: method });
      if (error) throw error;
    },
    onSuccess: () => invalidateMembership(queryClient),
  });
}
