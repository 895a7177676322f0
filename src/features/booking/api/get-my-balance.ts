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

/** What the balance pays of `price` and what the card is charged, by the checkout's own rule (my_balance_cover). */
export async function getBalanceCover(price: number): Promise<{ balanceUsed: number; toCharge: number }> {
  const { data, error } = await supabase.rpc('my_balance_cover', { p_price: price });
  if (error) throw error;
  return { balanceUsed: Number(data?.balance_used ?? 0), toCharge: Number(data?.to_charge ?? price) };
}

/** Asked only when the member has a balance and there is something to pay. */
export const useBalanceCover = (price: number, enabled: boolean) => {
  const balance = useMyBalanceTotal(enabled && price > 0).data ?? 0;
  return useQuery(
    queryOptions({
      queryKey: queryKeys.giftVouchers.balanceCover(price),
      queryFn: () => getBalanceCover(price),
      enabled: enabled && price > 0 && balance > 0,
    }),
  );
};
