import { supabase } from '@/lib/supabase';
import { calendarTokenSchema, useSetCalendarToken } from './rotate-calendar-token';

/** Clears the calendar feed secret: the feed is off until a new link is made. */
export async function revokeCalendarToken(): Promise<string | null> {
  const { data, error } = await supabase.rpc('revoke_calendar_token');
  if (error) throw error;
  return calendarTokenSchema.parse(data).calendar_token;
}

export const useRevokeCalendarToken = () => useSetCalendarToken(revokeCalendarToken);
