import type { FunctionAnswer, FunctionFailure, FunctionName, FunctionRequest } from './functions-contract';
import { loadSupabase } from './supabase-loader';

/** A function's refusal (a non-2xx answer): its status and code, and the server's message when it sent one. */
export class FunctionError extends Error {
  readonly code: string;
  /** What the server said, for people to read as is; null when the answer carried no message. */
  readonly serverMessage: string | null;

  constructor(
    readonly fn: FunctionName,
    readonly status: number,
    failure: Partial<FunctionFailure>,
  ) {
    super(failure.message ?? `${fn} answered ${status}`);
    this.name = 'FunctionError';
    this.code = failure.error ?? 'unknown';
    this.serverMessage = failure.message ?? null;
  }
}

/** No session in this browser, so nothing was sent: the same refusal the function gives a request without one. */
export class NotSignedInError extends FunctionError {
  constructor(fn: FunctionName) {
    super(fn, 401, { error: 'not_authenticated', message: 'Please sign in first.' });
    this.name = 'NotSignedInError';
  }
}

function failureOf(body: unknown): Partial<FunctionFailure> {
  if (typeof body !== 'object' || body === null) return {};
  const { error, message } = body as Record<string, unknown>;
  return { error: typeof error === 'string' ? error : undefined, message: typeof message === 'string' ? message : undefined };
}

/**
 * POSTs to one of our Netlify functions (lib/functions-contract.ts) as the signed-in member: their
 * access token goes along so the function checks who asks, never trusting the body for that.
 * Resolves to the function's answer; throws NotSignedInError without a session, FunctionError on
 * a non-2xx answer, and the fetch's own error when the network fails.
 */
export async function callFunction<F extends FunctionName>(fn: F, body: FunctionRequest<F>): Promise<FunctionAnswer<F>> {
  const { data } = await (await loadSupabase()).auth.getSession();
  if (!data.session) throw new NotSignedInError(fn);
  const res = await fetch(`/.netlify/functions/${fn}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${data.session.access_token}` },
    body: JSON.stringify(body),
  });
  const answer: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new FunctionError(fn, res.status, failureOf(answer));
  if (answer === null) throw new FunctionError(fn, res.status, { error: 'invalid_answer' });
  // The handler builds this answer from the same contract (a JSON body has no type of its own).
  return answer as FunctionAnswer<F>;
}

/**
 * POSTs to a function anyone may call (a visitor buying a gift voucher): the member's access
 * token goes along when there is a session, so the function knows a member from a visitor.
 */
export async function callOpenFunction<F extends FunctionName>(fn: F, body: FunctionRequest<F>): Promise<FunctionAnswer<F>> {
  const { data } = await (await loadSupabase()).auth.getSession();
  const res = await fetch(`/.netlify/functions/${fn}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(data.session ? { Authorization: `Bearer ${data.session.access_token}` } : {}),
    },
    body: JSON.stringify(body),
  });
  const answer: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new FunctionError(fn, res.status, failureOf(answer));
  if (answer === null) throw new FunctionError(fn, res.status, { error: 'invalid_answer' });
  return answer as FunctionAnswer<F>;
}
