import { describe, expect, it } from 'vitest';
import { SignInLimiter } from './sign-in-limiter';

describe('SignInLimiter', () => {
  it('blocks an email+IP after the limit of failures within the window, then forgets them', () => {
    let now = 0;
    const limiter = new SignInLimiter(3, 1000, () => now);
    for (let i = 0; i < 3; i++) {
      expect(limiter.isBlocked('A@x.test', '1')).toBe(false);
      limiter.recordFailure('a@x.test', '1');
    }
    expect(limiter.isBlocked('a@x.test', '1')).toBe(true);
    expect(limiter.isBlocked('a@x.test', '2')).toBe(false);
    now = 1500;
    expect(limiter.isBlocked('a@x.test', '1')).toBe(false);
  });

  it('a successful sign-in clears the count', () => {
    const limiter = new SignInLimiter(2, 1000);
    limiter.recordFailure('b@x.test', '1');
    limiter.reset('b@x.test', '1');
    limiter.recordFailure('b@x.test', '1');
    expect(limiter.isBlocked('b@x.test', '1')).toBe(false);
  });
});
