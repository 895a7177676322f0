import type { PostgrestError } from '@supabase/supabase-js';
import { supabase } from '@/lib/supabase';

export type CalendarTokenOutcome = { ok: true; token: string | null } | { ok: false; error: PostgrestError };

/**
 * The calendar feed's secret is written only by these RPCs (decision 0005): `rotate_calendar_token`
 * issues a new one (the old link stops working), `revoke_calendar_token` clears it (the feed is off).
 */
async function callTokenRpc(name: 'rotate_calendar_token' | 'revoke_calendar_token'): Promise<CalendarTokenOutcome> {
  const { data, error } = await supabase.rpc(name);
  if (error) return { ok: false, error };
  const token = (data as { calendar_token?: string | null } | null)?.calendar_token ?? null;
  return { ok: true, token };
}

export const rotateCalendarToken = () => callTokenRpc('rotate_calendar_token');
export const revokeCalendarToken = () => callTokenRpc('revoke_calendar_token');
