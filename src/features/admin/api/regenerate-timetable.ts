import { supabase } from '@/lib/supabase';

export type RegenerateResult = { deleted: number; created: number };

/** Replaces every class with the template for the period, in one transaction on the server. */
export async function regenerateTimetable(start: string, end: string): Promise<RegenerateResult> {
  const { data, error } = await supabase.rpc('regenerate_timetable', { p_start: start, p_end: end });
  if (error) throw error;
  const raw = (data ?? {}) as Record<string, unknown>;
  return { deleted: Number(raw.deleted ?? 0), created: Number(raw.created ?? 0) };
}
