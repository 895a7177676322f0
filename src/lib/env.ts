/**
 * Public runtime configuration. Vite inlines these at build time (vite.config.ts falls back to
 * the local stack's values everywhere except a Netlify build, where they must be set).
 */
function required(name: string, value: string | undefined): string {
  if (!value) throw new Error(`${name} is not set. See .env.example and README.md (Deploy).`);
  return value;
}

const supabaseUrl = required('VITE_SUPABASE_URL', import.meta.env.VITE_SUPABASE_URL as string | undefined).replace(/\/+$/, '');

export const env = {
  supabaseUrl,
  /**
   * PostgREST, as the app reaches it: `/rest/v1` of the site's own origin in a browser (Netlify
   * rewrites it to the project, `npm start` and `npm run dev` proxy it to the local stack), so a
   * data read pays no CORS preflight and no second connection (decision 0060). Outside a browser
   * (the build-time render) the project's own address.
   */
  restUrl: typeof window === 'undefined' ? `${supabaseUrl}/rest/v1` : `${window.location.origin}/rest/v1`,
  /** PostgREST at the project's own address: for calls whose limits count the caller's address (Contact Us). */
  directRestUrl: `${supabaseUrl}/rest/v1`,
  supabaseAnonKey: required('VITE_SUPABASE_ANON_KEY', import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined),
  /** Base URL of the public images bucket; empty means the images shipped in /images. */
  publicImagesUrl: (import.meta.env.VITE_PUBLIC_IMAGES_URL as string | undefined) ?? '',
} as const;
