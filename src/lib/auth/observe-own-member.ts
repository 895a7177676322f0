import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import { rememberOwnMember } from '../browser-storage';
import type { Member } from '../supabase';
import { ownMemberQuery, seedOwnMember } from './own-member';

export type OwnMemberState = { member: Member | null; settled: boolean };

/**
 * Follows the member row in the query cache, as useQuery would: it is read now if not cached, and
 * re-read whenever a screen invalidates it. Loaded with the session rather than with every page
 * (TanStack Query's observer is not on a visitor's first page; issue 17).
 */
export function observeOwnMember(client: QueryClient, userId: string, onChange: (state: OwnMemberState) => void): () => void {
  // The row this browser last read, until the server's answer (seedOwnMember).
  seedOwnMember(client, userId);
  const query = ownMemberQuery(userId);
  const observer = new QueryObserver(client, query);
  // Signing out clears the cache: a read answered after that is not kept for anyone.
  const cached = () => client.getQueryCache().find({ queryKey: query.queryKey, exact: true }) !== undefined;
  // A failed read counts as no row (the screens cope with a missing member), unless one was read before.
  const report = ({ data, status, fetchStatus }: { data: Member | null | undefined; status: string; fetchStatus: string }) => {
    // What the server answered (not the remembered row, nor a failed read) is what the next visit starts from.
    if (status === 'success' && fetchStatus === 'idle' && cached()) rememberOwnMember(userId, data ?? null);
    onChange({ member: data ?? null, settled: status !== 'pending' });
  };
  report(observer.getCurrentResult());
  return observer.subscribe(report);
}
