import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAuthConfig } from './auth-config';
import { fillAuthTemplate } from './auth-mailer';
import { codeChallengeOf, readCodeChallenge, verifierMatches } from './pkce';
import { GOTRUE_BURST, HourlyBudget, TokenBucketLimiter } from './rate-limits';
import { RedirectPolicy } from './redirect-policy';

describe('RedirectPolicy (GoTrue IsRedirectURLValid)', () => {
  const policy = new RedirectPolicy('https://studio.example', ['http://localhost:5173/auth/callback', 'https://*.studio-preview.app/**']);

  it.each([
    ['https://studio.example/auth/callback?type=recovery', true],
    ['http://studio.example/auth/callback', false], // scheme must match
    ['https://studio.example:8443/x', false], // port must match off loopback
    ['http://localhost:5173/auth/callback', true],
    ['http://localhost:5173/elsewhere', false],
    ['http://127.0.0.1:4999/auth/callback', true], // loopback IPs are always allowed
    ['http://10.0.0.1/auth/callback', false],
    ['http://2130706433/x', false], // decimal IPs never
    ['https://pr-12.studio-preview.app/auth/callback', true],
    ['https://a.b.studio-preview.app/auth/callback', false], // * stays inside one label
    ['https://evil.example/?https://studio.example', false],
    ['javascript:alert(1)', false],
  ])('%s → %s', (url, allowed) => {
    expect(policy.isAllowed(url)).toBe(allowed);
  });

  it('falls back to the site URL', () => {
    expect(policy.resolve('https://evil.example/')).toBe('https://studio.example');
    expect(policy.resolve(null, 'https://studio.example/auth/callback')).toBe('https://studio.example/auth/callback');
  });
});

describe('TokenBucketLimiter (tollbooth as GoTrue configures it)', () => {
  it('allows a burst of 30 per key, then refills at the 5-minute rate', () => {
    let now = 0;
    const limiter = new TokenBucketLimiter(150, GOTRUE_BURST, () => now);
    for (let i = 0; i < 30; i += 1) expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
    expect(limiter.take('b')).toBe(true);
    now += 2000; // 150 per 300 s = one every 2 s
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
  });
});

describe('HourlyBudget', () => {
  it('spends at most the limit in any rolling hour', () => {
    let now = 0;
    const budget = new HourlyBudget(2, () => now);
    expect([budget.spend(), budget.spend(), budget.spend()]).toEqual([true, true, false]);
    now += 3_600_001;
    expect(budget.spend()).toBe(true);
  });
});

describe('PKCE challenges', () => {
  const verifier = 'a'.repeat(43) + '-._~';

  it('reads s256 and plain, refuses half or malformed parameters', () => {
    expect(readCodeChallenge({})).toBeNull();
    const s256 = readCodeChallenge({ code_challenge: codeChallengeOf(verifier, 's256'), code_challenge_method: 'S256' })!;
    expect(verifierMatches(verifier, s256)).toBe(true);
    expect(verifierMatches(`${verifier}x`, s256)).toBe(false);
    expect(() => readCodeChallenge({ code_challenge: codeChallengeOf(verifier, 's256') })).toThrow(/requires code_challenge_method/);
    expect(() => readCodeChallenge({ code_challenge: 'short', code_challenge_method: 's256' })).toThrow(/between 43 and 128/);
  });
});

describe('auth settings from supabase/config.toml', () => {
  it('reads the redirect allow list, the rate limits and secure email change', () => {
    const config = readAuthConfig();
    expect(config.secureEmailChange).toBe(true);
    expect(config.additionalRedirectUrls).toContain('http://localhost:5173/auth/callback');
    expect(config.rateLimits).toEqual({
      emailSentPerHour: 30,
      signInSignUpsPer5Minutes: 30,
      tokenRefreshPer5Minutes: 150,
      tokenVerificationsPer5Minutes: 30,
    });
  });

  it('turns secure email change off only when double_confirm_changes says so (on by default, as hosted)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'auth-config-'));
    try {
      const read = (toml: string) => (
        writeFileSync(join(dir, 'config.toml'), toml),
        readAuthConfig(join(dir, 'config.toml')).secureEmailChange
      );
      expect(read('[auth]\n')).toBe(true);
      expect(read('[auth.email]\ndouble_confirm_changes = false\n')).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("fillAuthTemplate (GoTrue's template variables)", () => {
  const vars = {
    confirmationUrl:
      'http://127.0.0.1:54321/auth/v1/verify?token=pkce_ab12&type=recovery&redirect_to=http%3A%2F%2F127.0.0.1%3A5173%2Fauth%2Fcallback%3Ftype%3Drecovery',
    email: 'mia@example.com',
    siteUrl: 'http://127.0.0.1:5173',
  };

  it('{{ .TokenHash }} is the token of {{ .ConfirmationURL }}, {{ .RedirectTo }} its redirect_to, as GoTrue builds them', () => {
    const html = fillAuthTemplate(
      '<a href="{{ .SiteURL }}/auth/callback?token_hash={{ .TokenHash }}&amp;type=recovery">{{.RedirectTo}}</a>',
      vars,
    );
    expect(html).toBe(
      '<a href="http://127.0.0.1:5173/auth/callback?token_hash=pkce_ab12&amp;type=recovery">http://127.0.0.1:5173/auth/callback?type=recovery</a>',
    );
  });

  it('fails loudly on a variable the local auth does not fill (the 6-digit {{ .Token }})', () => {
    expect(() => fillAuthTemplate('Your code: {{ .Token }}', vars)).toThrow('{{ .Token }}');
  });
});
