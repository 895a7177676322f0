import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import type { Tables } from '@/lib/database.types';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** The reminder leads the database accepts (push_preferences_reminder_minutes_check). */
export const REMINDER_MINUTES = [30, 60, 120, 720] as const;

/**
 * When the member's pushes come (decision 0023): the reminder lead and quiet hours (null = none).
 * Which pushes come is the preferences grid's (notification-preferences.ts, decision 0091).
 */
export const pushPreferencesSchema = z
  .object({
    reminderMinutes: z.union([z.literal(30), z.literal(60), z.literal(120), z.literal(720)]),
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
  reminderMinutes: 60,
  quietFrom: null,
  quietUntil: null,
};

type PushPreferencesRow = Omit<Tables<'push_preferences'>, 'member_id' | 'updated_at'>;

const hhmm = (time: string | null) => (time === null ? null : time.slice(0, 5));

/** A stored row, read through the same schema the form sends with. */
function fromRow(row: PushPreferencesRow): PushPreferences {
  return pushPreferencesSchema.parse({
    // Null: the default lead (push_default_reminder_minutes).
    reminderMinutes: row.reminder_minutes ?? DEFAULT_PUSH_PREFERENCES.reminderMinutes,
    quietFrom: hhmm(row.quiet_from),
    quietUntil: hhmm(row.quiet_until),
  });
}

export async function getPushPreferences(memberId: string): Promise<PushPreferences> {
  const { data, error } = await supabase
    .from('push_preferences')
    .select('reminder_minutes, quiet_from, quiet_until')
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
