import { supabase } from '@/lib/supabase';
import { pageRange, searchFilter, type ListPage } from '../utils/paging';

export type AdminBooking = {
  id: string;
  booked_at: string;
  member: { name: string | null; email: string };
  class: { name: string; start_time: string; trainer: string };
};

/** The columns the search box looks in (spec: member name, member email or class name). */
const SEARCHED = ['member_name', 'member_email', 'class_name'] as const;

/**
 * One page of bookings, newest first, from the `admin_bookings` view (bookings joined with their
 * member and class; rows missing either join are not in it, spec section 3), searched on the server.
 */
export async function getBookingsPage(page: number, search: string): Promise<ListPage<AdminBooking>> {
  let query = supabase
    .from('admin_bookings')
    .select('id, booked_at, member_name, member_email, class_name, class_start_time, class_trainer', { count: 'exact' });
  if (search) query = query.or(searchFilter(SEARCHED, search));
  const { data, error, count } = await query.order('booked_at', { ascending: false }).range(...pageRange(page));
  if (error) throw error;
  // The view's columns come from NOT NULL ones through inner joins; PostgREST types views as nullable.
  const rows = data.map((r) => ({
    id: r.id!,
    booked_at: r.booked_at!,
    member: { name: r.member_name, email: r.member_email! },
    class: { name: r.class_name!, start_time: r.class_start_time!, trainer: r.class_trainer! },
  }));
  return { rows, total: count ?? rows.length };
}
