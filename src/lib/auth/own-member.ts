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
