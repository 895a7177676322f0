import { supabase } from '@/lib/supabase';

export type FunctionAnswer = { ok: boolean; status: number; body: Record<string, unknown> };

/**
 * POSTs to one of the membership functions (update-card, change-membership) with the member's
 * access token, so the function checks who asks; prices and plans are the server's.
 */
export async function callMembershipFunction(endpoint: string, body: unknown = {}): Promise<FunctionAnswer> {
  const { data } = await supabase.auth.getSession();
  if (!data.session) return { ok: false, status: 401, body: { message: 'Please sign in first.' } };
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${data.session.access_token}` },
    body: JSON.stringify(body),
  });
  const parsed: unknown = await res.json().catch(() => ({}));
  return { ok: res.ok, status: res.status, body: typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {} };
}
