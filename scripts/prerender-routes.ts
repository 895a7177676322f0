/**
 * The public routes built as HTML (issue 17): what a visitor opens first. Member and admin
 * routes stay client-rendered (they need a session). Each is written to `dist/<route>/index.html`,
 * which Netlify serves for that path before the SPA fallback applies.
 */
export const PRERENDERED_ROUTES = ['/', '/membership', '/schedule', '/signin', '/free-trial', '/admin/login'] as const;

/** The empty SPA shell every other path falls back to (netlify.toml and public/_redirects). */
export const SPA_SHELL = 'app-shell.html';

/** Where a prerendered route's HTML goes inside dist. */
export const prerenderedFile = (route: string): string => (route === '/' ? 'index.html' : `${route.replace(/^\//, '')}/index.html`);
