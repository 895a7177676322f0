import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Member } from '@/lib/supabase';

export type ProfileData = { member: Member; bookingsCount: number };

/** The signed-in user's own member row, read fresh, and how many bookings they hold (account summary). */
export async function getProfile(userId: string): Promise<ProfileData> {
  const { data: member, error } = await supabase.from('members').select('*').eq('user_id', userId).single();
  if (error) throw error;
  const { count, error: countError } = await supabase
    .from('bookings')
    .select('id', { count: 'exact', head: true })
    .eq('member_id', member.id);
  if (countError) throw countError;
  return { member, bookingsCount: count ?? 0 };
}

export const profileQueryOptions = (userId: string) =>
  queryOptions({ queryKey: queryKeys.profile.own(userId), queryFn: () => getProfile(userId) });

export const useProfile = (userId: string | null) => useQuery({ ...profileQueryOptions(userId ?? ''), enabled: userId !== null });
