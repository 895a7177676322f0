import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** What upgrading to `planSlug` charges now: its price less the unused days of the current plan. */
export async function getUpgradeQuote(planSlug: 'platinum') {
  const { data, error } = await supabase.rpc('my_upgrade_quote', { p_plan_slug: planSlug });
  if (error) throw error;
  const row = compositeRow<'upgrade_quote'>(data);
  return {
    planPrice: Number(row.plan_price),
    unusedDays: row.unused_days,
    credit: Number(row.credit),
    amount: Number(row.amount),
  };
}
export type UpgradeQuote = Awaited<ReturnType<typeof getUpgradeQuote>>;

// Never cached for long: one more day gone is one less day credited.
export const upgradeQuoteQueryOptions = (planSlug: 'platinum') =>
  queryOptions({ queryKey: queryKeys.membership.upgradeQuote(planSlug), queryFn: () => getUpgradeQuote(planSlug), staleTime: 0 });

export const useUpgradeQuote = (planSlug: 'platinum', enabled: boolean) => useQuery({ ...upgradeQuoteQueryOptions(planSlug), enabled });
