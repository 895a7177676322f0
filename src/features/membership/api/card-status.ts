import { useQuery } from '@tanstack/react-query';
import { callFunction } from '@/lib/functions-client';
import type { FunctionAnswer } from '@/lib/functions-contract';
import { queryKeys } from '@/lib/query-keys';

export type CardStatus = FunctionAnswer<'card-status'>['status'];

/** How often, and how many times, the page asks while the provider has not answered. */
export const CARD_STATUS_POLL_MS = 2_000;
const CARD_STATUS_MAX_TRIES = 15;

/**
 * The card-saving checkout the member came back from (`/membership?card=<reference>`, decision
 * 0104): saved, still pending (asked again every 2 seconds, 15 times at most) or failed. The
 * function asks the provider too, so a lost notification does not leave the card unsaved.
 */
export function useCardStatus(reference: string | null) {
  return useQuery({
    queryKey: queryKeys.membership.cardStatus(reference ?? ''),
    queryFn: async () => (await callFunction('card-status', { reference: reference ?? '' })).status,
    enabled: reference !== null,
    retry: false,
    refetchInterval: (query) =>
      query.state.data === 'pending' && query.state.dataUpdateCount < CARD_STATUS_MAX_TRIES ? CARD_STATUS_POLL_MS : false,
  });
}
