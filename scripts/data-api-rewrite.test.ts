import { describe, expect, it } from 'vitest';
import { dataApiRewriteRule, withDataApiRewrite } from './data-api-rewrite';

describe('the Netlify rewrite of the data API (decision 0060)', () => {
  it('proxies /rest/v1 to the project with status 200, before the SPA fallback', () => {
    const out = withDataApiRewrite('/*    /app-shell.html   200\n', 'https://abcd.supabase.co/');
    const rules = out.split('\n').filter((line) => line && !line.startsWith('#'));
    expect(rules).toEqual(['/rest/v1/*  https://abcd.supabase.co/rest/v1/:splat  200', '/*    /app-shell.html   200']);
  });

  it('replaces a rule written by an earlier build rather than adding a second', () => {
    const once = withDataApiRewrite('/*    /app-shell.html   200\n', 'https://old.supabase.co');
    const twice = withDataApiRewrite(once, 'https://new.supabase.co');
    expect(twice.match(/^\/rest\/v1\//gm)).toHaveLength(1);
    expect(twice).toContain('https://new.supabase.co/rest/v1/:splat');
  });

  it('refuses an address that is not an origin, which would rewrite to the wrong path', () => {
    expect(() => dataApiRewriteRule('https://abcd.supabase.co/rest/v1')).toThrow(/origin/);
    expect(() => dataApiRewriteRule('not a url')).toThrow();
  });
});
