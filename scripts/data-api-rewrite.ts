/**
 * The Netlify rewrite that serves PostgREST from the site's own origin (decision 0060): the
 * browser asks `/rest/v1/...` of the site, Netlify fetches it from the project (status 200, a
 * proxy), so a member's first data read pays no CORS preflight and no connection to a second
 * host. The project's address is a build setting (VITE_SUPABASE_URL), not in the repo, so the
 * build writes the rule at the top of `dist/_redirects` (read before netlify.toml's rules, and
 * before the SPA fallback `/*` below it). GoTrue, realtime and storage stay at the project's address.
 */
export function dataApiRewriteRule(supabaseUrl: string): string {
  const url = new URL(supabaseUrl);
  if (url.pathname !== '/' || url.search || url.hash) throw new Error(`VITE_SUPABASE_URL must be the project's origin, not ${supabaseUrl}`);
  return `/rest/v1/*  ${url.origin}/rest/v1/:splat  200`;
}

/** `_redirects` with the rewrite first; a rule already there for /rest/v1 is replaced. */
export function withDataApiRewrite(redirects: string, supabaseUrl: string): string {
  const kept = redirects.split('\n').filter((line) => !line.trimStart().startsWith('/rest/v1/'));
  return [
    `# Written by the build (scripts/data-api-rewrite.ts): PostgREST from the site's origin.`,
    dataApiRewriteRule(supabaseUrl),
    ...kept,
  ]
    .join('\n')
    .replace(/\n*$/, '\n');
}
