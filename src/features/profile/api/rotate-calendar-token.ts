import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '@/lib/query-keys';
import { supabase } from '@/lib/supabase';
import type { ProfileData } from './get-profile';

/** Both calendar-token RPCs answer `{ calendar_token }` (null once the feed is off). */
export const calendarTokenSchema = z.object({ calendar_token: z.string().nullable() });

/** Issues a new calendar feed secret (decision 0005): the old link stops working. */
export async function rotateCalendarToken(): Promise<string | null> {
  const { data, error } = await supabase.rpc('rotate_calendar_token');
  if (error) throw error;
  return calendarTokenSchema.parse(data).calendar_token;
}

/** Puts the new token into the cached profile, which the card reads. */
export function useSetCalendarToken(fetcher: () => Promise<string | null>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fetcher,
    onSuccess: (token) =>
      queryClient.setQueriesData<ProfileData>({ queryKey: queryKeys.profile.all }, (profile) =>
        profile ? { ...profile, member: { ...profile.member, calendar_token: token } } : profile,
      ),
  });
}

export const useRotateCalendarToken = () => useSetCalendarToken(rotateCalendarToken);
