import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, loadEnv, type Plugin } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
/** The page's entry and the module it loads, which make the entry chunk (see build below). */
const APP_ENTRY = /\/(index\.html|src\/main\.tsx)$/;
/** The chunk of everything the entry imports statically (see build below). */
const SHELL_CHUNK = 'shell';

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
  if (!/^https:\/\//.test(env.VITE_SUPABASE_URL!)) throw new Error('Netlify build: VITE_SUPABASE_URL must be the https URL of the Supabase project.');
}

/**
 * Asks V8 to compile the shell chunk whole while it streams in, off the main thread: nearly all of
 * it (React DOM, the router, the layout) runs as the page starts, and compiled lazily it held a
 * phone's main thread longest (issue 17: the task evaluating it, about a third shorter with the
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

export default defineConfig(({ mode, command }) => {
  const env = { ...loadEnv(mode, root, ''), ...process.env };
  if (env.NETLIFY === 'true' && command === 'build') assertHostedSettings(env);
  // On Netlify the hosted project's values must be set; elsewhere the local stack is the backend.
  const defaults = env.NETLIFY === 'true' ? {} : localDefaults();
  const pick = (name: string) => env[name] || defaults[name] || '';
  const gateway = `http://127.0.0.1:${pick('SUPABASE_LOCAL_PORT') || '54321'}`;
  // Locally the API is the gateway, wherever SUPABASE_LOCAL_PORT puts it.
  const supabaseUrl = env.VITE_SUPABASE_URL || (env.NETLIFY === 'true' ? '' : gateway);

  return {
    plugins: [react(), tailwindcss(), compileShellEagerly],
    resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
    define: {
      'import.meta.env.VITE_SUPABASE_URL': JSON.stringify(supabaseUrl),
      'import.meta.env.VITE_SUPABASE_ANON_KEY': JSON.stringify(pick('VITE_SUPABASE_ANON_KEY')),
      'import.meta.env.VITE_PUBLIC_IMAGES_URL': JSON.stringify(env.VITE_PUBLIC_IMAGES_URL ?? ''),
    },
    server: {
      host: '127.0.0.1',
      port: Number(pick('SITE_PORT') || 5173),
      strictPort: true,
      // Same relative URL as on Netlify: the local gateway runs the repo's functions.
      proxy: { '/.netlify/functions': gateway },
    },
    preview: {
      host: '127.0.0.1',
      port: Number(pick('SITE_PORT') || 5173),
      strictPort: true,
      proxy: { '/.netlify/functions': gateway },
    },
    // Every browser that runs es2022 but Safari 16 preloads modules itself; the polyfill is 0.5 KB
    // gzip on every page (issue 17), and without it Safari 16 only loads chunks a little later.
    build: {
      sourcemap: false,
      target: 'es2022',
      modulePreload: { polyfill: false },
      // What the entry imports statically is one chunk, the app's shell. Otherwise rolldown puts
      // each module the entry shares with a lazy screen in a chunk of its own: two dozen chunks of
      // 0.1–0.5 KB on / (issue 17). index.html and main.tsx stay out of it: an entry chunk made of
      // imports only is inlined by Vite as several module scripts, and the prerendered pages'
      // loader starts one (scripts/prerender.ts refuses a page with more).
      rolldownOptions: { output: { codeSplitting: { groups: [{ name: SHELL_CHUNK, tags: ['$initial'], test: (id: string) => !APP_ENTRY.test(id) }] } } },
    },
  };
});
