import { formatPounds } from '@/config/plans';
import { useMoneyHeld } from '../api/money-held';
import { StatCard } from './stat-card';

/**
 * Money held for members (decision 0101): gift vouchers sold and not redeemed (past their expiry
 * excluded) and members' unspent balances. Not revenue until spent.
 */
export function MoneyHeldCard() {
  const held = useMoneyHeld();
  const value = held.data ? formatPounds(held.data.total) : '—';
  return (
    <StatCard
      label="Money held for members"
      value={
        <>
          {value}
          {held.data && (
            <span className="mt-1 block text-sm font-normal text-slate-600">
              {formatPounds(held.data.vouchers)} in {held.data.voucherCount} unredeemed vouchers, {formatPounds(held.data.balances)} in
              balances
            </span>
          )}
        </>
      }
    />
  );
}
