import { describe, expect, it } from 'vitest';
import { ConfigError, readServerEnv } from './server-env';

const base = { SUPABASE_URL: 'https://ref.supabase.co/', SUPABASE_SERVICE_ROLE_KEY: 'service' };

describe('readServerEnv', () => {
  it("takes the site address from SITE_URL, else Netlify's URL, without a trailing slash", () => {
    expect(readServerEnv({ ...base, SITE_URL: 'https://studio.example/', URL: 'https://x.netlify.app' }).siteUrl).toBe(
      'https://studio.example',
    );
    expect(readServerEnv({ ...base, URL: 'https://x.netlify.app' })).toMatchObject({
      siteUrl: 'https://x.netlify.app',
      supabaseUrl: 'https://ref.supabase.co',
    });
  });

  it('falls back to the dev server only against a local stack', () => {
    expect(readServerEnv({ SUPABASE_URL: 'http://127.0.0.1:54321', SUPABASE_SERVICE_ROLE_KEY: 's' }).siteUrl).toBe('http://127.0.0.1:5173');
    expect(() => readServerEnv(base)).toThrow(ConfigError);
  });

  it('refuses to run without the Supabase URL or service key', () => {
    expect(() => readServerEnv({ SITE_URL: 'https://studio.example' })).toThrow(ConfigError);
  });
});
