import { queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { MyMembership } from '../lib/membership-view';

/** The caller's membership (`my_membership()`), or null when they never had a plan or trial. */
export async function getMyMembership(): Promise<MyMembership | null> {
  const { data, error } = await supabase.rpc('my_membership');
  if (error) throw error;
  // A null row type reaches PostgREST clients as an object of nulls.
  const row = data as MyMembership | null;
  return row?.id ? { ...row, price: row.price === null ? null : Number(row.price), next_price: row.next_price === null ? null : Number(row.next_price), amount_due: row.amount_due === null ? null : Number(row.amount_due) } : null;
}

export const myMembershipQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.membership.mine(memberId), queryFn: getMyMembership });

export const useMyMembership = (memberId: string | null) => useQuery({ ...myMembershipQueryOptions(memberId ?? ''), enabled: memberId !== null });
