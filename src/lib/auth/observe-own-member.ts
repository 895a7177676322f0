import { QueryObserver, type QueryClient } from '@tanstack/react-query';
import type { Member } from '../supabase';
import { ownMemberQuery } from './own-member';

export type OwnMemberState = { member: Member | null; settled: boolean };

/**
 * Follows the member row in the query cache, as useQuery would: it is read now if not cached, and
 * re-read whenever a screen invalidates it. Loaded with the session rather than with every page
 * (TanStack Query's observer is not on a visitor's first page;).
 */
export function observeOwnMember(client: QueryClient, userId: string, onChange: (state: OwnMemberState) => void): () => void {
  const observer = new QueryObserver(client, ownMemberQuery(userId));
  // A failed read counts as no row: the screens cope with a missing member.
  const report = ({ data, status }: { data: Member | null | undefined; status: string }) =>
    onChange({ member: data ?? null, settled: status !== 'pending' });
  report(observer.getCurrentResult());
  return observer.subscribe(report);
}
