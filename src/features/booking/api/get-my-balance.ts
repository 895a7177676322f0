import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** The member's balance (decision 0101): one cached read, shared with every screen that says it. */
export async function getMyBalanceTotal(): Promise<number> {
  const { data, error } = await supabase.rpc('my_balance');
  if (error) throw error;
  return Number(data ?? 0);
}

export const useMyBalanceTotal = (enabled: boolean) =>
  useQuery(queryOptions({ queryKey: queryKeys.giftVouchers.balanceTotal(), queryFn: getMyBalanceTotal, enabled }));
