import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkedText } from '@/lib/checked-text';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { MembershipPlanSlug, MyMembership, MyMembershipSetFields } from '../lib/membership-view';

const amount = (value: number | null) => (value === null ? null : Number(value));

/** The caller's membership (`my_membership()`), or null when they never had a plan or trial. */
export async function getMyMembership(): Promise<MyMembership | null> {
  const { data, error } = await supabase.rpc('my_membership');
  if (error) throw error;
  // A null row type reaches PostgREST clients as an object of nulls.
  if (!data?.id) return null;
  const row = compositeRow<'my_membership', MyMembershipSetFields>(data);
  return {
    ...row,
    plan_slug: checkedText<MembershipPlanSlug>(row.plan_slug),
    next_plan_slug: checkedText<MembershipPlanSlug>(row.next_plan_slug),
    price: amount(row.price),
    next_price: amount(row.next_price),
    amount_due: amount(row.amount_due),
  };
}

export const myMembershipQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.membership.mine(memberId), queryFn: getMyMembership });

export const useMyMembership = (memberId: string | null) =>
  useQuery({ ...myMembershipQueryOptions(memberId ?? ''), enabled: memberId !== null });
