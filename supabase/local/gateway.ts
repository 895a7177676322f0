import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AuthService } from './auth/gotrue';
import type { FunctionsHost } from './functions-host';
import { clientIp, CORS_HEADERS, sendJson } from './http-util';
import type { JwtKeys } from './jwt';
import type { Inbox } from './mail/inbox';
import { handleInbox } from './mail/inbox-page';
import { handlePush } from './push/push-page';
import type { LocalPushService } from './push/push-service';
import { handleGoCardless } from './gocardless/gocardless-page';
import type { LocalGoCardlessService } from './gocardless/gocardless-service';
import { handleSms } from './sms/sms-page';
import type { LocalSmsService } from './sms/sms-service';
import type { RealtimeServer } from './realtime/realtime-server';
import type { StorageService } from './storage/storage-api';

export interface GatewayParts {
  jwt: JwtKeys;
  auth: AuthService;
  storage: StorageService;
  realtime: RealtimeServer;
  functions: FunctionsHost;
  inbox: Inbox;
  pushService: LocalPushService;
  /** The local SMS provider (Twilio's Messages API; texts at /sms). */
  smsService: LocalSmsService;
  /** The local GoCardless (its API, the Direct Debit setup page and the test controls at /gocardless). */
  goCardless: LocalGoCardlessService;
  /** PostgREST's URL once it is up; null while starting. */
  postgrestUrl: () => string | null;
  /** Whether every part (database, PostgREST, auth, storage, realtime) is up. */
  isReady: () => boolean;
}

/** Seconds a client is asked to wait while the stack starts (Retry-After). */
const STARTING_RETRY_AFTER_SECONDS = 1;

/** While starting, every request is answered 503 with Retry-After, never half-served. */
function sendStarting(res: ServerResponse): void {
  sendJson(res, 503, { message: 'The local stack is starting' }, { 'retry-after': String(STARTING_RETRY_AFTER_SECONDS) });
}

/** Only the API roles' keys open the API (user JWTs go in Authorization, never in apikey). */
async function validApiKey(jwt: JwtKeys, key: string | null): Promise<boolean> {
  const claims = await jwt.verify(key);
  return claims?.role === 'anon' || claims?.role === 'service_role';
}

function apiKeyOf(req: IncomingMessage, url: URL): string | null {
  const header = req.headers.apikey;
  return (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey');
}

/** Paths hosted Supabase serves without an apikey: email links and public objects. */
function isOpenPath(method: string, path: string): boolean {
  return (
    (method === 'GET' && path === '/auth/v1/verify') ||
    ((method === 'GET' || method === 'HEAD') && path.startsWith('/storage/v1/object/public/')) ||
    path === '/auth/v1/health'
  );
}

function proxyToPostgrest(req: IncomingMessage, res: ServerResponse, target: string, path: string, apikey: string): void {
  // Only the public schema is exposed to callers (the gateway's own schemas are internal).
  for (const h of ['accept-profile', 'content-profile'] as const) {
    const profile = req.headers[h];
    if (profile !== undefined && profile !== 'public') {
      sendJson(res, 406, { code: 'PGRST106', details: null, hint: null, message: 'The schema must be one of the following: public' });
      return;
    }
  }
  const headers = { ...req.headers };
  delete headers.host;
  delete headers.connection;
  if (!headers.authorization) headers.authorization = `Bearer ${apikey}`;
  // As hosted's gateway does: the client's address first, from the connection, never the
  // client's own X-Forwarded-For (SQL reads it from request.headers, e.g. Contact Us's limits).
  headers['x-forwarded-for'] = clientIp(req);
  const upstream = httpRequest(`${target}${path}`, { method: req.method, headers }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) sendJson(res, 502, { message: `PostgREST unavailable: ${error.message}` });
    else res.destroy();
  });
  req.pipe(upstream);
}

/** The HTTP front door on loopback: routes the Supabase API paths, /inbox and the functions. */
export function createGateway(parts: GatewayParts): Server {
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      console.error('[local stack] request failed', error);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal gateway error' });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    // The inbox first, without CORS headers: other origins must not read people's emails.
    const pathname = new URL(req.url ?? '/', 'http://gateway.local').pathname;
    if (method === 'GET' && handleInbox(res, pathname, parts.inbox)) return;
    // The local push service likewise (its endpoints are called by the sender, never by a page).
    if (await handlePush(req, res, pathname, parts.pushService)) return;
    // And the local SMS provider (its API is called by the sender; /sms shows the texts).
    if (await handleSms(req, res, pathname, parts.smsService)) return;
    // And the local GoCardless (its API is called by the functions; /gocardless holds the controls).
    if (await handleGoCardless(req, res, pathname, parts.goCardless)) return;
    for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
    if (method === 'OPTIONS') {
      res.writeHead(204);
      res.end();
      return;
    }
    if (!parts.isReady()) return sendStarting(res);
    const url = new URL(req.url ?? '/', 'http://gateway.local');
    const path = url.pathname;

    const fn = /^\/\.netlify\/functions\/([^/]+)\/?$/.exec(path);
    if (fn) return parts.functions.handle(req, res, fn[1]!, url);
    if (path === '/' || path === '') {
      return sendJson(res, 200, {
        message: 'Local Supabase-compatible stack',
        inbox: '/inbox',
        pushes: '/push',
        texts: '/sms',
        directDebit: '/gocardless',
      });
    }

    const apikey = apiKeyOf(req, url);
    if (!isOpenPath(method, path) && !(await validApiKey(parts.jwt, apikey))) {
      return sendJson(res, 401, {
        message: apikey ? 'Invalid API key' : 'No API key found in request',
        hint: 'Send the anon key in the apikey header.',
      });
    }

    if (path.startsWith('/rest/v1')) {
      const target = parts.postgrestUrl();
      if (!target) return sendStarting(res);
      // An apikey in the query string is the gateway's business, not a PostgREST filter.
      if (url.searchParams.has('apikey')) url.searchParams.delete('apikey');
      return proxyToPostgrest(req, res, target, `${path.slice('/rest/v1'.length) || '/'}${url.search}`, apikey ?? '');
    }
    if (path.startsWith('/auth/v1/')) return parts.auth.handle(req, res, path.slice('/auth/v1'.length), url);
    if (path.startsWith('/storage/v1/')) return parts.storage.handle(req, res, path.slice('/storage/v1'.length));
    sendJson(res, 404, { message: 'Not found' });
  }

  server.on('upgrade', (req: IncomingMessage, socket, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://gateway.local');
    if (!parts.isReady()) {
      socket.end(`HTTP/1.1 503 Service Unavailable\r\nRetry-After: ${STARTING_RETRY_AFTER_SECONDS}\r\nConnection: close\r\n\r\n`);
      return;
    }
    if (url.pathname === '/realtime/v1/websocket') {
      void parts.realtime.handleUpgrade(req, socket, head, url);
      return;
    }
    socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
  });
  return server;
}
