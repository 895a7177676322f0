import type { FunctionName, FunctionRequest } from '../../src/lib/functions-contract';
import { ConfigError } from './server-env';

/** JSON responses and request parsing shared by the functions. Errors are `{ error, message }`. */

export function json(body: unknown, status = 200, headers: HeadersInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function errorJson(status: number, error: string, message: string): Response {
  return json({ error, message }, status);
}

/** Thrown inside a handler to answer with a JSON error; `handle` turns it into the response. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function methodNotAllowed(allowed: string): Response {
  return new Response(JSON.stringify({ error: 'method_not_allowed', message: `Use ${allowed}` }), {
    status: 405,
    headers: { 'content-type': 'application/json; charset=utf-8', allow: allowed },
  });
}

/** The request body as a JSON object, or a 400. */
export async function readJsonObject(req: Request): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await req.json();
  } catch {
    throw new HttpError(400, 'invalid_json', 'The request body must be JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_json', 'The request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** A request body as it arrives: the contract's field names, their values for the handler to check. */
type Unchecked<T> = { [K in keyof T]?: unknown };

/** The body of a request to the browser-called function `F` (src/lib/functions-contract.ts), or a 400. */
export function readRequest<F extends FunctionName>(req: Request): Promise<Unchecked<FunctionRequest<F>>> {
  return readJsonObject(req);
}

/** The session token from `Authorization: Bearer <token>`, or a 401. */
export function bearerToken(req: Request): string {
  const match = /^Bearer\s+(\S+)$/i.exec(req.headers.get('authorization') ?? '');
  if (!match?.[1]) throw new HttpError(401, 'not_authenticated', 'Please sign in first.');
  return match[1];
}

/**
 * Runs a handler, turning HttpError into its JSON answer, a missing configuration into a logged
 * 503 and anything else into a logged 500 (whose message is the caller's generic failure text).
 */
export async function handle(name: string, fallbackMessage: string, run: () => Promise<Response>): Promise<Response> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof HttpError) return errorJson(error.status, error.code, error.message);
    if (error instanceof ConfigError) {
      console.error(`[${name}] ${error.message}`);
      return errorJson(503, 'payments_unavailable', fallbackMessage);
    }
    console.error(`[${name}] unexpected error`, error);
    return errorJson(500, 'internal_error', fallbackMessage);
  }
}
