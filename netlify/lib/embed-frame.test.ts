import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { headersForPath, parseCsp, readNetlifyHeaderRules } from '../../scripts/netlify-headers';
import { STUDIO } from '../../src/config/studio';
import embedFrame, { config } from '../edge-functions/embed-frame';
import { EMBED_PATH_PATTERN, embedHeaders, framedPolicy, frameOrigins, invalidFrameOrigins } from './embed-frame';

// Who may frame the timetable (decision 0089): the studio's listed sites on /embed/* only; every
// other page still refuses every frame, on Netlify (the edge function) and locally (the same rule).

const rules = readNetlifyHeaderRules();
const PARTNER = 'https://www.stmarys-centre.example';

describe('the framing rule', () => {
  it('names only real origins, and none at all when the studio lists none', () => {
    expect(frameOrigins([`${PARTNER}/`, 'HTTPS://Partner.Example:8443', 'http://127.0.0.1:4173', PARTNER])).toEqual([
      PARTNER,
      'https://partner.example:8443',
      'http://127.0.0.1:4173',
    ]);
    expect(invalidFrameOrigins(['*', 'https://*.example', 'http://partner.example', "'self'", 'https://a.example/path'])).toHaveLength(5);
    expect(framedPolicy("default-src 'self'; frame-ancestors 'none'", ['*', 'http://evil.example'])).toBe(
      "default-src 'self'; frame-ancestors 'none'",
    );
    expect(framedPolicy("default-src 'self'", [PARTNER])).toBe(`default-src 'self'; frame-ancestors ${PARTNER}`);
  });

  it('the studio’s own list is all usable', () => {
    expect(invalidFrameOrigins(STUDIO.embedOrigins)).toEqual([]);
  });

  it('on /embed/*: the site’s policy with the listed sites as frame-ancestors, and no X-Frame-Options', () => {
    const site = headersForPath(rules, '/embed/schedule', { embedOrigins: [PARTNER] });
    const csp = parseCsp(site['Content-Security-Policy']!);
    expect(csp['frame-ancestors']).toEqual([PARTNER]);
    expect(site['X-Frame-Options']).toBeUndefined();
    // Everything else of the site's policy stays: its scripts, its data API, no frames inside it.
    const everywhere = parseCsp(headersForPath(rules, '/schedule')['Content-Security-Policy']!);
    expect({ ...csp, 'frame-ancestors': everywhere['frame-ancestors'] }).toEqual(everywhere);
    expect(embedHeaders({ 'X-Frame-Options': 'DENY', 'X-Content-Type-Options': 'nosniff' }, [])).toEqual({
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('every other page still sends frame-ancestors none and X-Frame-Options DENY, whatever the studio lists', () => {
    for (const path of ['/', '/schedule', '/embed', '/embedded', '/admin/settings', '/assets/embed-abc.js']) {
      const h = headersForPath(rules, path, { embedOrigins: [PARTNER] });
      expect(parseCsp(h['Content-Security-Policy']!)['frame-ancestors'], path).toEqual(["'none'"]);
      expect(h['X-Frame-Options'], path).toBe('DENY');
    }
  });

  it('netlify.toml has no header rule of its own for /embed/* (Netlify would merge it into a second policy)', () => {
    expect(rules.map((r) => r.for)).toEqual(['/*']);
    expect(readFileSync(new URL('../../netlify.toml', import.meta.url), 'utf8')).not.toMatch(/for = "\/embed/);
    expect(
      headersForPath(
        [...rules, { for: '/x', values: { 'Cache-Control': 'no-store' } }, { for: '/*', values: { 'Cache-Control': 'public' } }],
        '/x',
      )['Cache-Control'],
    ).toBe('no-store, public');
  });
});

describe('the edge function on Netlify', () => {
  it('runs on /embed/* and rewrites the page Netlify serves there', async () => {
    expect(config.path).toBe(EMBED_PATH_PATTERN);
    const served = new Response('<main>timetable</main>', {
      status: 200,
      headers: { ...headersForPath(rules, '/schedule'), 'Content-Type': 'text/html' },
    });
    const res = await embedFrame(new Request('https://finerfitness.example/embed/schedule'), { next: () => Promise.resolve(served) });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('<main>timetable</main>');
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-type')).toBe('text/html');
    expect(res.headers.get('content-security-policy')).toBe(
      framedPolicy(headersForPath(rules, '/schedule')['Content-Security-Policy']!, STUDIO.embedOrigins),
    );
  });
});
