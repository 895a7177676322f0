import { supabase, type Member } from '@/lib/supabase';
import { PAGE_SIZE, pageRange, searchFilter, type ListPage } from '../utils/paging';

export type AdminMember = Pick<Member, 'id' | 'name' | 'email' | 'membership_tier' | 'created_at'> & { bookingsCount: number };

/** One page of members, newest first, searched by name or email on the server, with a bookings count embedded. */
export async function getMembersPage(page: number, search: string, size: number = PAGE_SIZE): Promise<ListPage<AdminMember>> {
  let query = supabase.from('members').select('id, name, email, membership_tier, created_at, bookings(count)', { count: 'exact' });
  if (search) query = query.or(searchFilter(['name', 'email'], search));
  const { data, error, count } = await query.order('created_at', { ascending: false }).range(...pageRange(page, size));
  if (error) throw error;
  const rows = data.map(({ bookings, ...member }) => ({ ...member, bookingsCount: bookings[0]?.count ?? 0 }));
  return { rows, total: count ?? rows.length };
}
