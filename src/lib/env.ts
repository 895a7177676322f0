/**
 * Public runtime configuration. Vite inlines these at build time (vite.config.ts falls back to
 * the local stack's values everywhere except a Netlify build, where they must be set).
 */
function required(name: string, value: string | undefined): string {
  if (!value) throw new Error(`${name} is not set. See .env.example and README.md (Deploy).`);
  return value;
}

export const env = {
  supabaseUrl: required('VITE_SUPABASE_URL', import.meta.env.VITE_SUPABASE_URL as string | undefined),
  supabaseAnonKey: required('VITE_SUPABASE_ANON_KEY', import.meta.env.VITE_SUPABASE_ANON_KEY as string | undefined),
  /** Base URL of the public images bucket; empty means the images shipped in /images. */
  publicImagesUrl: (import.meta.env.VITE_PUBLIC_IMAGES_URL as string | undefined) ?? '',
} as const;
