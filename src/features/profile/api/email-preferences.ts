import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** Which optional emails the member gets; transactional emails always go (decision 0008). */
export type EmailPreferences = { classReminders: boolean };

/** No row yet means the defaults: reminders on. */
export async function getEmailPreferences(memberId: string): Promise<EmailPreferences> {
  const { data, error } = await supabase.from('email_preferences').select('class_reminders').eq('member_id', memberId).maybeSingle();
  if (error) throw error;
  return { classReminders: data?.class_reminders ?? true };
}

export const emailPreferencesQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.emailPreferences.mine(memberId), queryFn: () => getEmailPreferences(memberId) });

export const useEmailPreferences = (memberId: string) => useQuery(emailPreferencesQueryOptions(memberId));

export async function setEmailPreferences(preferences: EmailPreferences): Promise<EmailPreferences> {
  const { data, error } = await supabase.rpc('set_email_preferences', { p_class_reminders: preferences.classReminders });
  if (error) throw error;
  return { classReminders: compositeRow<'reminder_preference'>(data).class_reminders };
}

export function useSetEmailPreferences(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setEmailPreferences,
    onSuccess: (saved) => client.setQueryData(queryKeys.emailPreferences.mine(memberId), saved),
  });
}
