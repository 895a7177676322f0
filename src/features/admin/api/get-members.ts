import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase, type Member } from '@/lib/supabase';
import { PAGE_SIZE, pageRange, searchFilter, type ListPage } from '../lib/paging';

export type AdminMember = Pick<Member, 'id' | 'name' | 'email' | 'membership_tier' | 'created_at'> & { bookingsCount: number };

/**
 * One page of members, newest first, searched by name or email on the server, with a bookings
 * count embedded. `total` counts every matching member (count=exact), not the page.
 */
export async function getMembersPage(page: number, search: string, size: number = PAGE_SIZE): Promise<ListPage<AdminMember>> {
  let query = supabase.from('members').select('id, name, email, membership_tier, created_at, bookings(count)', { count: 'exact' });
  if (search) query = query.or(searchFilter(['name', 'email'], search));
  const { data, error, count } = await query.order('created_at', { ascending: false }).range(...pageRange(page, size));
  if (error) throw error;
  const rows = data.map(({ bookings, ...member }) => ({ ...member, bookingsCount: bookings[0]?.count ?? 0 }));
  return { rows, total: count ?? rows.length };
}

export const membersPageQueryOptions = (page: number, search: string) =>
  queryOptions({
    queryKey: queryKeys.admin.members({ page, search }),
    queryFn: () => getMembersPage(page, search),
    placeholderData: keepPreviousData,
  });

export const useMembersPage = (page: number, search: string) => useQuery(membersPageQueryOptions(page, search));
