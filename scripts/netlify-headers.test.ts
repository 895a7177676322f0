import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOADER_CSP_HASH } from './hydrate-loader';
import { headersForPath, parseCsp, readNetlifyHeaderRules } from './netlify-headers';

const rules = readNetlifyHeaderRules();

describe("netlify.toml's security headers", () => {
  const headers = headersForPath(rules, '/schedule');
  const csp = parseCsp(headers['Content-Security-Policy'] ?? '');

  it('sends nosniff, a referrer policy, a permissions policy and no framing on every path', () => {
    for (const path of ['/', '/auth/callback', '/assets/index-abc.js']) {
      const h = headersForPath(rules, path);
      expect(h['X-Content-Type-Options']).toBe('nosniff');
      expect(h['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
      expect(h['Permissions-Policy']).toMatch(/camera=\(\)/);
      expect(parseCsp(h['Content-Security-Policy'] ?? '')['frame-ancestors']).toEqual(["'none'"]);
    }
  });

  it('runs only its own scripts (and the prerendered pages’ inline loader, by its hash) and talks only to itself and the Supabase project', () => {
    // A change to scripts/hydrate-loader.ts changes its hash: netlify.toml must follow, or the
    // deployed CSP blocks the loader and those pages never start their app.
    expect(csp['script-src']).toEqual(["'self'", LOADER_CSP_HASH]);
    expect(csp['connect-src']).toEqual(["'self'", 'https://*.supabase.co', 'wss://*.supabase.co']);
    expect(csp['img-src']).toContain('https://*.supabase.co');
    expect(csp['object-src']).toEqual(["'none'"]);
    expect(csp['base-uri']).toEqual(["'self'"]);
  });

  it('the page itself needs no inline script (Vite emits module scripts)', () => {
    const html = readFileSync(new URL('../index.html', import.meta.url), 'utf8');
    const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].filter(
      ([, attrs, body]) => !/\bsrc=/.test(attrs!) || body!.trim(),
    );
    expect(inline).toEqual([]);
  });

  it('puts the local stack where the hosted project is named, for journeys under the same policy', () => {
    const local = parseCsp(headersForPath(rules, '/', { supabaseOrigin: 'http://127.0.0.1:54321/' })['Content-Security-Policy']!);
    expect(local['connect-src']).toEqual(["'self'", 'http://127.0.0.1:54321', 'ws://127.0.0.1:54321']);
    expect(local['img-src']).toContain('http://127.0.0.1:54321');
    expect(local['script-src']).toEqual(["'self'", LOADER_CSP_HASH]);
  });
});
