import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Database } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** One kind and source of credit still to deliver (`admin_credits_outstanding()`, docs/data-contract.md). */
export type CreditsOutstanding = Database['public']['CompositeTypes']['credits_outstanding'];

/** Credits sold or granted and not yet used, by kind and source, with the value of the paid ones. */
export async function getCreditsOutstanding(): Promise<CreditsOutstanding[]> {
  const { data, error } = await supabase.rpc('admin_credits_outstanding');
  if (error) throw error;
  return data;
}

export const creditsOutstandingQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.admin.creditsOutstanding(), queryFn: getCreditsOutstanding });

export const useCreditsOutstanding = () => useQuery(creditsOutstandingQueryOptions());
