import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** A Direct Debit charged back: money owed back to the studio until an admin records it paid (decision 0076). */
export type Chargeback = {
  id: string;
  memberName: string | null;
  description: string;
  amount: number;
  chargedBackAt: string;
  settledAt: string | null;
  settledNote: string | null;
};

export async function getChargebacks(): Promise<Chargeback[]> {
  const { data, error } = await supabase.rpc('admin_direct_debit_chargebacks');
  if (error) throw error;
  // Every field but the member's name and the settlement is always set (direct_debit_chargeback_row).
  const rows = compositeRows<'direct_debit_chargeback_row', 'id' | 'description' | 'amount' | 'charged_back_at'>(data);
  return rows.map((r) => ({
    id: r.id,
    memberName: r.member_name,
    description: r.description,
    amount: Number(r.amount),
    chargedBackAt: r.charged_back_at,
    settledAt: r.settled_at,
    settledNote: r.settled_note,
  }));
}

export const useChargebacks = () => useQuery({ queryKey: queryKeys.admin.chargebacks(), queryFn: getChargebacks });

export const settleSchema = z.object({
  note: z.string().trim().min(1, 'Say how it was paid.').max(500, 'At most 500 characters.'),
});
export type SettleForm = z.infer<typeof settleSchema>;

export function useSettleChargeback() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ id, note }: { id: string; note: string }) => {
      const { error } = await supabase.rpc('admin_settle_chargeback', { p_id: id, p_note: note });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.chargebacks() }),
  });
}
