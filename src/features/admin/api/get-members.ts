import { supabase, type Member } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../messages';
import { useResource } from '../hooks/use-resource';

export type AdminMember = Pick<Member, 'id' | 'name' | 'email' | 'membership_tier' | 'created_at'> & { bookingsCount: number };

/** Every member, newest first, with a bookings count embedded in the same request. */
export async function getMembers(): Promise<AdminMember[]> {
  const { data, error } = await supabase
    .from('members')
    .select('id, name, email, membership_tier, created_at, bookings(count)')
    .order('created_at', { ascending: false });
  if (error) throw error;
  return data.map(({ bookings, ...member }) => ({ ...member, bookingsCount: bookings[0]?.count ?? 0 }));
}

export function useMembers() {
  return useResource(getMembers, ADMIN_MESSAGES.membersLoadFailed);
}
