/**
 * The response headers netlify.toml's [[headers]] rules give a path, so a local server
 * (scripts/static-server.ts: `npm start`, the journeys, the bench) can serve the build under the
 * same Content-Security-Policy as Netlify does.
 *
 *   const rules = readNetlifyHeaderRules();
 *   res.writeHead(200, { ...headersForPath(rules, '/schedule', { supabaseOrigin: stack.url }) });
 *
 * `supabaseOrigin` puts the backend the build talks to (the local stack) where the policy names
 * the hosted project (*.supabase.co), the one difference between the two.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'smol-toml';
import { embedHeaders, isEmbedPath } from '../netlify/lib/embed-frame';
import { STUDIO } from '../src/config/studio';

export interface HeaderRule {
  for: string;
  values: Record<string, string>;
}

const netlifyToml = fileURLToPath(new URL('../netlify.toml', import.meta.url));

/** The hosted project's sources as netlify.toml's CSP names them. */
export const HOSTED_SUPABASE_SOURCES = { https: 'https://*.supabase.co', wss: 'wss://*.supabase.co' } as const;

export function readNetlifyHeaderRules(path = netlifyToml): HeaderRule[] {
  const toml = parse(readFileSync(path, 'utf8')) as { headers?: Array<{ for: string; values?: Record<string, unknown> }> };
  return (toml.headers ?? []).map((rule) => ({
    for: rule.for,
    values: Object.fromEntries(Object.entries(rule.values ?? {}).map(([k, v]) => [k, String(v)])),
  }));
}

/** Netlify's path patterns: exact, or `*` standing for the rest (a splat). */
function matches(pattern: string, pathname: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(pathname);
}

/**
 * Every matching rule's headers with the backend origin substituted; a header two matching rules
 * both set gets both values, joined by a comma, as Netlify's CDN merges them (so a second CSP for a
 * narrower path would add a policy, not replace one: decision 0089). The embeddable pages then get
 * what their edge function (netlify/edge-functions/embed-frame.ts) makes of them.
 */
export function headersForPath(
  rules: HeaderRule[],
  pathname: string,
  options: { supabaseOrigin?: string; embedOrigins?: readonly string[] } = {},
): Record<string, string> {
  let headers: Record<string, string> = {};
  for (const rule of rules) {
    if (!matches(rule.for, pathname)) continue;
    for (const [name, value] of Object.entries(rule.values)) headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  if (isEmbedPath(pathname)) headers = embedHeaders(headers, options.embedOrigins ?? STUDIO.embedOrigins);
  const origin = options.supabaseOrigin?.replace(/\/$/, '');
  if (origin) {
    const socket = origin.replace(/^http/, 'ws');
    for (const [name, value] of Object.entries(headers)) {
      headers[name] = value.split(HOSTED_SUPABASE_SOURCES.https).join(origin).split(HOSTED_SUPABASE_SOURCES.wss).join(socket);
    }
  }
  return headers;
}

/** A CSP as directive → sources. */
export function parseCsp(policy: string): Record<string, string[]> {
  return Object.fromEntries(
    policy
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...sources]) => [name!.toLowerCase(), sources]),
  );
}
