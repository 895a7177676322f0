/**
 * The public routes built as HTML: what a visitor opens first. Member and admin
 * routes stay client-rendered (they need a session). Each is written to `dist/<route>/index.html`,
 * which Netlify serves for that path before the SPA fallback applies.
 */
export const PRERENDERED_ROUTES = ['/', '/membership', '/schedule', '/signin', '/free-trial', '/admin/login'] as const;

/**
 * Pages read before they are used: their JavaScript starts loading once the page has loaded (hero
 * included), or at the visitor's first touch or key, so it never competes with the first paint. A
 * button pressed before then is pressed again once the app is live (src/app/early-clicks.ts).
 * /schedule too: its heading is its largest paint, and its classes follow as soon as the app
 * starts. Not the sign-in pages: their forms are typed into at once.
 */
export const HYDRATE_AFTER_LOAD: readonly string[] = ['/', '/membership', '/schedule'];

/** The empty SPA shell every other path falls back to (netlify.toml and public/_redirects). */
export const SPA_SHELL = 'app-shell.html';

/** Where a prerendered route's HTML goes inside dist. */
export const prerenderedFile = (route: string): string => (route === '/' ? 'index.html' : `${route.replace(/^\//, '')}/index.html`);
