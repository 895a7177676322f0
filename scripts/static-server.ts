import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createSecureServer, type Http2SecureServer, type Http2ServerRequest, type Http2ServerResponse } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { gzipSync } from 'node:zlib';
import { headersForPath, readNetlifyHeaderRules } from './netlify-headers';
import { SPA_SHELL } from './prerender-routes';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.webmanifest': 'application/manifest+json',
};
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.svg', '.txt', '.xml', '.webmanifest']);

type Request = IncomingMessage | Http2ServerRequest;
type Response = ServerResponse | Http2ServerResponse;

/** PostgREST's path, which the site forwards to the API (the Netlify rewrite the build writes, decision 0060). */
export const DATA_API_PATH = '/rest/v1/';

/** Headers of one hop that HTTP/2 forbids (RFC 9113 §8.2.2): a proxied response must drop them. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

export interface StaticServerOptions {
  /**
   * Serve HTTP/2 over TLS with this certificate, as Netlify does: every request of a page then
   * shares one connection (the bench's Lighthouse runs; journeys use plain HTTP/1.1).
   */
  tls?: { key: string; cert: string };
}

export interface StaticServer {
  origin: string;
  port: number;
  /**
   * Where /.netlify/functions/* and /rest/v1/* are forwarded (the local stack's gateway, which
   * runs the functions and PostgREST); set once the stack is up.
   */
  setFunctionsTarget(origin: string): void;
  close(): Promise<void>;
}

/**
 * Serves a production build the way Netlify does: files from `dist`, gzip for text, long-lived
 * caching for hashed assets, the prerendered public routes from their folders, the SPA shell for every other path, netlify.toml's
 * headers (its Content-Security-Policy naming the local stack where it names the hosted project,
 * so every journey runs under the deployed policy and a violation is a console error),
 * /.netlify/functions/* forwarded to the local gateway, which runs the repo's functions, and
 * /rest/v1/* forwarded to the gateway's PostgREST, as the build's `_redirects` rewrite does on
 * Netlify (decision 0060).
 * `npm start` (serveBuild), the journeys and the bench all serve the build with it, so what one
 * of them shows about a header, a page or a fallback is what the others see.
 */
export async function startStaticServer(distDir: string, port = 0, options: StaticServerOptions = {}): Promise<StaticServer> {
  const root = normalize(distDir);
  const shellHtml = join(root, SPA_SHELL);
  if (!existsSync(shellHtml)) throw new Error(`No build at ${root}: run the build first.`);
  const gzCache = new Map<string, Buffer>();
  const headerRules = readNetlifyHeaderRules();
  let functionsTarget: string | null = null;

  function serveFile(req: Request, res: Response, file: string, status = 200) {
    const ext = extname(file).toLowerCase();
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const headers: Record<string, string> = {
      ...headersForPath(headerRules, pathname, { supabaseOrigin: functionsTarget ?? undefined }),
      'content-type': TYPES[ext] ?? 'application/octet-stream',
    };
    headers['cache-control'] = file.startsWith(join(root, 'assets') + sep) ? 'public, max-age=31536000, immutable' : 'no-cache';
    const acceptsGzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    if (COMPRESSIBLE.has(ext) && acceptsGzip) {
      let body = gzCache.get(file);
      if (!body) {
        body = gzipSync(readFileSync(file), { level: 9 });
        gzCache.set(file, body);
      }
      res.writeHead(status, { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding', 'content-length': String(body.length) });
      if (req.method === 'HEAD') res.end();
      else res.end(body);
      return;
    }
    res.writeHead(status, { ...headers, 'content-length': String(statSync(file).size) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }

  function proxy(req: Request, res: Response) {
    if (!functionsTarget) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end('API backend not started');
      return;
    }
    const target = new URL(req.url ?? '/', functionsTarget);
    const upstream = httpRequest(
      target,
      {
        method: req.method,
        headers: { ...Object.fromEntries(Object.entries(req.headers).filter(([name]) => !name.startsWith(':'))), host: target.host },
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, Object.fromEntries(Object.entries(up.headers).filter(([name]) => !HOP_BY_HOP.has(name))));
        up.pipe(res);
      },
    );
    upstream.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy error: ${err.message}`);
    });
    req.pipe(upstream);
  }

  const route = (req: Request, res: Response) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname.startsWith('/.netlify/functions/') || url.pathname.startsWith(DATA_API_PATH)) return proxy(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let pathname: string;
    try {
      pathname = decodeURIComponent(url.pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const file = normalize(join(root, pathname));
    if (!file.startsWith(root)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isFile()) return serveFile(req, res, file);
    // A prerendered route: its folder's index.html, as Netlify serves /schedule from schedule/index.html.
    const routeFile = join(file, 'index.html');
    if (existsSync(routeFile)) return serveFile(req, res, routeFile);
    // A missing hashed asset is a real 404; every other path is a client route (the SPA shell).
    if (pathname.startsWith('/assets/')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    serveFile(req, res, shellHtml);
  };
  const handle = (req: Request, res: Response) => {
    try {
      route(req, res);
    } catch (error) {
      // A request never takes the server down: a missing or unreadable file is this request's 500.
      console.error(`[static server] ${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Could not serve this page: see the server output (is the build complete? npm run build).');
    }
  };
  const server: Server | Http2SecureServer = options.tls
    ? createSecureServer({ ...options.tls, allowHTTP1: true }, handle)
    : createServer(handle);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actualPort = (server.address() as AddressInfo).port;
  return {
    origin: `${options.tls ? 'https' : 'http'}://127.0.0.1:${actualPort}`,
    port: actualPort,
    setFunctionsTarget(origin) {
      functionsTarget = origin;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `npm start`'s server (scripts/dev.ts --prod): the build on `port` with netlify.toml's headers,
 * talking to the local stack at `apiOrigin` (its functions, and the API the CSP lets pages reach).
 */
export async function serveBuild(distDir: string, { port, apiOrigin }: { port: number; apiOrigin: string }): Promise<StaticServer> {
  const site = await startStaticServer(distDir, port);
  site.setFunctionsTarget(apiOrigin);
  return site;
}

/** A free loopback TCP port (bound then released; good enough for a single test run). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
