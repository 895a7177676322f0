import { supabase } from '@/lib/supabase';
import { ADMIN_MESSAGES } from '../messages';
import { useResource } from '../hooks/use-resource';
import type { AdminStats, WeeklyStat } from '../utils/analytics-figures';

const STAT_KEYS = [
  'total_members',
  'total_classes',
  'total_bookings',
  'upcoming_classes',
  'premium_members',
  'standard_members',
  'payg_members',
  'bookings_this_month',
] as const satisfies readonly (keyof AdminStats)[];

/** Every analytics count in one request to the admin-only `admin_stats` RPC. */
export async function getAdminStats(): Promise<AdminStats> {
  const { data, error } = await supabase.rpc('admin_stats');
  if (error) throw error;
  const raw = (data ?? {}) as Record<string, unknown>;
  if (!Array.isArray(raw.weekly)) throw new Error('admin_stats is missing weekly');
  const stats = { weekly: raw.weekly as WeeklyStat[] } as AdminStats;
  for (const key of STAT_KEYS) {
    const value = Number(raw[key]);
    if (!Number.isFinite(value)) throw new Error(`admin_stats is missing ${key}`);
    stats[key] = value;
  }
  return stats;
}

export function useAdminStats() {
  return useResource(getAdminStats, ADMIN_MESSAGES.analyticsLoadFailed);
}
