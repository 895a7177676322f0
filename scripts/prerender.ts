/**
 * Prerenders the public routes into dist after `vite build`, so their first paint needs
 * no JavaScript:
 *
 *   vite build && vite build --ssr src/entry-server.tsx --outDir dist-ssr && tsx scripts/prerender.ts
 *
 * For each route of PRERENDERED_ROUTES the server bundle renders the same React tree the browser
 * hydrates (src/main.tsx); the page gets the built CSS inline (one small file, so it is the
 * critical CSS) and React's resource hints (the hero's preload) in its <head>. dist/index.html
 * as Vite wrote it, with an empty root, is kept as the SPA shell for every other path.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import Beasties from 'beasties';
import { WebSocket as NodeWebSocket } from 'ws';
import { LOADER_SOURCE } from './hydrate-loader';
import { HYDRATE_AFTER_LOAD, PRERENDERED_ROUTES, prerenderedFile, SPA_SHELL } from './prerender-routes';

const root = resolve(import.meta.dirname, '..');

/** The stylesheet link Vite put in the shell, replaced by the stylesheet itself. */
const STYLESHEET = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/;
/** Resource hints React renders ahead of the tree (e.g. the hero image's preload); they belong in <head>. */
const LEADING_HINTS = /^(?:<link [^>]*\/>)+/;

const ENTRY_SCRIPT = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
const MODULE_PRELOADS = /\s*<link rel="modulepreload"[^>]*>/g;

/**
 * A page whose app starts after its first paint: the entry script and its preloads become the
 * loader, inline (a request of its own would sit on the way to the first paint; netlify.toml's
 * CSP allows exactly this script by its hash). The loader brings the whole stylesheet with the
 * app, as the page inlines only the CSS its own HTML uses (criticalCssOnly).
 */
export function hydrateAfterLoad(html: string, stylesheet: string): string {
  const entries = [...html.matchAll(new RegExp(ENTRY_SCRIPT, 'g'))].map((match) => match[1]);
  const entry = entries[0];
  if (!entry) throw new Error('the page has no module entry script');
  // The loader starts one module. Vite writes several when the entry chunk is only imports (it
  // then inlines it); vite.config.ts keeps src/main.tsx in the entry chunk so that never happens.
  if (entries.length > 1) throw new Error(`the page has ${entries.length} module entry scripts; the loader starts one`);
  return html
    .replace(MODULE_PRELOADS, '')
    .replace(ENTRY_SCRIPT, () => `<script data-entry="${entry}" data-stylesheet="${stylesheet}">${LOADER_SOURCE}</script>`);
}

/**
 * The page's inline CSS cut to the rules its HTML uses (media queries, states such as :hover and
 * the keyframes they name included). The whole sheet is 10 KB gzip: with it a page's HTML went
 * past the 14.6 KB a new connection delivers in its first round trip (TCP's initial window of ten
 * segments), and the first paint waited one round trip more (/schedule 14.6 KB).
 */
export async function criticalCssOnly(html: string): Promise<string> {
  const beasties = new Beasties({
    external: false,
    reduceInlineStyles: true,
    keyframes: 'critical',
    // Beasties strips a functional pseudo-class with its argument before matching, which empties
    // Tailwind's :where()/:is() selectors (space-y-*, divide-y, group-hover, preflight's [hidden]).
    // They are few and small: keep them all.
    allowRules: [/:(?:where|is)\(/],
    logLevel: 'warn',
  });
  return beasties.process(html);
}

export function pageHtml(shell: string, rendered: string, css: string): string {
  const hints = LEADING_HINTS.exec(rendered)?.[0] ?? '';
  const body = rendered.slice(hints.length);
  if (!shell.includes('<div id="root"></div>')) throw new Error('the shell has no empty <div id="root">');
  return shell
    .replace(STYLESHEET, () => `<style>${css}</style>`)
    .replace('</head>', () => `${hints}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
}

/**
 * The same page with no JavaScript (its scripts and module preloads removed): the limit a
 * prerendered page is measured against (bench: each page's LCP over its static copy's).
 */
export function staticCopy(html: string): string {
  return html.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/<link rel="modulepreload"[^>]*>/g, '');
}

/** Writes the prerendered routes into `dist` with the server bundle built into `serverDir`. */
export async function prerender(dist: string, serverDir: string, log: (line: string) => void = console.log): Promise<void> {
  const serverEntry = join(serverDir, 'entry-server.js');
  // supabase-js builds its realtime client on import; Node 20 has no global WebSocket (22 does).
  globalThis.WebSocket ??= NodeWebSocket as unknown as typeof WebSocket;
  const { render } = (await import(pathToFileURL(serverEntry).href)) as { render: (url: string) => Promise<string> };
  const shellFile = join(dist, 'index.html');
  const shell = readFileSync(shellFile, 'utf8');
  const cssHref = STYLESHEET.exec(shell)?.[1];
  if (!cssHref) throw new Error('dist/index.html links no stylesheet');
  const css = readFileSync(join(dist, cssHref), 'utf8');
  copyFileSync(shellFile, join(dist, SPA_SHELL));
  for (const route of PRERENDERED_ROUTES) {
    const page = pageHtml(shell, await render(route), css);
    const html = HYDRATE_AFTER_LOAD.includes(route) ? hydrateAfterLoad(await criticalCssOnly(page), cssHref) : page;
    if (html.includes('Unexpected Application Error')) throw new Error(`${route} rendered the router's error screen`);
    const file = join(dist, prerenderedFile(route));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
    log(`prerendered ${route} → ${prerenderedFile(route)} (${Math.round(html.length / 1024)} KB)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { dist: { type: 'string', default: join(root, 'dist') }, server: { type: 'string', default: join(root, 'dist-ssr') } },
  });
  await prerender(resolve(values.dist), resolve(values.server));
}
