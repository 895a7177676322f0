import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, loadEnv, type Plugin } from 'vite';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import { paths } from './src/config/paths.ts';
import { STUDIO } from './src/config/studio.ts';
import { APP_ICONS } from './src/app/pwa/studio-mark.ts';
import { withDataApiRewrite } from './scripts/data-api-rewrite.ts';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The page's entry and the module it loads, which make the entry chunk (see build below). */
const APP_ENTRY = /\/(index\.html|src\/main\.tsx)$/;
/**
 * The embeddable timetable (decision 0089): a page of its own (embed/schedule/index.html) whose
 * modules (src/embed) share nothing with the app, so they are never put in the app's shell chunk.
 */
const EMBED_PAGE = 'embed/schedule/index.html';
const EMBED_MODULE = /\/(embed\/schedule\/index\.html|src\/embed\/)/;
/** The installable app's lazy chunks, loaded without preloading their imports (see build below). */
const PWA_CHUNK = /(^|\/)(member-pwa|offline-start)-[\w-]+\.js$/;
/** The chunk of everything the entry imports statically (see build below). */
const SHELL_CHUNK = 'shell';

/**
 * The build's cache buster: a hash of the app's sources (tests aside). A member's saved copy of
 * their data (src/app/pwa/offline-snapshot.ts) is only painted by the build that wrote it.
 */
function sourceHash(): string {
  const hash = createHash('sha256');
  const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !/\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(file.slice(root.length)).update(readFileSync(file));
  return hash.digest('hex').slice(0, 12);
}

/** The local stack's public defaults (.env.example), used everywhere except a Netlify build. */
function localDefaults(): Record<string, string> {
  const text = readFileSync(new URL('./.env.example', import.meta.url), 'utf8');
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m?.[1] && m[2] !== undefined) out[m[1]] = m[2];
  }
  return out;
}

/**
 * A Netlify production build must target the hosted project: without its public settings the
 * site would ship talking to nothing (env.ts only notices in the browser), so the build fails.
 */
export function assertHostedSettings(env: Record<string, string | undefined>): void {
  const missing = ['VITE_SUPABASE_URL', 'VITE_SUPABASE_ANON_KEY'].filter((name) => !env[name]);
  if (missing.length) {
    throw new Error(`Netlify build: ${missing.join(' and ')} must be set (Site settings > Environment variables); see README.md (Deploy).`);
  }
  if (!/^https:\/\//.test(env.VITE_SUPABASE_URL!))
    throw new Error('Netlify build: VITE_SUPABASE_URL must be the https URL of the Supabase project.');
}

/**
 * Asks V8 to compile the shell chunk whole while it streams in, off the main thread: nearly all of
 * it (React DOM, the router, the layout) runs as the page starts, and compiled lazily it held a
 * phone's main thread longest (measured: the task evaluating it, about a third shorter with the
 * hint). Added to the written file: Vite puts its own first line in the chunk after the other hooks.
 */
const compileShellEagerly: Plugin = {
  name: 'compile-shell-eagerly',
  apply: 'build',
  writeBundle(options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk' || chunk.name !== SHELL_CHUNK || !options.dir) continue;
      const file = join(options.dir, chunk.fileName);
      writeFileSync(file, `//# allFunctionsCalledOnLoad\n${readFileSync(file, 'utf8')}`);
    }
  },
};

/** The modules a stored session needs before a signed-in screen can ask for its first data. */
const SESSION_MODULES = /\/src\/lib\/(supabase|react-query)\.ts$/;

/**
 * Preloads the Supabase client and TanStack Query from index.html (the SPA shell every signed-in
 * page starts from), so they download beside the shell instead of once it has run and asked for
 * them: one step less before a member's or an admin's first data. The prerendered
 * pages that start their app after loading drop every preload (scripts/prerender.ts), so a
 * visitor's home page and timetable download neither.
 */
const preloadSessionModules: Plugin = {
  name: 'preload-session-modules',
  apply: 'build',
  transformIndexHtml: {
    order: 'post',
    handler(html, { bundle, path }) {
      // The embeddable timetable signs nobody in.
      if (!bundle || EMBED_MODULE.test(path)) return html;
      const chunks = Object.values(bundle).filter((c) => c.type === 'chunk');
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const files = new Set<string>();
      const add = (file: string) => {
        const chunk = byFile.get(file);
        if (!chunk || files.has(file)) return;
        files.add(file);
        chunk.imports.forEach(add);
      };
      for (const chunk of chunks) if (chunk.facadeModuleId && SESSION_MODULES.test(chunk.facadeModuleId)) add(chunk.fileName);
      if (files.size < 2) throw new Error('preload-session-modules: the Supabase client or TanStack Query chunk was not found');
      // The shell and what it imports are loaded (or preloaded) by index.html already.
      return [...files]
        .filter((file) => !html.includes(file))
        .map((file) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
          injectTo: 'head' as const,
        }));
    },
  },
};

/** index.html names the studio as studio.config.json does (`%STUDIO_NAME%`), like the rest of the site. */
const studioIdentityHtml: Plugin = {
  name: 'studio-identity-html',
  transformIndexHtml: (html) => html.replaceAll('%STUDIO_NAME%', STUDIO.name),
};

/**
 * The installable app (decision 0019): the web app manifest and the service worker
 * (vite-plugin-pwa, Workbox's generateSW), in the client build only.
 */

/** The site's colours: the header's ink (index.html's theme-color) and the page's white. */
const THEME_COLOR = '#0f172a';
const BACKGROUND_COLOR = '#ffffff';

/** Where the worker file and the manifest are served (the root: the worker's scope is the whole site). */
const SERVICE_WORKER_URL = '/sw.js';
const MANIFEST_URL = '/manifest.webmanifest';
/** The worker's push and notification-click handlers (public/push-handler.js). */
const PUSH_HANDLER_URL = '/push-handler.js';
/** The member's daily pages painted from their last copy (public/member-copy.js, decision 0112). */
const MEMBER_COPY_URL = '/member-copy.js';

/**
 * The empty SPA shell (scripts/prerender-routes.ts SPA_SHELL). Vite writes it as dist/index.html
 * and the prerender copies it byte for byte to app-shell.html before writing / over index.html,
 * so the worker precaches it under that name with the revision Vite's index.html had.
 */
const SPA_SHELL_URL = 'app-shell.html';

const icon = (file: string, size: number, purpose: 'any' | 'maskable') => ({
  src: `/icons/${file}`,
  sizes: `${size}x${size}`,
  type: 'image/png',
  purpose,
});

const pwaOptions: Partial<VitePWAOptions> = {
  // A new deployment's worker takes over at once (skipWaiting, clientsClaim) and the open page
  // reloads at its next change of screen (src/app/pwa/register-service-worker.ts): nobody stays on
  // an old version, and nobody loses a form half filled in.
  registerType: 'autoUpdate',
  // Registered from the member's bundle (register-service-worker.ts), never by an inline script:
  // the CSP allows none, and a visitor's page never starts a worker.
  injectRegister: false,
  filename: SERVICE_WORKER_URL.slice(1),
  manifestFilename: MANIFEST_URL.slice(1),
  // The plugin links the manifest in index.html, which every page is built from; index.html links
  // the touch icon iOS uses for Add to Home Screen.
  manifest: {
    id: '/',
    name: STUDIO.name,
    short_name: STUDIO.name,
    description: `${STUDIO.name}: book and cancel your classes, see your bookings and timetable.`,
    lang: 'en-GB',
    dir: 'ltr',
    start_url: paths.dashboard,
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    categories: ['health', 'fitness', 'sports'],
    icons: APP_ICONS.filter((i) => i.file !== 'apple-touch-icon.png').map((i) => icon(i.file, i.size, i.maskable ? 'maskable' : 'any')),
    shortcuts: [
      { name: 'Book a class', short_name: 'Book', url: paths.mySchedule, icons: [icon('icon-192.png', 192, 'any')] },
      { name: 'My bookings', short_name: 'Bookings', url: paths.myBookings, icons: [icon('icon-192.png', 192, 'any')] },
    ],
  },
  workbox: {
    // The app's code, styles and icons. Not the home page's photos (a member's pages never show
    // them) nor the prerendered pages (written after this, and fetched fresh whenever online).
    globPatterns: ['index.html', 'assets/**/*.{js,css}', 'icons/apple-touch-icon.png', 'favicon.svg'],
    manifestTransforms: [
      (entries) => ({
        manifest: entries.map((entry) => (entry.url === 'index.html' ? { ...entry, url: SPA_SHELL_URL } : entry)),
        warnings: [],
      }),
    ],
    // Hashed files never change; old deployments' entries go when the new worker activates.
    dontCacheBustURLsMatching: /^assets\//,
    cleanupOutdatedCaches: true,
    skipWaiting: true,
    clientsClaim: true,
    // No cache-first shell for navigations: every page comes from the network while there is one
    // (its own HTML, prerendered or not, and the current deployment's headers), and only when
    // there is none (or it has not answered in 4 s) the precached shell, which renders any route.
    navigateFallback: null,
    runtimeCaching: [
      {
        urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/.netlify/'),
        handler: 'NetworkFirst',
        options: {
          networkTimeoutSeconds: 4,
          plugins: [
            {
              // Pages are never stored at run time: an old page would name assets that a newer
              // deployment's precache no longer holds. The fallback is the precached shell.
              cacheWillUpdate: () => Promise.resolve(null),
              // Serialised into the worker: self-contained, no imports. The precache stores the
              // shell under its URL plus a revision parameter, hence ignoreSearch.
              handlerDidError: async () => (await caches.match('/app-shell.html', { ignoreSearch: true })) ?? Response.error(),
            },
          ],
        },
      },
    ],
    // PostgREST (the site's /rest/v1, decision 0060) matches none of these routes, so the worker
    // passes it to the network untouched: the member's data is kept by the page
    // (offline-snapshot.ts), per member, not by the worker.
    // Web Push (decision 0023): the worker shows pushes and opens their page on a click, with a
    // plain script of the site (public/push-handler.js) rather than an inline one. The member's
    // daily pages (decision 0112) answer before Workbox's routes, which are registered after these.
    importScripts: [PUSH_HANDLER_URL, MEMBER_COPY_URL],
  },
};

/**
 * Puts the rewrite of PostgREST to the project at the top of the build's `_redirects`
 * (scripts/data-api-rewrite.ts, decision 0060), once Vite has copied public/_redirects.
 */
const dataApiRewrite = (supabaseUrl: string): Plugin => {
  let outDir = 'dist';
  return {
    name: 'data-api-rewrite',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const file = resolve(root, outDir, '_redirects');
      writeFileSync(file, withDataApiRewrite(readFileSync(file, 'utf8'), supabaseUrl));
    },
  };
};

export default defineConfig(({ mode, command, isSsrBuild }) => {
  const env = { ...loadEnv(mode, root, ''), ...process.env };
  if (env.NETLIFY === 'true' && command === 'build') assertHostedSettings(env);
  // On Netlify the hosted project's values must be set; elsewhere the local stack is the backend.
  const defaults = env.NETLIFY === 'true' ? {} : localDefaults();
  const pick = (name: string) => env[name] || defaults[name] || '';
  const gateway = `http://127.0.0.1:${pick('SUPABASE_LOCAL_PORT') || '54321'}`;
  // Locally the API is the gateway, wherever SUPABASE_LOCAL_PORT puts it.
  const supabaseUrl = env.VITE_SUPABASE_URL || (env.NETLIFY === 'true' ? '' : gateway);
  const dataProxy = {
    '/.netlify/functions': gateway,
    '/rest/v1': { target: supabaseUrl || gateway, changeOrigin: true },
  };

  return {
    // The installable app (decision 0019): the manifest and the service worker, in the
    // client build only (the server bundle renders pages; dev and tests run without a worker).
    plugins: [
      react(),
      tailwindcss(),
      compileShellEagerly,
      preloadSessionModules,
      studioIdentityHtml,
      command === 'build' && !isSsrBuild && VitePWA(pwaOptions),
      command === 'build' && !isSsrBuild && !!supabaseUrl && dataApiRewrite(supabaseUrl),
    ],
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    define: {
      'import.meta.env.VITE_SUPABASE_URL': JSON.stringify(supabaseUrl),
      'import.meta.env.VITE_SUPABASE_ANON_KEY': JSON.stringify(pick('VITE_SUPABASE_ANON_KEY')),
      'import.meta.env.VITE_PUBLIC_IMAGES_URL': JSON.stringify(env.VITE_PUBLIC_IMAGES_URL ?? ''),
      'import.meta.env.VITE_CACHE_BUSTER': JSON.stringify(command === 'build' ? sourceHash() : 'dev'),
    },
    server: {
      host: '127.0.0.1',
      port: Number(pick('SITE_PORT') || 5173),
      strictPort: true,
      // Same relative URLs as on Netlify: the local gateway runs the repo's functions, and
      // PostgREST is the site's own /rest/v1 (decision 0060).
      proxy: dataProxy,
    },
    preview: {
      host: '127.0.0.1',
      port: Number(pick('SITE_PORT') || 5173),
      strictPort: true,
      proxy: dataProxy,
    },
    // Every browser that runs es2022 but Safari 16 preloads modules itself; the polyfill is 0.5 KB
    // gzip on every page, and without it Safari 16 only loads chunks a little later.
    build: {
      // BUNDLE_SOURCEMAP=1 writes maps to see what a chunk holds (never deployed: Netlify builds without it).
      sourcemap: process.env.BUNDLE_SOURCEMAP === '1',
      target: 'es2022',
      // The installable app's chunks load on their own, without a list of what they
      // import: on a visitor's pages that list would be bytes of the entry and the shell for code
      // they never load (src/app/pwa: a member's page, or a member's phone starting offline).
      modulePreload: { polyfill: false, resolveDependencies: (file, deps) => (PWA_CHUNK.test(file) ? [] : deps) },
      // What the entry imports statically is one chunk, the app's shell. Otherwise rolldown puts
      // each module the entry shares with a lazy screen in a chunk of its own: two dozen chunks of
      // 0.1–0.5 KB on /. index.html and main.tsx stay out of it: an entry chunk made of
      // imports only is inlined by Vite as several module scripts, and the prerendered pages'
      // loader starts one (scripts/prerender.ts refuses a page with more).
      rolldownOptions: {
        // The app's page and the embeddable timetable's (the server bundle has its own entry).
        input: isSsrBuild ? undefined : { index: resolve(root, 'index.html'), embed: resolve(root, EMBED_PAGE) },
        output: {
          codeSplitting: {
            groups: [
              { name: SHELL_CHUNK, tags: ['$initial'], test: (id: string) => !APP_ENTRY.test(id) && !EMBED_MODULE.test(id) },
              // TanStack Query as one chunk: split by what each screen imports it was six chunks and
              // 12 KB gzip on /schedule; whole it is 10.4 KB.
              { name: 'react-query', test: /node_modules\/@tanstack\/(query-core|react-query)\// },
            ],
          },
        },
      },
    },
  };
});
