import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

/**
 * What booking this One-to-One session would use (`my_credit_for_class`, issue 26): the member's
 * personal-training credit that expires first (and when), or why none can (no_credit with the
 * price, weekly_cap_reached naming the week's sessions). Told before the member confirms.
 */
const creditChoiceSchema = z.object({
  credit_id: z.nullable(z.string()),
  expires_at: z.nullable(z.string()),
  refusal: z.nullable(z.string()),
  message: z.nullable(z.string()),
});
export type CreditChoice = z.infer<typeof creditChoiceSchema>;

export async function getCreditForClass(classId: string): Promise<CreditChoice> {
  const { data, error } = await (await loadSupabase()).rpc('my_credit_for_class', { p_class_id: classId });
  if (error) throw error;
  return creditChoiceSchema.parse(data);
}

export const creditForClassQueryOptions = (memberId: string, classId: string) =>
  queryOptions({ queryKey: queryKeys.credits.forClass(memberId, classId), queryFn: () => getCreditForClass(classId) });

/** Only for One-to-One sessions (`enabled`); other classes are never booked with a credit. */
export const useCreditForClass = (memberId: string | null, classId: string, enabled: boolean) =>
  useQuery({ ...creditForClassQueryOptions(memberId ?? '', classId), enabled: enabled && memberId !== null });
