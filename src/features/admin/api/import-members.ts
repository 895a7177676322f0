import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callFunction } from '@/lib/functions-client';
import type { FunctionAnswer } from '@/lib/functions-contract';
import type { Json } from '@/lib/database.types';
import { supabase } from '@/lib/supabase';
import type { ImportRow } from '../lib/member-import/fields';
import type { ImportRowOutcome } from '../lib/member-import/outcome';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

/**
 * The member import (decision 0065): the same database function previews (commit false: it writes
 * every row, reports and rolls back) and imports (commit true: all valid rows in one transaction).
 */
export async function runMemberImport(rows: readonly ImportRow[], commit: boolean): Promise<ImportRowOutcome[]> {
  const { data, error } = await supabase.rpc('admin_import_members', { p_rows: rows as unknown as Json, p_commit: commit });
  if (error) throw error;
  return (data ?? []) as ImportRowOutcome[];
}

export const membersToInviteKey = ['admin', 'members-to-invite'] as const;

/** Imported members with no sign-in who have not been sent their invitation. */
export function useMembersToInvite() {
  return useQuery({
    queryKey: membersToInviteKey,
    queryFn: async () => {
      const { data, error } = await supabase.rpc('admin_members_to_invite');
      if (error) throw error;
      return data ?? [];
    },
  });
}

export function useRunMemberImport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rows, commit }: { rows: readonly ImportRow[]; commit: boolean }) => runMemberImport(rows, commit),
    onSuccess: async (_data, { commit }) => {
      if (!commit) return;
      await invalidateAfterAdminWrite(queryClient);
      await queryClient.invalidateQueries({ queryKey: membersToInviteKey });
    },
  });
}

export type InvitationsSent = FunctionAnswer<'invite-members'>;

/** "Send invitations": each imported member gets a link to set their password, once. */
export function useSendInvitations() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (): Promise<InvitationsSent> => callFunction('invite-members', {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: membersToInviteKey }),
  });
}
