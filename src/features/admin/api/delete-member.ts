import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';

export const DELETE_MEMBER_ENDPOINT = '/.netlify/functions/delete-member';

const removalSchema = z.object({ memberId: z.string(), refundsOwed: z.number() });
export type MemberRemoval = z.infer<typeof removalSchema>;

/**
 * Removes a member for good (issue 14): the delete-member function ends their login and sessions
 * on the auth service, then the database deletes the member, keeps their payments and records any
 * refund owed. Anything but a confirmed removal throws (the screen says 'Failed to delete member').
 */
export async function deleteMember(id: string): Promise<MemberRemoval> {
  const { data } = await supabase.auth.getSession();
  const token = data.session?.access_token;
  if (!token) throw new Error('Please sign in again');
  const res = await fetch(DELETE_MEMBER_ENDPOINT, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ memberId: id }),
  });
  if (!res.ok) throw new Error(`delete-member answered ${res.status}`);
  return removalSchema.parse(await res.json());
}

export function useDeleteMember() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: deleteMember, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
