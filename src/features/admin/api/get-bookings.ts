import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { PlaceKind } from '@/lib/class-place';
import type { Database } from '@/lib/database.types';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import { PAGE_SIZE, pageRange, type ListPage } from '../lib/paging';

/**
 * One place in a class (decision 0035): `member` is the account holding it (the member, a child's
 * parent, a guest's host) and `person` who is in the room.
 */
export type AdminBooking = {
  id: string;
  booked_at: string;
  kind: PlaceKind;
  person: string | null;
  member: { name: string | null; email: string };
  class: { name: string; start_time: string; trainer: string };
};

/** The columns read, as the view types them (PostgREST types every view column nullable). */
type Row = Pick<
  Database['public']['Views']['admin_bookings']['Row'],
  'id' | 'booked_at' | 'member_name' | 'member_email' | 'class_name' | 'class_start_time' | 'class_trainer' | 'kind' | 'person_name'
>;

const COLUMNS = 'id, booked_at, member_name, member_email, class_name, class_start_time, class_trainer, kind, person_name';

/**
 * One page of bookings, newest first, from the `admin_bookings` view (bookings with their member
 * and class, spec section 3). A search goes to `admin_bookings_search`, which matches member name,
 * member email or class name on the server and returns the page with the number of matches
 * (decision 0033). `total` counts every matching booking, not the page; the whole list's comes
 * from `admin_bookings_total` (the class tallies, decision 0029), asked in parallel, since counting
 * a million rows on every page is what made the first page slow at ten years of data.
 */
export async function getBookingsPage(page: number, search: string, size: number = PAGE_SIZE): Promise<ListPage<AdminBooking>> {
  if (search) return searchBookings(page, search, size);
  const [from, to] = pageRange(page, size);
  const [{ data, error }, total] = await Promise.all([
    // Then by id: a family's places share their booked_at (one transaction), and pages must not overlap.
    supabase
      .from('admin_bookings')
      .select(COLUMNS)
      .order('booked_at', { ascending: false })
      .order('id', { ascending: false })
      .range(from, to),
    getBookingsTotal(),
  ]);
  if (error) throw error;
  return { rows: data.map(toBooking), total };
}

async function searchBookings(page: number, search: string, size: number): Promise<ListPage<AdminBooking>> {
  const [from] = pageRange(page, size);
  const { data, error } = await supabase.rpc('admin_bookings_search', { p_term: search, p_offset: from, p_limit: size });
  if (error) throw error;
  const found = compositeRow<'admin_bookings_found'>(data);
  return { rows: found.rows.map(toBooking), total: found.total };
}

// NOT NULL columns through joins that always match (foreign keys); the view's and the search's types have them nullable.
function toBooking(r: Row): AdminBooking {
  return {
    id: r.id!,
    booked_at: r.booked_at!,
    kind: r.kind!,
    person: r.person_name,
    member: { name: r.member_name, email: r.member_email! },
    class: { name: r.class_name!, start_time: r.class_start_time!, trainer: r.class_trainer! },
  };
}

export const bookingsPageQueryOptions = (page: number, search: string) =>
  queryOptions({
    queryKey: queryKeys.admin.bookings({ page, search }),
    queryFn: () => getBookingsPage(page, search),
    // The previous page stays on screen while the next one (or a new search) loads.
    placeholderData: keepPreviousData,
  });

export const useBookingsPage = (page: number, search: string) => useQuery(bookingsPageQueryOptions(page, search));

/** Every booking, whatever the search: what a searched list is "out of" (the class tallies' sum, decision 0029). */
export async function getBookingsTotal(): Promise<number> {
  const { data, error } = await supabase.rpc('admin_bookings_total');
  if (error) throw error;
  return data;
}

export const useBookingsTotal = (enabled: boolean) =>
  useQuery({ queryKey: queryKeys.admin.bookings({ total: true }), queryFn: getBookingsTotal, enabled });
