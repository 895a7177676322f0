import { queryOptions, useQuery } from '@tanstack/react-query';
import { balanceCoversText } from '@/lib/payments/balance-words';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { getOfferPrice } from '../api/offers';

async function getBalance(): Promise<number> {
  const { data, error } = await supabase.rpc('my_balance');
  if (error) throw error;
  return Number(data ?? 0);
}

/**
 * Before paying for a package or a membership's first month: how much of its price the member's
 * balance covers, from the checkout's own pricing (my_offer_price, decisions 0101 and 0108), so what
 * is shown is what is charged. Asked only when the member has a balance; nothing is shown without
 * one. A membership the balance pays in full still saves a card, for the renewals.
 */
export function BalanceCovers({
  planSlug,
  promoCode,
  inverse = false,
  membership = false,
}: {
  planSlug: string;
  promoCode: string | null;
  inverse?: boolean;
  membership?: boolean;
}) {
  const balance = useQuery(queryOptions({ queryKey: queryKeys.giftVouchers.balanceTotal(), queryFn: getBalance }));
  const price = useQuery(
    queryOptions({
      queryKey: queryKeys.offers.price(planSlug, promoCode, null),
      queryFn: () => getOfferPrice(planSlug, promoCode, null),
      enabled: (balance.data ?? 0) > 0,
    }),
  );
  const text = price.data ? balanceCoversText(price.data, membership) : null;
  if (!text) return null;
  return (
    <p className={`text-sm ${inverse ? 'text-white' : 'text-slate-700'}`} role="status">
      {text}
    </p>
  );
}
