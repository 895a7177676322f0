import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/**
 * The Put on plan form (decision 0009), shared with the call: Standard or Platinum Premium at a monthly
 * price the studio set (a student or Hackney worker price after checking proof).
 */
export const putOnPlanSchema = z.object({
  planSlug: z.enum(['standard', 'platinum']),
  price: z.coerce
    .number({ message: 'Enter a monthly price' })
    .positive('Enter a monthly price above £0')
    .max(1000, 'Enter a monthly price up to £1000')
    .refine((p) => Math.round(p * 100) === p * 100, 'Use pounds and pence, e.g. 70 or 115.50'),
});
export type PutOnPlanForm = z.input<typeof putOnPlanSchema>;

/** What the member is on afterwards: a plan that starts now, or a running one that changes at its period end. */
const placedSchema = z.object({
  period_end: z.string(),
  next_plan_slug: z.enum(['standard', 'platinum']).nullable(),
  next_price: z.coerce.number().nullable(),
});
export type PlanPlacement = z.infer<typeof placedSchema>;

export async function putMemberOnPlan(memberId: string, input: PutOnPlanForm): Promise<PlanPlacement> {
  const { planSlug, price } = putOnPlanSchema.parse(input);
  const { data, error } = await supabase.rpc('admin_put_on_plan', { p_member_id: memberId, p_plan_slug: planSlug, p_price: price });
  if (error) throw error;
  return placedSchema.parse(data);
}

export function usePutMemberOnPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ memberId, input }: { memberId: string; input: PutOnPlanForm }) => putMemberOnPlan(memberId, input),
    onSuccess: () => invalidateAfterAdminWrite(queryClient),
  });
}
