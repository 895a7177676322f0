import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callFunction } from '@/lib/functions-client';
import type { FunctionAnswer } from '@/lib/functions-contract';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

export type MemberRemoval = FunctionAnswer<'delete-member'>;

/**
 * Removes a member for good (decision 0010): the delete-member function ends their login and sessions
 * on the auth service, then the database deletes the member, keeps their payments and records any
 * refund owed. Anything but a confirmed removal throws (the screen says 'Failed to delete member').
 */
export function deleteMember(id: string): Promise<MemberRemoval> {
  return callFunction('delete-member', { memberId: id });
}

export function useDeleteMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMember, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
