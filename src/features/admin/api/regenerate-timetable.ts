import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { invalidateAfterAdminWrite } from '../lib/invalidate-admin';
import { timetablePeriodError } from '../lib/timetable-period';

/** Generate Classes' period, shared by the form and the call: the RPC refuses the same periods. */
export const timetablePeriodSchema = z.object({ start: z.string(), end: z.string() }).superRefine(({ start, end }, ctx) => {
  const message = timetablePeriodError(start, end);
  if (message) ctx.addIssue({ code: 'custom', path: ['end'], message });
});

export type TimetablePeriod = z.infer<typeof timetablePeriodSchema>;

const resultSchema = z.object({ deleted: z.coerce.number().int(), created: z.coerce.number().int() });
export type RegenerateResult = z.infer<typeof resultSchema>;

/**
 * Brings the period in line with the template, in one transaction on the server: creates the template's
 * classes it lacks and replaces only the template's own classes it no longer makes (`deleted`).
 */
export async function regenerateTimetable(period: TimetablePeriod): Promise<RegenerateResult> {
  const { start, end } = timetablePeriodSchema.parse(period);
  const { data, error } = await supabase.rpc('regenerate_timetable', { p_start: start, p_end: end });
  if (error) throw error;
  return resultSchema.parse(data);
}

export function useRegenerateTimetable() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: regenerateTimetable, onSuccess: () => invalidateAfterAdminWrite(queryClient) });
}
