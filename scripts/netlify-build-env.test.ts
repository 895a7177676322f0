import { afterEach, describe, expect, it, vi } from 'vitest';
import viteConfig, { assertHostedSettings } from '../vite.config';

describe('a Netlify production build', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('fails when the public Supabase settings are missing', () => {
    vi.stubEnv('NETLIFY', 'true');
    vi.stubEnv('VITE_SUPABASE_URL', '');
    vi.stubEnv('VITE_SUPABASE_ANON_KEY', '');
    const build = () =>
      (viteConfig as (env: { mode: string; command: 'build' | 'serve' }) => unknown)({ mode: 'production', command: 'build' });
    expect(build).toThrow(/VITE_SUPABASE_URL and VITE_SUPABASE_ANON_KEY must be set/);
  });

  it('refuses a non-https project URL, accepts the hosted settings', () => {
    expect(() => assertHostedSettings({ VITE_SUPABASE_URL: 'http://127.0.0.1:54321', VITE_SUPABASE_ANON_KEY: 'k' })).toThrow(/https URL/);
    expect(() => assertHostedSettings({ VITE_SUPABASE_URL: 'https://abc.supabase.co', VITE_SUPABASE_ANON_KEY: 'k' })).not.toThrow();
  });

  it('elsewhere falls back to the local stack', () => {
    vi.stubEnv('NETLIFY', '');
    const config = (viteConfig as (env: { mode: string; command: 'build' | 'serve' }) => { define: Record<string, string> })({
      mode: 'production',
      command: 'build',
    });
    expect(JSON.parse(config.define['import.meta.env.VITE_SUPABASE_URL']!)).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
