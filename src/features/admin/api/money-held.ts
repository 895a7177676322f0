import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * Money held for members (decision 0101): gift vouchers sold and not redeemed (past their expiry
 * excluded) and members' unspent balances. Not revenue until it is spent.
 */
export type MoneyHeld = { vouchers: number; voucherCount: number; balances: number; membersWithBalance: number; total: number };

export async function getMoneyHeld(): Promise<MoneyHeld> {
  const { data, error } = await supabase.rpc('admin_money_held');
  if (error) throw error;
  const r = compositeRow<'money_held', 'vouchers' | 'voucher_count' | 'balances' | 'members_with_balance' | 'total'>(data);
  return {
    vouchers: Number(r.vouchers),
    voucherCount: r.voucher_count,
    balances: Number(r.balances),
    membersWithBalance: r.members_with_balance,
    total: Number(r.total),
  };
}

export const useMoneyHeld = () => useQuery(queryOptions({ queryKey: queryKeys.giftVouchers.moneyHeld(), queryFn: getMoneyHeld }));
