import { useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { loadSupabase } from '@/lib/supabase-loader';

export type SaveAccountNameInput = { memberId: string; name: string };

/**
 * Gives an account without a name the full name the member signs with (sign_documents refuses
 * account_name_required until the account has one). Asks for the row back: a refusal by
 * row-level security updates nothing without an error.
 */
export async function saveAccountName({ memberId, name }: SaveAccountNameInput): Promise<void> {
  const { data, error } = await (await loadSupabase()).from('members').update({ name }).eq('id', memberId).select('id');
  if (error) throw error;
  if (!data?.length) throw new Error('Name not saved');
}

/** The header, greetings and Edit Profile show the new name. */
export function useSaveAccountName() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAccountName,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: queryKeys.member.all }),
        queryClient.invalidateQueries({ queryKey: queryKeys.profile.all }),
      ]),
  });
}
