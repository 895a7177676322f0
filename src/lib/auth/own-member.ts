import type { QueryClient } from '@tanstack/react-query';
import { rememberedOwnMember } from '../browser-storage';
import type { Member } from '../supabase';
import { queryKeys } from '../query-keys';
import { loadSupabase } from '../supabase-loader';

async function fetchOwnMember(userId: string): Promise<Member | null> {
  const supabase = await loadSupabase();
  const { data, error } = await supabase.from('members').select('*').eq('user_id', userId).maybeSingle();
  if (error) throw error;
  return data;
}

/**
 * The signed-in user's member row, cached per user (so another user's row is never shown).
 * Read by the auth provider rather than in Supabase's auth callback, which must not await other
 * Supabase calls.
 */
export const ownMemberQuery = (userId: string) => ({
  queryKey: queryKeys.member.own(userId),
  queryFn: () => fetchOwnMember(userId),
});

/**
 * Puts the row this browser last read for `userId` in the cache, marked stale, unless the cache
 * has one: the screens render and start their reads (keyed by the member's id) at once, and the
 * row is read again behind them (issue 29). Rules never read it: money and access are the
 * database's, so a moment of an old row shows old words at worst.
 */
export function seedOwnMember(client: QueryClient, userId: string): Member | null {
  const { queryKey } = ownMemberQuery(userId);
  const cached = client.getQueryData<Member | null>(queryKey);
  if (cached !== undefined) return cached;
  const remembered = rememberedOwnMember(userId);
  if (remembered) client.setQueryData(queryKey, remembered, { updatedAt: 0 });
  return remembered;
}
