import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { callFunction, FunctionError } from '@/lib/functions-client';
import type { FunctionAnswer } from '@/lib/functions-contract';
import { invalidateMembership } from './invalidate-membership';

export const changeMembershipInput = z.object({
  action: z.enum(['upgrade', 'downgrade']),
  planSlug: z.enum(['standard', 'platinum']),
  /** The upgrade's charge the member was shown: the server charges nothing if it differs. */
  expectedAmount: z.number().positive().optional(),
});
export type ChangeMembershipInput = z.infer<typeof changeMembershipInput>;

/** paid / declined / pending for an upgrade (charged now); scheduled for a downgrade. */
export type ChangeOutcome = FunctionAnswer<'change-membership'>['outcome'];

export class ChangeMembershipError extends Error {}

/** The change-membership function decides prices and plans; a refusal throws with its message. */
export async function changeMembership(input: ChangeMembershipInput): Promise<ChangeOutcome> {
  try {
    const { outcome } = await callFunction('change-membership', changeMembershipInput.parse(input));
    return outcome;
  } catch (error) {
    if (!(error instanceof FunctionError)) throw error;
    throw new ChangeMembershipError(error.serverMessage ?? 'Could not change your membership, please try again.');
  }
}

export function useChangeMembership() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: changeMembership, onSettled: () => invalidateMembership(queryClient) });
}
