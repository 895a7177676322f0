import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { callMembershipFunction } from './membership-function';
import { invalidateMembership } from './invalidate-membership';

export const CHANGE_MEMBERSHIP_ENDPOINT = '/.netlify/functions/change-membership';

export const changeMembershipInput = z.object({
  action: z.enum(['upgrade', 'downgrade']),
  planSlug: z.enum(['standard', 'platinum']),
});
export type ChangeMembershipInput = z.infer<typeof changeMembershipInput>;

/** paid / declined / pending for an upgrade (charged now); scheduled for a downgrade. */
export type ChangeOutcome = 'paid' | 'declined' | 'no_card' | 'pending' | 'error' | 'scheduled';

export class ChangeMembershipError extends Error {}

export async function changeMembership(input: ChangeMembershipInput): Promise<ChangeOutcome> {
  const answer = await callMembershipFunction(CHANGE_MEMBERSHIP_ENDPOINT, changeMembershipInput.parse(input));
  const outcome = answer.body.outcome;
  if (!answer.ok || typeof outcome !== 'string') {
    throw new ChangeMembershipError(typeof answer.body.message === 'string' ? answer.body.message : 'Could not change your membership, please try again.');
  }
  return outcome as ChangeOutcome;
}

export function useChangeMembership() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeMembership, onSettled: () => invalidateMembership(queryClient) });
}
