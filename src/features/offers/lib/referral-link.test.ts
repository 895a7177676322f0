import { afterEach, describe, expect, it } from 'vitest';
import { forgetReferral, referralLink, rememberReferral, storedReferral } from './referral-link';

afterEach(() => forgetReferral());

describe('referral links', () => {
  it('keeps a well-formed ?ref= code, upper case, until it is claimed', () => {
    expect(rememberReferral('?ref=ab12cd34')).toBe('AB12CD34');
    expect(storedReferral()).toBe('AB12CD34');
    forgetReferral();
    expect(storedReferral()).toBeNull();
  });

  it('ignores a missing or malformed code and keeps the one it had', () => {
    rememberReferral('?ref=AB12CD34');
    expect(rememberReferral('')).toBeNull();
    expect(rememberReferral('?ref=<script>')).toBeNull();
    expect(rememberReferral('?ref=SHORT')).toBeNull();
    expect(storedReferral()).toBe('AB12CD34');
  });

  it('links to the membership page', () => {
    expect(referralLink('https://studio.example', 'AB12CD34')).toBe('https://studio.example/membership?ref=AB12CD34');
  });
});
