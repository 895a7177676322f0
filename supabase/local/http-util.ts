import type { IncomingMessage, ServerResponse } from 'node:http';

/** Largest request body the gateway buffers (uploads above the bucket limit are refused anyway). */
export const MAX_BODY_BYTES = 60 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

/**
 * Reads a request body of at most `limit` bytes. A larger one is read to its end and dropped
 * before BodyTooLargeError is thrown: stopping mid-body would reset the connection, and the
 * client would see a network error instead of the answer (and lose its keep-alive socket).
 */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  if (size > limit) throw new BodyTooLargeError(`Body larger than ${limit} bytes`);
  return Buffer.concat(chunks);
}

export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const body = await readBody(req, 1024 * 1024);
  if (body.length === 0) return {};
  try {
    const parsed: unknown = JSON.parse(body.toString('utf8'));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function bearerToken(req: IncomingMessage): string | null {
  const header = req.headers.authorization;
  if (!header) return null;
  const m = /^Bearer\s+(.+)$/i.exec(header);
  return m?.[1]?.trim() ?? null;
}

export function clientIp(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/** CORS as the hosted API answers the SPA: any origin, the headers supabase-js sends. */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS',
  'access-control-allow-headers':
    'authorization, apikey, content-type, x-client-info, x-supabase-api-version, accept-profile, content-profile, prefer, range, range-unit, x-upsert, cache-control, accept, x-retry-count',
  'access-control-expose-headers': 'content-range, content-location, x-supabase-api-version, location',
  'access-control-max-age': '86400',
};
