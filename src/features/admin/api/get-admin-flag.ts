import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * Whether the member with this email is an admin (spec section 6 checks is_admin by email).
 * null means there is no member row for the email.
 */
export async function getAdminFlag(email: string): Promise<boolean | null> {
  const { data, error } = await supabase.from('members').select('is_admin').eq('email', email).maybeSingle();
  if (error) throw error;
  return data ? data.is_admin : null;
}

export const adminFlagQueryOptions = (email: string) =>
  queryOptions({ queryKey: queryKeys.admin.flag(email), queryFn: () => getAdminFlag(email) });

export const useAdminFlag = (email: string | null) => useQuery({ ...adminFlagQueryOptions(email ?? ''), enabled: email !== null });
