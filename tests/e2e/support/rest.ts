import { authHeaders } from './accounts';
import type { StackApi } from './local-stack';

/** Direct calls to the stack's REST API: journeys arrange data and check what the UI claims. */
export async function rest<T>(stack: StackApi, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  const res = await fetch(`${stack.url}${path}`, {
    method,
    headers: headers ?? {
      apikey: stack.serviceRoleKey,
      authorization: `Bearer ${stack.serviceRoleKey}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : null) as T;
}

export interface ClassRow {
  id: string;
  name: string;
  start_time: string;
  spots_left: number;
}

/** A future group class made for one journey (service role), so journeys never share rows. */
export async function createClass(
  stack: StackApi,
  name: string,
  daysAhead = 2,
  capacity = 10,
  pricePayg: number | null = null,
): Promise<ClassRow> {
  const start = new Date(Date.now() + daysAhead * 24 * 3600_000);
  start.setUTCHours(12, 0, 0, 0);
  const [row] = await rest<ClassRow[]>(stack, 'POST', '/rest/v1/classes?select=id,name,start_time,spots_left', {
    name,
    description: 'Created by an e2e journey',
    duration: 45,
    start_time: start.toISOString(),
    trainer: 'Coach E2E',
    type: 'Group',
    capacity,
    price_payg: pricePayg,
  });
  return row!;
}

/** Books a class as a member through the same RPC the app calls. */
export async function bookAs(stack: StackApi, email: string, classId: string): Promise<{ status: string; booking_id: string | null }> {
  return rest(stack, 'POST', '/rest/v1/rpc/book_class', { p_class_id: classId }, await authHeaders(stack, email));
}

export async function memberByEmail(
  stack: StackApi,
  email: string,
): Promise<{ id: string; membership_tier: string; has_used_trial: boolean; trial_expires_at: string | null } | undefined> {
  const rows = await rest<{ id: string; membership_tier: string; has_used_trial: boolean; trial_expires_at: string | null }[]>(
    stack,
    'GET',
    `/rest/v1/members?email=eq.${encodeURIComponent(email)}&select=id,membership_tier,has_used_trial,trial_expires_at`,
  );
  return rows[0];
}
