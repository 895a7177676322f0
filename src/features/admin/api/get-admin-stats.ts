import { queryOptions, useQuery } from '@tanstack/react-query';
import { compositeRow, compositeRows, type CompositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** One week of `admin_stats().weekly` (the last 8 ISO weeks, Monday London, oldest first): rates are fractions 0-1, null without classes / marks. */
export type WeeklyStat = CompositeRow<'admin_week', 'week_start' | 'classes' | 'capacity' | 'bookings' | 'attended' | 'no_show'>;

/** `admin_stats()`'s declared row (admin_figures): every count is set. */
export type AdminStats = Omit<CompositeRow<'admin_figures'>, 'weekly'> & { weekly: WeeklyStat[] };

/** Every analytics count in one request to the admin-only `admin_stats` RPC. */
export async function getAdminStats(): Promise<AdminStats> {
  const { data, error } = await supabase.rpc('admin_stats');
  if (error) throw error;
  const stats = compositeRow<'admin_figures'>(data);
  return {
    ...stats,
    weekly: compositeRows<'admin_week', 'week_start' | 'classes' | 'capacity' | 'bookings' | 'attended' | 'no_show'>(stats.weekly),
  };
}

export const adminStatsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.stats(), queryFn: getAdminStats });

export const useAdminStats = () => useQuery(adminStatsQueryOptions());
