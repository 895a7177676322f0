import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Member, type Tables } from '@/lib/supabase';
import { PAGE_SIZE, pageRange, searchFilter, type ListPage } from '../lib/paging';

/** A member's plan as Members Management shows it (decision 0009); null when they never had one. */
export type MemberPlan = Pick<Tables<'memberships'>, 'status' | 'period_end' | 'ended_at' | 'next_retry_at'> | null;

export type AdminMember = Pick<Member, 'id' | 'name' | 'email' | 'membership_tier' | 'created_at'> & {
  bookingsCount: number;
  plan: MemberPlan;
};

/** Every member, or only those whose renewal failed and is being retried. */
export type MemberFilter = 'all' | 'past_due';

/**
 * One page of members, newest first, searched by name or email on the server, with a bookings
 * count and the membership embedded. `total` counts every matching member (count=exact), not the page.
 */
export async function getMembersPage(
  page: number,
  search: string,
  size: number = PAGE_SIZE,
  filter: MemberFilter = 'all',
): Promise<ListPage<AdminMember>> {
  const plan =
    filter === 'past_due'
      ? 'memberships!inner(status, period_end, ended_at, next_retry_at)'
      : 'memberships(status, period_end, ended_at, next_retry_at)';
  let query = supabase.from('members').select(`id, name, email, membership_tier, created_at, bookings(count), ${plan}`, { count: 'exact' });
  if (filter === 'past_due') query = query.eq('memberships.status', 'past_due');
  if (search) query = query.or(searchFilter(['name', 'email'], search));
  const { data, error, count } = await query.order('created_at', { ascending: false }).range(...pageRange(page, size));
  if (error) throw error;
  // memberships.member_id is unique: PostgREST embeds the one membership as an object (or null).
  const rows = data.map(({ bookings, memberships, ...member }) => ({
    ...member,
    bookingsCount: bookings[0]?.count ?? 0,
    plan: memberships,
  }));
  return { rows, total: count ?? rows.length };
}

export const membersPageQueryOptions = (page: number, search: string, filter: MemberFilter = 'all') =>
  queryOptions({
    queryKey: queryKeys.admin.members({ page, search, filter }),
    queryFn: () => getMembersPage(page, search, PAGE_SIZE, filter),
    placeholderData: keepPreviousData,
  });

export const useMembersPage = (page: number, search: string, filter: MemberFilter = 'all') =>
  useQuery(membersPageQueryOptions(page, search, filter));
