/**
 * Who may frame the embeddable timetable (decision 0089). Every page of the site refuses framing
 * (netlify.toml: `frame-ancestors 'none'` and `X-Frame-Options: DENY` on /*); /embed/* alone names
 * the sites the studio lists in studio.config.json (`embedOrigins`). Netlify cannot take a header
 * off a path that /* covers (headers of overlapping rules are merged, and two policies both apply,
 * so 'none' would still win), so the edge function netlify/edge-functions/embed-frame.ts rewrites
 * the response of /embed/*; the local server (scripts/netlify-headers.ts) applies the same
 * function, so `npm start`, the journeys and the bench see what Netlify serves.
 */

/** The paths the edge function runs on (its `config.path`), in Netlify's pattern syntax. */
export const EMBED_PATH_PATTERN = '/embed/*';

/** Whether a request path is one of the embeddable pages. */
export const isEmbedPath = (pathname: string): boolean => pathname.startsWith('/embed/');

/**
 * An origin a studio may list: https with a host (and an optional port), no path; plain http only
 * for this machine (a local test page). Anything else is left out, never loosened into a wildcard.
 */
const ORIGIN = /^(https:\/\/[a-z0-9-]+(\.[a-z0-9-]+)+|http:\/\/(127\.0\.0\.1|localhost))(:\d{1,5})?$/;

/** The listed origins that are origins (lower case, no trailing slash); the rest are dropped. */
export function frameOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map((o) => o.trim().toLowerCase().replace(/\/+$/, '')).filter((o) => ORIGIN.test(o)))];
}

/** The origins a studio listed that are not usable, to say so where it is configured. */
export const invalidFrameOrigins = (origins: readonly string[]): string[] =>
  origins.filter((o) => !ORIGIN.test(o.trim().toLowerCase().replace(/\/+$/, '')));

/** The site's policy with `frame-ancestors` naming only these origins ('none' when there are none). */
export function framedPolicy(policy: string, origins: readonly string[]): string {
  const allowed = frameOrigins(origins);
  const ancestors = `frame-ancestors ${allowed.length ? allowed.join(' ') : "'none'"}`;
  const directives = policy
    .split(';')
    .map((d) => d.trim())
    .filter(Boolean);
  const replaced = directives.map((d) => (/^frame-ancestors\b/i.test(d) ? ancestors : d));
  if (!directives.some((d) => /^frame-ancestors\b/i.test(d))) replaced.push(ancestors);
  return replaced.join('; ');
}

/**
 * The headers of an embeddable page: the site's, with its CSP's `frame-ancestors` naming the
 * studio's origins and no X-Frame-Options (which has no list of sites: `frame-ancestors` replaces it).
 */
export function embedHeaders(headers: Record<string, string>, origins: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (lower === 'x-frame-options') continue;
    out[name] = lower === 'content-security-policy' ? framedPolicy(value, origins) : value;
  }
  return out;
}
