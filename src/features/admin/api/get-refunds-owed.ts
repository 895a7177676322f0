import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { checkedText } from '@/lib/checked-text';
import { callFunction, FunctionError, NotSignedInError } from '@/lib/functions-client';
import type { FunctionAnswer } from '@/lib/functions-contract';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** Why the studio owes the money back (refunds_owed.reason; class_filled to period_already_paid: a payment it could not honour). */
export type RefundReason =
  | 'admin_cancelled'
  | 'class_deleted'
  | 'timetable_regenerated'
  | 'member_deleted'
  | 'class_filled'
  | 'duplicate_payment'
  | 'superseded_checkout'
  | 'member_removed'
  | 'period_already_paid'
  | 'member_cancelled_in_time'
  | 'package_refunded'
  | 'booking_refused';

/** refunds_owed.provider_refund_state: in_progress while a SumUp refund is out; unconfirmed when SumUp did not say. */
type ProviderRefundState = 'in_progress' | 'unconfirmed';

export type RefundProvider = 'SumUp' | 'GoCardless';

/** A payment the studio owes back because it removed what was paid for (decision 0010). */
export type RefundOwed = {
  id: string;
  memberName: string | null;
  memberEmail: string;
  description: string;
  classStartTime: string | null;
  amount: number;
  reason: RefundReason;
  createdAt: string;
  /**
   * Who pays it back from this screen: SumUp for a card payment it took, GoCardless for a Direct
   * Debit one (decision 0103; the database refuses one not collected yet). Null: refund another
   * way, then mark.
   */
  provider: RefundProvider | null;
  providerRefundState: ProviderRefundState | null;
  providerRefundError: string | null;
};

const COLUMNS =
  'id,member_name,member_email,description,class_start_time,amount,reason,created_at,provider_refund_state,provider_refund_error,payment:payments(provider_checkout_id,collected_by)';

/** Every refund still owed, oldest first (the open ones are few: refunded ones leave the list). */
export async function getRefundsOwed(): Promise<RefundOwed[]> {
  const { data, error } = await supabase
    .from('refunds_owed')
    .select(COLUMNS)
    .is('refunded_at', null)
    .order('created_at', { ascending: true });
  if (error) throw error;
  return data.map((r) => ({
    id: r.id,
    memberName: r.member_name,
    memberEmail: r.member_email,
    description: r.description,
    classStartTime: r.class_start_time,
    amount: Number(r.amount),
    reason: checkedText<RefundReason>(r.reason),
    createdAt: r.created_at,
    provider: r.payment?.collected_by === 'direct_debit' ? 'GoCardless' : r.payment?.provider_checkout_id ? 'SumUp' : null,
    providerRefundState: checkedText<ProviderRefundState>(r.provider_refund_state),
    providerRefundError: r.provider_refund_error,
  }));
}

export const refundsOwedQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.refundsOwed(), queryFn: getRefundsOwed });

export const useRefundsOwed = () => useQuery(refundsOwedQueryOptions());

/** Records that the studio paid the money back another way (mark_refund_refunded, admins only). */
export async function markRefundRefunded(id: string): Promise<void> {
  const { error } = await supabase.rpc('mark_refund_refunded', { p_refund_id: id });
  if (error) throw error;
}

/** A refund the function did not confirm; `message` is the server's, shown to the admin as is. */
export class RefundFailedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Pays the money back through SumUp: the refund-payment function claims the record, asks SumUp,
 * and marks it refunded only once SumUp confirms. Anything else throws with the server's reason.
 */
export async function refundThroughProvider(id: string): Promise<FunctionAnswer<'refund-payment'>> {
  try {
    return await callFunction('refund-payment', { refundId: id });
  } catch (error) {
    if (error instanceof NotSignedInError) throw new RefundFailedError(error.code, 'Please sign in again');
    if (error instanceof FunctionError) throw new RefundFailedError(error.code, error.message);
    throw error;
  }
}

/** Both ways of settling a refund change the list, whatever the outcome (a refusal records its reason). */
function useRefundMutation<T>(mutationFn: (id: string) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.refundsOwed() }) });
}

export const useMarkRefundRefunded = () => useRefundMutation(markRefundRefunded);
export const useRefundThroughProvider = () => useRefundMutation(refundThroughProvider);
