import { describe, expect, it } from 'vitest';
import { failureFromRedirect, failureOf, readCallbackLink } from './callback-link';

describe('readCallbackLink', () => {
  it("reads the current emails' links: the token hash and the verifyOtp type", () => {
    expect(readCallbackLink('?token_hash=pkce_ab12&type=recovery', '')).toEqual({
      kind: 'token-hash',
      tokenHash: 'pkce_ab12',
      type: 'recovery',
      purpose: 'recovery',
    });
    expect(readCallbackLink('?token_hash=ab12&type=email', '')).toEqual({
      kind: 'token-hash',
      tokenHash: 'ab12',
      type: 'email',
      purpose: 'signup',
    });
    expect(readCallbackLink('?token_hash=ab12&type=email_change', '')).toMatchObject({ type: 'email_change', purpose: 'email_change' });
  });

  it('keeps a missing or unknown type as null (the link is incomplete)', () => {
    expect(readCallbackLink('?token_hash=ab12', '')).toMatchObject({ kind: 'token-hash', type: null, purpose: 'signup' });
    expect(readCallbackLink('?token_hash=ab12&type=sms', '')).toMatchObject({ kind: 'token-hash', type: null });
  });

  it("reads GoTrue's error redirect from the query or the fragment, with the link's purpose", () => {
    const description = 'Email+link+is+invalid+or+has+expired';
    expect(readCallbackLink(`?type=recovery&error=access_denied&error_code=otp_expired&error_description=${description}`, '')).toEqual({
      kind: 'error',
      code: 'otp_expired',
      description: 'Email link is invalid or has expired',
      purpose: 'recovery',
    });
    expect(readCallbackLink('', `#error=access_denied&error_code=otp_expired&error_description=${description}&sb=`)).toMatchObject({
      kind: 'error',
      code: 'otp_expired',
      purpose: 'signup',
    });
  });

  it('leaves a PKCE code (or nothing) to supabase-js', () => {
    expect(readCallbackLink('?code=c0de', '')).toEqual({ kind: 'session', code: 'c0de', purpose: 'signup' });
    expect(readCallbackLink('?type=recovery&code=c0de', '')).toEqual({ kind: 'session', code: 'c0de', purpose: 'recovery' });
    expect(readCallbackLink('', '')).toEqual({ kind: 'session', code: null, purpose: 'signup' });
  });
});

describe('failureOf', () => {
  it("expired or used: GoTrue's otp_expired, and a code that is gone or stale", () => {
    for (const code of ['otp_expired', 'flow_state_expired', 'flow_state_not_found']) {
      expect(failureOf({ code, status: 403 }, 'recovery')).toEqual({ reason: 'expired', purpose: 'recovery' });
    }
    // Older GoTrue: the text alone (error_code=403).
    expect(
      failureFromRedirect({ kind: 'error', code: '403', description: 'Email link is invalid or has expired', purpose: 'signup' }),
    ).toEqual({ reason: 'expired', purpose: 'signup' });
  });

  it('a code without its verifier: another browser asked', () => {
    expect(failureOf({ code: 'pkce_code_verifier_not_found', status: 400 }, 'recovery')).toEqual({
      reason: 'other-browser',
      purpose: 'recovery',
    });
  });

  it('the request never answered, or too many of them, or a refused shape', () => {
    expect(failureOf({ name: 'AuthRetryableFetchError', status: 0, message: 'Failed to fetch' }, 'signup')).toEqual({ reason: 'offline' });
    expect(failureOf({ code: 'over_request_rate_limit', status: 429 }, 'signup')).toEqual({ reason: 'rate-limited' });
    expect(failureOf({ code: 'validation_failed', status: 400 }, 'recovery')).toEqual({ reason: 'incomplete', purpose: 'recovery' });
  });

  it("anything else is the spec's plain failure", () => {
    expect(failureOf({ code: 'user_banned', status: 403 }, 'signup')).toEqual({ reason: 'failed' });
    expect(failureOf({ message: 'boom' }, 'signup')).toEqual({ reason: 'failed' });
  });
});
