import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';

/**
 * Whether the member gets the studio's review requests (decision 0088): their own preference cell
 * (email, review_request); no row means on, like every service message.
 */
export async function getReviewRequestsWanted(memberId: string): Promise<boolean> {
  const { data, error } = await supabase
    .from('notification_preferences')
    .select('enabled')
    .eq('member_id', memberId)
    .eq('channel', 'email')
    .eq('topic', 'review_request')
    .maybeSingle();
  if (error) throw error;
  return data?.enabled ?? true;
}

export const useReviewRequestsWanted = (memberId: string) =>
  useQuery({ queryKey: queryKeys.emailPreferences.reviewRequests(memberId), queryFn: () => getReviewRequestsWanted(memberId) });

export function useSetReviewRequestsWanted(memberId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (wanted: boolean) => {
      const { data, error } = await supabase.rpc('set_notification_preference', {
        p_channel: 'email',
        p_topic: 'review_request',
        p_enabled: wanted,
      });
      if (error) throw error;
      return data.enabled;
    },
    onSuccess: (wanted) => client.setQueryData(queryKeys.emailPreferences.reviewRequests(memberId), wanted),
  });
}
