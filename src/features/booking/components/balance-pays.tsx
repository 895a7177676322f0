import { balanceCoversText } from '@/lib/payments/balance-words';
import { useBalanceCover } from '../api/get-my-balance';

/**
 * Before paying for a family's places: what the member's balance pays of `price` and
 * what is left for the card (decision 0108), in the words every checkout uses. Nothing without a
 * balance.
 */
export function BalancePays({ price }: { price: number }) {
  const cover = useBalanceCover(price, true);
  const text = cover.data ? balanceCoversText(cover.data) : null;
  if (!text) return null;
  return (
    <p className="text-sm text-slate-700" role="status">
      {text}
    </p>
  );
}
