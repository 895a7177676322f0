import type { Database } from './database.types';
import { env } from './env';
import { loadSupabase, needsSupabaseNow, supabaseLoaded } from './supabase-loader';

type PublicFunction = 'class_schedule' | 'class_schedule_summary';
type Args<F extends PublicFunction> = Database['public']['Functions'][F]['Args'];

type ErrorBody = { code?: string; message?: string; details?: string | null; hint?: string | null };

/** PostgREST's refusal (`{ code, message, details, hint }`) with the HTTP status, as supabase-js's PostgrestError carries it. */
export class PublicApiError extends Error {
  readonly code?: string;
  readonly details?: string | null;
  readonly hint?: string | null;
  constructor(
    body: ErrorBody,
    readonly status: number,
    statusText: string,
  ) {
    super(body.message ?? statusText);
    this.name = 'PublicApiError';
    this.code = body.code;
    this.details = body.details;
    this.hint = body.hint;
  }
}
type Answer = { data: unknown; error: (Error & ErrorBody) | null };

/**
 * A function anyone may call, called as a visitor (the anon key) with one fetch: what a guest's
 * /schedule reads with, without supabase-js (auth, realtime) or even postgrest-js, whose 4.5 KB
 * gzip would buy nothing for two POSTs. The answer is validated by the caller's schema.
 */
async function visitorRpc(fn: PublicFunction, args: object): Promise<Answer> {
  const response = await fetch(`${env.restUrl}/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: env.supabaseAnonKey, Authorization: `Bearer ${env.supabaseAnonKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  const body: unknown = await response.json().catch(() => null);
  if (response.ok) return { data: body, error: null };
  const refusal = typeof body === 'object' && body !== null ? (body as ErrorBody) : {};
  return { data: null, error: new PublicApiError(refusal, response.status, response.statusText) };
}

/**
 * Calls a function anyone may call: as the member once a session exists (or supabase-js is loaded
 * anyway), so the answer carries their facts; else as a visitor with a plain fetch.
 */
export async function publicRpc<F extends PublicFunction>(fn: F, args: Args<F>): Promise<Answer> {
  if (needsSupabaseNow() || supabaseLoaded()) return (await loadSupabase()).rpc(fn, args);
  return visitorRpc(fn, args);
}
