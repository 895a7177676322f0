import { queryOptions, useQuery } from '@tanstack/react-query';
import { formatPounds } from '@/config/plans';
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
  const p = price.data;
  if (!p || p.balanceUsed <= 0) return null;
  return (
    <p className={`text-sm ${inverse ? 'text-white' : 'text-slate-700'}`} role="status">
      {membership
        ? p.toCharge === 0
          ? `Your balance pays all of the first month (${formatPounds(p.balanceUsed)}): you add a card for the renewals, nothing charged now.`
          : `Your balance pays ${formatPounds(p.balanceUsed)} of the first month: ${formatPounds(p.toCharge)} by card.`
        : p.toCharge === 0
          ? `Your balance pays all of it (${formatPounds(p.balanceUsed)}): nothing to pay by card.`
          : `Your balance pays ${formatPounds(p.balanceUsed)} of it: ${formatPounds(p.toCharge)} by card.`}
    </p>
  );
}
