import { z } from 'zod';
import { supabase } from '@/lib/supabase';
import { timetablePeriodSchema, type TimetablePeriod } from './regenerate-timetable';

const previewSchema = z.object({
  created: z.coerce.number().int(),
  replaced: z.coerce.number().int(),
  replaced_bookings: z.coerce.number().int(),
  paid_bookings: z.coerce.number().int(),
});

/**
 * What generating a period would do (timetable_preview, admins only): the template's classes it
 * creates, the template's own classes it replaces because the template no longer has them, the
 * bookings on those, and how many of those were paid by card (they become refunds owed).
 */
export type TimetablePreview = z.infer<typeof previewSchema>;

/** Read just before asking: a booking made a minute ago must be in the question. */
export async function getTimetablePreview(period: TimetablePeriod): Promise<TimetablePreview> {
  const { start, end } = timetablePeriodSchema.parse(period);
  const { data, error } = await supabase.rpc('timetable_preview', { p_start: start, p_end: end });
  if (error) throw error;
  return previewSchema.parse(data);
}
