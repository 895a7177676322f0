import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

const count = z.coerce.number().int().nonnegative();
const rate = z.coerce.number().min(0).max(1).nullable();

/** One week of `admin_stats().weekly`: rates are fractions 0-1, null without classes / marks. */
const weeklyStatSchema = z.object({
  week_start: z.string(),
  classes: count,
  capacity: count,
  bookings: count,
  fill_rate: rate,
  attended: count,
  no_show: count,
  attendance_rate: rate,
});

/** `admin_stats()` returns json (docs/data-contract.md): parsed here, so a changed shape fails loudly. */
const adminStatsSchema = z.object({
  total_members: count,
  total_classes: count,
  total_bookings: count,
  upcoming_classes: count,
  premium_members: count,
  standard_members: count,
  payg_members: count,
  bookings_this_month: count,
  /** Issue 9: the last 8 ISO weeks (Monday, London), oldest first. */
  weekly: z.array(weeklyStatSchema),
});

export type AdminStats = z.infer<typeof adminStatsSchema>;
export type WeeklyStat = z.infer<typeof weeklyStatSchema>;

/** Every analytics count in one request to the admin-only `admin_stats` RPC. */
export async function getAdminStats(): Promise<AdminStats> {
  const { data, error } = await supabase.rpc('admin_stats');
  if (error) throw error;
  return adminStatsSchema.parse(data);
}

export const adminStatsQueryOptions = () => queryOptions({ queryKey: queryKeys.admin.stats(), queryFn: getAdminStats });

export const useAdminStats = () => useQuery(adminStatsQueryOptions());
