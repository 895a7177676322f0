import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { compositeRow } from '@/lib/composite-row';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/** Which optional emails the member gets; transactional emails always go (decision 0008). */
export type EmailPreferences = { classReminders: boolean; marketing: boolean };

/** No row yet means the defaults: reminders on, news and offers off until the member says yes. */
export async function getEmailPreferences(memberId: string): Promise<EmailPreferences> {
  const { data, error } = await supabase
    .from('email_preferences')
    .select('class_reminders, win_back')
    .eq('member_id', memberId)
    .maybeSingle();
  if (error) throw error;
  return { classReminders: data?.class_reminders ?? true, marketing: data?.win_back ?? false };
}

export const emailPreferencesQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.emailPreferences.mine(memberId), queryFn: () => getEmailPreferences(memberId) });

export const useEmailPreferences = (memberId: string) => useQuery(emailPreferencesQueryOptions(memberId));

/** Saves the reminders switch; the other choice is kept as it was. */
export async function setEmailPreferences(preferences: EmailPreferences): Promise<EmailPreferences> {
  const { data, error } = await supabase.rpc('set_email_preferences', { p_class_reminders: preferences.classReminders });
  if (error) throw error;
  return { ...preferences, classReminders: compositeRow<'reminder_preference'>(data).class_reminders };
}

/** Records the member's own yes or no to news and offers (set_marketing_consent keeps the words and time). */
export async function setMarketingConsent(preferences: EmailPreferences): Promise<EmailPreferences> {
  const { data, error } = await supabase.rpc('set_marketing_consent', { p_granted: preferences.marketing });
  if (error) throw error;
  return { ...preferences, marketing: data };
}

export function useSetEmailPreferences(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setEmailPreferences,
    onSuccess: (saved) => client.setQueryData(queryKeys.emailPreferences.mine(memberId), saved),
  });
}

export function useSetMarketingConsent(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setMarketingConsent,
    onSuccess: (saved) => client.setQueryData(queryKeys.emailPreferences.mine(memberId), saved),
  });
}
