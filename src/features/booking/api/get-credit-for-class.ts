import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRow, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/**
 * What booking this One-to-One session would use (`my_credit_for_class`): the member's
 * personal-training credit that expires first (and when), or why none can (no_credit with the
 * price, weekly_cap_reached naming the week's sessions). Told before the member confirms.
 * Every field may be null; read with the generated row type (no zod on member screens).
 */
export type CreditChoice = CompositeRow<'credit_choice', never>;

export async function getCreditForClass(classId: string): Promise<CreditChoice> {
  const { data, error } = await (await loadSupabase()).rpc('my_credit_for_class', { p_class_id: classId });
  if (error) throw error;
  return compositeRow<'credit_choice', never>(data);
}

export const creditForClassQueryOptions = (memberId: string, classId: string) =>
  queryOptions({ queryKey: queryKeys.credits.forClass(memberId, classId), queryFn: () => getCreditForClass(classId) });

/** Only for One-to-One sessions (`enabled`); other classes are never booked with a credit. */
export const useCreditForClass = (memberId: string | null, classId: string, enabled: boolean) =>
  useQuery({ ...creditForClassQueryOptions(memberId ?? '', classId), enabled: enabled && memberId !== null });
