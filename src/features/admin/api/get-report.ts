import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Database } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { ReportRange } from '../lib/report-range';

type Composite = Database['public']['CompositeTypes'];
export type RevenueRow = Composite['revenue_row'];
export type MrrRow = Composite['mrr_row'];
export type TrialRow = Composite['trial_row'];
export type AttendanceRow = Composite['attendance_row'];
export type FillRow = Composite['fill_row'];
export type AdminReports = Composite['admin_reports'];

/** Every Analytics report for a London date range, computed in SQL, in one call. */
export async function getAdminReports(range: ReportRange): Promise<AdminReports> {
  const { data, error } = await supabase.rpc('admin_reports', { p_from: range.from, p_to: range.to });
  if (error) throw error;
  return data;
}

export const adminReportsQueryOptions = (range: ReportRange) =>
  queryOptions({ queryKey: queryKeys.admin.reports(range), queryFn: () => getAdminReports(range), placeholderData: keepPreviousData });

/** The previous range's figures stay on screen while the next range loads. */
export const useAdminReports = (range: ReportRange) => useQuery(adminReportsQueryOptions(range));
