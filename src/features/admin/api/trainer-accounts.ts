import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRows, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** A trainer's linked sign-in account (decision 0027): the coach who reads that trainer's rosters. */
export type TrainerAccount = CompositeRow<'trainer_account', 'trainer_id' | 'member_id' | 'email' | 'linked_at'>;

export async function getTrainerAccounts(): Promise<TrainerAccount[]> {
  const { data, error } = await supabase.rpc('admin_trainer_accounts');
  if (error) throw error;
  return compositeRows<'trainer_account', 'trainer_id' | 'member_id' | 'email' | 'linked_at'>(data);
}

export const trainerAccountsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.trainerAccounts(), queryFn: getTrainerAccounts });

export const useTrainerAccounts = () => useQuery(trainerAccountsQueryOptions());

export const linkAccountSchema = z.object({
  trainerId: z.string().min(1, 'Choose a trainer'),
  email: z.string().trim().toLowerCase().email('Enter the email the coach signs in with'),
});
export type LinkAccountForm = z.infer<typeof linkAccountSchema>;

/** The database's refusals of a link, in the admin's words. */
export function linkAccountError(error: unknown): string {
  const { hint, message } = error as { hint?: string; message?: string };
  if (hint === 'coach_account_not_found' || hint === 'coach_account_is_admin' || hint === 'coach_account_taken') return message ?? '';
  return 'Could not link the account. Please try again.';
}

export function useLinkTrainerAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LinkAccountForm) => {
      const { trainerId, email } = linkAccountSchema.parse(input);
      const { error } = await supabase.rpc('link_trainer_account', { p_trainer_id: trainerId, p_email: email });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.trainerAccounts() }),
  });
}

export function useUnlinkTrainerAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (trainerId: string) => {
      const { error } = await supabase.rpc('unlink_trainer_account', { p_trainer_id: trainerId });
      if (error) throw error;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.trainerAccounts() }),
  });
}
