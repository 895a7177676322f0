import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersForPath, parseCsp, readNetlifyHeaderRules } from './netlify-headers';
import { serveBuild, type StaticServer } from './static-server';
import { frameOrigins } from '../netlify/lib/embed-frame';
import { STUDIO } from '../src/config/studio';

// `npm start` serves the build as Netlify does, netlify.toml's headers included: a policy that
// would break production (a CSP that blocks a script, a page refused in a frame) shows locally.

const API = 'http://127.0.0.1:54321';
let dist: string;
let site: StaticServer;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'static-server-'));
  writeFileSync(join(dist, 'app-shell.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(join(dist, 'index.html'), '<!doctype html><h1>Home</h1>');
  mkdirSync(join(dist, 'schedule'));
  writeFileSync(join(dist, 'schedule', 'index.html'), '<!doctype html><h1>Class Schedule</h1>');
  mkdirSync(join(dist, 'embed', 'schedule'), { recursive: true });
  writeFileSync(join(dist, 'embed', 'schedule', 'index.html'), '<!doctype html><main id="embed-root"></main>');
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'index-abc.js'), 'export {};');
  // What npm start runs once the local stack is up (scripts/dev.ts --prod).
  site = await serveBuild(dist, { port: 0, apiOrigin: API });
});

afterAll(async () => {
  await site.close();
  rmSync(dist, { recursive: true, force: true });
});

describe('the server of npm start', () => {
  const expected = (path: string) => headersForPath(readNetlifyHeaderRules(), path, { supabaseOrigin: API });

  for (const [path, shows] of [
    ['/', 'Home'],
    ['/schedule', 'Class Schedule'],
    ['/dashboard', '<div id="root">'],
  ] as const) {
    it(`answers ${path} with netlify.toml's Content-Security-Policy and framing rule`, async () => {
      const res = await fetch(`${site.origin}${path}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain(shows);
      const csp = res.headers.get('content-security-policy');
      expect(csp, 'the deployed policy, with the local stack where it names the hosted project').toBe(
        expected(path)['Content-Security-Policy'],
      );
      expect(parseCsp(csp ?? '')['frame-ancestors']).toEqual(["'none'"]);
      expect(parseCsp(csp ?? '')['connect-src']).toEqual(["'self'", API, API.replace(/^http/, 'ws')]);
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe(expected(path)['Referrer-Policy']);
      expect(res.headers.get('permissions-policy')).toBe(expected(path)['Permissions-Policy']);
    });
  }

  it('answers /embed/schedule as its edge function does on Netlify: the studio’s sites may frame it (decision 0089)', async () => {
    const res = await fetch(`${site.origin}/embed/schedule?coach=Coach%20Alex`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('embed-root');
    const csp = res.headers.get('content-security-policy');
    expect(csp).toBe(expected('/embed/schedule')['Content-Security-Policy']);
    expect(parseCsp(csp ?? '')['frame-ancestors']).toEqual(
      frameOrigins(STUDIO.embedOrigins).length ? frameOrigins(STUDIO.embedOrigins) : ["'none'"],
    );
    expect(res.headers.get('x-frame-options')).toBeNull();
  });

  it('sends the same headers with the app’s scripts, cached for ever', async () => {
    const res = await fetch(`${site.origin}/assets/index-abc.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${site.origin}/assets/missing.js`)).status).toBe(404);
  });
});

describe('the data API from the site’s own origin (decision 0060)', () => {
  let api: Server;
  let proxied: StaticServer;
  const seen: { method?: string; url?: string; apikey?: string; authorization?: string; body: string }[] = [];

  beforeAll(async () => {
    // A stand-in for the gateway's PostgREST: it echoes what reached it.
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        seen.push({
          method: req.method,
          url: req.url,
          apikey: req.headers.apikey as string,
          authorization: req.headers.authorization,
          body,
        });
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-range': '0-0/1' });
        res.end(JSON.stringify([{ ok: true }]));
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', () => resolve()));
    proxied = await serveBuild(dist, { port: 0, apiOrigin: `http://127.0.0.1:${(api.address() as AddressInfo).port}` });
  });

  afterAll(async () => {
    await proxied.close();
    await new Promise<void>((resolve) => api.close(() => resolve()));
  });

  it('forwards /rest/v1 reads and writes, query, headers and body, and answers with the API’s status and headers', async () => {
    const read = await fetch(`${proxied.origin}/rest/v1/members?select=id&email=eq.a%40b.c`, {
      headers: { apikey: 'anon', authorization: 'Bearer token' },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('content-range')).toBe('0-0/1');
    expect(await read.json()).toEqual([{ ok: true }]);
    const write = await fetch(`${proxied.origin}/rest/v1/rpc/book_class`, {
      method: 'POST',
      headers: { apikey: 'anon', authorization: 'Bearer token', 'content-type': 'application/json' },
      body: JSON.stringify({ p_class_id: 'x' }),
    });
    expect(write.status).toBe(201);
    expect(seen).toEqual([
      { method: 'GET', url: '/rest/v1/members?select=id&email=eq.a%40b.c', apikey: 'anon', authorization: 'Bearer token', body: '' },
      { method: 'POST', url: '/rest/v1/rpc/book_class', apikey: 'anon', authorization: 'Bearer token', body: '{"p_class_id":"x"}' },
    ]);
  });

  it('forwards nothing else: auth stays at the API’s own address, and other paths are the site’s', async () => {
    seen.length = 0;
    expect((await fetch(`${proxied.origin}/auth/v1/token`, { method: 'POST' })).status).toBe(405);
    expect(await (await fetch(`${proxied.origin}/rest/v2/x`)).text()).toContain('<div id="root">');
    expect(seen).toEqual([]);
  });
});
