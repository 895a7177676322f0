import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Tables } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** The reminder leads the database accepts (push_preferences_reminder_minutes_check). */
export const REMINDER_MINUTES = [30, 60, 120, 720] as const;

/** Which pushes the member gets and when (decision 0023); null reminder = none, null quiet hours = none. */
export const pushPreferencesSchema = z
  .object({
    waitlistPromoted: z.boolean(),
    classChanges: z.boolean(),
    studioClosures: z.boolean(),
    paymentFailed: z.boolean(),
    reminderMinutes: z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(720)]).nullable(),
    quietFrom: z
      .string()
      .regex(/^\d{2}:\d{2}$/)
      .nullable(),
    quietUntil: z
      .string()
      .regex(/^\d{2}:\d{2}$/)
      .nullable(),
  })
  .refine((p) => (p.quietFrom === null) === (p.quietUntil === null) && (p.quietFrom === null || p.quietFrom !== p.quietUntil), {
    message: 'Quiet hours need a start and a different end',
  });

export type PushPreferences = z.infer<typeof pushPreferencesSchema>;

/** No row yet: the database's defaults (push_preferences). */
export const DEFAULT_PUSH_PREFERENCES: PushPreferences = {
  waitlistPromoted: true,
  classChanges: true,
  studioClosures: true,
  paymentFailed: true,
  reminderMinutes: 60,
  quietFrom: null,
  quietUntil: null,
};

type PushPreferencesRow = Omit<Tables<'push_preferences'>, 'member_id' | 'updated_at'>;

const hhmm = (time: string | null) => (time === null ? null : time.slice(0, 5));

/** A stored row, read through the same schema the form sends with. */
function fromRow(row: PushPreferencesRow): PushPreferences {
  return pushPreferencesSchema.parse({
    waitlistPromoted: row.waitlist_promoted,
    classChanges: row.class_changes,
    studioClosures: row.studio_closures,
    paymentFailed: row.payment_failed,
    reminderMinutes: row.reminder_minutes,
    quietFrom: hhmm(row.quiet_from),
    quietUntil: hhmm(row.quiet_until),
  });
}

export async function getPushPreferences(memberId: string): Promise<PushPreferences> {
  const { data, error } = await supabase
    .from('push_preferences')
    .select('waitlist_promoted, class_changes, studio_closures, payment_failed, reminder_minutes, quiet_from, quiet_until')
    .eq('member_id', memberId)
    .maybeSingle();
  if (error) throw error;
  return data ? fromRow(data) : DEFAULT_PUSH_PREFERENCES;
}

export const pushPreferencesQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.pushPreferences.mine(memberId), queryFn: () => getPushPreferences(memberId) });

export const usePushPreferences = (memberId: string) => useQuery(pushPreferencesQueryOptions(memberId));

export async function setPushPreferences(preferences: PushPreferences): Promise<PushPreferences> {
  const p = pushPreferencesSchema.parse(preferences);
  const { data, error } = await supabase.rpc('set_push_preferences', {
    p_waitlist_promoted: p.waitlistPromoted,
    p_class_changes: p.classChanges,
    p_studio_closures: p.studioClosures,
    p_payment_failed: p.paymentFailed,
    p_reminder_minutes: p.reminderMinutes,
    p_quiet_from: p.quietFrom,
    p_quiet_until: p.quietUntil,
  });
  if (error) throw error;
  return fromRow(data);
}

export function useSetPushPreferences(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setPushPreferences,
    onSuccess: (saved) => client.setQueryData(queryKeys.pushPreferences.mine(memberId), saved),
  });
}
