import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersForPath, parseCsp, readNetlifyHeaderRules } from './netlify-headers';
import { serveBuild, type StaticServer } from './static-server';

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

  it('sends the same headers with the app’s scripts, cached for ever', async () => {
    const res = await fetch(`${site.origin}/assets/index-abc.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${site.origin}/assets/missing.js`)).status).toBe(404);
  });
});
