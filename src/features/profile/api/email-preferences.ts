import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * The member's yes or no to news and offers (their latest marketing_consents row). Which emails,
 * pushes and texts they get is the preferences grid's (notification-preferences.ts, decision 0091).
 */
export type EmailPreferences = { marketing: boolean };

/** No choice recorded means no: news and offers only after the member says yes. */
export async function getEmailPreferences(memberId: string): Promise<EmailPreferences> {
  const { data, error } = await supabase
    .from('marketing_consents')
    .select('granted')
    .eq('member_id', memberId)
    .order('recorded_at', { ascending: false })
    .order('id', { ascending: true })
    .limit(1)
    .maybeSingle();
  if (error) throw error;
  return { marketing: data?.granted ?? false };
}

export const emailPreferencesQueryOptions = (memberId: string) =>
  queryOptions({ queryKey: queryKeys.emailPreferences.mine(memberId), queryFn: () => getEmailPreferences(memberId) });

export const useEmailPreferences = (memberId: string) => useQuery(emailPreferencesQueryOptions(memberId));

/** Records the member's own yes or no to news and offers (set_marketing_consent keeps the words and time). */
export async function setMarketingConsent(preferences: EmailPreferences): Promise<EmailPreferences> {
  const { data, error } = await supabase.rpc('set_marketing_consent', { p_granted: preferences.marketing });
  if (error) throw error;
  return { marketing: data };
}

export function useSetMarketingConsent(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: setMarketingConsent,
    onSuccess: (saved) => {
      client.setQueryData(queryKeys.emailPreferences.mine(memberId), saved);
      // The grid's marketing cells open or close with the consent.
      void client.invalidateQueries({ queryKey: queryKeys.notificationPreferences.mine(memberId) });
    },
  });
}
