import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { compositeRows } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * The preferences grid (decision 0091): kinds of message by channel. The database says, cell by
 * cell, whether the message would reach the member now (the rule the senders follow,
 * notification_wanted) and whether they may change it here, else why not.
 */
export type Channel = 'email' | 'push' | 'sms';

export const CHANNELS: readonly Channel[] = ['email', 'push', 'sms'];

/** Why a cell cannot be changed (notification_choice.blocked_by). */
export type Blocked = 'always' | 'no_mobile' | 'stopped' | 'no_consent';

export type NotificationCell = { channel: Channel; enabled: boolean; blockedBy: Blocked | null };

export type NotificationRow = {
  type: string;
  label: string;
  category: 'service' | 'marketing';
  cells: Partial<Record<Channel, NotificationCell>>;
};

/** One row per kind of message, in the database's order, with a cell per channel it is sent by. */
export async function getNotificationPreferences(): Promise<NotificationRow[]> {
  const { data, error } = await supabase.rpc('my_notification_preferences');
  if (error) throw error;
  const rows: NotificationRow[] = [];
  for (const c of compositeRows<'notification_choice', 'type' | 'label' | 'category' | 'channel' | 'enabled' | 'changeable'>(data)) {
    let row = rows.find((r) => r.type === c.type);
    if (!row) {
      row = { type: c.type, label: c.label, category: c.category as NotificationRow['category'], cells: {} };
      rows.push(row);
    }
    row.cells[c.channel as Channel] = {
      channel: c.channel as Channel,
      enabled: c.enabled,
      blockedBy: c.blocked_by as Blocked | null,
    };
  }
  return rows;
}

export const notificationPreferencesQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.notificationPreferences.mine(memberId), queryFn: getNotificationPreferences });

export const useNotificationPreferences = (memberId: string) => useQuery(notificationPreferencesQueryOptions(memberId));

export type PreferenceChange = { type: string; channel: Channel; enabled: boolean };

export async function setNotificationPreference({ type, channel, enabled }: PreferenceChange): Promise<void> {
  const { error } = await supabase.rpc('set_notification_preference', { p_channel: channel, p_topic: type, p_enabled: enabled });
  if (error) throw error;
}

export function useSetNotificationPreference(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setNotificationPreference,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notificationPreferences.mine(memberId) }),
  });
}

/** The mobile number texts go to (E.164, as the database normalised it), and whether it replied STOP. */
export type SmsNumber = { phone: string; stopped: boolean } | null;

export async function getSmsNumber(memberId: string): Promise<SmsNumber> {
  const { data, error } = await supabase.from('sms_numbers').select('phone, stopped_at').eq('member_id', memberId).maybeSingle();
  if (error) throw error;
  return data ? { phone: data.phone, stopped: data.stopped_at !== null } : null;
}

export const smsNumberQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.notificationPreferences.smsNumber(memberId), queryFn: () => getSmsNumber(memberId) });

export const useSmsNumber = (memberId: string) => useQuery(smsNumberQueryOptions(memberId));

/** What the form checks before asking: something that could be a phone number (the database decides if it is a mobile). */
export const smsNumberSchema = z.object({
  phone: z
    .string()
    .trim()
    .min(1, 'Enter your mobile number')
    .max(30, 'Enter a mobile number like 07700 900123')
    .regex(/^[0-9+\s().-]+$/, 'Enter a mobile number like 07700 900123'),
});

export type SmsNumberForm = z.infer<typeof smsNumberSchema>;

/** Saves the number (null removes it: texts stop). The database refuses one that cannot take texts (hint invalid_mobile). */
export async function setSmsNumber(phone: string | null): Promise<SmsNumber> {
  const { data, error } = await supabase.rpc('set_sms_number', { p_phone: phone ?? '' });
  if (error) throw error;
  return data?.phone ? { phone: data.phone, stopped: data.stopped_at !== null } : null;
}

export function useSetSmsNumber(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setSmsNumber,
    onSuccess: (saved) => client.setQueryData(queryKeys.notificationPreferences.smsNumber(memberId), saved),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.notificationPreferences.mine(memberId) }),
  });
}
